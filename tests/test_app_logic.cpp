// The GUI's logic without a window: an ImGui context with its font atlas built and no
// renderer, frames driven with simulated mouse and keys (io.MousePos / io.MouseDown in 1.86),
// and a fake worker that records requests and answers like the real one.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <unistd.h>

#include <csignal>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <regex>
#include <set>
#include <sstream>

#include "catalog.h"
#include "chart.h"
#include "controller.h"
#include "diff.h"
#include "export.h"
#include "panels.h"
#include "prediction.h"
#include "report.h"
#include "serve.h"
#include "settings.h"
#include "ui.h"
#include "words.h"

using namespace lessons;
using namespace lessons::app;

namespace {

// Parameter values as a request carries them: numbers, or strings for choices.
ParamValues ParamsOf(const Json& j) {
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
                    *m_registry, l, l.kind == StepKind::kCpu || has_gpu ? "" : "no GPU here"));
            m_inbox.push_back({{"id", r["id"]}, {"type", "list"}, {"lessons", lessons}});
        } else if (op == "info") {
            m_inbox.push_back(
                {{"id", r["id"]},
                 {"type", "info"},
                 {"device", has_gpu ? Json{{"available", true},
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
                                    : Json{{"available", false}, {"reason", "no GPU here"}}}});
        } else if (op == "run" && answer_runs) {
            m_inbox.push_back(
                {{"id", r["id"]}, {"type", "result"}, {"result", Result(r, r["params"])}});
        } else if (op == "sweep" && answer_runs && r["values"].is_array()) {
            for (const Json& v : r["values"]) {
                Json params = r["params"];
                params[r["over"].get<std::string>()] = v;
                m_inbox.push_back(
                    {{"id", r["id"]}, {"type", "result"}, {"result", Result(r, params)}});
            }
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
        } else if (op == "cancel") {
            // As the real worker does: everything queued ends as cancelled.
            for (const Json& id : m_held)
                m_inbox.push_back({{"id", id}, {"type", "done"}, {"status", "cancelled"}});
            m_held.clear();
            m_inbox.push_back({{"id", r["id"]}, {"type", "done"}, {"status", "ok"}});
            return true;
        } else if (op == "run" || op == "sweep") {
            m_held.push_back(r["id"]);  // queued until cancelled
        }
        if ((op != "run" && op != "sweep") || answer_runs)
            m_inbox.push_back({{"id", r["id"]}, {"type", "done"}, {"status", "ok"}});
        return true;
    }
    std::vector<Json> Drain() override {
        std::vector<Json> out;
        out.swap(m_inbox);
        return out;
    }
    // A made-up result of the request's lesson at `params`.
    Json Result(const Json& r, const Json& params) const {
        RunResult res;
        res.lesson = r["lesson"];
        const Lesson* lesson = m_registry->FindLesson(res.lesson);
        res.id = lesson->id;
        res.chapter = lesson->chapter;
        res.kind = lesson->kind;
        res.params = ParamsOf(params);
        res.median_ms = res.lesson == 3 ? 20.0 : 50.0;  // lesson 3 is 2.5x faster than 2
        res.min_ms = res.median_ms * 0.9;
        res.max_ms = res.median_ms * 1.2;
        res.reps = 5;
        res.gbps = 1000 / res.median_ms;
        if (res.kind == StepKind::kGpu) {
            res.work.bound = Bound::kRead;
            res.ceiling = 3000;
            res.pct_of_ceiling = res.gbps / 30;
        }
        res.verified = !(wrong_lesson == res.lesson);
        if (!res.verified)
            res.check_message = "sum 1, expected 2: off by 1, more than the tolerance 0";
        return ToJson(res);
    }
    bool answer_runs = true;
    bool has_gpu = false;                    // a worker that reports every lesson as runnable
    uint64_t gpu_free = uint64_t(80) << 30;  // the GPU's free memory it reports
    int wrong_lesson = -1;

private:
    std::vector<Json>* m_log;
    const Registry* m_registry;
    int m_protocol;
    std::vector<Json> m_inbox;
    std::vector<Json> m_held;  // ids of runs not answered (answer_runs off)
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
        io.KeyMap[ImGuiKey_LeftArrow] = 263;  // GLFW codes, as the backend maps them
        io.KeyMap[ImGuiKey_RightArrow] = 262;
        io.KeyMap[ImGuiKey_Escape] = 256;
        ui.settings.scale = 1;
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
        controller->Start();
        Frames(2);
    }
    void TearDown() override { ImGui::DestroyContext(); }

    void Frame() {
        controller->Update();
        ImGui::NewFrame();
        DrawUi(ui, *controller, registry);
        ImGui::Render();
        for (bool& k : ImGui::GetIO().KeysDown) k = false;
    }
    void Frames(int n) {
        for (int i = 0; i < n; ++i) Frame();
    }
    ImVec2 Center(const std::string& name) {
        EXPECT_TRUE(ui.rects.count(name)) << name << " was not drawn";
        const ImVec4 r = ui.rects[name];
        return ImVec2((r.x + r.z) / 2, (r.y + r.w) / 2);
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
    void Key(int key) {
        ImGui::GetIO().KeysDown[key] = true;
        Frame();
        Frame();
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

    const Registry& registry;
    const int worker_protocol;
    UiState ui;
    bool worker_has_gpu = false;  // what the next worker started will report
    int workers_started = 0;
    std::vector<Json> sent;
    FakeWorker* worker = nullptr;
    std::unique_ptr<Controller> controller;
};

}  // namespace

TEST_F(AppLogic, StartAsksForListAndInfoAndMarksLessons) {
    ASSERT_GE(sent.size(), 2u);
    EXPECT_EQ(sent[0]["op"], "list");
    EXPECT_EQ(sent[1]["op"], "info");
    EXPECT_EQ(controller->Mode(*Catalog().FindLesson(3)), LessonMode::kLive);
    EXPECT_EQ(controller->Mode(*Catalog().FindLesson(4)), LessonMode::kRecorded)
        << "GPU lesson, no GPU, recorded results embedded";
}

TEST_F(AppLogic, SelectLessonThreeAndRun) {
    Click("lesson_3");
    EXPECT_EQ(ui.settings.lesson, 3);
    ASSERT_TRUE(ui.rects.count("threads")) << "lesson 3 has a thread-count slider";
    sent.clear();
    Click("run");
    const auto runs = Runs();
    ASSERT_EQ(runs.size(), 2u) << "this lesson and the previous one";
    EXPECT_EQ(runs[0]["lesson"], 2);
    EXPECT_EQ(runs[1]["lesson"], 3);
    EXPECT_EQ(runs[1]["params"]["size"], 64u << 20);
    EXPECT_EQ(runs[1]["params"]["data"], "random");
    EXPECT_TRUE(runs[1]["params"].contains("threads"));
    EXPECT_FALSE(runs[0]["params"].contains("threads")) << "lesson 2 takes no thread count";
    Frames(2);
    // The chart holds both bars and the speedup label.
    ASSERT_GE(ui.step_bars.size(), 3u);
    EXPECT_DOUBLE_EQ(ui.step_bars[1].value, 50.0);
    EXPECT_DOUBLE_EQ(ui.step_bars[2].value, 20.0);
    EXPECT_TRUE(ui.step_bars[2].highlight);
    EXPECT_EQ(ui.step_bars[2].annotation, "2.50\xC3\x97 faster than lesson 2");
    EXPECT_DOUBLE_EQ(ui.step_bars[2].lo, 18.0);
    EXPECT_DOUBLE_EQ(ui.step_bars[2].hi, 24.0);
    // The same bars in the rate the results are judged by.
    Click("axis_rate");
    EXPECT_TRUE(ui.rate_axis);
    EXPECT_DOUBLE_EQ(ui.step_bars[1].value, 20.0) << "1000 / 50 GB/s";
    EXPECT_DOUBLE_EQ(ui.step_bars[2].value, 50.0);
    EXPECT_NEAR(ui.step_bars[2].lo, 50.0 / 1.2, 1e-9) << "the rate at the slowest sample";
    EXPECT_EQ(ui.step_bars[2].annotation, "2.50\xC3\x97 faster than lesson 2");
}

TEST_F(AppLogic, DraggingSlidersReplacesPendingRequestsInsteadOfQueueing) {
    worker->answer_runs = false;  // everything stays pending
    Click("lesson_3");
    const ImVec4 r = ui.rects["threads"];
    sent.clear();
    Drag(ImVec2(r.x + 3, (r.y + r.w) / 2), ImVec2(r.z - 3, (r.y + r.w) / 2));
    EXPECT_TRUE(Runs().empty()) << "nothing is sent before the controls settle";
    Wait(kDebounceSeconds + 0.1);
    auto runs = Runs();
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_GT(runs[1]["params"]["threads"].get<int>(), 1) << "dragged to the right";
    const ImVec4 s = ui.rects["size"];
    sent.clear();
    Drag(ImVec2((s.x + s.z) / 2, (s.y + s.w) / 2), ImVec2(s.x + 2, (s.y + s.w) / 2));
    Wait(kDebounceSeconds + 0.1);
    ASSERT_FALSE(sent.empty());
    EXPECT_EQ(sent.front()["op"], "cancel") << "pending runs are cancelled first";
    runs = Runs();
    ASSERT_EQ(runs.size(), 2u) << "one pair of runs, no backlog";
    EXPECT_EQ(runs[1]["params"]["size"], 1024) << "dragged to the smallest size";
}

TEST_F(AppLogic, BlockSizeSliderOffersOnlyAcceptedSizes) {
    worker_has_gpu = true;
    controller->RestartWorker();  // a worker with a GPU this time
    Frames(2);
    Click("lesson_20");  // v0: powers of two only
    ASSERT_TRUE(ui.rects.count("block"));
    const ImVec4 r = ui.rects["block"];
    sent.clear();
    Drag(ImVec2((r.x + r.z) / 2, (r.y + r.w) / 2), ImVec2(r.z - 2, (r.y + r.w) / 2));
    Wait(kDebounceSeconds + 0.1);
    auto runs = Runs();
    ASSERT_EQ(runs.size(), 2u) << "lessons 19 and 20";
    EXPECT_EQ(runs[0]["lesson"], 19);
    EXPECT_FALSE(runs[0]["params"].contains("block")) << "the CPU lesson has no block size";
    EXPECT_EQ(runs[1]["params"]["block"], 1024) << "dragged to the end of the accepted sizes";
    // (The rectangle ends with the label: the slider's own frame starts at its left.)
    Drag(ImVec2(r.x + 3, (r.y + r.w) / 2), ImVec2(r.x + (r.z - r.x) * 0.3f, (r.y + r.w) / 2));
    const ParamSpec& spec = *Catalog().FindLesson(20)->FindParam("block");
    const ParamValue block = ResolveParam(spec, ui.run);
    EXPECT_EQ(ui.run.params["block"], std::to_string(block.number)) << "what the slider shows";
    EXPECT_LT(block.number, 1024u);
    for (uint64_t b = block.number; b > 1; b /= 2)
        ASSERT_NE(b % 2, 1u) << block.number << " is not a power of two";
    EXPECT_EQ(spec.Reject(block), "");
}

TEST_F(AppLogic, KernelAttributesFollowTheBlockSize) {
    worker_has_gpu = true;
    controller->RestartWorker();
    Frames(2);
    Click("lesson_4");
    Frames(2);
    const KernelAttributes* a = controller->Attributes(*Catalog().FindLesson(4), ui.run);
    ASSERT_NE(a, nullptr) << "asked of the worker for the default block";
    EXPECT_EQ(ui.run.params["block"], "256");
    EXPECT_EQ(a->active_blocks_per_sm, 8);
    int asked = 0;
    for (const Json& r : sent) asked += r["op"] == "attributes";
    Frames(3);
    int asked_again = 0;
    for (const Json& r : sent) asked_again += r["op"] == "attributes";
    EXPECT_EQ(asked, asked_again) << "answers are remembered, not asked every frame";
    for (const Json& r : sent)
        if (r["op"] == "attributes") {
            EXPECT_EQ(r["params"], Json({{"block", 256}})) << "the lesson's own parameters";
        }
    ui.run.params["block"] = "512";
    Frames(3);
    a = controller->Attributes(*Catalog().FindLesson(4), ui.run);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->active_blocks_per_sm, 4);
}

TEST_F(AppLogic, ExportWritesCsvAndJson) {
    ImGui::GetIO().DisplaySize = ImVec2(1500, 2400);  // tall enough to show the export buttons
    ui.export_dir = ::testing::TempDir() + "/exports_" + std::to_string(::getpid());
    Click("lesson_3");
    Click("run");
    Click("export_csv");
    Click("export_json");
    ASSERT_GE(ui.messages.size(), 2u);
    const std::string csv_message = ui.messages[ui.messages.size() - 2];
    ASSERT_EQ(csv_message.rfind("Exported", 0), 0u) << csv_message;
    const std::string csv_path = csv_message.substr(csv_message.find(" to ") + 4);
    std::ifstream csv(csv_path);
    std::string header, row;
    std::getline(csv, header);
    EXPECT_EQ(header.rfind("lesson,id,", 0), 0u);
    int rows = 0;
    while (std::getline(csv, row)) ++rows;
    EXPECT_EQ(rows, static_cast<int>(controller->results().size()));
    const std::string json_message = ui.messages.back();
    std::ifstream json_file(json_message.substr(json_message.find(" to ") + 4));
    const Json all = Json::parse(json_file);
    EXPECT_EQ(all.size(), controller->results().size());
}

TEST_F(AppLogic, KeyboardNavigationRunAndCancel) {
    Click("lesson_3");
    Key(262);  // right arrow
    EXPECT_EQ(ui.settings.lesson, 4);
    Key(263);  // left arrow
    EXPECT_EQ(ui.settings.lesson, 3);
    worker->answer_runs = false;
    sent.clear();
    Key(kKeyR);
    EXPECT_EQ(Runs().size(), 2u);
    EXPECT_TRUE(controller->Busy());
    Key(256);  // Esc
    EXPECT_EQ(sent.back()["op"], "cancel");
}

TEST_F(AppLogic, RunTheWholeChapterFillsEveryBarAndCancelStopsTheRest) {
    worker_has_gpu = true;
    controller->RestartWorker();  // every lesson runs here
    Frames(2);
    Click("lesson_3");
    const Chapter& chapter = registry.ChapterOf(*registry.FindLesson(3));
    std::vector<int> expected;
    for (const Lesson* l : registry.LessonsOf(chapter)) expected.push_back(l->number);
    ASSERT_GT(expected.size(), 2u);
    sent.clear();
    Click("run_chapter");
    std::vector<int> asked;
    for (const Json& r : Runs()) asked.push_back(r["lesson"].get<int>());
    EXPECT_EQ(asked, expected) << "every lesson of the chapter, in order";
    for (const Json& r : Runs()) EXPECT_EQ(r["params"]["size"], 64u << 20) << "the page's size";
    Frames(2);
    // Every bar of the step chart is a live result.
    size_t live_bars = 0;
    for (const chart::Bar& b : ui.step_bars) live_bars += b.value > 0 && !b.invalid;
    EXPECT_GE(live_bars, expected.size());
    for (int n : expected)
        EXPECT_NE(controller->Latest(n, ResolveParams(chapter.params, ui.run)), nullptr) << n;

    // Held by the worker: progress, then Esc cancels every run left.
    worker->answer_runs = false;
    sent.clear();
    Key(kKeyC);
    EXPECT_EQ(Runs().size(), expected.size()) << "the C key does the same";
    EXPECT_TRUE(controller->Busy());
    EXPECT_NE(controller->BusyWith().find("of " + std::to_string(expected.size())),
              std::string::npos)
        << controller->BusyWith();
    EXPECT_GE(controller->Progress(), 0.0f);
    EXPECT_EQ(controller->BusyWith("zh").rfind("\xE6\x95\xB4\xE7\xAB\xA0", 0), 0u)  // 整章
        << controller->BusyWith("zh");
    // A second press replaces the pending batch rather than queueing another.
    sent.clear();
    Key(kKeyC);
    ASSERT_FALSE(sent.empty());
    EXPECT_EQ(sent.front()["op"], "cancel");
    Key(256);  // Esc
    EXPECT_EQ(sent.back()["op"], "cancel");
    Frames(2);
    EXPECT_FALSE(controller->Busy()) << controller->BusyWith();
}

// The speed-up label covers no bar or whisker and stays inside the chart's visible width, in
// a wide window and a narrow one, at presenter scales, in both languages.
TEST_F(AppLogic, SpeedupLabelCoversNoBarAndIsNotClipped) {
    Click("lesson_3");
    Click("run");
    auto intersects = [](const ImVec4& a, const ImVec4& b) {
        return a.x < b.z && a.z > b.x && a.y < b.w && a.w > b.y;
    };
    for (const ImVec2 display : {ImVec2(1500, 940), ImVec2(640, 480), ImVec2(1920, 1080)}) {
        for (const float scale : {1.0f, 2.0f}) {
            ImGui::GetIO().DisplaySize = display;
            ImGui::GetIO().FontGlobalScale = scale;
            Frames(3);
            const chart::BarLayout& l = ui.step_layout;
            ASSERT_EQ(l.annotations.size(), 1u) << display.x << " at " << scale;
            const ImVec4& a = l.annotations[0];
            EXPECT_GE(a.x, l.chart.x) << display.x << " at " << scale;
            EXPECT_LE(a.z, l.chart.z) << display.x << " at " << scale;
            EXPECT_GE(a.y, l.chart.y);
            for (const ImVec4& b : l.bars)
                EXPECT_FALSE(intersects(a, b))
                    << display.x << " at " << scale << ": label " << a.x << "," << a.y << "-" << a.z
                    << "," << a.w << " bar " << b.x << "," << b.y << "-" << b.z << "," << b.w;
        }
    }
    ImGui::GetIO().FontGlobalScale = 1;
}

TEST(AppChart, AnAnnotationThatWouldCoverAnotherBarGoesOnTheBandAbove) {
    // Three bars 40 px wide: the first tall, the third short; a 100 px label of the third.
    const std::vector<ImVec4> bars = {ImVec4(0, 20, 40, 200), ImVec4(60, 150, 100, 200),
                                      ImVec4(120, 180, 160, 200)};
    const ImVec2 free = chart::PlaceAnnotation(bars, 2, 30, 10, 0, 200, 5);
    EXPECT_FLOAT_EQ(free.x, 125) << "centred above its own bar";
    EXPECT_LT(free.y + 10, 180.0f);
    EXPECT_GT(free.y, 150.0f) << "close to the bar when nothing is in the way";
    const ImVec2 covered = chart::PlaceAnnotation(bars, 2, 100, 10, 0, 200, 5);
    EXPECT_FLOAT_EQ(covered.y, 5) << "it would cover the second bar";
    const ImVec2 right = chart::PlaceAnnotation(bars, 2, 100, 10, 0, 170, 5);
    EXPECT_FLOAT_EQ(right.x, 70) << "kept inside the right edge";
}

// The memory that caps the data size is read again every few seconds and when a page is
// shown: the host's here, the GPU's free memory asked of an idle worker.
TEST_F(AppLogic, MemoryCapsAreReadAgainAndExplained) {
    worker_has_gpu = true;
    controller->RestartWorker();
    Frames(2);
    Click("lesson_20");
    ASSERT_GT(ui.host_available, 0u);
    EXPECT_EQ(controller->device()["free_memory_bytes"], uint64_t(80) << 30);
    const double first = ui.host_available_at;
    worker->gpu_free = uint64_t(1) << 30;  // another program took the GPU's memory
    sent.clear();
    Wait(kMemoryRefreshSeconds + 0.2);
    EXPECT_GT(ui.host_available_at, first) << "the host's memory is read again";
    int infos = 0;
    for (const Json& r : sent) infos += r["op"] == "info";
    EXPECT_EQ(infos, 1) << "asked once in " << kMemoryRefreshSeconds << " s, not every frame";
    EXPECT_EQ(controller->device()["free_memory_bytes"], uint64_t(1) << 30);
    EXPECT_FALSE(controller->Busy()) << "a refresh is not shown as work in progress";
    // Showing another page reads them at once.
    Wait(1);
    const double before = ui.host_available_at;
    Key(263);  // left arrow
    EXPECT_GT(ui.host_available_at, before);
    // Not while a run is in flight.
    worker->answer_runs = false;
    Key(kKeyR);
    sent.clear();
    Wait(kMemoryRefreshSeconds + 0.2);
    for (const Json& r : sent) EXPECT_NE(r["op"], "info");
    // The tooltip says what the cap is and where each figure comes from, in both languages.
    const std::string en = CapExplanation("en", "1 GiB", "free GPU memory", uint64_t(3) << 30, 2,
                                          uint64_t(1) << 30, 4);
    EXPECT_NE(en.find("1 GiB, limited by free GPU memory"), std::string::npos) << en;
    EXPECT_NE(en.find("MemAvailable"), std::string::npos) << en;
    EXPECT_NE(en.find("3 GiB"), std::string::npos) << en;
    EXPECT_NE(en.find("90%"), std::string::npos) << en;
    EXPECT_NE(en.find("cudaMemGetInfo"), std::string::npos) << en;
    EXPECT_NE(en.find("4 s ago"), std::string::npos) << en;
    const std::string zh =
        CapExplanation("zh", "1 GiB", "GPU 空闲显存", uint64_t(3) << 30, 2, 0, 0);
    EXPECT_NE(zh.find("受限于GPU 空闲显存"), std::string::npos) << zh;
    EXPECT_NE(zh.find("空闲显存未知"), std::string::npos) << zh;
}

TEST_F(AppLogic, HideAnswersIsAToggleOfThePage) {
    Click("lesson_3");
    EXPECT_FALSE(ui.settings.hide_answers);
    Click("hide_answers");
    EXPECT_TRUE(ui.settings.hide_answers) << "remembered in the settings";
    Click("lang_zh");
    EXPECT_TRUE(ui.settings.hide_answers);
    Click("hide_answers");
    EXPECT_FALSE(ui.settings.hide_answers);
}

TEST_F(AppLogic, WrongResultIsNeverPlottedAsValid) {
    worker->wrong_lesson = 3;
    Click("lesson_3");
    Click("run");
    Frames(2);
    ASSERT_GE(ui.step_bars.size(), 3u);
    EXPECT_TRUE(ui.step_bars[2].invalid);
    EXPECT_TRUE(ui.step_bars[2].annotation.empty()) << "no speedup from a wrong result";
}

TEST_F(AppLogic, LanguageToggleAndScaleKeys) {
    Click("lang_zh");
    EXPECT_EQ(ui.settings.language, "zh");
    Click("lang_en");
    EXPECT_EQ(ui.settings.language, "en");
    ImGui::GetIO().KeyCtrl = true;
    Key(kKeyEqual);
    ImGui::GetIO().KeyCtrl = false;
    EXPECT_GT(ui.settings.scale, 1.1f);
    EXPECT_TRUE(ui.fonts_dirty) << "fonts are rebuilt at the new scale, not stretched";
}

// At the edges (a 640x480 window, presenter scale up to 4 on 1920x1080, both languages): the
// title never covers the language buttons, and every control is drawn inside the window.
TEST_F(AppLogic, LayoutHoldsAtSmallWindowsAndLargeScales) {
    Click("lesson_3");
    for (const ImVec2 display : {ImVec2(640, 480), ImVec2(1920, 1080)}) {
        for (const float scale : {1.0f, 2.3f, 4.0f}) {
            for (const char* language : {"en", "zh"}) {
                SCOPED_TRACE(testing::Message() << display.x << "x" << display.y << " at " << scale
                                                << ", " << language);
                ImGuiIO& io = ImGui::GetIO();
                io.DisplaySize = display;
                ui.settings.language = language;
                ui.fonts = BuildFonts(scale, UiTexts(registry));
                unsigned char* pixels;
                int w, h;
                io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
                ImGui::GetStyle() = ImGuiStyle();
                ImGui::GetStyle().ScaleAllSizes(scale);
                Frames(3);
                ASSERT_TRUE(ui.rects.count("title"));
                const ImVec4 title = ui.rects["title"];
                for (const char* button : {"lang_en", "lang_zh"}) {
                    ASSERT_TRUE(ui.rects.count(button)) << button;
                    const ImVec4 b = ui.rects[button];
                    const bool overlap =
                        title.x < b.z && b.x < title.z && title.y < b.w && b.y < title.w;
                    EXPECT_FALSE(overlap) << "the title covers " << button;
                }
                for (const auto& [name, r] : ui.rects) {
                    if (r.y >= display.y || r.w <= 0) continue;  // scrolled out of view
                    EXPECT_GE(r.x, -0.5f) << name;
                    EXPECT_LE(r.z, display.x + 0.5f) << name << " reaches past the window";
                }
            }
        }
    }
}

TEST_F(AppLogic, RecordedResultsAreComparedOnlyAtTheirOwnSize) {
    ImGui::GetIO().DisplaySize = ImVec2(1500, 2400);  // the prediction and roofline come first
    Click("lesson_25");
    ASSERT_GE(ui.step_bars.size(), 8u);
    for (const chart::Bar& b : ui.step_bars) {  // 64 MiB: nothing recorded at this size
        EXPECT_EQ(b.value, 0.0) << b.label;
        if (b.label != "#19") {
            EXPECT_NE(b.tooltip.find("recorded at 1 GiB"), std::string::npos) << b.tooltip;
        }
    }
    Click("compare_recorded");
    EXPECT_EQ(ui.run.params["size"], std::to_string(1u << 30));
    for (const chart::Bar& b : ui.step_bars) {
        if (b.label == "#19") continue;  // the CPU lesson has not run at 1 GiB
        EXPECT_GT(b.value, 0.0) << b.label;
        EXPECT_TRUE(b.hatched) << b.label;
        EXPECT_NE(b.tooltip.find("not live"), std::string::npos) << b.label;
    }
}

TEST_F(AppLogic, ParametersAreKeptAcrossLessonsWhereAccepted) {
    worker_has_gpu = true;
    controller->RestartWorker();
    Frames(2);
    Click("lesson_4");
    ui.run.params["block"] = "512";
    ui.run.params["size"] = std::to_string(8u << 20);
    Key(262);  // right arrow: lesson 5 accepts 512 too
    EXPECT_EQ(ui.settings.lesson, 5);
    EXPECT_EQ(ui.run.params["block"], "512");
    EXPECT_EQ(ResolveParam(*Catalog().FindLesson(5)->FindParam("block"), ui.run).number, 512u);
    ui.run.params["block"] = "1024";
    Click("lesson_10");  // at most 512 threads: its default is shown
    EXPECT_EQ(ui.run.params["block"], "256");
    EXPECT_EQ(ui.run.params["size"], std::to_string(8u << 20)) << "the size is kept";
    // Threads set on lesson 3 are those of lesson 19, a chapter later.
    Click("lesson_3");
    ui.run.params["threads"] = "3";
    Click("lesson_19");
    EXPECT_EQ(ui.run.params["threads"], "3");
    EXPECT_EQ(ui.run.params["size"], std::to_string(8u << 20)) << "a whole number of floats";
    sent.clear();
    Click("run");
    ASSERT_EQ(Runs().size(), 1u);
    EXPECT_EQ(Runs()[0]["params"], Json({{"threads", 3}, {"size", 8u << 20}, {"data", "random"}}));
    // A value a lesson does not accept is never sent: the lesson's default goes instead.
    ui.run.params["data"] = "dense";  // a data kind of chapter 1 only
    sent.clear();
    Click("run");
    ASSERT_EQ(Runs().size(), 1u);
    EXPECT_EQ(Runs()[0]["params"]["data"], "random");
}

TEST_F(AppLogic, SweepsNameTheParameterTheyGoOver) {
    worker_has_gpu = true;
    controller->RestartWorker();
    Frames(2);
    Click("lesson_20");
    worker->answer_runs = false;
    sent.clear();
    Key(kKeyS);
    std::vector<Json> sweeps;
    for (const Json& r : sent)
        if (r["op"] == "sweep") sweeps.push_back(r);
    ASSERT_EQ(sweeps.size(), 1u) << "lesson 19 runs on the CPU: no block size to sweep";
    EXPECT_EQ(sweeps[0]["over"], "block");
    EXPECT_EQ(sweeps[0]["values"], Json({32, 64, 128, 256, 512, 1024}));
    EXPECT_FALSE(sweeps[0]["params"].contains("block"));
    controller->SweepSizes(*Catalog().FindLesson(20), ui.run);
    sweeps.clear();
    for (const Json& r : sent)
        if (r["op"] == "sweep" && r["over"] == "size") sweeps.push_back(r);
    ASSERT_EQ(sweeps.size(), 2u) << "lessons 19 and 20";
    EXPECT_EQ(sweeps[1]["values"].front(), 1024);
    EXPECT_EQ(sweeps[1]["values"].back(), 64u << 20);
    EXPECT_FALSE(sweeps[1]["params"].contains("size"));
    EXPECT_EQ(sweeps[1]["params"]["block"], 256);
}

TEST_F(AppLogic, BlockSweepAxesTickAtTheBlockSizesThatWereRun) {
    worker_has_gpu = true;
    controller->RestartWorker();
    Frames(2);
    Click("lesson_20");
    Key(kKeyS);
    Frames(2);
    ImGui::NewFrame();
    ImGui::Begin("sweeps");
    DrawSweeps(ui, *controller, registry, *registry.FindLesson(20), true);
    ImGui::End();
    ImGui::Render();
    EXPECT_EQ(ui.block_ticks, (std::vector<double>{32, 64, 128, 256, 512, 1024}))
        << "not 50, 100, 200, 500";
}

// A worker from an older build says hello in protocol 1: it is refused, gets no request and
// is not restarted.
class AppLogicOldWorker : public AppLogic {
protected:
    AppLogicOldWorker() : AppLogic(Catalog(), 1) {}
};

TEST_F(AppLogicOldWorker, IsRefusedWithAClearMessageAndNotRestarted) {
    Frames(10);
    EXPECT_TRUE(sent.empty()) << sent.front().dump();
    EXPECT_EQ(workers_started, 1);
    EXPECT_EQ(controller->WorkerState(), "refused");
    ASSERT_FALSE(controller->notices().empty());
    const std::string& notice = controller->notices().back();
    EXPECT_NE(notice.find("the worker speaks protocol 1, this program needs 2: rebuild "
                          "cuda-lessons-cli next to it"),
              std::string::npos)
        << notice;
    EXPECT_NE(controller->Mode(*Catalog().FindLesson(3)), LessonMode::kLive);
    EXPECT_EQ(controller->Mode(*Catalog().FindLesson(4)), LessonMode::kRecorded);
    EXPECT_NE(controller->UnavailableReason(*Catalog().FindLesson(3)).find("protocol 1"),
              std::string::npos);
    Click("lesson_3");
    Click("run");
    Key(kKeyR);
    EXPECT_TRUE(sent.empty()) << "nothing is sent to a refused worker";
    controller->RestartWorker();  // by hand: tries again, refused again
    Frames(2);
    EXPECT_EQ(workers_started, 2);
    EXPECT_TRUE(sent.empty());
}

// A chapter the GUI has never seen: its controls, requests, chart and table come from its
// parameters alone.
const Registry& MadeUpRegistry() {
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
        chapter.params = {m, ChoiceParam("shape", "Tile shape", "分块形状", {"64x64", "128x128"},
                                         {"four warps", "eight warps, more registers"})};
        chapter.workload_host_bytes = [](const ParamValues& p) {
            return p.Number("m") * p.Number("m") * 12;
        };
        r.AddChapter(chapter);
        Lesson lesson;
        lesson.number = 1;
        lesson.id = "tiles/01-tiled";
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

TEST_F(AppLogicMadeUpChapter, ControlsRequestsChartAndTableComeFromItsParameters) {
    const Lesson& lesson = *registry.FindLesson(1);
    EXPECT_EQ(ControlFor(*lesson.FindParam("block")), ControlKind::kValues);
    EXPECT_EQ(ControlFor(*lesson.FindParam("m")), ControlKind::kLog);
    EXPECT_EQ(ControlFor(*lesson.FindParam("shape")), ControlKind::kCombo);
    EXPECT_EQ(ControlFor(ThreadsParam()), ControlKind::kInt);
    for (const char* name : {"block", "m", "shape", "cold_l2", "run"})
        EXPECT_TRUE(ui.rects.count(name)) << name << " has no control";
    EXPECT_FALSE(ui.rects.count("size")) << "this chapter has no data size";
    const std::vector<std::string_view> texts = UiTexts(registry);
    EXPECT_NE(std::find(texts.begin(), texts.end(), "行数"), texts.end()) << "labels' glyphs";

    sent.clear();
    Click("run");
    ASSERT_EQ(Runs().size(), 1u);
    EXPECT_EQ(Runs()[0]["params"], Json({{"block", 128}, {"m", 1024}, {"shape", "64x64"}}));
    ASSERT_EQ(ui.step_bars.size(), 1u);
    EXPECT_DOUBLE_EQ(ui.step_bars[0].value, 50.0) << "matched by m and tile";
    EXPECT_NE(ui.step_bars[0].tooltip.find("m 1024, shape 64x64"), std::string::npos)
        << ui.step_bars[0].tooltip;
    EXPECT_NE(ui.step_bars[0].tooltip.find("% of the read-bandwidth ceiling (3000 GB/s)"),
              std::string::npos)
        << ui.step_bars[0].tooltip;

    // The log slider goes down to the smallest m and snaps to whole rows of 16.
    const ImVec4 r = ui.rects["m"];
    sent.clear();
    Drag(ImVec2((r.x + r.z) / 2, (r.y + r.w) / 2), ImVec2(r.x + 2, (r.y + r.w) / 2));
    Wait(kDebounceSeconds + 0.1);
    ASSERT_EQ(Runs().size(), 1u);
    EXPECT_EQ(Runs()[0]["params"]["m"], 16);
    EXPECT_EQ(SnapLog(*lesson.FindParam("m"), 10.5, 1 << 16), 1440u) << "2^10.5 in rows of 16";
    EXPECT_EQ(ui.step_bars[0].value, 50.0) << "the new run, at m = 16";

    // Another tile: the previous result no longer matches the page.
    ui.run.params["shape"] = "128x128";
    Frames(2);
    EXPECT_EQ(ui.step_bars[0].value, 0.0);
    EXPECT_NE(ui.step_bars[0].tooltip.find("not measured at block 128, m 16, shape 128x128"),
              std::string::npos)
        << ui.step_bars[0].tooltip;
    ui.run.params["shape"] = "256x256";  // not one of its tiles: the default is shown and sent
    sent.clear();
    Click("run");
    EXPECT_EQ(Runs().back()["params"]["shape"], "64x64");

    // The results table: its fields, then a column per parameter.
    const std::vector<ResultColumn> columns =
        ResultColumns(registry, registry.chapters().front(), "zh");
    ASSERT_GE(columns.size(), 4u);
    EXPECT_EQ(columns[0].header, "课");
    EXPECT_EQ(columns[1].header, "线程块大小");
    EXPECT_EQ(columns[2].header, "行数");
    EXPECT_EQ(columns[3].header, "分块形状");
    EXPECT_EQ(columns[2].text(controller->results().back().result), "16");
    EXPECT_EQ(columns[3].text(controller->results().back().result), "64x64");
}

TEST(AppTable, ColumnsComeFromTheFieldTableAndTheChaptersParameters) {
    const Chapter& split = *Catalog().FindChapter("split");
    const std::vector<ResultColumn> en = ResultColumns(Catalog(), split, "en");
    std::vector<std::string> headers;
    for (const ResultColumn& c : en) headers.push_back(c.header);
    std::vector<std::string> expected = {"lesson",       "Data size",  "Data",
                                         "Host threads", "Block size", "Output of the offsets",
                                         "GPUs"};
    for (const ResultField& f : ResultFields())
        if (f.header_en && std::string_view(f.name) != "lesson") expected.push_back(f.header_en);
    EXPECT_EQ(headers, expected);
    for (const char* h : {"median ms", "GB/s", "GFLOP/s", "% ceiling", "check"})
        EXPECT_NE(std::find(headers.begin(), headers.end(), h), headers.end()) << h;

    const std::vector<ResultColumn> zh = ResultColumns(Catalog(), split, "zh");
    ASSERT_EQ(zh.size(), en.size());
    EXPECT_EQ(zh[0].header, "课");
    EXPECT_EQ(zh[1].header, "数据规模");

    RunResult r;
    r.lesson = 4;
    r.params.Set("block", ParamValue::Number(512));
    r.params.Set("size", ParamValue::Number(64u << 20));
    r.median_ms = 1.5;
    for (const ResultColumn& c : en) {
        const ResultField* f = FindResultField(c.key);
        const std::string want = c.key == "param:block"     ? "512"
                                 : c.key == "param:size"    ? "64 MiB"
                                 : c.key == "param:threads" ? "-"
                                 : c.key == "param:data"    ? "-"
                                 : c.key == "param:output"  ? "-"
                                 : c.key == "param:gpus"    ? "-"
                                                            : f->text(r);
        EXPECT_EQ(c.text(r), want) << c.key;
    }
}

TEST(AppSettings, CorruptFileGivesDefaultsAndAMessage) {
    const std::string path = ::testing::TempDir() + "/settings_corrupt.json";
    std::ofstream(path) << "{ this is not json";
    std::string problem;
    const Settings s = LoadSettings(path, &problem);
    EXPECT_EQ(s.language, "en");
    EXPECT_NE(problem.find("not valid JSON"), std::string::npos) << problem;
    std::ofstream(path) << R"({"language": 5})";
    problem.clear();
    LoadSettings(path, &problem);
    EXPECT_FALSE(problem.empty());
}

TEST(AppSettings, SaveAndLoadUnderXdgConfigHome) {
    const std::string dir = ::testing::TempDir() + "/xdg_test";
    setenv("XDG_CONFIG_HOME", dir.c_str(), 1);
    const std::string config = ConfigDir();
    EXPECT_EQ(config, dir + "/cuda-lessons");
    Settings s;
    s.language = "zh";
    s.scale = 2;
    s.lesson = 21;
    s.hide_answers = true;
    ASSERT_TRUE(SaveSettings(config + "/settings.json", s, nullptr));
    std::string problem;
    const Settings t = LoadSettings(config + "/settings.json", &problem);
    EXPECT_TRUE(problem.empty());
    EXPECT_EQ(t.language, "zh");
    EXPECT_EQ(t.scale, 2.0f);
    EXPECT_EQ(t.lesson, 21);
    EXPECT_TRUE(t.hide_answers);
}

TEST(AppSettings, ABloatedImGuiIniIsIgnoredAndNotSavedBack) {
    const std::string path = ::testing::TempDir() + "/imgui_bloated.ini";
    std::string section = "[Window][Debug##Default]\nPos=60,60\nSize=400,400\nCollapsed=0\n\n";
    {
        std::ofstream out(path);
        for (int i = 0; i < 200000; ++i) out << "[Window][Bloat " << i << "]\nPos=1,1\n\n";
    }
    std::string problem;
    EXPECT_EQ(ReadImGuiIni(path, &problem), "");
    EXPECT_NE(problem.find("ignored"), std::string::npos) << problem;
    // Small in bytes, too many sections.
    {
        std::ofstream out(path);
        for (int i = 0; i < 1000; ++i) out << "[T][" << i << "]\n";
    }
    problem.clear();
    EXPECT_EQ(ReadImGuiIni(path, &problem), "");
    EXPECT_NE(problem.find("more than 200 sections"), std::string::npos) << problem;
    // What this program writes is read back as it is.
    problem.clear();
    ASSERT_TRUE(WriteImGuiIni(path, section, &problem)) << problem;
    EXPECT_EQ(ReadImGuiIni(path, &problem), section);
    EXPECT_EQ(problem, "");
    // Saving is bounded too: the file is left as it was.
    std::string bloated;
    for (int i = 0; i < 300; ++i) bloated += section;
    EXPECT_FALSE(WriteImGuiIni(path, bloated, &problem));
    EXPECT_NE(problem.find("not saving"), std::string::npos) << problem;
    EXPECT_EQ(ReadImGuiIni(path, &problem), section);
    EXPECT_EQ(ReadImGuiIni(::testing::TempDir() + "/no_such_imgui.ini", &problem), "");
}

TEST(AppSettings, ASavedWindowLargerThanTheScreenIsClamped) {
    Settings s;
    s.window_width = 10000;
    s.window_height = 10000;
    ClampWindowToWorkArea(&s, 1920, 1050);
    EXPECT_EQ(s.window_width, 1920);
    EXPECT_EQ(s.window_height, 1050);
    s.window_width = 800;
    s.window_height = 600;
    ClampWindowToWorkArea(&s, 1920, 1050);
    EXPECT_EQ(s.window_width, 800);
    EXPECT_EQ(s.window_height, 600);
    ClampWindowToWorkArea(&s, 0, 0);  // unknown: unchanged
    EXPECT_EQ(s.window_width, 800);
}

TEST(AppDiff, ChangedLinesFollowTheLongestCommonSubsequence) {
    const auto prev = SplitLines("a\nb\nc\nd\n");
    const auto cur = SplitLines("a\nx\nc\n  d\n\ny\n");
    EXPECT_EQ(ChangedLines(prev, cur), (std::vector<bool>{false, true, false, false, false, true}));
    EXPECT_EQ(SplitLines(""), std::vector<std::string>{});
}

TEST(AppExport, CsvAndJsonHoldEveryResult) {
    std::vector<StoredResult> results(2);
    results[0].result.lesson = 3;
    results[0].result.id = "split/03-openmp";
    results[0].result.median_ms = 12.5;
    results[1].result.lesson = 4;
    results[1].result.id = "split/04-one-thread-per-pair";
    results[1].result.recorded = true;
    results[1].origin = Origin::kRecorded;

    results[1].result.params.Set("block", ParamValue::Number(512));
    const std::vector<std::string> names = {"block", "size"};

    const std::vector<std::string> csv = SplitLines(ExportText(results, ExportFormat::kCsv, names));
    ASSERT_EQ(csv.size(), 3u);
    EXPECT_EQ(csv[0], CsvHeader(names) + ",recorded");
    EXPECT_NE(csv[0].find(",block,size,"), std::string::npos) << csv[0];
    EXPECT_EQ(csv[1], CsvRow(results[0].result, names) + ",false");
    EXPECT_EQ(csv[2], CsvRow(results[1].result, names) + ",true");
    EXPECT_NE(csv[2].find(",512,"), std::string::npos) << csv[2];
    EXPECT_EQ(ExportText({}, ExportFormat::kCsv, names), CsvHeader(names) + ",recorded\n");

    const Json all = Json::parse(ExportText(results, ExportFormat::kJson, names));
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0], ToJson(results[0].result));
    EXPECT_EQ(all[1]["id"], "split/04-one-thread-per-pair");
    EXPECT_EQ(Json::parse(ExportText({}, ExportFormat::kJson, names)), Json::array());
}

TEST(AppExport, FileNamesCarryTheLocalTime) {
    setenv("TZ", "UTC", 1);
    tzset();
    const std::time_t t = 1774099501;  // 2026-03-21 13:25:01 UTC
    EXPECT_EQ(ExportFileName(t, ExportFormat::kCsv), "results-20260321-132501.csv");
    EXPECT_EQ(ExportFileName(t, ExportFormat::kJson), "results-20260321-132501.json");
    EXPECT_EQ(ScreenshotPath("/tmp/x", t), "/tmp/x/screenshot-1774099501.png");
}

TEST(AppExport, UnwritableFolderGivesAMessage) {
    const std::string message =
        ExportResults("/proc/version/a", {}, ExportFormat::kCsv, 0, {"size"});
    EXPECT_EQ(message.rfind("Could not write /proc/version/a/results-", 0), 0u) << message;
}

// Files larger than `bytes` cannot be written while it lives (as on a full disk), without root:
// the soft RLIMIT_FSIZE, with SIGXFSZ ignored so that a write fails with EFBIG instead.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes) {
        getrlimit(RLIMIT_FSIZE, &m_saved);
        m_old_handler = signal(SIGXFSZ, SIG_IGN);
        rlimit limited = m_saved;
        limited.rlim_cur = bytes;
        setrlimit(RLIMIT_FSIZE, &limited);
    }
    ~FileSizeLimit() {
        setrlimit(RLIMIT_FSIZE, &m_saved);
        signal(SIGXFSZ, m_old_handler);
    }

private:
    rlimit m_saved{};
    void (*m_old_handler)(int) = nullptr;
};

TEST(AppExport, AFullDiskIsReportedWithThePathAndReasonAndLeavesNoFile) {
    const std::string dir = ::testing::TempDir() + "/export_full/deeper";
    std::vector<StoredResult> results(40);
    for (StoredResult& s : results) s.result.id = "split/03-openmp";
    const std::string path = dir + "/" + ExportFileName(1774099501, ExportFormat::kJson);
    std::remove(path.c_str());  // from an earlier run
    std::string message;
    {
        FileSizeLimit limit(512);
        message = ExportResults(dir, results, ExportFormat::kJson, 1774099501, {"size"});
    }
    EXPECT_EQ(message.rfind("Could not write " + path + ": ", 0), 0u) << message;
    EXPECT_NE(message.find("File too large"), std::string::npos) << message;
    EXPECT_NE(access(path.c_str(), F_OK), 0) << "a cut file was left under the final name";
    // And with room, the same export succeeds (the folder and its parent were created).
    message = ExportResults(dir, results, ExportFormat::kJson, 1774099501, {"size"});
    EXPECT_EQ(message, "Exported 40 results to " + path);
}

TEST(AppExport, AScreenshotOnAFullDiskIsReportedAndLeavesNoFile) {
    const std::string path = ::testing::TempDir() + "/screenshot_full.png";
    std::remove(path.c_str());
    std::vector<unsigned char> pixels(64 * 64 * 4);
    for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<unsigned char>(i * 7919);
    std::string error;
    bool ok = true;
    {
        FileSizeLimit limit(512);
        ok = WritePng(path, 64, 64, pixels.data(), &error);
    }
    EXPECT_FALSE(ok);
    EXPECT_NE(error.find(path), std::string::npos) << error;
    EXPECT_NE(error.find("File too large"), std::string::npos) << error;
    EXPECT_NE(access(path.c_str(), F_OK), 0) << "a cut PNG was left under the final name";
    error.clear();
    EXPECT_TRUE(WritePng(path, 64, 64, pixels.data(), &error)) << error;
}

TEST(AppExport, WithoutHomeExportsGoToASaneFolderAndSaySo) {
    std::string notice;
    EXPECT_EQ(DefaultExportDir("/home/ada", nullptr, 1000, &notice),
              "/home/ada/cuda-lessons-exports");
    EXPECT_EQ(notice, "");
    EXPECT_EQ(DefaultExportDir(nullptr, "/data/ada", 1000, &notice),
              "/data/ada/cuda-lessons-exports");
    EXPECT_NE(notice.find("HOME is not set"), std::string::npos) << notice;
    EXPECT_NE(notice.find("/data/ada/cuda-lessons-exports"), std::string::npos) << notice;
    EXPECT_EQ(DefaultExportDir("", "", 1000, &notice), "/tmp/cuda-lessons-1000");
    EXPECT_NE(notice.find("/tmp/cuda-lessons-1000"), std::string::npos) << notice;
}

TEST(AppWords, EveryWordHasBothLanguagesAndItsGlyphsInTheAtlas) {
    const std::vector<std::string_view> texts = UiTexts(Catalog());
    for (const Word* w : kAllWords) {
        EXPECT_STRNE(w->en, "");
        EXPECT_STRNE(w->zh, "");
        EXPECT_NE(std::find(texts.begin(), texts.end(), std::string_view(w->zh)), texts.end())
            << w->en;
        EXPECT_STREQ(Tr("zh", *w), w->zh);
        EXPECT_STREQ(Tr("en", *w), w->en);
    }
}

// The printf conversions of a format, in argument order ("%.2f x %d" and "%2$d %1$.2f" both
// give "f d"): a translation must take the same arguments.
std::vector<std::string> Conversions(const std::string& format) {
    std::vector<std::pair<int, std::string>> found;  // (argument position, conversion)
    int next = 1;
    for (size_t i = 0; i < format.size(); ++i) {
        if (format[i] != '%') continue;
        if (i + 1 < format.size() && format[i + 1] == '%') {
            ++i;
            continue;
        }
        size_t j = i + 1;
        int position = next++;
        const size_t digits_end = format.find_first_not_of("0123456789", j);
        if (digits_end != std::string::npos && digits_end > j && format[digits_end] == '$') {
            position = std::stoi(format.substr(j, digits_end - j));
            j = digits_end + 1;
        }
        std::string type;  // the length modifier and the conversion
        for (; j < format.size(); ++j) {
            const char ch = format[j];
            if (std::isalpha(static_cast<unsigned char>(ch))) type += ch;
            if (std::isalpha(static_cast<unsigned char>(ch)) && ch != 'l') break;
        }
        found.emplace_back(position, type);
        i = j;
    }
    std::sort(found.begin(), found.end());
    std::vector<std::string> types;
    for (const auto& f : found) types.push_back(f.second);
    return types;
}

// A word missing from the table is a test failure, not an English string in a Chinese page:
// every Word words.h declares is in kAllWords (the atlas and this test walk that list), has
// both languages, and its Chinese takes the same printf arguments as its English.
TEST(AppWords, EveryDeclaredWordIsListedAndItsTranslationTakesTheSameArguments) {
    std::ifstream in(std::string(LESSONS_SOURCE_DIR) + "/app/words.h");
    ASSERT_TRUE(in);
    std::stringstream text;
    text << in.rdbuf();
    const std::string source = text.str();
    size_t declared = 0;
    for (size_t at = 0; (at = source.find("inline constexpr Word k", at)) != std::string::npos;
         ++at)
        ++declared;
    EXPECT_EQ(declared, std::size(kAllWords)) << "a Word is missing from kAllWords";
    std::set<const Word*> unique(std::begin(kAllWords), std::end(kAllWords));
    EXPECT_EQ(unique.size(), std::size(kAllWords)) << "a Word is listed twice";
    for (const Word* w : kAllWords) {
        EXPECT_NE(std::string(w->en), std::string(w->zh)) << w->en << ": not translated";
        EXPECT_EQ(Conversions(w->en), Conversions(w->zh)) << w->en << " / " << w->zh;
    }
    EXPECT_EQ(Conversions("%.2f x %d"), (std::vector<std::string>{"f", "d"}));
    EXPECT_EQ(Conversions("%2$d, %1$.2f%%"), (std::vector<std::string>{"f", "d"}));
    EXPECT_EQ(Conversions("%llu"), (std::vector<std::string>{"llu"}));
}

// The panels draw their words through the table: a button, checkbox, header or text drawn
// from an English literal would stay English in a Chinese page. (Symbols, format-only
// literals and the few names that are the same in both languages are allowed.)
TEST(AppWords, PanelsDrawNoEnglishLiterals) {
    const std::set<std::string> allowed = {"English", "ms", "CSV", "JSON"};
    const std::regex drawn(
        R"re(ImGui::(Button|SmallButton|Checkbox|RadioButton|Text|TextDisabled|TextUnformatted|SetTooltip|CollapsingHeader|Selectable|TextColored\([^,]+,)\s*\(?\s*"([^"]*)")re");
    const std::regex wrapped(R"re(DrawWrappedText\(\s*"([^"]*)")re");
    const std::regex word("[A-Za-z]{2,}");
    for (const char* file : {"ui.cpp", "status_bar.cpp", "controls_panel.cpp", "charts_panel.cpp",
                             "results_table.cpp", "lesson_list.cpp", "code_view.cpp"}) {
        std::ifstream in(std::string(LESSONS_SOURCE_DIR) + "/app/" + file);
        ASSERT_TRUE(in) << file;
        std::stringstream text;
        text << in.rdbuf();
        const std::string source = text.str();
        for (const std::regex* re : {&drawn, &wrapped}) {
            for (auto it = std::sregex_iterator(source.begin(), source.end(), *re);
                 it != std::sregex_iterator(); ++it) {
                const std::string literal = (*it)[it->size() - 1].str();
                // Format letters ("%s", "%d  %s\n%s: %s") are not words.
                const std::string words = std::regex_replace(
                    literal, std::regex("%[0-9.$l]*[a-z]|\\\\n|\\\\x[0-9A-Fa-f]{2}"), " ");
                if (allowed.count(literal) || !std::regex_search(words, word)) continue;
                ADD_FAILURE() << file << " draws \"" << literal << "\" without the words table";
            }
        }
    }
}

TEST(AppChart, TicksAndLabels) {
    EXPECT_EQ(chart::Ticks(0, 10, false, 6), (std::vector<double>{0, 2, 4, 6, 8, 10}));
    EXPECT_EQ(chart::Ticks(1, 1000, true, 6), (std::vector<double>{1, 10, 100, 1000}));
    EXPECT_EQ(chart::AxisTicks(20, 1500, true, 8, {}), chart::Ticks(20, 1500, true, 8));
    EXPECT_EQ(chart::AxisTicks(20, 1500, true, 8, {1024, 32, 64, 64, 2048, 128}),
              (std::vector<double>{32, 64, 128, 1024}))
        << "the values given, inside the range, sorted, once each";
    EXPECT_EQ(chart::AxisTicks(0, 10, false, 8, {0, 3, 7}), (std::vector<double>{0, 3, 7}));
    EXPECT_EQ(chart::FormatTick(1500000), "1.5M");
    EXPECT_EQ(chart::FormatTick(0.25), "0.25");
    EXPECT_EQ(chart::FormatBytesTick(1024.0 * 1024 * 64), "64 MiB");
}

TEST(AppRecorded, EmbeddedResultsAreGpuLessonsFromTheReferenceGpu) {
    std::string problems;
    const auto recorded = LoadRecordedResults(&problems);
    EXPECT_TRUE(problems.empty()) << problems;
    ASSERT_FALSE(recorded.empty());
    for (const RunResult& r : recorded) {
        EXPECT_EQ(r.kind, StepKind::kGpu);
        EXPECT_TRUE(r.recorded);
        EXPECT_TRUE(r.verified);
        EXPECT_FALSE(r.Device().empty());
        EXPECT_TRUE(r.Number("size") || (r.Number("m") && r.Number("n")))
            << r.id << ": recorded before parameters were named";
        EXPECT_NE(Catalog().FindLesson(r.lesson), nullptr) << r.id;
    }
}

// --- Both languages: every screen walked in Chinese, every string looked up ---

namespace {

std::string Joined(const std::vector<std::string>& misses) {
    std::string out;
    for (const std::string& m : misses) out += "\n  \"" + m + "\"";
    return out;
}

// Walks every screen the page has, in the UI's language: every lesson of the registry with
// every section open (prediction, steps, summary, breakdown, sweeps, results), after running
// the whole chapter and both sweeps; hovers every control and chart the page remembers (their
// tooltips), opens every combo (its choices and their notes), both languages' radio buttons
// stay. New lessons, chapters and sections are walked without changing this function: it
// iterates over the registry and over whatever the page records in ui.rects.
void WalkEveryScreen(AppLogic* t, UiState& ui, const Registry& reg,
                     const std::function<void()>& frame, const std::function<void(int)>& key,
                     const std::function<void(const std::string&)>& click) {
    ImGuiIO& io = ImGui::GetIO();
    ui.open_all = true;
    for (const Lesson& l : reg.lessons()) {
        SelectLesson(ui, reg, l.number);
        frame();
        key(kKeyC);  // the whole chapter
        if (l.FindParam("block")) key(kKeyS);
        frame();
        frame();
        std::vector<std::string> names;
        for (const auto& [name, rect] : ui.rects) names.push_back(name);
        for (const std::string& name : names) {
            if (!ui.rects.count(name)) continue;
            const ImVec4 r = ui.rects[name];
            io.MousePos = ImVec2((r.x + r.z) / 2, (r.y + r.w) / 2);
            frame();
            frame();
        }
        for (const ParamSpec& p : l.params)
            if (p.type == ParamType::kChoice && ui.rects.count(p.name)) {
                click(p.name);  // opens the combo: every choice and its note drawn
                const ImVec4 r = ui.rects.count(p.name) ? ui.rects[p.name] : ImVec4();
                // Hover the first items of the list under the combo (their notes).
                for (int i = 1; i <= static_cast<int>(p.choices.size()); ++i) {
                    io.MousePos = ImVec2(
                        r.x + 10, r.w + ImGui::GetFontSize() * (static_cast<float>(i) - 0.5f) + 4);
                    frame();
                    frame();
                }
                click("title");  // a click elsewhere closes it
            }
        io.MousePos = ImVec2(-1, -1);
        frame();
    }
    ui.open_all = false;
    (void)t;
}

}  // namespace

TEST_F(AppLogic, EveryScreenInChineseHasNoUntranslatedString) {
    ui.settings.language = "zh";
    Frames(2);
    ClearTranslationMisses();
    WalkEveryScreen(
        this, ui, registry, [this] { Frame(); }, [this](int k) { Key(k); },
        [this](const std::string& n) { Click(n); });
    EXPECT_TRUE(TranslationMisses().empty())
        << "shown in English in a Chinese page (give each its Chinese: README, \"Both "
           "languages\"):"
        << Joined(TranslationMisses());
    // The walk saw the new screens too.
    EXPECT_GE(ui.summary_rows, 1);
}

TEST_F(AppLogic, EveryScreenInChineseWithAGpuWorkerAndItsNotices) {
    worker_has_gpu = true;
    controller->RestartWorker();
    Frames(3);
    ui.settings.language = "zh";
    // The controller's notices, as the status bar shows them.
    worker->wrong_lesson = 25;  // a wrong result: its check's message in the tooltips
    ui.messages.push_back("Exported 3 results to /tmp/x.csv");
    controller->notices().push_back(
        "The worker stopped (exit code 3: a CUDA error left the GPU context unusable) while "
        "running lesson 4. A new worker was started; every result so far is kept.");
    ClearTranslationMisses();
    WalkEveryScreen(
        this, ui, registry, [this] { Frame(); }, [this](int k) { Key(k); },
        [this](const std::string& n) { Click(n); });
    EXPECT_TRUE(TranslationMisses().empty()) << Joined(TranslationMisses());
    EXPECT_EQ(Say("zh", controller->notices().back()),
              "工作进程在运行 第 4 课 时停止了（退出码 3：CUDA 错误使 GPU "
              "上下文无法再用）。已启动新的工作进程；此前的结果全部保留。");
}

// The walk fails where a string has no Chinese: a chapter whose title, choice names and notes
// were given in English only is caught by the same walk, by name.
TEST_F(AppLogicMadeUpChapter, AChapterWithoutChineseFailsTheWalk) {
    ui.settings.language = "zh";
    Frames(2);
    ClearTranslationMisses();
    WalkEveryScreen(
        this, ui, registry, [this] { Frame(); }, [this](int k) { Key(k); },
        [this](const std::string& n) { Click(n); });
    const std::vector<std::string> misses = TranslationMisses();
    for (const char* english : {"Tiles", "Tiled", "64x64", "128x128", "four warps"})
        EXPECT_NE(std::find(misses.begin(), misses.end(), english), misses.end())
            << english << " was not reported:" << Joined(misses);
}

TEST(AppWords, SayLooksUpExactPhrasesAndMessageFormsAndRecordsMisses) {
    ClearTranslationMisses();
    EXPECT_EQ(Say("en", "scalar"), "scalar");
    EXPECT_EQ(Say("zh", "scalar"), "标量");
    EXPECT_EQ(Say("zh", "lesson 12"), "第 12 课") << "a Word's printf form";
    EXPECT_EQ(Say("zh", "exit code 3: a CUDA error left the GPU context unusable"),
              "退出码 3：CUDA 错误使 GPU 上下文无法再用")
        << "the exact phrase before the form \"exit code %s\"";
    EXPECT_EQ(Say("zh", "exit code 9"), "退出码 9");
    EXPECT_EQ(Say("zh", "killed by signal 11"), "被信号 11 终止");
    EXPECT_TRUE(TranslationMisses().empty()) << Joined(TranslationMisses());
    EXPECT_EQ(Say("zh", "an English sentence nobody translated"),
              "an English sentence nobody translated");
    EXPECT_EQ(TranslationMisses(),
              std::vector<std::string>{"an English sentence nobody translated"});
    EXPECT_EQ(Say("en", "another one"), "another one");
    EXPECT_EQ(TranslationMisses().size(), 1u) << "English is never a miss";
    ClearTranslationMisses();
}

// --- Predict, then measure; the chapter summary; bars that match every parameter ---

namespace {

bool Has(const std::vector<std::string>& lines, const std::string& text) {
    for (const std::string& l : lines)
        if (l.find(text) != std::string::npos) return true;
    return false;
}

std::string Lines(const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& l : lines) out += "\n  " + l;
    return out;
}

}  // namespace

TEST_F(AppLogic, ThePredictionIsComputedLiveFromTheWorkersCeilingsAndTheSettings) {
    worker_has_gpu = true;
    controller->RestartWorker();
    Frames(3);
    Click("lesson_4");
    ui.run.params["size"] = std::to_string(uint64_t(1) << 30);
    ui.run.params["data"] = "none";
    Frames(3);
    EXPECT_TRUE(ui.rects.count("prediction")) << "a GPU lesson's page has the box";
    const std::vector<std::string>& p = ui.prediction;
    // 1 GiB read at 3150 GB/s: 0.341 ms; 1 GiB over PCIe at 55 GB/s: 19.5 ms.
    EXPECT_TRUE(Has(p,
                    "Work at these settings: 1 GiB read, 0 B written; over PCIe 1 GiB in, 8 B "
                    "out"))
        << Lines(p);
    EXPECT_TRUE(Has(p,
                    "Ceilings measured on Fake H100 by the worker: read 3150 GB/s, copy 3000 "
                    "GB/s, H2D 55 GB/s, D2H 50 GB/s"))
        << Lines(p);
    EXPECT_TRUE(Has(p, "Lower bound: kernel 0.341 ms (1 GiB at 3150 GB/s); H2D 19.5 ms"))
        << Lines(p);
    EXPECT_TRUE(Has(p, "copies and kernel in turn")) << Lines(p);
    // Little's law: 2 B x 132 x 8 blocks x 256 threads / (600 cycles at 1980 MHz = 303 ns).
    EXPECT_TRUE(
        Has(p,
            "2 B per thread x 270336 resident threads (this kernel: 132 SMs x 8 blocks x 256 "
            "threads)"))
        << Lines(p);
    EXPECT_TRUE(Has(p, "/ 303 ns = 1784 GB/s at most")) << Lines(p);
    EXPECT_TRUE(Has(p, "600 cycles at the 1980 MHz SM clock")) << Lines(p);
    EXPECT_TRUE(Has(p, "Measured: not yet")) << Lines(p);

    // A smaller size changes the prediction at once, without running anything.
    ui.run.params["size"] = std::to_string(uint64_t(1) << 20);
    Frames(2);
    EXPECT_TRUE(Has(ui.prediction, "1 MiB read")) << Lines(ui.prediction);
    ui.run.params["size"] = std::to_string(uint64_t(1) << 30);
    Click("run");
    Frames(2);
    // The fake worker times 50 ms for the whole run: the bound is 19.52 + 0.341 + ~0 ms.
    const double bound = 1073741824.0 / 55e9 * 1e3 + 1073741824.0 / 3150e9 * 1e3 + 8 / 50e9 * 1e3;
    EXPECT_TRUE(Has(ui.prediction,
                    "Measured: whole run 50.0 ms, " + Fixed(50 / bound, 2) + "\xC3\x97 the bound"))
        << Lines(ui.prediction);
    EXPECT_TRUE(Has(ui.prediction, "The measured 20 GB/s implies")) << Lines(ui.prediction);

    // In Chinese too.
    ui.settings.language = "zh";
    Frames(2);
    EXPECT_TRUE(Has(ui.prediction, "下界：内核 0.341 ms（以 3150 GB/s 处理 1 GiB）"))
        << Lines(ui.prediction);
    EXPECT_TRUE(Has(ui.prediction, "实测：整次运行 50.0 ms")) << Lines(ui.prediction);
    // A CPU lesson's page has no box.
    Click("lesson_3");
    EXPECT_FALSE(ui.rects.count("prediction"));
}

TEST_F(AppLogic, WithoutAGpuThePredictionUsesTheRecordedCeilingLabelledAsSuch) {
    Click("lesson_20");
    ui.run.params["size"] = std::to_string(uint64_t(1) << 30);
    Frames(3);
    const RunResult* recorded =
        ShownResult(*controller, registry, *registry.FindLesson(20), ui.run);
    ASSERT_TRUE(recorded && recorded->recorded && recorded->ceiling);
    EXPECT_TRUE(Has(ui.prediction,
                    "No GPU here: ceilings recorded with this chapter's results on NVIDIA H100 "
                    "80GB HBM3 on " +
                        recorded->timestamp.substr(0, 10) + ": read " +
                        Fixed(*recorded->ceiling, 0) + " GB/s"))
        << Lines(ui.prediction);
    const double bound = 1073741824.0 / *recorded->ceiling / 1e6;
    EXPECT_TRUE(Has(ui.prediction, "Measured: kernel " + app::Ms(*recorded->Part("kernel")) +
                                       " ms, " + Fixed(*recorded->Part("kernel") / bound, 2)))
        << Lines(ui.prediction);
    EXPECT_TRUE(Has(ui.prediction, "Little's law needs the GPU's SM count and clock"))
        << Lines(ui.prediction);
    // Lesson 11 was compared with the host-to-device copy: its recorded result gives that
    // ceiling; none of the chapter's results was compared with the copy bandwidth or the fp32
    // peak, so those stay unknown rather than made up.
    Click("lesson_11");
    Frames(2);
    EXPECT_TRUE(Has(ui.prediction, "copy ? GB/s")) << Lines(ui.prediction);
    EXPECT_TRUE(Has(ui.prediction, "H2D 55 GB/s")) << Lines(ui.prediction);
    EXPECT_FALSE(Has(ui.prediction, "H2D ? GB/s")) << Lines(ui.prediction);
}

// Lessons 41 and 42 are held to the TF32 ceiling, which their recorded H100 results carry
// (measured in that run with cuBLAS): without a GPU the box predicts lesson 42 from it and says
// which peak it is; lesson 40 stays on the fp32 peak.
TEST_F(AppLogic, WithoutAGpuTheTensorCoreStepsArePredictedFromTheRecordedTf32Ceiling) {
    SelectLesson(ui, registry, 42);
    for (const char* d : {"m", "n", "k"}) ui.run.params[d] = "4096";
    Frames(3);
    const RunResult* r42 = ShownResult(*controller, registry, *registry.FindLesson(42), ui.run);
    ASSERT_TRUE(r42 && r42->recorded && r42->ceiling) << "the recorded H100 lesson 42";
    EXPECT_EQ(r42->work.bound, Bound::kTf32);
    const double tf32 = *r42->ceiling;
    EXPECT_GT(tf32, 100000);
    EXPECT_TRUE(Has(ui.prediction, "TF32 peak: " + Fixed(tf32, 0) + " GFLOP/s (cuBLAS"))
        << Lines(ui.prediction);
    EXPECT_TRUE(Has(ui.prediction, "137.44G flop at " + Fixed(tf32, 0) + " GFLOP/s"))
        << Lines(ui.prediction);
    SelectLesson(ui, registry, 40);
    Frames(2);
    EXPECT_FALSE(Has(ui.prediction, "TF32 peak")) << Lines(ui.prediction);
    EXPECT_TRUE(Has(ui.prediction, "137.44G flop at ")) << Lines(ui.prediction);
    const RunResult* r40 = ShownResult(*controller, registry, *registry.FindLesson(40), ui.run);
    ASSERT_TRUE(r40 && r40->recorded && r40->ceiling);
    EXPECT_TRUE(Has(ui.prediction, "137.44G flop at " + Fixed(*r40->ceiling, 0) + " GFLOP/s"))
        << Lines(ui.prediction);
}

TEST_F(AppLogic, TheChapterSummaryHasEveryStepWithSpeedupsAndTheSeedFigures) {
    ImGui::GetIO().DisplaySize = ImVec2(1500, 2400);  // the summary below the charts is in view
    Click("lesson_20");
    ui.run.params["size"] = std::to_string(uint64_t(1) << 30);
    Key(kKeyC);  // lesson 19 runs live (50 ms in the fake worker); 20-26 are recorded
    Frames(3);
    const Chapter& chapter = *registry.FindChapter("reduce");
    int base = -1;
    std::vector<SummaryRow> rows = SummaryRows(
        registry, chapter,
        [&](const Lesson& l) { return ShownResult(*controller, registry, l, ui.run); }, &base);
    ASSERT_EQ(rows.size(), registry.LessonsOf(chapter).size());
    ASSERT_GE(rows.size(), 8u);  // 19-26, and any lesson added since
    EXPECT_EQ(base, 19);
    ASSERT_TRUE(rows[0].result && !rows[0].result->recorded);
    EXPECT_FALSE(rows[0].vs_previous);
    EXPECT_FALSE(rows[0].vs_first) << "the first step is the baseline";
    for (size_t i = 1; i < 8; ++i) {
        ASSERT_TRUE(rows[i].result && rows[i].result->recorded) << rows[i].lesson->number;
        const RunResult* prev = rows[i - 1].result;
        ASSERT_TRUE(rows[i].vs_previous && rows[i].vs_first);
        EXPECT_DOUBLE_EQ(*rows[i].vs_previous, prev->median_ms / rows[i].result->median_ms);
        EXPECT_DOUBLE_EQ(*rows[i].vs_first, 50.0 / rows[i].result->median_ms);
    }
    EXPECT_EQ(rows[1].lesson->seed.text_en, "0.970 ms (2^20 floats, block 1024)");
    // Without the live CPU step (another size), the cumulative speed-up is over lesson 20.
    rows = SummaryRows(
        registry, chapter,
        [&](const Lesson& l) {
            return l.number == 19 ? nullptr : ShownResult(*controller, registry, l, ui.run);
        },
        &base);
    EXPECT_EQ(base, 20);
    EXPECT_FALSE(rows[1].vs_first);
    ASSERT_TRUE(rows[7].vs_first);
    EXPECT_DOUBLE_EQ(*rows[7].vs_first, rows[1].result->median_ms / rows[7].result->median_ms);
    EXPECT_EQ(rows[1].lesson->seed.source, "seed 003");
    // Drawn on the page, open or walked.
    ui.open_all = true;
    Frames(2);
    EXPECT_TRUE(ui.rects.count("summary_table"));
    EXPECT_EQ(ui.summary_rows, static_cast<int>(rows.size()));
}

TEST_F(AppLogic, AToggledRunIsDrawnOnlyWhenThePageHasTheSameToggle) {
    worker_has_gpu = true;
    controller->RestartWorker();
    Frames(3);
    Click("lesson_25");
    ui.run.params["loads"] = "scalar";
    Frames(1);
    sent.clear();
    Click("run");  // lesson 25 with scalar loads, and lesson 24
    ASSERT_EQ(Runs().size(), 2u);
    for (const Json& run : Runs())
        if (run["lesson"] == 25) {
            EXPECT_EQ(run["params"]["loads"], "scalar");
        }
    auto bar = [&](int lesson) {
        for (const chart::Bar& b : ui.step_bars)
            if (b.label == "#" + std::to_string(lesson)) return b;
        return chart::Bar{};
    };
    EXPECT_GT(bar(25).value, 0) << "the scalar run, at the page's toggle";
    EXPECT_NE(bar(25).tooltip.find("loads scalar"), std::string::npos) << bar(25).tooltip;
    // Back to the lesson as written: the scalar run is not lesson 25's bar.
    ui.run.params["loads"] = "float4";
    Frames(2);
    EXPECT_EQ(bar(25).value, 0) << bar(25).tooltip;
    EXPECT_NE(bar(25).tooltip.find("not measured at block 512, loads float4"), std::string::npos)
        << bar(25).tooltip;
    EXPECT_GT(bar(24).value, 0) << "lesson 24 has no such toggle: its run still matches";
    // The block size counts too: a run at another block size is not this page's bar.
    ui.run.params["loads"] = "scalar";
    ui.run.params["block"] = "128";
    Frames(2);
    EXPECT_EQ(bar(25).value, 0);
    ui.run.params["block"] = "512";
    Frames(2);
    EXPECT_GT(bar(25).value, 0);
}
