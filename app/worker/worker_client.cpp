#include "worker/worker_client.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>
#include <utility>

#include "errors.h"
#include "files.h"  // Excerpt
#include "model/compare.h"
#include "out_of_memory.h"
#include "report.h"
#include "serve.h"  // kProtocolVersion only: the GUI links no runner
#include "units.h"
#include "words/words.h"
#include "words/words_exercise.h"
#include "words/words_student.h"

namespace lessons::app {

namespace {

constexpr int kMaxExitsBeforeGivingUp = 3;
constexpr std::chrono::seconds kCrashWindow(20);

std::string ExitDescription(const Json& m) {
    const int code = m.value("code", -1), sig = m.value("signal", 0);  // made by WorkerProcess
    if (sig) return "killed by signal " + std::to_string(sig);
    if (code == 3) return "exit code 3: a CUDA error left the GPU context unusable";
    return "exit code " + std::to_string(code);
}

}  // namespace

// Indexed by Op.
constexpr const char* kOpNames[] = {"list",    "info",  "attributes", "profile",
                                    "compile", "run",   "tune",       "sweep",
                                    "compare", "check", "cancel",     "shutdown"};
static_assert(std::size(kOpNames) == static_cast<size_t>(Op::kShutdown) + 1,
              "one name for each Op");

const char* OpName(Op op) {
    return kOpNames[static_cast<size_t>(op)];
}

std::vector<std::string> SentOps() {
    return {std::begin(kOpNames), std::end(kOpNames)};
}

bool CompileReport::Diagnostic::InStudentFile() const {
    return line > 0 && (file.empty() || file == kStudentFile);
}

CompileReport CompileReportFromJson(const Json& j) {
    if (!j.is_object()) throw std::runtime_error("\"compile\" is not an object");
    auto text = [&j](const char* key) -> std::string {
        const auto it = j.find(key);
        if (it == j.end() || it->is_null()) return std::string();
        if (!it->is_string())
            throw std::runtime_error(std::string("\"") + key + "\" is not a string");
        return it->get<std::string>();
    };
    auto number = [](const Json& o, const char* key) -> int {
        const auto it = o.find(key);
        if (it == o.end() || it->is_null()) return 0;
        if (!it->is_number_integer() || it->get<int64_t>() < 0 || it->get<int64_t>() > (1 << 30))
            throw std::runtime_error(std::string("\"") + key +
                                     "\" is not a whole number from 0 to 2^30");
        return static_cast<int>(it->get<int64_t>());
    };
    CompileReport r;
    r.status = text("status");
    if (r.status.empty()) throw std::runtime_error("no \"status\"");
    r.message = text("message");
    r.arch = text("arch");
    r.arch_note = text("arch_note");
    r.compiler = text("compiler");
    r.log = text("log");
    r.ptx = text("ptx");
    if (const auto d = j.find("diagnostics"); d != j.end() && !d->is_null()) {
        if (!d->is_array()) throw std::runtime_error("\"diagnostics\" is not an array");
        for (const Json& e : *d) {
            if (!e.is_object()) throw std::runtime_error("a diagnostic is not an object");
            CompileReport::Diagnostic x;
            x.line = number(e, "line");
            x.column = number(e, "column");
            for (auto [key, into] :
                 {std::pair{"severity", &x.severity}, {"message", &x.message}, {"file", &x.file}}) {
                const auto it = e.find(key);
                if (it == e.end() || it->is_null()) continue;
                if (!it->is_string())
                    throw std::runtime_error(std::string("a diagnostic's \"") + key +
                                             "\" is not a string");
                *into = it->get<std::string>();
            }
            r.diagnostics.push_back(std::move(x));
        }
    }
    if (const auto k = j.find("kernel"); k != j.end() && !k->is_null()) {
        if (!k->is_object()) throw std::runtime_error("\"kernel\" is not an object");
        r.has_kernel = true;
        r.registers = number(*k, "registers");
        r.spill_bytes = number(*k, "spill_store_bytes") + number(*k, "spill_load_bytes");
        r.stack_bytes = number(*k, "stack_bytes");
        r.shared_bytes = number(*k, "shared_bytes");
    }
    return r;
}

WorkerClient::WorkerClient(const Registry& registry, ResultsStore& store, WorkerFactory factory)
    : m_registry(registry), m_store(store), m_factory(std::move(factory)) {}

WorkerClient::~WorkerClient() {
    // Without it, end of input lets the worker finish every queued run (a long sweep) first.
    if (m_worker && m_greeted && m_worker->Running())
        m_worker->Send({{"op", OpName(Op::kShutdown)}, {"id", m_next_id++}});
}

void WorkerClient::Start() {
    m_started = true;
    Restart();
}

void WorkerClient::RestartWorker(bool measure_tf32) {
    m_recent_exits.clear();
    m_measure_tf32 = measure_tf32;
    Restart();
}

void WorkerClient::Restart() {
    ForgetExerciseRequests("the worker was restarted");
    m_pending.clear();
    m_unsent.clear();
    m_attribute_requests.clear();
    m_attribute_failed.clear();  // a new worker may answer
    ForgetProfileRequests();
    m_greeted = false;
    m_worker_nice.reset();
    m_refused = false;
    m_worker = m_factory();
    std::string error;
    if (!m_worker || !m_worker->Start(&error)) {
        GiveUp(error.empty() ? "the worker could not be started" : error);
        return;
    }
    m_start_error.clear();
    m_worker_started = std::chrono::steady_clock::now();
    // Sent once the worker has said hello in this program's protocol (HandleHello).
    Pending list{"the lesson list", Origin::kRun};
    list.keep = true;
    Send({{"op", OpName(Op::kList)}}, std::move(list));
    Json info{{"op", OpName(Op::kInfo)}};
    if (std::exchange(m_measure_tf32, false)) info["tf32"] = true;  // measured now, once
    Pending asked{"device information", Origin::kRun};
    asked.keep = true;
    Send(info, std::move(asked));
}

void WorkerClient::GiveUp(const std::string& why) {
    m_start_error = why;
    m_worker.reset();
    m_unsent.clear();
    ForgetExerciseRequests(why);
    m_pending.clear();
    m_attribute_requests.clear();
    ForgetProfileRequests();
    m_notices.push_back("Cannot start the worker: " + why + "." +
                        (m_worker_hint.empty() ? "" : " " + m_worker_hint) +
                        " Lessons cannot run; texts, code and recorded results stay available.");
}

void WorkerClient::HandleHello(const Json& m, int, PendingAt) {
    const int protocol =
        m.contains("protocol") && m["protocol"].is_number_integer() ? m["protocol"].get<int>() : 0;
    if (protocol != kProtocolVersion) {
        // An older or newer cuda-lessons-cli: its replies would be misread. It gets no request
        // and is not restarted; Restart worker in the status bar tries again after a rebuild.
        m_start_error = "the worker speaks protocol " +
                        (protocol ? std::to_string(protocol) : std::string("unknown")) +
                        ", this program needs " + std::to_string(kProtocolVersion) +
                        ": rebuild cuda-lessons-cli next to it";
        m_notices.push_back("Worker refused: " + m_start_error +
                            ". Lessons cannot run; texts, code and recorded results stay "
                            "available.");
        m_refused = true;
        m_worker.reset();
        m_unsent.clear();
        ForgetExerciseRequests(m_start_error);
        m_pending.clear();
        m_attribute_requests.clear();
        ForgetProfileRequests();
        return;
    }
    m_greeted = true;
    if (m.contains("nice") && m["nice"].is_number_integer()) m_worker_nice = m["nice"].get<int>();
    for (const Json& request : m_unsent)
        if (!m_worker->Send(request)) m_pending.erase(request["id"].get<int>());
    m_unsent.clear();
}

void WorkerClient::Send(Json request, Pending pending) {
    const int id = m_next_id++;
    request["id"] = id;
    if (!m_worker) return;
    if (!m_greeted)
        m_unsent.push_back(request);  // until the worker's hello
    else if (!m_worker->Send(request))
        return;  // its exit message will follow
    // A run, sweep, comparison or tuning of a CPU step measures this machine's cores.
    const Json* named = request.contains("lesson") ? &request["lesson"]
                        : request.contains("lessons") && request["lessons"].is_array() &&
                                !request["lessons"].empty()
                            ? &request["lessons"][0]
                            : nullptr;
    if (named && named->is_string() && !pending.quiet)
        if (const Lesson* l = m_registry.FindLesson(named->get<std::string>()))
            pending.cpu = l->kind == StepKind::kCpu && request.value("op", "") != "compile";
    m_pending[id] = std::move(pending);
}

bool WorkerClient::MeasuringCpuStep() const {
    for (const auto& [id, p] : m_pending)
        if (p.cpu) return true;
    return false;
}

std::vector<const Lesson*> WorkerClient::WithPrevious(const Lesson& lesson) const {
    std::vector<const Lesson*> out;
    if (lesson.previous)
        if (const Lesson* prev = m_registry.FindLesson(lesson.previous)) out.push_back(prev);
    out.push_back(&lesson);
    return out;
}

Json WorkerClient::BaseRequest(Op op, const Lesson& lesson, const RunSettings& s,
                               double min_time_s) {
    Json r{{"op", OpName(op)}, {"lesson", lesson.id}};
    r["params"] = ToJson(ResolveParams(lesson.params, s));
    if (lesson.kind == StepKind::kGpu) r["cold_l2"] = s.cold_l2;
    r["min_time_s"] = min_time_s;
    return r;
}

void WorkerClient::StartBatch() {
    for (auto& [id, p] : m_pending) p.batch = false;  // the cancelled batch's, still answering
    m_batch_total = 0;
    m_batch_started = std::chrono::steady_clock::now();
}

void WorkerClient::RefreshDeviceInfo() {
    if (!m_greeted || !m_worker || !m_worker->Running() || !m_pending.empty()) return;
    Pending p{"device information", Origin::kRun};
    p.quiet = true;
    Send({{"op", OpName(Op::kInfo)}}, std::move(p));
}

void WorkerClient::CancelAll() {
    if (!m_greeted) {  // nothing has gone yet: drop what waits, but the list and info
        const auto first_kept =
            std::stable_partition(m_unsent.begin(), m_unsent.end(), [](const Json& r) {
                return r["op"] == OpName(Op::kList) || r["op"] == OpName(Op::kInfo);
            });
        for (auto it = first_kept; it != m_unsent.end(); ++it) {
            const int id = (*it)["id"].get<int>();
            if (const auto p = m_pending.find(id); p != m_pending.end() && p->second.exercise) {
                ExerciseAnswer& a = m_exercises[p->second.exercise];
                a.pending = a.running = false;
                a.error = "cancelled before the worker started";
                ++a.serial;
            }
            m_pending.erase(id);
            m_attribute_requests.erase(id);
            if (const auto asked = m_profile_requests.find(id); asked != m_profile_requests.end()) {
                m_profiles[asked->second].pending = false;
                m_profile_requests.erase(asked);
            }
        }
        m_unsent.erase(first_kept, m_unsent.end());
        return;
    }
    if (!m_worker || !m_worker->Running()) return;
    // Each request by its id, but the lesson list and the device information: a cancel of
    // everything would also end those two while the worker still answers them (its info
    // measures the ceilings first), and the page would wait for them for ever.
    std::vector<int> targets;
    for (const auto& [id, p] : m_pending)
        if (!p.keep && p.what != "cancel") targets.push_back(id);
    for (const int id : targets)
        Send({{"op", OpName(Op::kCancelRequest)}, {"target", id}}, {"cancel", Origin::kRun});
}

const KernelAttributes* WorkerClient::Attributes(const Lesson& lesson,
                                                 const RunSettings& settings) {
    const Json own = ToJson(ResolveParams(OwnParams(m_registry, lesson), settings));
    const AttributesKey key(lesson.number, own.dump());
    auto it = m_attributes.find(key);
    if (it != m_attributes.end()) return &it->second;
    // (The GUI's catalogue has no GPU code, so the lesson's own attributes function is null
    // here: whether it has a kernel is what counts.)
    if (lesson.kind != StepKind::kGpu || lesson.library ||
        m_store.Mode(lesson) != LessonMode::kLive)
        return nullptr;
    if (m_attribute_failed.count(key)) return nullptr;  // said once already
    for (const auto& [id, asked] : m_attribute_requests)
        if (asked == key) return nullptr;  // on its way
    const int id = m_next_id;
    Send({{"op", OpName(Op::kKernelAttributes)}, {"lesson", lesson.id}, {"params", own}},
         {"kernel attributes of lesson " + lesson.label, Origin::kRun});
    if (m_pending.count(id)) m_attribute_requests[id] = key;
    return nullptr;
}

void WorkerClient::RequestProfile(const Lesson& lesson, const RunSettings& settings,
                                  bool recorded) {
    if (lesson.kind != StepKind::kGpu) return;
    ProfileAnswer& answer = m_profiles[lesson.number];
    answer = ProfileAnswer{};
    answer.pending = true;
    const int id = m_next_id;
    Json request = BaseRequest(Op::kProfile, lesson, settings);
    request["recorded"] = recorded;
    Pending p{"profile of lesson " + lesson.label, Origin::kRun};
    p.label = lesson.label;
    Send(std::move(request), std::move(p));
    if (m_pending.count(id)) m_profile_requests[id] = lesson.number;
}

void WorkerClient::ForgetProfileRequests() {
    for (const auto& [id, lesson] : m_profile_requests) {
        ProfileAnswer& answer = m_profiles[lesson];
        answer.pending = false;
        if (answer.profile.is_null() && answer.error.empty())
            answer.error = "the worker stopped before it answered";
    }
    m_profile_requests.clear();
}

const WorkerClient::ProfileAnswer* WorkerClient::Profile(const Lesson& lesson) const {
    const auto it = m_profiles.find(lesson.number);
    return it == m_profiles.end() ? nullptr : &it->second;
}

void WorkerClient::SubmitKernel(const Lesson& lesson, const RunSettings& settings,
                                const std::string& source, bool run) {
    ExerciseAnswer& a = StartExerciseAnswer(lesson, run, false);
    Json request{{"op", OpName(Op::kCompile)}, {"lesson", lesson.id}};
    if (run) {
        // The previous lesson and the step itself first, at the same settings: the three bars
        // of the comparison come from one batch. A kernel written for one template instance
        // (a tile, a toggle's choice) runs at it, and so does the step it is compared with.
        const RunSettings at = AtExerciseChoices(lesson, settings);
        RunWithPrevious(lesson, at);
        request = BaseRequest(Op::kRunStep, lesson, at);
    }
    request["kernel"] = source;
    Pending p{
        std::string(run ? "your kernel" : "compiling your kernel") + " for lesson " + lesson.label,
        Origin::kRun};
    p.label = lesson.label;
    p.exercise = lesson.number;
    p.kernel_run = run;
    p.batch = run;
    SendExercise(a, std::move(request), std::move(p), run);
}

WorkerClient::ExerciseAnswer& WorkerClient::StartExerciseAnswer(const Lesson& lesson, bool running,
                                                                bool checking) {
    ExerciseAnswer& a = m_exercises[lesson.number];
    ExerciseAnswer fresh;
    fresh.compile = std::move(a.compile);  // shown until the new request's answer replaces them
    fresh.result = std::move(a.result);
    fresh.serial = a.serial + 1;
    fresh.pending = true;
    fresh.running = running;
    fresh.checking = checking;
    a = std::move(fresh);
    return a;
}

void WorkerClient::SendExercise(ExerciseAnswer& a, Json request, Pending pending, bool counted) {
    const int id = m_next_id;
    Send(std::move(request), std::move(pending));
    if (!m_pending.count(id)) {
        a.pending = a.running = false;
        a.error = m_start_error.empty() ? "no worker is running" : m_start_error;
        return;
    }
    if (counted) ++m_batch_total;
}

void WorkerClient::CheckKernel(const Lesson& lesson, const RunSettings& settings,
                               const std::string& source) {
    ExerciseAnswer& a = StartExerciseAnswer(lesson, true, true);
    CancelAll();
    StartBatch();
    Json request = BaseRequest(Op::kCheck, lesson, AtExerciseChoices(lesson, settings));
    request["kernel"] = source;
    Pending p{"checking your kernel for lesson " + lesson.label, Origin::kRun};
    p.label = lesson.label;
    p.exercise = lesson.number;
    p.kernel_run = true;
    p.batch = true;
    SendExercise(a, std::move(request), std::move(p), true);
}

void WorkerClient::CheckParsons(const Lesson& lesson, const RunSettings& settings,
                                const std::string& source) {
    // Its answer under the lesson's number negated: the exercise's own stays as it was.
    const int key = -lesson.number;
    ExerciseAnswer& a = m_exercises[key];
    ExerciseAnswer fresh;
    fresh.serial = a.serial + 1;
    fresh.pending = fresh.running = fresh.checking = true;
    a = std::move(fresh);
    CancelAll();
    StartBatch();
    Json request = BaseRequest(Op::kCheck, lesson, AtExerciseChoices(lesson, settings));
    request["kernel"] = source;
    Pending p{"checking your Parsons order for lesson " + lesson.label, Origin::kRun};
    p.label = lesson.label;
    p.exercise = key;
    p.kernel_run = true;
    p.batch = true;
    SendExercise(a, std::move(request), std::move(p), true);
}

const WorkerClient::ExerciseAnswer* WorkerClient::Parsons(const Lesson& lesson) const {
    const auto it = m_exercises.find(-lesson.number);
    return it == m_exercises.end() ? nullptr : &it->second;
}

const WorkerClient::ExerciseAnswer* WorkerClient::Exercise(const Lesson& lesson) const {
    const auto it = m_exercises.find(lesson.number);
    return it == m_exercises.end() ? nullptr : &it->second;
}

void WorkerClient::SetKernelTimeLimit(double seconds) {
    m_kernel_limit_s = std::clamp(seconds, 1.0, 600.0);
}

void WorkerClient::ForgetExerciseRequests(const std::string& why) {
    for (const auto& [id, p] : m_pending) {
        if (p.tune) {
            TuneAnswer& t = m_tunes[p.tune];
            t.pending = false;
            if (t.error.empty() && !t.tuning) t.error = why;
            ++t.serial;
        }
        if (!p.exercise) continue;
        ExerciseAnswer& a = m_exercises[p.exercise];
        a.pending = a.running = false;
        if (a.error.empty()) a.error = why;
        ++a.serial;
    }
}

void WorkerClient::EnforceKernelLimit() {
    if (!m_worker || !m_worker->Running() || !m_killed_for.empty()) return;
    const auto now = std::chrono::steady_clock::now();
    // The limit counts from the request, compile included (a compile can hang too), from when
    // the worker takes it up: when no request sent before it is still waiting for its answer
    // (the previous lesson's and the step's runs go first).
    int first = -1;
    for (const auto& [id, p] : m_pending)
        if (!p.keep && p.what != "cancel") {
            first = id;
            break;
        }
    for (auto& [id, p] : m_pending) {
        if (p.exercise && !p.run_started && id == first) p.run_started = now;
        if (!p.exercise || !p.run_started) continue;
        if (now - *p.run_started < std::chrono::duration<double>(m_kernel_limit_s)) continue;
        ExerciseAnswer& a = m_exercises[p.exercise];
        a.timed_out = true;
        a.error = Fmt("ran longer than the limit of %.0f s", m_kernel_limit_s);
        ++a.serial;
        m_killed_for =
            Fmt("Your kernel for lesson %s ran longer than the limit of %.0f s: the worker was "
                "stopped and a new one started; every result so far is kept.",
                p.label.c_str(), m_kernel_limit_s);
        m_worker->Kill();  // its exit message restarts it (HandleExit)
        return;
    }
}

void WorkerClient::Tune(const Lesson& lesson, const RunSettings& settings) {
    const std::vector<std::string> tuned = TunedParams(lesson);
    if (tuned.empty() || m_store.Mode(lesson) != LessonMode::kLive) return;
    CancelAll();
    StartBatch();
    TuneAnswer& a = m_tunes[lesson.number];
    const int serial = a.serial;
    a = TuneAnswer{};
    a.serial = serial + 1;
    a.pending = true;
    Json request = BaseRequest(Op::kTune, lesson, settings);
    for (const std::string& name : tuned) request["params"].erase(name);
    // Its runs are a sweep along the tuned parameter: shown in the block-size sweep, or in the
    // sweep along another parameter (threads, tiles).
    Pending p{"tuning of lesson " + lesson.label,
              tuned.front() == "block" ? Origin::kBlockSweep : Origin::kParamSweep};
    p.label = lesson.label;
    p.over = tuned.front();
    if (const ParamSpec* spec = lesson.FindParam(tuned.front())) {
        p.over_label = spec->label_en.empty() ? spec->name : spec->label_en;
        p.over_label_zh = spec->label_zh.empty() ? p.over_label : spec->label_zh;
    }
    p.batch = true;
    p.tune = lesson.number;
    const int id = m_next_id;
    Send(std::move(request), std::move(p));
    if (!m_pending.count(id)) {
        a.pending = false;
        a.error = m_start_error.empty() ? "no worker is running" : m_start_error;
        return;
    }
    ++m_batch_total;
}

const WorkerClient::TuneAnswer* WorkerClient::TuningOf(const Lesson& lesson) const {
    const auto it = m_tunes.find(lesson.number);
    return it == m_tunes.end() ? nullptr : &it->second;
}

std::string WorkerClient::MachineFor(const Lesson& lesson) const {
    if (lesson.kind == StepKind::kCpu) return m_devices.cpu.empty() ? "" : "CPU: " + m_devices.cpu;
    const GpuFacts* gpu = m_devices.available ? m_devices.First() : nullptr;
    return gpu ? gpu->name : std::string();
}

void WorkerClient::RunWithPrevious(const Lesson& lesson, const RunSettings& settings,
                                   double min_time_s) {
    CancelAll();
    StartBatch();
    std::vector<const Lesson*> live;
    for (const Lesson* l : WithPrevious(lesson))
        if (m_store.Mode(*l) == LessonMode::kLive) live.push_back(l);
    if (live.size() == 2 && live[0]->kind == StepKind::kCpu && live[1]->kind == StepKind::kCpu &&
        live[0]->chapter == live[1]->chapter) {
        // Timed in turn: one request, a result for each (point 0 the previous lesson).
        Json request = BaseRequest(Op::kCompare, lesson, settings, min_time_s);
        request.erase("lesson");
        request["lessons"] = Json::array({live[0]->id, live[1]->id});
        request["trials"] = kCompareTrials;
        const Json before = ToJson(ResolveParams(live[0]->params, settings));
        for (const auto& [name, value] : before.items())
            if (!request["params"].contains(name)) request["params"][name] = value;
        Pending p{"lessons " + live[0]->label + " and " + live[1]->label, Origin::kRun};
        p.label = live[1]->label;
        p.in_turn_with = live[0]->label;
        p.batch = true;
        Send(std::move(request), std::move(p));
        ++m_batch_total;
        return;
    }
    for (const Lesson* l : live) {
        Pending p{"lesson " + l->label, Origin::kRun};
        p.label = l->label;
        p.batch = true;
        Send(BaseRequest(Op::kRunStep, *l, settings, min_time_s), std::move(p));
        ++m_batch_total;
    }
}

void WorkerClient::RunChapter(const Lesson& lesson, const RunSettings& settings) {
    CancelAll();
    StartBatch();
    m_chapter_total = 0;
    for (const Lesson* l : m_registry.LessonsOf(m_registry.ChapterOf(lesson))) {
        if (m_store.Mode(*l) != LessonMode::kLive) continue;
        Pending p{"lesson " + l->label, Origin::kRun};
        p.chapter = true;
        p.batch = true;
        p.label = l->label;
        Send(BaseRequest(Op::kRunStep, *l, settings), std::move(p));
        ++m_chapter_total;
        ++m_batch_total;
    }
}

// The values a sweep over `spec` takes: block sizes, every power of two accepted; sizes in bytes,
// from the slider's lower end up to the page's value, doubling, in whole elements; any other
// number on a log slider (FMAs per element, a matrix dimension), its whole range, doubling;
// choices, every one.
Json SweepValues(const ParamSpec& spec, const RunSettings& settings) {
    Json values = Json::array();
    if (spec.type == ParamType::kChoice) {
        for (const std::string& c : spec.choices) values.push_back(c);
    } else if (ControlFor(spec) == ControlKind::kLog) {
        const uint64_t top = spec.type == ParamType::kBytes
                                 ? std::max(ResolveParam(spec, settings).number, LogMin(spec))
                                 : spec.max;
        const uint64_t step = std::max<uint64_t>(spec.step, 1);
        for (uint64_t v = LogMin(spec); v <= top && v > 0; v *= 2)
            if (v / step * step >= spec.min) values.push_back(v / step * step);
    } else if (ControlFor(spec) == ControlKind::kInt) {
        const auto [lo, hi] = IntRange(spec);
        for (uint64_t v = 1; v <= hi && v > 0; v *= 2)
            if (v >= lo) values.push_back(v);
        if (values.empty() || values.back().get<uint64_t>() != hi) values.push_back(hi);
    } else {
        for (const ParamValue& v : spec.Values())
            if ((v.number & (v.number - 1)) == 0) values.push_back(v.number);
        if (values.empty()) values = "all";
    }
    return values;
}

void WorkerClient::Sweep(const Lesson& lesson, const RunSettings& settings,
                         const std::function<const ParamSpec*(const Lesson&)>& along, Origin origin,
                         const char* what) {
    CancelAll();
    StartBatch();
    for (const Lesson* l : WithPrevious(lesson)) {
        const ParamSpec* spec = along(*l);
        if (m_store.Mode(*l) != LessonMode::kLive || !spec) continue;
        Json r = BaseRequest(Op::kSweep, *l, settings);
        r["params"].erase(spec->name);
        r["over"] = spec->name;
        r["values"] = SweepValues(*spec, settings);
        Pending p{std::string(what) + " of lesson " + l->label, origin};
        p.label = l->label;
        p.over = spec->name;
        p.over_label = spec->label_en.empty() ? spec->name : spec->label_en;
        p.over_label_zh = spec->label_zh.empty() ? p.over_label : spec->label_zh;
        p.batch = true;
        p.points = r["values"].is_array() ? static_cast<int>(r["values"].size()) : 0;
        Send(r, std::move(p));
        ++m_batch_total;
    }
}

void WorkerClient::SweepBlocks(const Lesson& lesson, const RunSettings& settings) {
    Sweep(lesson, settings, &BlockSizeParam, Origin::kBlockSweep, "block sweep");
}

void WorkerClient::SweepSizes(const Lesson& lesson, const RunSettings& settings) {
    Sweep(lesson, settings, &DataSizeParam, Origin::kSizeSweep, "size sweep");
}

void WorkerClient::SweepOver(const Lesson& lesson, const RunSettings& settings,
                             const std::string& name) {
    Sweep(
        lesson, settings,
        [&](const Lesson& l) -> const ParamSpec* {
            for (const ParamSpec& p : l.params)
                if (p.name == name) return &p;
            return nullptr;
        },
        Origin::kParamSweep, ("sweep over " + name).c_str());
}

void WorkerClient::Update() {
    if (!m_worker) return;
    const WorkerLink* worker = m_worker.get();
    for (const Json& m : m_worker->Drain()) {
        if (m_worker.get() != worker) break;  // refused or replaced: the rest was the old one's
        // The worker is another program: a message of a shape this one does not read (not an
        // object, a field of another type) is said, never thrown out of the frame.
        try {
            Handle(m);
        } catch (const std::exception& e) {
            RethrowIfOutOfMemory(e, "read the worker's answers");  // not an unreadable message
            Unreadable(m, e.what());
        }
    }
    EnforceKernelLimit();
    if (m_worker && !m_greeted && m_worker->Running() &&
        std::chrono::steady_clock::now() - m_worker_started > m_hello_timeout)
        GiveUp("the worker started but said nothing for " +
               std::to_string((m_hello_timeout.count() + 500) / 1000) +
               " s (no hello line): it is not cuda-lessons-cli serve, or it hangs");
}

namespace {

// The message as a notice quotes it: its first 200 bytes.
std::string Quote(const Json& m) {
    return Excerpt(m.dump(-1, ' ', false, Json::error_handler_t::replace), 200);
}

// The field `key` of `m` when it is there and of the type `is` accepts; `fallback` when it is
// absent; nullopt (a message the GUI cannot read) when it has another type.
template <typename T>
std::optional<T> Field(const Json& m, const char* key, bool (Json::*is)() const noexcept,
                       T fallback) {
    const auto it = m.find(key);
    if (it == m.end() || it->is_null()) return fallback;
    if (!((*it).*is)()) return std::nullopt;
    return it->template get<T>();
}

}  // namespace

void WorkerClient::Unreadable(const Json& m, const std::string& why) {
    m_notices.push_back("The worker wrote a message the GUI cannot read (" + why +
                        "): " + Quote(m));
}

const WorkerClient::ReplyHandler WorkerClient::kReplies[] = {
    // Made by WorkerProcess when the process ends; a line of the worker's that claims to be one
    // is turned into an error there.
    {"worker_exit", &WorkerClient::HandleExit},
    {"hello", &WorkerClient::HandleHello},
    {"list", &WorkerClient::HandleList},
    {"info", &WorkerClient::HandleInfo},
    {"attributes", &WorkerClient::HandleAttributes},
    {"compile", &WorkerClient::HandleCompile},
    {"case", &WorkerClient::HandleCase},
    {"check", &WorkerClient::HandleCheck},
    {"timing", &WorkerClient::HandleTiming},
    {"tuning", &WorkerClient::HandleTuning},
    {"progress", &WorkerClient::HandleProgress},
    {"result", &WorkerClient::HandleResult},
    {"skipped", &WorkerClient::HandleResult},
    {"profile", &WorkerClient::HandleProfile},
    {"error", &WorkerClient::HandleError},
    {"done", &WorkerClient::HandleDone},
};

void WorkerClient::Handle(const Json& m) {
    // The worker is another program: every field is checked before it is used, and a message of
    // another shape becomes one notice.
    if (!m.is_object()) return Unreadable(m, "not a JSON object");
    const auto type_it = m.find("type");
    if (type_it == m.end() || !type_it->is_string())
        return Unreadable(m, "no \"type\" that is a string");
    const std::string type = type_it->get<std::string>();
    const int id = m.contains("id") && m["id"].is_number_integer() ? m["id"].get<int>() : -1;
    for (const ReplyHandler& reply : kReplies)
        if (type == reply.type) return (this->*reply.handle)(m, id, m_pending.find(id));
}

void WorkerClient::HandleList(const Json& m, int, PendingAt) {
    if (!m.contains("lessons") || !m["lessons"].is_array())
        return Unreadable(m, "a list without a \"lessons\" array");
    // By id: the worker's numbers are its own catalogue's positions.
    int unreadable = 0;
    for (const Json& l : m["lessons"]) {
        if (!l.is_object() || !l.contains("id") || !l["id"].is_string()) {
            ++unreadable;
            continue;
        }
        const Lesson* lesson = m_registry.FindLesson(l["id"].get<std::string>());
        if (!lesson) continue;
        const bool available =
            l.contains("available") && l["available"].is_boolean() && l["available"].get<bool>();
        const std::string reason =
            l.contains("unavailable_reason") && l["unavailable_reason"].is_string()
                ? l["unavailable_reason"].get<std::string>()
                : std::string();
        m_store.SetAvailable(*lesson, available,
                             MessageFromJson(l.value("unavailable_message", Json()), reason));
    }
    if (unreadable)  // the others are read
        Unreadable(m, std::to_string(unreadable) + " lesson entr" +
                          (unreadable == 1 ? "y is" : "ies are") + " not an object with an id");
}

void WorkerClient::HandleInfo(const Json& m, int, PendingAt) {
    m_devices = DeviceFactsFromInfo(m);
    m_info_time = std::chrono::steady_clock::now();
}

void WorkerClient::HandleAttributes(const Json& m, int id, PendingAt) {
    if (!m.contains("attributes") || !m["attributes"].is_object())
        return Unreadable(m, "no \"attributes\" object");
    auto asked = m_attribute_requests.find(id);
    if (asked != m_attribute_requests.end())
        m_attributes[asked->second] = KernelAttributesFromJson(m["attributes"]);
}

void WorkerClient::HandleCompile(const Json& m, int, PendingAt pending) {
    if (!m.contains("compile")) return Unreadable(m, "a compile reply without \"compile\"");
    CompileReport report = CompileReportFromJson(m["compile"]);  // throws: Unreadable
    if (pending != m_pending.end() && pending->second.exercise) {
        ExerciseAnswer& a = m_exercises[pending->second.exercise];
        // A Parsons order that did not compile is an attempt, kept as such.
        if (pending->second.exercise < 0 && report.status == "error")
            if (const Lesson* lesson = m_registry.FindLesson(-pending->second.exercise))
                m_finished_parsons.emplace_back(lesson->id, "did not compile");
        a.compile = std::move(report);
        a.compiled = true;
        ++a.serial;
    }
}

void WorkerClient::HandleCase(const Json& m, int, PendingAt pending) {
    if (!m.contains("case") || !m["case"].is_object())
        return Unreadable(m, "a case reply without a \"case\" object");
    const Json& c = m["case"];
    const auto text = [&](const char* name) {
        const auto it = c.find(name);
        return it != c.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    const auto flag = [&](const char* name) {
        const auto it = c.find(name);
        return it != c.end() && it->is_boolean() && it->get<bool>();
    };
    if (!c.contains("passed") || !c["passed"].is_boolean() || text("name").empty())
        return Unreadable(m, "a case without its \"name\" and whether it \"passed\"");
    if (pending == m_pending.end() || !pending->second.exercise) return;
    ExerciseAnswer& a = m_exercises[pending->second.exercise];
    ExerciseAnswer::Case k;
    k.name = text("name");
    k.name_zh = text("name_zh");
    k.passed = flag("passed");
    k.ran = flag("ran");
    k.message = text("message");
    k.message_zh = text("message_zh");
    if (const auto ms = c.find("ms"); ms != c.end() && ms->is_number()) k.ms = ms->get<double>();
    a.cases.push_back(std::move(k));
    a.cases_total = std::max(m.value("points", 0), static_cast<int>(a.cases.size()));
    ++a.serial;
    // The time limit is a case's: the next one starts now.
    pending->second.run_started = std::chrono::steady_clock::now();
    pending->second.points = a.cases_total;
    pending->second.points_done = static_cast<int>(a.cases.size());
}

void WorkerClient::HandleCheck(const Json& m, int, PendingAt pending) {
    if (!m.contains("check") || !m["check"].is_object())
        return Unreadable(m, "a check reply without a \"check\" object");
    if (pending == m_pending.end() || !pending->second.exercise) return;
    const Json& c = m["check"];
    ExerciseAnswer& a = m_exercises[pending->second.exercise];
    a.check_done = true;
    a.checked = c.value("checked", false);
    a.check_passed = a.checked && c.value("passed", false);
    a.not_checked = c.value("not_checked", std::string());
    a.not_checked_zh = c.value("not_checked_zh", std::string());
    a.wrong_at_default = c.value("wrong_at_default", std::string());
    a.wrong_at_default_zh = c.value("wrong_at_default_zh", std::string());
    a.timing.clear();
    a.speed.reset();
    a.change_judged = a.change_present = false;
    a.change_text.clear();
    a.change_text_zh.clear();
    if (const auto ch = c.find("change"); ch != c.end() && ch->is_object()) {
        a.change_judged = ch->value("judged", false);
        a.change_present = a.change_judged && ch->value("present", false);
        a.change_text = ch->value("text", std::string());
        a.change_text_zh = ch->value("text_zh", std::string());
    }
    // The speed target: a verdict only with both times (a worker of another version sends none).
    if (const auto s = c.find("speed"); s != c.end() && s->is_object()) {
        const auto number = [&](const char* name) {
            const auto it = s->find(name);
            return it != s->end() && it->is_number() ? it->get<double>() : 0.0;
        };
        ExerciseAnswer::Speed v;
        v.yours_ms = number("yours_ms");
        v.step_ms = number("step_ms");
        if (const double t = number("target_ratio"); t > 0) v.target_ratio = t;
        v.judged = s->value("judged", false) && a.checked && v.yours_ms > 0 && v.step_ms > 0;
        v.passed = v.judged && s->value("passed", false);
        v.why_not = s->value("why_not", std::string());
        v.why_not_zh = s->value("why_not_zh", std::string());
        if (v.judged) {
            const auto text = [&](const char* name) {
                const auto it = s->find(name);
                return it != s->end() && it->is_string() ? it->get<std::string>() : std::string();
            };
            v.verdict = text("verdict");
            v.text = text("text");
            v.text_zh = text("text_zh");
        }
        a.speed = v;
    }
    if (pending->second.exercise < 0) {
        if (const Lesson* lesson = m_registry.FindLesson(-pending->second.exercise))
            m_finished_parsons.emplace_back(lesson->id, !a.checked       ? "not checked"
                                                        : a.check_passed ? "solved"
                                                                         : "wrong");
    } else if (a.checked)
        if (const Lesson* lesson = m_registry.FindLesson(pending->second.exercise)) {
            FinishedCheck f;
            f.lesson_id = lesson->id;
            CheckRecord& r = f.record;
            // Every case right ("right"; a worker of another version sends only "passed").
            r.correct = c.value("right", a.check_passed);
            if (a.change_judged) r.change = a.change_present ? "found" : "missing";
            for (const ExerciseAnswer::Case& k : a.cases) r.cases_failed += k.passed ? 0 : 1;
            r.cases_total = std::max(a.cases_total, static_cast<int>(a.cases.size()));
            if (a.speed && a.speed->judged) {
                r.speed_judged = true;
                r.speed_met = a.speed->passed;
                r.yours_ms = a.speed->yours_ms;
                r.step_ms = a.speed->step_ms;
            }
            m_finished_checks.push_back(std::move(f));
        }
    ++a.serial;
}

// A timed run of the speed target starts ("of": "step" or "yours"): the time limit is a run's.
void WorkerClient::HandleTiming(const Json& m, int, PendingAt pending) {
    const auto of = m.find("of");
    if (of == m.end() || !of->is_string()) return Unreadable(m, "a timing reply without \"of\"");
    if (pending == m_pending.end() || !pending->second.exercise) return;
    ExerciseAnswer& a = m_exercises[pending->second.exercise];
    a.timing = of->get<std::string>() == "yours" ? "yours" : "step";
    ++a.serial;
    pending->second.run_started = std::chrono::steady_clock::now();
}

void WorkerClient::HandleTuning(const Json& m, int, PendingAt pending) {
    if (!m.contains("tuning") || !m["tuning"].is_object())
        return Unreadable(m, "a tuning reply without a \"tuning\" object");
    size_t skipped = 0;
    Json list = Json::array();
    list.push_back(m["tuning"]);
    const std::vector<Tuning> read = TuningsFromJson(list, &skipped);
    if (read.empty()) return Unreadable(m, "a tuning of another shape");
    if (pending != m_pending.end() && pending->second.tune) {
        TuneAnswer& a = m_tunes[pending->second.tune];
        a.tuning = read.front();
        const auto saved = m["tuning"].find("saved_to");
        a.saved_to = saved != m["tuning"].end() && saved->is_string() ? saved->get<std::string>()
                                                                      : std::string();
        ++a.serial;
    }
}

void WorkerClient::HandleProgress(const Json& m, int, PendingAt pending) {
    const auto done = Field<int>(m, "done", &Json::is_number_integer, 0);
    const auto total = Field<int>(m, "total", &Json::is_number_integer, 0);
    if (!done || !total) return Unreadable(m, "\"done\" and \"total\" must be whole numbers");
    if (*done < 0 || *total < 0 || *done > *total)
        return Unreadable(m, "\"done\" and \"total\" must be 0 <= done <= total");
    if (pending != m_pending.end()) {
        pending->second.done = *done;
        pending->second.total = *total;
    }
}

void WorkerClient::HandleResult(const Json& m, int, PendingAt pending) {
    const std::string type = m["type"].get<std::string>();
    // A sweep's point (0-based) of its points: the sweep's progress.
    const auto point = Field<int>(m, "point", &Json::is_number_integer, -1);
    const auto points = Field<int>(m, "points", &Json::is_number_integer, 0);
    if (point && points && *point >= 0 && *point < *points && pending != m_pending.end()) {
        pending->second.points = *points;
        pending->second.points_done = std::max(pending->second.points_done, *point + 1);
        pending->second.done = pending->second.total = 0;  // the next point's samples
    } else if (!point || !points || (*point >= 0 && *point >= *points)) {
        Unreadable(m, "\"point\" and \"points\" must be whole numbers, point < points");
    }
    if (type == "skipped") return;
    if (!m.contains("result") || !m["result"].is_object())
        return Unreadable(m, "a result without a \"result\" object");
    try {
        RunResult r = RunResultFromJson(m["result"]);
        const Origin origin = pending != m_pending.end() ? pending->second.origin : Origin::kRun;
        std::string swept = pending != m_pending.end() ? pending->second.over : std::string();
        const int exercise = pending != m_pending.end() ? pending->second.exercise : 0;
        if (exercise || r.yours) {
            // A student's kernel: never a lesson's own result.
            const StoredResult& s = m_store.AddYours(std::move(r), origin, std::move(swept));
            if (exercise) {
                ExerciseAnswer& a = m_exercises[exercise];
                a.result = s.result;
                ++a.serial;
            }
            return;
        }
        m_store.AddLive(std::move(r), origin, std::move(swept));
    } catch (const std::exception& e) {
        RethrowIfOutOfMemory(e, "read a result");
        m_notices.push_back(std::string("A result could not be read: ") + e.what());
    }
}

void WorkerClient::HandleProfile(const Json& m, int id, PendingAt) {
    const auto asked = m_profile_requests.find(id);
    if (!m.contains("profile") || !m["profile"].is_object() || !m["profile"].contains("kernels") ||
        !m["profile"]["kernels"].is_array())
        return Unreadable(m, "a profile without a \"profile\" object of \"kernels\"");
    if (asked != m_profile_requests.end()) {
        ProfileAnswer& answer = m_profiles[asked->second];
        answer.profile = m["profile"];
        answer.error.clear();
    }
}

void WorkerClient::HandleError(const Json& m, int id, PendingAt pending) {
    const auto error = Field<std::string>(m, "error", &Json::is_string, "unknown error");
    const auto fatal = Field<bool>(m, "fatal", &Json::is_boolean, false);
    if (!error || !fatal)
        return Unreadable(m, "\"error\" must be a string and \"fatal\" true or false");
    if (const auto asked = m_profile_requests.find(id); asked != m_profile_requests.end())
        m_profiles[asked->second].error = *error;
    if (const auto asked = m_attribute_requests.find(id); asked != m_attribute_requests.end())
        m_attribute_failed.insert(asked->second);
    if (pending != m_pending.end() && pending->second.tune) {
        m_tunes[pending->second.tune].error = *error;
        ++m_tunes[pending->second.tune].serial;
    }
    if (pending != m_pending.end() && pending->second.exercise) {
        // The page's exercise tab says it (the compiler's message, "no GPU"); a notice only
        // where the worker is lost (a fault in the student's kernel).
        ExerciseAnswer& a = m_exercises[pending->second.exercise];
        a.error = *error + (*fatal ? " (the worker will be restarted)" : "");
        ++a.serial;
        if (!*fatal) return;
    }
    std::string what = pending != m_pending.end() ? pending->second.what + ": " : std::string();
    m_notices.push_back(what + *error + (*fatal ? " (the worker will be restarted)" : ""));
}

void WorkerClient::HandleDone(const Json& m, int id, PendingAt pending) {
    if (pending != m_pending.end() && pending->second.tune) {
        TuneAnswer& a = m_tunes[pending->second.tune];
        a.pending = false;
        if (!a.tuning && a.error.empty())
            a.error =
                m.value("status", "") == "cancelled" ? "cancelled" : "the worker sent no tuning";
        ++a.serial;
    }
    if (pending != m_pending.end() && pending->second.exercise) {
        ExerciseAnswer& a = m_exercises[pending->second.exercise];
        a.pending = a.running = false;
        if (a.error.empty() && m.value("status", "") == "cancelled") a.error = "cancelled";
        // Done without a compile answer and without an error: the answer was lost (a line too
        // long to read is dropped): the tab still says what happened.
        if (a.error.empty() && !a.compiled)
            a.error = "the worker's compile answer could not be read (too long, or not JSON)";
        ++a.serial;
    }
    if (pending != m_pending.end()) m_pending.erase(pending);
    m_attribute_requests.erase(id);  // answered, or cancelled: may be asked again
    if (const auto asked = m_profile_requests.find(id); asked != m_profile_requests.end()) {
        m_profiles[asked->second].pending = false;
        m_profile_requests.erase(asked);
    }
}

void WorkerClient::HandleExit(const Json& m, int, PendingAt) {
    const int code = m.value("code", -1);
    if (!m_greeted && (code == 127 || code == 126)) {
        // The shell's and env's codes: the program was not found, or could not be executed.
        // Starting it again would fail the same way.
        GiveUp(code == 127 ? "the worker program was not found (exit code 127)"
                           : "the worker program is not executable (exit code 126)");
        return;
    }
    if (!m_killed_for.empty()) {
        // Killed for a student's kernel past its time limit: said so, and not counted as a
        // crash (a worker is always started again).
        m_notices.push_back(std::exchange(m_killed_for, std::string()));
        ForgetExerciseRequests("the worker was stopped");
        m_pending.clear();
        m_unsent.clear();
        m_attribute_requests.clear();
        ForgetProfileRequests();
        ++m_restarts;
        Restart();
        return;
    }
    std::string notice = "The worker stopped (" + ExitDescription(m) + ")";
    if (Busy()) notice += " while running " + BusyWith();
    ForgetExerciseRequests(notice);
    const auto now = std::chrono::steady_clock::now();
    m_recent_exits.push_back(now);
    while (!m_recent_exits.empty() && now - m_recent_exits.front() > kCrashWindow)
        m_recent_exits.pop_front();
    m_pending.clear();
    m_unsent.clear();
    m_attribute_requests.clear();
    ForgetProfileRequests();
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

float WorkerClient::RequestFraction(const Pending& p) {
    const float samples = p.total > 0 ? std::min(1.0f, float(p.done) / float(p.total)) : 0.0f;
    if (p.points > 0)
        return std::clamp((float(std::min(p.points_done, p.points)) + samples) / float(p.points),
                          0.0f, 1.0f);
    return samples;
}

float WorkerClient::Progress() const {
    int left = 0;
    float current = 0;
    for (const auto& [id, p] : m_pending)
        if (p.batch && !p.quiet && left++ == 0) current = RequestFraction(p);
    if (left > 0 && m_batch_total > 0) {
        const int finished = std::max(0, m_batch_total - left);
        return std::clamp((float(finished) + current) / float(m_batch_total), 0.0f, 1.0f);
    }
    for (const auto& [id, p] : m_pending)
        if (!p.quiet && (p.total > 0 || p.points > 0)) return RequestFraction(p);
    return -1.0f;
}

double WorkerClient::SecondsLeft() const {
    const float f = Progress();
    if (f < 0 || m_batch_total == 0) return -1;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_batch_started).count();
    return EstimateSecondsLeft(f, elapsed);
}

std::string WorkerClient::Describe(const Pending& p, std::string_view language) {
    if (p.exercise)
        return Fmt(Tr(language, p.what.starts_with("checking") ? kYourKernelCheck
                                : p.kernel_run                 ? kYourKernelRun
                                                               : kYourKernelCompile),
                   p.label.c_str());
    if (p.tune) return Fmt(Tr(language, kTuningOf), p.label.c_str());
    if (p.label.empty()) return p.what;
    if (!p.in_turn_with.empty())
        return Fmt(Tr(language, kLessonsInTurn), p.in_turn_with.c_str(), p.label.c_str());
    switch (p.origin) {
        case Origin::kBlockSweep:
            return Fmt(Tr(language, kBlockSweepOf), p.label.c_str());
        case Origin::kSizeSweep:
            return Fmt(Tr(language, kSizeSweepOf), p.label.c_str());
        case Origin::kParamSweep:
            return Fmt(Tr(language, kParamSweepOf), p.label.c_str(),
                       (language == "zh" ? p.over_label_zh : p.over_label).c_str());
        default:
            return Fmt(Tr(language, kLessonN), p.label.c_str());
    }
}

std::string WorkerClient::BusyWith(std::string_view language) const {
    std::string out;
    int chapter_left = 0;
    for (const auto& [id, p] : m_pending)
        if (p.chapter && chapter_left++ == 0) out = Describe(p, language);
    if (chapter_left > 0)
        return Fmt(Tr(language, kChapterProgress), out.c_str(), m_chapter_total - chapter_left + 1,
                   m_chapter_total);
    for (const auto& [id, p] : m_pending) {
        if (p.what == "cancel" || p.quiet) continue;
        out += (out.empty() ? "" : ", ") + Describe(p, language);
    }
    return out;
}

Message WorkerClient::UnavailableReason(const Lesson& lesson) const {
    if (const Message* why = m_store.WhyUnavailable(lesson)) return *why;
    if (!m_start_error.empty()) return Message::Plain(m_start_error);
    return Message::Plain(m_worker ? "waiting for the worker" : "no worker is running");
}

std::string WorkerClient::WorkerState() const {
    if (!m_started) return "not started";
    if (!m_worker && m_refused) return "refused";
    if (!m_worker) return m_start_error.empty() ? "stopped" : "cannot start";
    if (!m_worker->Running()) return "stopped";
    if (Busy()) return "running " + BusyWith();
    return "idle";
}

}  // namespace lessons::app
