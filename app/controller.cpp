#include "controller.h"

#include <algorithm>

#include "errors.h"
#include "report.h"
#include "units.h"

namespace lessons::app {

const std::map<std::string, std::string_view>& EmbeddedReferenceFiles();  // generated

namespace {

constexpr int kMaxExitsBeforeGivingUp = 3;
constexpr std::chrono::seconds kCrashWindow(20);

std::string ExitDescription(const Json& m) {
    const int code = m.value("code", -1), sig = m.value("signal", 0);
    if (sig) return "killed by signal " + std::to_string(sig);
    if (code == 3) return "exit code 3: a CUDA error left the GPU context unusable";
    return "exit code " + std::to_string(code);
}

}  // namespace

std::vector<RunResult> LoadRecordedResults(std::string* problems) {
    std::vector<RunResult> out;
    for (const auto& [path, text] : EmbeddedReferenceFiles()) {
        const Json array = Json::parse(text.begin(), text.end(), nullptr, false);
        if (!array.is_array()) {
            if (problems) *problems += path + " is not a JSON array; ";
            continue;
        }
        for (const Json& j : array) {
            try {
                RunResult r = RunResultFromJson(j);
                if (r.kind != StepKind::kGpu) continue;  // CPU lessons always run live
                r.recorded = true;
                out.push_back(std::move(r));
            } catch (const std::exception& e) {
                if (problems) *problems += path + ": " + e.what() + "; ";
            }
        }
    }
    return out;
}

Controller::Controller(const Registry& registry, WorkerFactory factory,
                       std::vector<RunResult> recorded)
    : m_registry(registry), m_factory(std::move(factory)) {
    for (RunResult& r : recorded)
        m_results.push_back({std::move(r), Origin::kRecorded, m_sequence++});
}

void Controller::Start() {
    m_started = true;
    Restart();
}

uint64_t EffectiveSize(const Chapter& chapter, uint64_t size_bytes) {
    return size_bytes / chapter.element_bytes * chapter.element_bytes;
}

DataKind EffectiveData(const Chapter& chapter, DataKind data) {
    const auto& kinds = chapter.data_kinds;
    return std::find(kinds.begin(), kinds.end(), data) != kinds.end() ? data : kinds.front();
}

void Controller::RestartWorker() {
    m_recent_exits.clear();
    Restart();
}

void Controller::Restart() {
    m_pending.clear();
    m_attribute_requests.clear();
    m_worker = m_factory();
    std::string error;
    if (!m_worker || !m_worker->Start(&error)) {
        m_start_error = error.empty() ? "the worker could not be started" : error;
        m_worker.reset();
        m_notices.push_back(
            "Cannot start the worker: " + m_start_error +
            ". Lessons cannot run; texts, code and recorded results stay available.");
        return;
    }
    m_start_error.clear();
    Send({{"op", "list"}}, {"the lesson list", Origin::kRun});
    Send({{"op", "info"}}, {"device information", Origin::kRun});
}

void Controller::Send(Json request, Pending pending) {
    const int id = m_next_id++;
    request["id"] = id;
    if (!m_worker || !m_worker->Send(request)) return;  // its exit message will follow
    m_pending[id] = std::move(pending);
}

std::vector<const Lesson*> Controller::WithPrevious(const Lesson& lesson) const {
    std::vector<const Lesson*> out;
    if (lesson.previous)
        if (const Lesson* prev = m_registry.FindLesson(lesson.previous)) out.push_back(prev);
    out.push_back(&lesson);
    return out;
}

Json Controller::BaseRequest(const char* op, const Lesson& lesson, const RunSettings& s) {
    const Chapter& chapter = m_registry.ChapterOf(lesson);
    Json r{{"op", op}, {"lesson", lesson.number}};
    r["size"] = EffectiveSize(chapter, s.size_bytes);
    r["data"] = ToString(EffectiveData(chapter, s.data));
    if (lesson.blocks)
        r["block"] = lesson.blocks->Accepts(s.block) ? s.block : lesson.blocks->default_block;
    if (lesson.uses_threads && s.threads > 0) r["threads"] = s.threads;
    if (lesson.kind == StepKind::kGpu) r["cold_l2"] = s.cold_l2;
    r["min_time_s"] = 0.2;
    return r;
}

void Controller::CancelAll() {
    if (!m_pending.empty() && m_worker && m_worker->Running())
        Send({{"op", "cancel"}}, {"cancel", Origin::kRun});
}

const KernelAttributes* Controller::Attributes(const Lesson& lesson, int block) {
    const auto key = std::make_pair(lesson.number, block);
    auto it = m_attributes.find(key);
    if (it != m_attributes.end()) return &it->second;
    // (The GUI's catalogue has no GPU code, so the lesson's own attributes function is null
    // here: whether it has a kernel is what counts.)
    if (lesson.kind != StepKind::kGpu || lesson.library || Mode(lesson) != LessonMode::kLive)
        return nullptr;
    for (const auto& [id, asked] : m_attribute_requests)
        if (asked == key) return nullptr;  // on its way
    const int id = m_next_id;
    Send({{"op", "attributes"}, {"lesson", lesson.number}, {"block", block}},
         {"kernel attributes of lesson " + std::to_string(lesson.number), Origin::kRun});
    if (m_pending.count(id)) m_attribute_requests[id] = key;
    return nullptr;
}

void Controller::RunWithPrevious(const Lesson& lesson, const RunSettings& settings) {
    CancelAll();
    for (const Lesson* l : WithPrevious(lesson)) {
        if (Mode(*l) != LessonMode::kLive) continue;
        Send(BaseRequest("run", *l, settings),
             {"lesson " + std::to_string(l->number), Origin::kRun});
    }
}

void Controller::SweepBlocks(const Lesson& lesson, const RunSettings& settings) {
    CancelAll();
    for (const Lesson* l : WithPrevious(lesson)) {
        if (Mode(*l) != LessonMode::kLive || !l->blocks) continue;
        Json blocks = Json::array();
        for (int b = 32; b <= 1024; b *= 2)
            if (l->blocks->Accepts(b)) blocks.push_back(b);
        Json r = BaseRequest("sweep", *l, settings);
        r.erase("block");
        r["blocks"] = blocks;
        Send(r, {"block sweep of lesson " + std::to_string(l->number), Origin::kBlockSweep});
    }
}

void Controller::SweepSizes(const Lesson& lesson, const RunSettings& settings) {
    CancelAll();
    for (const Lesson* l : WithPrevious(lesson)) {
        if (Mode(*l) != LessonMode::kLive) continue;
        const Chapter& chapter = m_registry.ChapterOf(*l);
        Json sizes = Json::array();
        for (uint64_t s = 1024; s <= std::max<uint64_t>(settings.size_bytes, 1024); s *= 2)
            sizes.push_back(EffectiveSize(chapter, s));
        Json r = BaseRequest("sweep", *l, settings);
        r.erase("size");
        r["sizes"] = sizes;
        Send(r, {"size sweep of lesson " + std::to_string(l->number), Origin::kSizeSweep});
    }
}

void Controller::Update() {
    if (!m_worker) return;
    for (const Json& m : m_worker->Drain()) Handle(m);
}

void Controller::Handle(const Json& m) {
    const std::string type = m.value("type", "");
    const int id = m.contains("id") && m["id"].is_number_integer() ? m["id"].get<int>() : -1;
    auto pending = m_pending.find(id);
    if (type == "worker_exit") {
        HandleExit(m);
    } else if (type == "list") {
        for (const Json& l : m["lessons"])
            m_available[l.value("lesson", 0)] = {l.value("available", false),
                                                 l["unavailable_reason"].is_string()
                                                     ? l["unavailable_reason"].get<std::string>()
                                                     : std::string()};
    } else if (type == "info") {
        m_device = m["device"];
    } else if (type == "attributes") {
        m_attributes[{m.value("lesson", 0), m.value("block", 0)}] =
            KernelAttributesFromJson(m["attributes"]);
    } else if (type == "progress") {
        if (pending != m_pending.end()) {
            pending->second.done = m.value("done", 0);
            pending->second.total = m.value("total", 0);
        }
    } else if (type == "result") {
        try {
            StoredResult s{RunResultFromJson(m["result"]),
                           pending != m_pending.end() ? pending->second.origin : Origin::kRun,
                           m_sequence++};
            m_results.push_back(std::move(s));
        } catch (const std::exception& e) {
            m_notices.push_back(std::string("A result could not be read: ") + e.what());
        }
    } else if (type == "error") {
        std::string what = pending != m_pending.end() ? pending->second.what + ": " : std::string();
        m_notices.push_back(what + m.value("error", std::string("unknown error")) +
                            (m.value("fatal", false) ? " (the worker will be restarted)" : ""));
    } else if (type == "done") {
        if (pending != m_pending.end()) m_pending.erase(pending);
        m_attribute_requests.erase(id);  // answered, or cancelled: may be asked again
    }
}

void Controller::HandleExit(const Json& m) {
    std::string notice = "The worker stopped (" + ExitDescription(m) + ")";
    if (!m_pending.empty()) notice += " while running " + BusyWith();
    const auto now = std::chrono::steady_clock::now();
    m_recent_exits.push_back(now);
    while (!m_recent_exits.empty() && now - m_recent_exits.front() > kCrashWindow)
        m_recent_exits.pop_front();
    m_pending.clear();
    m_attribute_requests.clear();
    if (static_cast<int>(m_recent_exits.size()) >= kMaxExitsBeforeGivingUp) {
        m_notices.push_back(notice + ". It stopped " + std::to_string(m_recent_exits.size()) +
                            " times in a short while, so it is not restarted; use Restart worker "
                            "in the status bar. Every result so far is kept.");
        m_worker.reset();
        return;
    }
    m_notices.push_back(notice + ". A new worker was started; every result so far is kept.");
    ++m_restarts;
    Restart();
}

float Controller::Progress() const {
    for (const auto& [id, p] : m_pending)
        if (p.total > 0) return std::min(1.0f, float(p.done) / float(p.total));
    return -1.0f;
}

std::string Controller::BusyWith() const {
    std::string out;
    for (const auto& [id, p] : m_pending) {
        if (p.what == "cancel") continue;
        out += (out.empty() ? "" : ", ") + p.what;
    }
    return out;
}

LessonMode Controller::Mode(const Lesson& lesson) const {
    auto it = m_available.find(lesson.number);
    if (it != m_available.end() && it->second.first) return LessonMode::kLive;
    if (lesson.kind == StepKind::kGpu)
        for (const StoredResult& s : m_results)
            if (s.origin == Origin::kRecorded && s.result.lesson == lesson.number)
                return LessonMode::kRecorded;
    return it == m_available.end() ? LessonMode::kUnknown : LessonMode::kUnavailable;
}

std::string Controller::UnavailableReason(const Lesson& lesson) const {
    auto it = m_available.find(lesson.number);
    if (it != m_available.end()) return it->second.second;
    return m_worker ? "waiting for the worker" : "no worker is running";
}

const StoredResult* Controller::Latest(int lesson, uint64_t size_bytes, DataKind data) const {
    const StoredResult* best = nullptr;
    for (const StoredResult& s : m_results) {
        if (s.result.lesson != lesson || s.origin == Origin::kRecorded) continue;
        if (s.result.size_bytes != size_bytes || s.result.data != ToString(data)) continue;
        if (!best || s.sequence > best->sequence) best = &s;
    }
    return best;
}

const StoredResult* Controller::LatestAnySize(int lesson) const {
    const StoredResult* best = nullptr;
    for (const StoredResult& s : m_results)
        if (s.result.lesson == lesson && (!best || s.sequence > best->sequence)) best = &s;
    return best;
}

std::string Controller::WorkerState() const {
    if (!m_started) return "not started";
    if (!m_worker) return m_start_error.empty() ? "stopped" : "cannot start";
    if (!m_worker->Running()) return "stopped";
    if (!m_pending.empty()) return "running " + BusyWith();
    return "idle";
}

}  // namespace lessons::app
