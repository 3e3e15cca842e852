// What the GUI's logic tests share: a fake worker that records requests and answers like the
// real one, and a fixture that draws the real page in an ImGui context with its font atlas built
// and no renderer, with frames driven by simulated mouse and keys (io.MousePos / io.MouseDown in
// 1.86). Lessons are named by id ("split/openmp"), as they stay when lessons are inserted.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "catalog.h"
#include "machine_code.h"
#include "model/progress_book.h"
#include "panels/panels.h"
#include "panels/ui.h"
#include "probe.h"
#include "report.h"
#include "serve.h"
#include "worker/controller.h"

namespace app_test {

using namespace lessons;
using namespace lessons::app;

// The lesson of `registry` named `name` (a label, an id, an old number); throws, failing the
// test, when there is none.
inline const Lesson& LessonNamed(const Registry& registry, std::string_view name) {
    const Lesson* lesson = registry.FindLesson(name);
    if (!lesson) throw std::runtime_error("no lesson " + std::string(name));
    return *lesson;
}

// Parameter values as a request carries them: numbers, or strings for choices.
inline ParamValues ParamsOf(const Json& j) {
    ParamValues out;
    for (const auto& [name, v] : j.items())
        out.Set(name, v.is_string() ? ParamValue::Choice(v.get<std::string>())
                                    : ParamValue::Number(v.get<uint64_t>()));
    return out;
}

// Says hello in `protocol`, answers list and info at once, and runs only when `answer_runs`
// is set.
class FakeWorker : public WorkerLink {
public:
    FakeWorker(std::vector<Json>* log, const Registry* registry, int protocol)
        : m_log(log), m_registry(registry), m_protocol(protocol) {}
    bool Start(std::string*) override {
        m_inbox.push_back({{"type", "hello"}, {"protocol", m_protocol}});
        return true;
    }
    bool Running() const override { return true; }
    bool Send(const Json& r) override {
        m_log->push_back(r);
        const std::string op = r["op"];
        if (op == "list") {
            Json lessons = Json::array();
            for (const Lesson& l : m_registry->lessons())
                lessons.push_back(LessonToJson(
                    *m_registry, l,
                    l.kind == StepKind::kCpu || has_gpu ? Message() : Message::Of(kNoGpuFound)));
            m_inbox.push_back({{"id", r["id"]}, {"type", "list"}, {"lessons", lessons}});
        } else if (op == "info") {
            m_inbox.push_back(
                {{"id", r["id"]},
                 {"type", "info"},
                 {"device",
                  has_gpu ? Json{{"available", true},
                                 {"free_memory_bytes", gpu_free},
                                 {"name", "Fake H100"},
                                 {"sm_count", 132},
                                 {"max_threads_per_sm", 2048},
                                 {"clock_khz", 1980000},
                                 {"ceilings",
                                  {{"read_gbps", 3150},
                                   {"copy_gbps", 3000},
                                   {"h2d_gbps", 55},
                                   {"d2h_gbps", 50}}}}
                          : Json{{"available", false},
                                 {"reason", Message::Of(kNoGpuFound).text},
                                 {"reason_message", MessageIdJson(Message::Of(kNoGpuFound))}}},
                 {"host", {{"cpu", "Fake CPU"}}}});
        } else if ((op == "compile" || (op == "run" && r.contains("kernel"))) && answer_runs) {
            // A student's kernel: an error on each line holding "BAD", else compiled; a run
            // (where the lesson runs here) gives a result marked yours, `yours_ms` long.
            const std::string source = r["kernel"].get<std::string>();
            Json diagnostics = Json::array();
            std::istringstream lines(source);
            std::string text;
            for (int line = 1; std::getline(lines, text); ++line)
                if (text.find("BAD") != std::string::npos)
                    diagnostics.push_back({{"file", "kernel.cu"},
                                           {"line", line},
                                           {"column", 1},
                                           {"severity", "error"},
                                           {"message", "identifier \"BAD\" is undefined"}});
            // "ELSEWHERE": an error in the check appended to the student's file, at its line 1.
            if (source.find("ELSEWHERE") != std::string::npos)
                diagnostics.push_back({{"file", "exercise-check"},
                                       {"line", 1},
                                       {"column", 1},
                                       {"severity", "error"},
                                       {"message", "the kernel's signature does not match"}});
            const bool ok = diagnostics.empty();
            if (!drop_compile_answer)  // a reply the GUI's reader dropped never arrives
                m_inbox.push_back(CompileReply(r, ok, "line 1: identifier \"BAD\" is undefined",
                                               diagnostics, ok ? ".visible .entry k()" : ""));
            std::string status = ok ? "ok" : "error";
            if (!ok) {
                m_inbox.push_back({{"id", r["id"]},
                                   {"type", "error"},
                                   {"error", "your kernel did not compile"},
                                   {"fatal", false}});
            } else if (op == "run" && !has_gpu) {
                m_inbox.push_back({{"id", r["id"]},
                                   {"type", "error"},
                                   {"error", "cannot run here: no GPU here"},
                                   {"fatal", false}});
                status = "unavailable";
            } else if (op == "run" && hang_kernels) {
                m_held.push_back(r["id"]);  // an endless loop: no answer
                return true;
            } else if (op == "run") {
                Json result = Result(r, r["params"]);
                result["median_ms"] = yours_ms;
                result["yours"] = true;
                m_inbox.push_back({{"id", r["id"]}, {"type", "result"}, {"result", result}});
            }
            m_inbox.push_back({{"id", r["id"]}, {"type", "done"}, {"status", status}});
            return true;
        } else if (op == "check" && answer_runs) {
            // "Check my kernel": compiled (an error on a line holding "BAD"); without a GPU,
            // not checked; with one, three cases, the last failed where the source holds
            // "WRONG"; an endless kernel ("hang_kernels") answers no case.
            const std::string source = r["kernel"].get<std::string>();
            const bool ok = source.find("BAD") == std::string::npos;
            m_inbox.push_back(
                CompileReply(r, ok, "identifier \"BAD\" is undefined", Json::array(), ""));
            std::string status = "ok";
            if (!ok) {
                m_inbox.push_back({{"id", r["id"]},
                                   {"type", "error"},
                                   {"error", "your kernel did not compile"},
                                   {"fatal", false}});
                status = "error";
            } else if (!has_gpu) {
                m_inbox.push_back(
                    {{"id", r["id"]},
                     {"type", "check"},
                     {"lesson", r["lesson"]},
                     {"check",
                      {{"checked", false},
                       {"passed", false},
                       {"not_checked", "compiled, not checked: needs a GPU (no GPU here)"},
                       {"not_checked_zh", "已编译，未检查：需要 GPU（没有 GPU）"},
                       {"speed",
                        {{"judged", false},
                         {"passed", false},
                         {"target_ratio", 1.1},
                         {"why_not", "needs a GPU (no GPU here)"},
                         {"why_not_zh", "需要 GPU（没有 GPU）"}}}}}});
                status = "unavailable";
            } else if (hang_kernels) {
                m_held.push_back(r["id"]);
                return true;
            } else {
                const bool wrong = source.find("WRONG") != std::string::npos;
                const char* names[] = {"1 x 1", "33 x 37", "8193 x 8195"};
                for (int i = 0; i < 3; ++i) {
                    const bool passed = i < 2 || !wrong;
                    m_inbox.push_back({{"id", r["id"]},
                                       {"type", "case"},
                                       {"case",
                                        {{"name", names[i]},
                                         {"name_zh", std::string(names[i]) + "（中）"},
                                         {"passed", passed},
                                         {"ran", true},
                                         {"message", passed ? "" : "y[8192] = 0, expected 8195"},
                                         {"message_zh", ""},
                                         {"ms", 0.5}}},
                                       {"point", i},
                                       {"points", 3}});
                }
                // The speed target: judged for a right kernel only, "SLOW" twice the step's.
                Json speed = {{"judged", false},
                              {"passed", false},
                              {"yours_ms", nullptr},
                              {"step_ms", nullptr},
                              {"ratio", nullptr},
                              {"target_ratio", 1.1},
                              {"why_not", "a hidden case failed"},
                              {"why_not_zh", "有隐藏用例失败"}};
                if (!wrong) {
                    const bool slow = source.find("SLOW") != std::string::npos;
                    for (const char* of : {"step", "yours"})
                        m_inbox.push_back({{"id", r["id"]}, {"type", "timing"}, {"of", of}});
                    speed = {{"judged", true},
                             {"passed", !slow},
                             {"yours_ms", slow ? 2.0 : 1.05},
                             {"step_ms", 1.0},
                             {"ratio", slow ? 2.0 : 1.05},
                             {"target_ratio", 1.1}};
                    // "TURNS": a worker that times the two in turn gives its verdict and words.
                    if (source.find("TURNS") != std::string::npos) {
                        speed["verdict"] = slow ? "slower" : "within-noise";
                        speed["text"] = slow ? "speed: yours 2.000 ms, the step's 1.000 ms: NOT "
                                               "met -- slower by 100%"
                                             : "speed: yours 1.050 ms, the step's 1.000 ms: met "
                                               "-- within noise of the target";
                        speed["text_zh"] = slow ? "速度：你的 2.000 ms：未达到 —— 慢了 100%"
                                                : "速度：你的 1.050 ms：达到 —— "
                                                  "与目标的差别在噪声之内";
                    }
                }
                // The step's change (lessons/kernel_change.h): missing where the source holds
                // "START" (a right kernel that is still the starting file: no pass).
                const bool start = source.find("START") != std::string::npos;
                const Json change = {
                    {"judged", true},
                    {"present", !start},
                    {"basis", "families"},
                    {"required", Json::array({"shfl"})},
                    {"found", start ? Json::array() : Json::array({"shfl"})},
                    {"missing", start ? Json::array({"shfl"}) : Json::array()},
                    {"text", start ? "the step's change: warp shuffles (shfl.sync) -- NOT found\n"
                                   : "the step's change: warp shuffles (shfl.sync) -- found\n"},
                    {"text_zh", start ? "这一步的改动：warp 洗牌（shfl.sync） —— 未找到\n"
                                      : "这一步的改动：warp 洗牌（shfl.sync） —— 已找到\n"}};
                m_inbox.push_back({{"id", r["id"]},
                                   {"type", "check"},
                                   {"lesson", r["lesson"]},
                                   {"check",
                                    {{"checked", true},
                                     {"right", !wrong},
                                     {"passed", !wrong && !start},
                                     {"cases_total", 3},
                                     {"cases_failed", wrong ? 1 : 0},
                                     {"speed", speed},
                                     {"change", change}}}});
                status = wrong || start ? "wrong" : "ok";
            }
            m_inbox.push_back({{"id", r["id"]}, {"type", "done"}, {"status", status}});
            return true;
        } else if (op == "tune" && answer_runs) {
            // Each thread count (or block size) from 1 (or 64) up, the smallest fastest; then
            // the tuning, kept where `tuning_saved_to` says.
            const Lesson* lesson = m_registry->FindLesson(r["lesson"].get<std::string>());
            const std::string over = lesson->FindParam("threads") ? "threads" : "block";
            const int points = 3;
            for (int i = 0; i < points; ++i) {
                Json params = r["params"];
                params[over] = (over == "threads" ? 1 : 64) << i;
                Json result = Result(r, params);
                result["median_ms"] = 10.0 * (i + 1);
                m_inbox.push_back({{"id", r["id"]},
                                   {"type", "result"},
                                   {"result", result},
                                   {"point", i},
                                   {"points", points}});
            }
            Json values = {{over, over == "threads" ? 1 : 64}};
            m_inbox.push_back({{"id", r["id"]},
                               {"type", "tuning"},
                               {"tuning",
                                {{"id", lesson->id},
                                 {"machine", "CPU: Fake CPU"},
                                 {"values", values},
                                 {"at", Json::object()},
                                 {"best_ms", 10.0},
                                 {"default_ms", 20.0},
                                 {"when", "2026-11-27T10:00:00Z"},
                                 {"all_right", true},
                                 {"saved_to", tuning_saved_to}}}});
            m_inbox.push_back({{"id", r["id"]}, {"type", "done"}, {"status", "ok"}});
            return true;
        } else if (op == "run" && answer_runs) {
            m_inbox.push_back(
                {{"id", r["id"]}, {"type", "result"}, {"result", Result(r, r["params"])}});
        } else if (op == "compare" && answer_runs) {
            // As the real worker: a result for each lesson, with the parameters it has, pooled
            // over the trials, its place in "lessons" as its point.
            const int points = static_cast<int>(r["lessons"].size());
            for (int i = 0; i < points; ++i) {
                const Json one = {{"lesson", r["lessons"][size_t(i)]}};
                const Lesson* lesson = m_registry->FindLesson(one["lesson"].get<std::string>());
                Json params = Json::object();
                for (const ParamSpec& p : lesson->params)
                    if (r["params"].contains(p.name)) params[p.name] = r["params"][p.name];
                Json result = Result(one, params);
                result["trials"] = r.value("trials", 3);
                m_inbox.push_back({{"id", r["id"]},
                                   {"type", "result"},
                                   {"result", result},
                                   {"point", i},
                                   {"points", points}});
            }
        } else if (op == "sweep" && answer_runs && r["values"].is_array()) {
            for (const Json& v : r["values"]) {
                Json params = r["params"];
                params[r["over"].get<std::string>()] = v;
                m_inbox.push_back(
                    {{"id", r["id"]}, {"type", "result"}, {"result", Result(r, params)}});
            }
        } else if (op == "attributes" && attributes_fail) {  // as the worker when the query fails
            m_inbox.push_back({{"id", r["id"]},
                               {"type", "error"},
                               {"error", "cannot read the kernel's attributes"},
                               {"fatal", false}});
            m_inbox.push_back({{"id", r["id"]}, {"type", "done"}, {"status", "error"}});
        } else if (op == "attributes") {
            const Json attributes = {
                {"kernel", "k"},
                {"registers", 20},
                {"static_smem_bytes", 0},
                {"max_threads_per_block", 1024},
                // A tiled step (chapter 5) has a tile configuration instead of a block size.
                {"active_blocks_per_sm",
                 r["params"].contains("block") && r["params"]["block"].is_number_integer()
                     ? 2048 / r["params"]["block"].get<int>()
                     : 1},
                {"occupancy", 1.0}};
            m_inbox.push_back({{"id", r["id"]},
                               {"type", "attributes"},
                               {"lesson", r["lesson"]},
                               {"params", r["params"]},
                               {"attributes", attributes}});
        } else if (op == "profile") {
            // As the real worker without a GPU: the recorded counters (a made-up pair), or
            // none for lessons of chapter 2 (an error, as when nothing is recorded).
            const std::string lesson = r["lesson"].get<std::string>();
            if (lesson.rfind("basics/", 0) == 0) {
                m_inbox.push_back({{"id", r["id"]},
                                   {"type", "error"},
                                   {"error", "no counters are recorded for chapter basics"},
                                   {"fatal", false}});
                m_inbox.push_back({{"id", r["id"]}, {"type", "done"}, {"status", "unavailable"}});
                return true;
            }
            if (lesson == "gemv/thread-per-row") {  // a hostile one: every field of a wrong type
                m_inbox.push_back(
                    {{"id", r["id"]},
                     {"type", "profile"},
                     {"profile",
                      {{"device", 3},
                       {"recorded_at", Json::array()},
                       {"source", false},
                       {"live_failure", 7},
                       {"kernels",
                        Json::array({{{"id", "x"},
                                      {"name", 5},
                                      {"counters", {{"a", {{"value", "t"}, {"unit", 5}}}}}}})}}}});
                m_inbox.push_back({{"id", r["id"]}, {"type", "done"}, {"status", "ok"}});
                return true;
            }
            Json counters = {
                {"dram__bytes_read.sum",
                 {{"value", static_cast<double>(lesson.size()) * 1000.0}, {"unit", "byte"}}},
                {"launch__registers_per_thread", {{"value", 40}, {"unit", "register/thread"}}}};
            // One counter of the step's focus (what its "why" rests on), where it has one.
            const std::vector<std::string> focus = NcuMetrics(*m_registry->FindLesson(lesson));
            if (focus.size() > 3)
                counters[focus[3]] = {{"value", static_cast<double>(lesson.size())}, {"unit", ""}};
            const Json kernel = {{"id", 1},
                                 {"name", "k_" + lesson},
                                 {"block", "(256, 1, 1)"},
                                 {"grid", "(8, 1, 1)"},
                                 {"counters", counters}};
            m_inbox.push_back({{"id", r["id"]},
                               {"type", "profile"},
                               {"profile",
                                {{"id", lesson},
                                 {"source", "recorded"},
                                 {"device", "NVIDIA H100 80GB HBM3"},
                                 {"recorded_at", "2026-11-27T03:00Z"},
                                 {"live_failure", "no GPU to profile on"},
                                 {"kernels", Json::array({kernel})}}}});
        } else if (op == "cancel") {
            // As the real worker does: the request named by "target" (without one, everything
            // queued) ends as cancelled.
            for (auto it = m_held.begin(); it != m_held.end();) {
                if (r.contains("target") && r["target"] != *it) {
                    ++it;
                    continue;
                }
                m_inbox.push_back({{"id", *it}, {"type", "done"}, {"status", "cancelled"}});
                it = m_held.erase(it);
            }
            m_inbox.push_back({{"id", r["id"]}, {"type", "done"}, {"status", "ok"}});
            return true;
        } else if (op == "run" || op == "sweep" || op == "compare") {
            m_held.push_back(r["id"]);  // queued until cancelled
        }
        if ((op != "run" && op != "sweep" && op != "compare") || answer_runs)
            m_inbox.push_back({{"id", r["id"]}, {"type", "done"}, {"status", "ok"}});
        return true;
    }
    // A message as if the worker wrote it (progress, a sweep point, a malformed line).
    void Push(Json message) { m_inbox.push_back(std::move(message)); }
    std::vector<Json> Drain() override {
        std::vector<Json> out;
        out.swap(m_inbox);
        return out;
    }
    // As the real worker killed: its exit (and nothing it held is answered).
    void Kill() override {
        ++kills;
        m_held.clear();
        m_inbox.push_back({{"type", "worker_exit"}, {"code", -1}, {"signal", 9}});
    }
    // A made-up result of the request's lesson at `params`.
    Json Result(const Json& r, const Json& params) const {
        RunResult res;
        // Requests name lessons by id; the worker's results carry its own numbers.
        const Lesson* lesson = m_registry->FindLesson(r["lesson"].get<std::string>());
        res.lesson = lesson->number;
        res.id = lesson->id;
        res.chapter = lesson->chapter;
        res.kind = lesson->kind;
        res.params = ParamsOf(params);
        // The OpenMP lesson is 2.5x faster than the previous one (and every other).
        res.median_ms = res.id == "split/openmp" ? 20.0 : 50.0;
        res.min_ms = res.median_ms * 0.9;
        res.max_ms = res.median_ms * 1.2;
        res.reps = 5;
        res.gbps = 1000 / res.median_ms;
        if (res.kind == StepKind::kGpu) {
            res.work.bound = Bound::kRead;
            res.ceiling = 3000;
            res.pct_of_ceiling = res.gbps / 30;
        }
        res.verified = wrong_lesson != res.id;
        if (!res.verified) {  // as the reduction's check says it: an id, arguments, English
            const MessageForm* form = FindMessageForm("reduce.wrong-sum");
            const Message said = form ? Message::Of(*form, {"1", "2", "1", "0"})
                                      : Message::Plain("no form reduce.wrong-sum");
            res.check_message = said.text;
            res.check_message_id = said.id;
            res.check_message_args = said.args;
        }
        if (shape) shape(res);
        return ToJson(res);
    }
    bool answer_runs = true;
    bool has_gpu = false;                    // a worker that reports every lesson as runnable
    uint64_t gpu_free = uint64_t(80) << 30;  // the GPU's free memory it reports
    std::string wrong_lesson;                // the id of a lesson whose results are wrong
    std::function<void(RunResult&)> shape;   // changes each made-up result (timings, rates)
    double yours_ms = 40;                    // how long a student's kernel takes
    std::string tuning_saved_to = "/data/tunings.json";  // where a tuning is said to be kept
    bool hang_kernels = false;                           // a student's kernel never ends
    bool drop_compile_answer = false;  // a compile's answer is lost (too long to read)
    bool attributes_fail = false;      // kernel attributes are answered with an error
    int kills = 0;

private:
    // The compile reply to request `r`: compiled (`ok`: 29 registers, no spills, `ptx`) or not
    // (`error`), with its `diagnostics`.
    static Json CompileReply(const Json& r, bool ok, const std::string& error,
                             const Json& diagnostics, const std::string& ptx) {
        return {{"id", r["id"]},
                {"type", "compile"},
                {"lesson", r["lesson"]},
                {"compile",
                 {{"status", ok ? "ok" : "error"},
                  {"message", ok ? "" : error},
                  {"arch", "sm_90"},
                  {"diagnostics", diagnostics},
                  {"kernel", ok ? Json{{"registers", 29}, {"spill_store_bytes", 0}} : Json()},
                  {"ptx", ptx}}}};
    }

    std::vector<Json>* m_log;
    const Registry* m_registry;
    int m_protocol;
    std::vector<Json> m_inbox;
    std::vector<Json> m_held;  // ids of runs not answered (answer_runs off)
};

// A fixture's frame, key and click, for a walk over the screens written outside it.
struct AppInput {
    std::function<void()> frame;
    std::function<void(ImGuiKey)> key;
    std::function<void(const std::string&)> click;
};

class AppLogic : public ::testing::Test {
protected:
    explicit AppLogic(const Registry& reg = Catalog(), int protocol = kProtocolVersion)
        : registry(reg), worker_protocol(protocol) {}
    void SetUp() override {
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = ImVec2(1500, 940);
        io.DeltaTime = 1.0f / 60;
        ui.settings.scale = 1;
        ui.probe = &probe;
        ui.fonts = BuildFonts(1.0f, UiTexts(registry));
        unsigned char* pixels;
        int w, h;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
        ui.fonts_dirty = false;
        controller = std::make_unique<Controller>(
            registry,
            [this] {
                auto fake = std::make_unique<FakeWorker>(&sent, &registry, worker_protocol);
                fake->has_gpu = worker_has_gpu;
                worker = fake.get();
                ++workers_started;
                return fake;
            },
            &registry == &Catalog() ? LoadRecordedResults(nullptr) : std::vector<RunResult>{});
        // The progress file in a folder of the test's own, never the user's data folder.
        char dir[] = "/tmp/cuda-lessons-progress-XXXXXX";
        if (mkdtemp(dir)) progress_dir = dir;
        std::vector<ProgressNotice> notices;
        LoadProgress(&ui.progress, &notices,
                     progress_dir.empty() ? std::string() : progress_dir + "/progress.json");
        controller->Start();
        Frames(2);
    }
    void TearDown() override {
        ImGui::DestroyContext();
        if (!progress_dir.empty())
            std::system(("rm -rf '" + progress_dir + "'").c_str());  // NOLINT: a test's own folder
    }
    std::string progress_dir;  // where this test's progress file is kept

    void Frame() {
        controller->Update();
        ImGui::NewFrame();
        DrawUi(ui, *controller, registry);
        ImGui::Render();
#if IMGUI_VERSION_NUM < 18700
        for (bool& k : ImGui::GetIO().KeysDown) k = false;  // Key() presses for one frame
#endif
    }
    void Frames(int n) {
        for (int i = 0; i < n; ++i) Frame();
    }
    ImVec2 Center(const std::string& name) {
        EXPECT_TRUE(probe.rects.count(name)) << name << " was not drawn";
        const ImVec4 r = probe.rects[name];
        return ImVec2((r.x + r.z) / 2, (r.y + r.w) / 2);
    }
    // Clicks the lesson `id` in the lesson list.
    // The page at `scale` in a window of `display`: fonts built and uploaded, style scaled from
    // ImGui's defaults, as the app does at that scale.
    void ScaleTo(float scale, ImVec2 display) {
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = display;
        ui.fonts = BuildFonts(scale, UiTexts(registry));
        unsigned char* pixels;
        int w, h;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
        ImGui::GetStyle() = ImGuiStyle();
        ImGui::GetStyle().ScaleAllSizes(scale);
    }
    void Open(const std::string& id) {
        Click("lesson_" + id);
    }
    // The mouse at `at` and its wheel turned by `wheel` (negative: down) in each of `frames`
    // frames, then still.
    void ScrollAt(ImVec2 at, int frames, float wheel) {
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = at;
        for (int i = 0; i < frames; ++i) {
            io.MouseWheel = wheel;
            Frame();
        }
        io.MouseWheel = 0;
    }
    // The worker started again with a GPU (or without), and `frames` frames for its device list.
    void RestartWithGpu(int frames, bool gpu = true) {
        worker_has_gpu = gpu;
        controller->RestartWorker();
        Frames(frames);
    }
    // A GPU worker, on a display tall enough for every section, each of them open.
    void EverySectionWithGpu() {
        worker_has_gpu = true;
        controller->RestartWorker();
        ImGui::GetIO().DisplaySize = ImVec2(1500, 4000);
        probe.open_all = true;
        Frames(2);
    }
    // With a GPU worker, the GPU lesson `id` open at 1 GiB of data that is not counted (data
    // "none"): the settings its prediction and its guesses are made for.
    void OpenOnTheGpuAt1GiB(const std::string& id) {
        RestartWithGpu(3);
        Open(id);
        ui.run.params["size"] = ParamValue::Number(uint64_t(1) << 30);
        ui.run.params["data"] = ParamValue::Choice("none");
        Frames(3);
    }
    void Click(const std::string& name) {
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = Center(name);
        Frame();
        io.MouseDown[0] = true;
        Frame();
        io.MouseDown[0] = false;
        Frame();
        Frame();  // the page drawn after the click
    }
    // Presses at `from`, moves to `to` in steps, releases.
    void Drag(ImVec2 from, ImVec2 to) {
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = from;
        Frame();
        io.MouseDown[0] = true;
        Frame();
        for (int i = 1; i <= 5; ++i) {
            const float t = static_cast<float>(i) / 5;
            io.MousePos = ImVec2(from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t);
            Frame();
        }
        io.MouseDown[0] = false;
        Frame();
    }
    // Presses and releases `key` (ui.h's kKey constants): as events since ImGui 1.87, in
    // io.KeysDown (cleared after each frame) in 1.86.
    void Key(ImGuiKey key) {
#if IMGUI_VERSION_NUM >= 18700
        ImGui::GetIO().AddKeyEvent(key, true);
        Frame();
        ImGui::GetIO().AddKeyEvent(key, false);
#else
        ImGui::GetIO().KeysDown[key] = true;
        Frame();
#endif
        Frame();
    }
    AppInput Input() {
        return {[this] { Frame(); }, [this](ImGuiKey k) { Key(k); },
                [this](const std::string& n) { Click(n); }};
    }
    // Holds Ctrl down (or lets it go) from the next frame on.
    void Ctrl(bool down) {
#if IMGUI_VERSION_NUM >= 18900
        ImGui::GetIO().AddKeyEvent(ImGuiMod_Ctrl, down);
#else
        ImGui::GetIO().KeyCtrl = down;
#endif
    }
    // Advances ImGui's clock past the auto-run debounce.
    void Wait(double seconds) {
        ImGuiIO& io = ImGui::GetIO();
        const float saved = io.DeltaTime;
        io.DeltaTime = 0.05f;
        for (int i = 0; i < static_cast<int>(seconds / 0.05) + 1; ++i) Frame();
        io.DeltaTime = saved;
    }
    std::vector<Json> Runs() const {
        std::vector<Json> out;
        for (const Json& r : sent)
            if (r["op"] == "run") out.push_back(r);
        return out;
    }
    // The comparisons sent: two CPU steps timed in turn (RunWithPrevious).
    std::vector<Json> Compares() const {
        std::vector<Json> out;
        for (const Json& r : sent)
            if (r["op"] == "compare") out.push_back(r);
        return out;
    }

    // The lesson of this fixture's registry named `name` (a label, an id, an old number).
    const Lesson& Named(std::string_view name) const {
        return LessonNamed(registry, name);
    }

    const Registry& registry;
    const int worker_protocol;
    UiState ui;
    Probe probe;                  // what the page drew (attached to `ui`)
    bool worker_has_gpu = false;  // what the next worker started will report
    int workers_started = 0;
    std::vector<Json> sent;
    FakeWorker* worker = nullptr;
    std::unique_ptr<Controller> controller;
};

// A chapter the GUI has never seen (its controls, requests, chart and table come from its
// parameters alone), with one lesson, "tiles/tiled" (7.1). Its choice names are words nothing
// under app/ knows: "scan" names its choices in Chinese in its ParamSpec, "shape" does not.
inline const Registry& MadeUpRegistry() {
    static const Registry registry = [] {
        Registry r;
        Chapter chapter;
        chapter.number = 7;
        chapter.id = "tiles";
        chapter.title = "Tiles";
        ParamSpec m;
        m.name = "m";
        m.label_en = "Rows";
        m.label_zh = "行数";
        m.type = ParamType::kCount;
        m.min = 16;
        m.max = 1 << 16;
        m.step = 16;
        m.default_value = ParamValue::Number(1024);
        m.log_scale = true;
        chapter.params = {m,
                          ChoiceParam("shape", "Tile shape", "分块形状", {"64x64", "128x128"},
                                      {"four warps", "eight warps, more registers"}),
                          ChoiceParam("scan", "Scan", "扫描方式", {"hillis-steele", "blelloch"}, {},
                                      {}, {"Hillis-Steele 扫描", "Blelloch 扫描"})};
        chapter.workload_host_bytes = [](const ParamValues& p) {
            return p.Number("m") * p.Number("m") * 12;
        };
        r.AddChapter(chapter);
        Lesson lesson;
        lesson.number = 1;
        lesson.label = "7.1";
        lesson.id = "tiles/tiled";
        lesson.chapter = "tiles";
        lesson.title = "Tiled";
        lesson.kind = StepKind::kGpu;
        lesson.params = {BlockParam(64, 512, 128, true, "two warps at the least")};
        lesson.needs = [](const ParamValues& p) {
            return MemoryNeeds{0, p.Number("m") * p.Number("m") * 12};
        };
        r.AddLesson(lesson);
        return r;
    }();
    return registry;
}

class AppLogicMadeUpChapter : public AppLogic {
protected:
    AppLogicMadeUpChapter() : AppLogic(MadeUpRegistry()) { worker_has_gpu = true; }
};

// Every word of a table is said in both languages, told apart ("not translated" otherwise),
// and its Chinese is among the texts the font atlas takes its glyphs from.
template <size_t N>
void ExpectTranslatedAndInTheAtlas(const Word* const (&words)[N]) {
    const std::vector<std::string_view> texts = UiTexts(Catalog());
    for (const Word* w : words) {
        EXPECT_STRNE(w->en, "");
        EXPECT_STRNE(w->zh, "");
        EXPECT_STRNE(w->en, w->zh) << "not translated";
        EXPECT_NE(std::find(texts.begin(), texts.end(), std::string_view(w->zh)), texts.end())
            << w->en << ": its glyphs are not in the atlas";
    }
}

// Whether a line of `lines` holds `text`, and the lines for a failure's message.
inline bool Has(const std::vector<std::string>& lines, const std::string& text) {
    for (const std::string& l : lines)
        if (l.find(text) != std::string::npos) return true;
    return false;
}

inline std::string Lines(const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& l : lines) out += "\n  " + l;
    return out;
}

}  // namespace app_test
