#include "serve.h"

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <istream>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "device.h"
#include "device_report.h"
#include "errors.h"
#include "files.h"
#include "host.h"
#include "out_of_memory.h"
#include "report.h"
#include "units.h"

namespace lessons {

using json = nlohmann::ordered_json;

namespace {

// A whole number of 0 or more, as a number or as digits in a string ("seed": 7 or "7").
uint64_t CountField(const json& v, const char* key) {
    if (v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0))
        return v.get<uint64_t>();
    if (v.is_string()) {
        try {
            return ParseCount(v.get<std::string>());
        } catch (const UsageError& e) {
            throw UsageError(std::string("field '") + key + "': " + e.what());
        }
    }
    throw UsageError(std::string("field '") + key + "' must be a whole number of 0 or more");
}

bool BoolField(const json& v, const char* key) {
    if (!v.is_boolean()) throw UsageError(std::string("field '") + key + "' must be true or false");
    return v.get<bool>();
}

int IntField(const json& v, const char* key) {
    if (!v.is_number_integer())
        throw UsageError(std::string("field '") + key + "' must be a whole number");
    const int64_t x = v.get<int64_t>();
    if (x < -1000000000 || x > 1000000000)
        throw UsageError(std::string("field '") + key + "' is out of range");
    return static_cast<int>(x);
}

// A parameter's value as text, for the lesson's own parser: "256", "64MiB", "random".
std::string ParamText(const json& v, const std::string& name) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0))
        return std::to_string(v.get<uint64_t>());
    throw UsageError("parameter '" + Excerpt(name, 40) +
                     "' must be a non-negative whole number or a string");
}

// A sweep's values: a range string ("32..1024", "1MiB..1GiB", "a,b") or an array.
std::string RangeText(const json& v, const char* key) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_array() && !v.empty()) {
        std::string out;
        for (const json& e : v) {
            if (!e.is_string() && !e.is_number_unsigned() &&
                !(e.is_number_integer() && e.get<int64_t>() >= 0))
                throw UsageError(std::string("field '") + key +
                                 "' must list non-negative whole numbers or strings, e.g. "
                                 "[128, 256] or [\"random\", \"dense\"]");
            out += (out.empty() ? "" : ",") + ParamText(e, key);
        }
        return out;
    }
    throw UsageError(std::string("field '") + key +
                     "' must be a range like \"32..1024\" or a non-empty list");
}

// Limits on one request line: longer lines are skipped unread (never held whole in memory),
// deeper nesting is refused before parsing (destroying or printing a deep value recurses).
constexpr size_t kMaxLineBytes = size_t(1) << 20;
constexpr int kMaxDepth = 64;
// Error messages quote at most this much (a bad token can be megabytes long).
constexpr size_t kMaxErrorBytes = 1000;
// How long a signal's shutdown may wait for its answers to be read before the process ends.
constexpr std::chrono::seconds kShutdownGrace{3};

// Shared between the reader thread and the executing thread.
struct ServeState {
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<json> queue;
    bool busy = false;                // a request is running
    json current_id;                  // its id as it was sent (null: it had none)
    std::vector<json> after_current;  // cancels whose "done" follows the running request's
    std::atomic<bool> cancel{false};
    bool input_closed = false;
    bool shutdown = false;

    // Every line goes out through Emit, whole, under this mutex.
    std::mutex out_mutex;
    std::ostream* out = nullptr;

    void Emit(const json& message) {
        const std::string line =
            message.dump(-1, ' ', false, json::error_handler_t::replace) + '\n';
        std::lock_guard<std::mutex> lock(out_mutex);
        out->write(line.data(), static_cast<std::streamsize>(line.size()));
        out->flush();
    }
    void Done(const json& id, const char* status) {
        Emit({{"id", id}, {"type", "done"}, {"status", status}});
    }
    void Error(const json& id, const std::string& message, bool fatal = false) {
        Emit({{"id", id},
              {"type", "error"},
              {"error", Excerpt(message, kMaxErrorBytes)},
              {"fatal", fatal}});
    }
};

enum class LineRead { kLine, kTooLong, kEnd };

// Reads one line (without its '\n') into `line`, keeping at most `max` bytes: the rest of a
// longer line is read and dropped.
LineRead ReadLine(std::streambuf& in, std::string& line, size_t max) {
    line.clear();
    bool any = false, too_long = false;
    for (;;) {
        const int c = in.sbumpc();
        if (c == std::char_traits<char>::eof()) {
            if (!any) return LineRead::kEnd;
            break;
        }
        any = true;
        if (c == '\n') break;
        if (line.size() < max) {
            line.push_back(static_cast<char>(c));
        } else {
            too_long = true;
        }
    }
    return too_long ? LineRead::kTooLong : LineRead::kLine;
}

// True when arrays and objects in `text` (outside strings) nest deeper than `limit`.
bool NestsDeeperThan(std::string_view text, int limit) {
    int depth = 0;
    bool in_string = false, escaped = false;
    for (char c : text) {
        if (in_string) {
            if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == '"') {
                in_string = false;
            }
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > limit) return true;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return false;
}

class Executor;
// The protocol's ops, one row each (kOps, after the Executor): a request the executor runs in
// turn, or (no handler) one the reader thread acts on at once.
struct OpHandler {
    const char* name;
    const char* (Executor::*execute)(const json& request, const json& id);
};
const OpHandler* FindOp(const std::string& name);
// "use run, sweep, ..., cancel or shutdown": every op of kOps.
std::string UseOps();

// Handles one request line: queues work, or answers cancel and shutdown at once. Returns
// false after a shutdown.
bool HandleLine(ServeState& state, const std::string& line) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) return true;
    if (NestsDeeperThan(line, kMaxDepth)) {
        state.Error(nullptr, "a request may nest arrays and objects at most " +
                                 std::to_string(kMaxDepth) + " deep");
        return true;
    }
    json request;
    try {
        request = json::parse(line);
    } catch (const json::exception& e) {  // parse_error, out_of_range (1e400), ...
        state.Error(nullptr, std::string("malformed JSON: ") + e.what());
        return true;
    }
    if (!request.is_object()) {
        state.Error(nullptr, "a request must be a JSON object with an \"op\" field");
        return true;
    }
    const json id = request.contains("id") ? request["id"] : json(nullptr);
    if (!request.contains("op") || !request["op"].is_string()) {
        state.Error(id, std::string(request.contains("op") ? "field 'op' must be a string"
                                                           : "missing \"op\"") +
                            ": " + UseOps());
        state.Done(id, "error");
        return true;
    }
    const std::string op = request["op"];
    const OpHandler* handler = FindOp(op);
    if (!handler) {
        state.Error(id, "unknown op '" + op + "': " + UseOps());
        state.Done(id, "error");
        return true;
    }
    if (!handler->execute) {  // cancel, shutdown: at once, here
        const bool all = op == "shutdown" || !request.contains("target");
        const json target = all ? json(nullptr) : request["target"];
        {
            // Under the lock, so that the running request's "done", which the executor
            // writes and then takes `after_current`, cannot come between these.
            std::lock_guard<std::mutex> lock(state.mutex);
            for (auto it = state.queue.begin(); it != state.queue.end();) {
                const json qid = (*it).contains("id") ? (*it)["id"] : json(nullptr);
                if (all || qid == target) {
                    state.Done(qid, "cancelled");
                    it = state.queue.erase(it);
                } else {
                    ++it;
                }
            }
            if (op == "shutdown") state.shutdown = true;
            if (state.busy && (all || state.current_id == target)) {
                state.cancel = true;
                state.after_current.push_back(id);  // answered after the running one
            } else {
                state.Done(id, "ok");
            }
        }
        state.wake.notify_all();
        return op != "shutdown";
    }
    {
        std::lock_guard<std::mutex> lock(state.mutex);
        state.queue.push_back(std::move(request));
    }
    state.wake.notify_all();
    return true;
}

// Reader thread: reads lines and hands them to HandleLine; no input ends the worker.
void ReadRequests(const std::shared_ptr<ServeState>& state, std::istream& in) {
    in.tie(nullptr);  // a tied stream would flush the output outside Emit's lock
    std::streambuf& buffer = *in.rdbuf();
    std::string line;
    for (;;) {
        const LineRead read = ReadLine(buffer, line, kMaxLineBytes);
        if (read == LineRead::kEnd) break;
        if (read == LineRead::kTooLong) {
            state->Error(nullptr, "a request line is longer than " + FormatSize(kMaxLineBytes) +
                                      "; it was skipped");
            continue;
        }
        bool go_on = true;
        try {
            go_on = HandleLine(*state, line);
        } catch (const std::exception& e) {
            char text[480];
            state->Error(nullptr, IsOutOfMemory(e)
                                      ? OutOfMemoryText(e, "read this request", text, sizeof text)
                                      : (std::string("bad request: ") + e.what()).c_str());
        }
        if (!go_on) break;
    }
    // Requests already sent after a shutdown (in the input at hand, whole lines) are answered
    // that they will not run, rather than left without a reply.
    for (std::string rest; buffer.in_avail() > 0;) {
        const int c = buffer.sbumpc();
        if (c == std::char_traits<char>::eof()) break;
        if (c != '\n') {
            if (rest.size() < kMaxLineBytes) rest.push_back(char(c));
            continue;
        }
        json id = nullptr;
        try {
            const json request = json::parse(rest);
            if (request.is_object() && request.contains("id")) id = request["id"];
        } catch (const json::exception&) {
        }
        rest.clear();
        state->Error(id, "the worker is shutting down: this request was not run");
        state->Done(id, "error");
    }
    {
        std::lock_guard<std::mutex> lock(state->mutex);
        state->input_closed = true;
    }
    state->wake.notify_all();
}

const Lesson& LessonField(const Registry& registry, const json& request) {
    if (!request.contains("lesson"))
        throw UsageError("missing \"lesson\" (its number such as \"5.8\", or its id)");
    const json& v = request["lesson"];
    const std::string key = v.is_string() ? v.get<std::string>() : v.dump();
    const Lesson* lesson = registry.FindLesson(key);
    if (!lesson)
        throw UsageError("unknown lesson " + key + ": use a lesson's number such as \"" +
                         registry.lessons().front().label + "\" or its id such as " +
                         registry.lessons().front().id + " (see 'list')");
    return *lesson;
}

class Executor {
public:
    Executor(const Registry& registry, ServeState& state, const ServeOptions& options)
        : m_session(registry), m_state(state), m_options(options) {}

    // Returns the status for the "done" message. The request's op is one the executor runs
    // (HandleLine queues no other).
    const char* Execute(const json& request, const json& id) {
        return (this->*FindOp(request["op"].get<std::string>())->execute)(request, id);
    }

    // The handlers of kOps; each returns the status for the "done" message.
    const char* Info(const json& request, const json& id) {
        const DeviceList& list = GetDevices();
        // "tf32": true measures the tensor-core ceilings (TF32, bf16) now (the roofline's
        // "measure again"); otherwise each is reported when a tensor-core step measured it.
        const bool tf32 = request.contains("tf32") && BoolField(request["tf32"], "tf32");
        const std::vector<Ceilings> figures = AllCeilings(tf32);
        std::vector<const Ceilings*> ceilings;
        for (const Ceilings& f : figures) ceilings.push_back(&f);
        json devices = DevicesToJson(list, ceilings);
        for (json& d : devices)
            d["free_memory_bytes"] = QueryDeviceMemory(d["ordinal"].get<int>()).free_bytes;
        json device = DeviceSummaryToJson(list, list.available() ? ceilings[0] : nullptr);
        if (list.available()) device["free_memory_bytes"] = devices[0]["free_memory_bytes"];
        m_state.Emit({{"id", id},
                      {"type", "info"},
                      {"device", device},
                      {"devices", devices},
                      {"host", ToJson(GetHostInfo())},
                      {"protocol", kProtocolVersion}});
        return "ok";
    }

    const char* List(const json&, const json& id) {
        json lessons = json::array();
        for (const Lesson& l : m_session.registry().lessons())
            lessons.push_back(
                LessonToJson(m_session.registry(), l, m_session.UnavailableMessage(l)));
        m_state.Emit({{"id", id}, {"type", "list"}, {"lessons", lessons}});
        return "ok";
    }

    const char* Attributes(const json& request, const json& id) {
        const Lesson& lesson = LessonField(m_session.registry(), request);
        const RunOptions base = RunOptionsFromJson(request);
        const ParamValues params = ResolveParams(lesson, base.params);  // validates them
        if (lesson.library || lesson.kind != StepKind::kGpu)
            throw UsageError("lesson " + lesson.label + " has no kernel of its own (" +
                             (lesson.library ? "a library step" : "a CPU step") + ")");
        const std::string why = m_session.Unavailable(lesson);
        if (!why.empty())
            throw UnavailableError("lesson " + lesson.label + " cannot run here: " + why);
        json reply = {{"id", id},
                      {"type", "attributes"},
                      {"lesson", lesson.id},
                      {"params", ToJson(params)},
                      {"attributes", ToJson(lesson.runner.attributes(params))}};
        if (params.Has("block")) reply["block"] = params.Number("block");
        m_state.Emit(reply);
        return "ok";
    }

    const char* Compile(const json& request, const json& id) {
        const Lesson& lesson = LessonField(m_session.registry(), request);
        return Student("compile", request, lesson, RunOptionsFromJson(request), id);
    }

    const char* Run(const json& request, const json& id) {
        const Lesson& lesson = LessonField(m_session.registry(), request);
        const RunOptions base = RunOptionsFromJson(request);
        if (request.contains("kernel")) return Student("run", request, lesson, base, id);
        return Report(id, m_session.Run(lesson, base, Control(id)), -1, 0);
    }

    // `compare`: two or more lessons timed in turn (RunInTurn), each one's result pooled over
    // the trials, with its point (its place in "lessons") of points.
    const char* Compare(const json& request, const json& id) {
        if (!request.contains("lessons") || !request["lessons"].is_array() ||
            request["lessons"].size() < 2 || request["lessons"].size() > kMaxCompared)
            throw UsageError("\"lessons\" must be an array of 2 to " +
                             std::to_string(kMaxCompared) + " lessons (numbers or ids)");
        std::vector<const Lesson*> lessons;
        for (const json& l : request["lessons"])
            lessons.push_back(&LessonField(m_session.registry(), json{{"lesson", l}}));
        int trials = kDefaultTrials;
        if (request.contains("trials")) {
            if (!request["trials"].is_number_integer())
                throw UsageError("field 'trials' must be a whole number, 1 to " +
                                 std::to_string(kMaxTrials));
            const int64_t t = request["trials"].get<int64_t>();
            if (t < 1 || t > kMaxTrials)
                throw UsageError("trials must be 1 to " + std::to_string(kMaxTrials) + ", not " +
                                 std::to_string(t));
            trials = static_cast<int>(t);
        }
        const RunOptions base = RunOptionsFromJson(request);
        for (const Lesson* l : lessons) {
            const std::string why = m_session.Unavailable(*l);
            if (!why.empty())
                throw UnavailableError("lesson " + l->label + " cannot run here: " + why);
        }
        const std::vector<RunResult> results =
            RunInTurn(m_session, lessons, base, trials, Control(id));
        bool all_verified = true;
        const int count = static_cast<int>(lessons.size());
        for (const RunResult& r : results) {
            int point = 0;
            for (int i = 0; i < count; ++i)
                if (lessons[size_t(i)]->id == r.id) point = i;
            all_verified = std::string(Report(id, r, point, count)) == "ok" && all_verified;
        }
        return all_verified ? "ok" : "wrong";
    }

    // `check`: the student's kernel compiled (the `compile` reply), then over its step kind's
    // hidden cases: a `case` reply for each, then a `check` reply with the summary.
    const char* Check(const json& request, const json& id) {
        const Lesson& lesson = LessonField(m_session.registry(), request);
        const RunOptions base = RunOptionsFromJson(request);
        if (!m_options.check) throw UnavailableError("this worker was started without a checker");
        if (!request.contains("kernel") || !request["kernel"].is_string())
            throw UsageError("field 'kernel' must be the kernel's source, a string");
        if (!m_options.student) throw UnavailableError("this worker takes no kernel of yours");
        ResolveParams(lesson, base.params);
        StudentBuild build = m_options.student(lesson, request["kernel"].get<std::string>(),
                                               &base.params, &m_state.cancel);
        m_state.Emit(
            {{"id", id}, {"type", "compile"}, {"lesson", lesson.id}, {"compile", build.compile}});
        if (!build.compiled) {
            m_state.Error(id, build.problem);
            return build.status;
        }
        // The checker runs in a session of its own: the data kept for the next run goes first.
        m_session.ReleaseWorkload();
        json summary;
        if (build.lesson) {
            summary = m_options.check(
                *build.lesson, lesson, Control(id),
                [&](const json& outcome, int i, int total) {
                    m_state.Emit({{"id", id},
                                  {"type", "case"},
                                  {"case", outcome},
                                  {"point", i},
                                  {"points", total}});
                },
                [&](const std::string& of) {
                    m_state.Emit({{"id", id}, {"type", "timing"}, {"of", of}});
                });
        } else {
            summary = {{"checked", false},
                       {"passed", false},
                       {"not_checked", "compiled, not checked: " + build.problem},
                       {"not_checked_zh", "已编译，未检查：" + build.problem}};
        }
        if (m_state.cancel) return "cancelled";
        m_state.Emit({{"id", id}, {"type", "check"}, {"lesson", lesson.id}, {"check", summary}});
        if (!summary.value("checked", false)) return "unavailable";
        return summary.value("passed", false) ? "ok" : "wrong";
    }

    const char* Tune(const json& request, const json& id) {
        const Lesson& lesson = LessonField(m_session.registry(), request);
        const RunOptions base = RunOptionsFromJson(request);
        if (!m_options.tune) throw UnavailableError("this worker was started without a tuner");
        // The tuner runs in a session of its own: the data kept for the next run goes first.
        m_session.ReleaseWorkload();
        bool all_verified = true;
        const json tuning = m_options.tune(
            lesson, base.params, Control(id), [&](const RunResult& r, int point, int points) {
                all_verified = std::string(Report(id, r, point, points)) == "ok" && all_verified;
            });
        m_state.Emit({{"id", id}, {"type", "tuning"}, {"tuning", tuning}});
        return all_verified ? "ok" : "wrong";
    }

    const char* Profile(const json& request, const json& id) {
        const Lesson& lesson = LessonField(m_session.registry(), request);
        const RunOptions base = RunOptionsFromJson(request);
        if (!m_options.profile)
            throw UnavailableError("this worker was started without a profiler");
        const bool recorded =
            request.contains("recorded") && BoolField(request["recorded"], "recorded");
        const RunControl control = Control(id);
        // ncu runs a second copy of the step: the data this worker keeps goes first.
        if (!recorded) m_session.ReleaseWorkload();
        const json profile = m_options.profile(lesson, base.params, recorded, control.cancel);
        if (control.cancel && control.cancel->load()) return "cancelled";
        m_state.Emit({{"id", id}, {"type", "profile"}, {"profile", profile}});
        return "ok";
    }

    const char* Sweep(const json& request, const json& id) {
        const Lesson& lesson = LessonField(m_session.registry(), request);
        const RunOptions base = RunOptionsFromJson(request);
        // A sweep: "over" names the parameter and "values" its range; "blocks" and "sizes"
        // are the shorthands of protocol 1.
        std::string param, range;
        if (request.contains("over")) {
            if (!request["over"].is_string())
                throw UsageError("field 'over' must name a parameter, e.g. \"block\"");
            param = request["over"].get<std::string>();
            if (!request.contains("values"))
                throw UsageError("a sweep over '" + param + "' needs \"values\"");
            range = RangeText(request["values"], "values");
        } else if (request.contains("blocks") != request.contains("sizes")) {
            param = request.contains("blocks") ? "block" : "size";
            range = RangeText(request[param + "s"], param == "block" ? "blocks" : "sizes");
        } else {
            throw UsageError(
                "a sweep needs \"over\" and \"values\" (or one of \"blocks\" or "
                "\"sizes\")");
        }
        const std::vector<SweepPoint> points = PlanSweep(lesson, base, param, range);
        bool all_verified = true;
        bool any_ran = false;
        std::optional<UsageError> last_refusal;
        for (size_t i = 0; i < points.size(); ++i) {
            if (m_state.cancel) throw Cancelled();  // between points, skipped ones too
            const int index = static_cast<int>(i), count = static_cast<int>(points.size());
            std::string skip = points[i].skip_reason;
            if (skip.empty()) {
                try {
                    const RunResult r = m_session.Run(lesson, points[i].options, Control(id));
                    all_verified = std::string(Report(id, r, index, count)) == "ok" && all_verified;
                    any_ran = true;
                    continue;
                } catch (const UsageError& e) {
                    // Refused when it came to run (a size over the memory available): the
                    // points measured so far stand, the sweep goes on.
                    skip = e.what();
                    last_refusal = e;
                }
            }
            m_state.Emit({{"id", id},
                          {"type", "skipped"},
                          {"point", index},
                          {"points", count},
                          {"reason", Excerpt(skip, kMaxErrorBytes)}});
        }
        if (!any_ran && last_refusal) throw *last_refusal;
        return all_verified ? "ok" : "wrong";
    }

private:
    // `compile`, and `run` with "kernel": the student's kernel compiled (the `compile` reply
    // says how), then run by the step's harness in its place.
    const char* Student(const std::string& op, const json& request, const Lesson& lesson,
                        const RunOptions& base, const json& id) {
        if (!request.contains("kernel") || !request["kernel"].is_string())
            throw UsageError("field 'kernel' must be the kernel's source, a string");
        if (!m_options.student) throw UnavailableError("this worker takes no kernel of yours");
        if (op == "run") ResolveParams(lesson, base.params);  // bad parameters before compiling
        StudentBuild build =
            m_options.student(lesson, request["kernel"].get<std::string>(),
                              op == "run" ? &base.params : nullptr, &m_state.cancel);
        m_state.Emit(
            {{"id", id}, {"type", "compile"}, {"lesson", lesson.id}, {"compile", build.compile}});
        if (!build.compiled || (op == "run" && !build.lesson)) {
            m_state.Error(id, build.problem);
            return build.status;
        }
        if (op == "compile") return "ok";
        RunResult r = m_session.Run(*build.lesson, base, Control(id));
        r.yours = true;
        return Report(id, r, -1, 0);
    }

    const char* Report(const json& id, const RunResult& r, int point, int points) {
        json message = {{"id", id}, {"type", "result"}, {"result", ToJson(r)}};
        if (point >= 0) {
            message["point"] = point;
            message["points"] = points;
        }
        m_state.Emit(message);
        return r.verified ? "ok" : "wrong";
    }

    RunControl Control(const json& id) {
        RunControl control;
        control.cancel = &m_state.cancel;
        auto last = std::make_shared<std::chrono::steady_clock::time_point>();
        control.progress = [this, id, last](int done, int total) {
            const auto now = std::chrono::steady_clock::now();
            if (done < total && now - *last < std::chrono::milliseconds(50)) return;
            *last = now;
            m_state.Emit({{"id", id}, {"type", "progress"}, {"done", done}, {"total", total}});
        };
        return control;
    }

public:
    // Frees the data kept for the next run; true when there was some.
    bool Release() {
        if (!m_session.HoldsWorkload()) return false;
        m_session.ReleaseWorkload();
        return true;
    }

private:
    Session m_session;
    ServeState& m_state;
    const ServeOptions& m_options;
};

// Every op of the protocol (docs/serve-protocol.md), in the order the usage names them.
constexpr OpHandler kOps[] = {
    {"run", &Executor::Run},
    {"sweep", &Executor::Sweep},
    {"compare", &Executor::Compare},
    {"info", &Executor::Info},
    {"list", &Executor::List},
    {"attributes", &Executor::Attributes},
    {"profile", &Executor::Profile},
    {"compile", &Executor::Compile},
    {"tune", &Executor::Tune},
    {"check", &Executor::Check},
    {"cancel", nullptr},
    {"shutdown", nullptr},
};

const OpHandler* FindOp(const std::string& name) {
    for (const OpHandler& op : kOps)
        if (name == op.name) return &op;
    return nullptr;
}

std::string UseOps() {
    std::string out = "use ";
    const size_t n = std::size(kOps);
    for (size_t i = 0; i < n; ++i)
        out += std::string(i == 0 ? "" : i + 1 == n ? " or " : ", ") + kOps[i].name;
    return out;
}

}  // namespace

const std::vector<std::string>& ServeOps() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const OpHandler& op : kOps) out.push_back(op.name);
        return out;
    }();
    return names;
}

RunOptions RunOptionsFromJson(const json& r) {
    RunOptions o;
    // Protocol 1's fields, still accepted: they set the parameters of the same names.
    static const std::pair<const char*, const char*> kLegacy[] = {
        {"size", "size"}, {"block", "block"}, {"threads", "threads"}, {"data", "data"}};
    for (const auto& [field, name] : kLegacy)
        if (r.contains(field) && !r[field].is_null()) o.Set(name, ParamText(r[field], field));
    if (r.contains("params") && !r["params"].is_null()) {
        if (!r["params"].is_object())
            throw UsageError("field 'params' must be an object of name: value");
        for (const auto& [name, value] : r["params"].items())
            if (!value.is_null()) o.Set(name, ParamText(value, name));
    }
    if (r.contains("reps") && !r["reps"].is_null()) o.reps = IntField(r["reps"], "reps");
    if (r.contains("seed")) o.seed = CountField(r["seed"], "seed");
    if (r.contains("cold_l2")) o.cold_l2 = BoolField(r["cold_l2"], "cold_l2");
    if (r.contains("input")) {
        if (!r["input"].is_string()) throw UsageError("field 'input' must be a file name");
        o.input_file = r["input"].get<std::string>();
        // As the CLI's --input '': an empty name is a mistake, not "no file".
        if (o.input_file.empty())
            throw UsageError("field 'input' is empty: give a file name or leave the field out");
    }
    if (r.contains("min_time_s")) {
        if (!r["min_time_s"].is_number()) throw UsageError("field 'min_time_s' must be a number");
        o.min_time_s = r["min_time_s"].get<double>();
        if (!(o.min_time_s >= 0 && o.min_time_s <= 60))
            throw UsageError("min_time_s must be between 0 and 60 seconds");
        o.max_time_s = std::max(o.max_time_s, o.min_time_s);
    }
    return o;
}

int Serve(const Registry& registry, std::istream& in, std::ostream& out,
          const std::atomic<bool>* stop) {
    ServeOptions options;
    options.stop = stop;
    return Serve(registry, in, out, options);
}

int Serve(const Registry& registry, std::istream& in, std::ostream& out,
          const ServeOptions& options) {
    const std::atomic<bool>* stop = options.stop;
    auto state = std::make_shared<ServeState>();
    state->out = &out;
    // "nice": this thread's nice value, every thread's from now on: the caller lowered the
    // priority (serve --nice) before any thread started, and threads started later inherit it.
    // Said here, it tells a caller the worker has lowered itself.
    state->Emit({{"type", "hello"},
                 {"protocol", kProtocolVersion},
                 {"built_with_cuda", BuiltWithCuda()},
                 {"nice", CurrentNice()}});
    std::thread reader;
    try {
        reader = std::thread(ReadRequests, state, std::ref(in));
    } catch (const std::system_error& e) {
        // No thread (a thread or memory limit): said, and the worker ends, never aborts.
        state->Error(nullptr,
                     std::string("the worker cannot start its reading thread: ") + e.what() +
                         " (a limit on threads or memory, ulimit -u or -v)",
                     true);
        return 1;
    }
    // A signal acts as a shutdown request (without an id): the handler only sets `stop`, this
    // thread does the rest.
    const auto served = std::make_shared<std::atomic<bool>>(false);
    std::atomic<bool> stopped{false};
    std::thread watcher;
    try {
        if (stop)
            watcher = std::thread([&] {
                while (!*served) {
                    if (stop->load()) {
                        stopped = true;
                        // Whoever reads the answers may have stopped reading: a line blocked on a
                        // full pipe would hold the shutdown (and its own "done") for ever. After a
                        // grace period the process ends as the shutdown would have ended it.
                        std::thread([served] {
                            std::this_thread::sleep_for(kShutdownGrace);
                            if (!*served) std::_Exit(0);
                        }).detach();
                        HandleLine(*state, R"({"op":"shutdown","id":null})");
                        return;
                    }
                    std::this_thread::sleep_for(std::chrono::milliseconds(20));
                }
            });
    } catch (const std::system_error& e) {
        state->Error(nullptr,
                     std::string("the worker cannot start its signal thread: ") + e.what() +
                         " (a limit on threads or memory, ulimit -u or -v)",
                     true);
        reader.detach();  // blocked on input; the process is about to end
        return 1;
    }
    // Whatever ends this early (out of memory thrown on to the caller) leaves no joinable thread,
    // which would end the program in std::terminate: the watcher stops within 20 ms, the
    // reader may be blocked on input and is left to the process's end.
    struct Unwind {
        std::thread& reader;
        std::thread& watcher;
        std::atomic<bool>& served;
        ~Unwind() {
            served = true;
            if (watcher.joinable()) watcher.join();
            if (reader.joinable()) reader.detach();
        }
    } unwind{reader, watcher, *served};
    Executor executor(registry, *state, options);
    int exit_code = 0;
    for (;;) {
        json request;
        {
            std::unique_lock<std::mutex> lock(state->mutex);
            const auto ready = [&] {
                return !state->queue.empty() || state->input_closed || state->shutdown;
            };
            // Idle: after a while the data kept for the next run is freed (a 1 GiB run keeps
            // 1.2 GB otherwise), then the wait goes on.
            if (options.release_after_s >= 0 &&
                !state->wake.wait_for(lock, std::chrono::duration<double>(options.release_after_s),
                                      ready)) {
                lock.unlock();
                if (executor.Release() && options.on_release) options.on_release();
                lock.lock();
            }
            state->wake.wait(lock, ready);
            if (state->queue.empty() || state->shutdown) break;
            request = std::move(state->queue.front());
            state->queue.pop_front();
            state->current_id = request.contains("id") ? request["id"] : json(nullptr);
            state->busy = true;
            state->cancel = false;
        }
        const json id = request.contains("id") ? request["id"] : json(nullptr);
        const char* status = "ok";
        try {
            status = executor.Execute(request, id);
        } catch (const Cancelled&) {
            status = "cancelled";
        } catch (const UsageError& e) {
            state->Error(id, e.what());
            status = "error";
        } catch (const UnavailableError& e) {
            state->Error(id, e.what());
            status = "unavailable";
        } catch (const CudaError& e) {
            state->Error(id, e.what(), e.sticky());
            status = "error";
            if (e.sticky()) exit_code = kExitContextLost;
        } catch (const std::exception& e) {
            // Out of memory: what was being loaded (OutOfMemory), or the data a size asks for
            // (run, sweep, tune), or the request as a whole; the worker goes on.
            if (IsOutOfMemory(e)) {
                const std::string op = request.value("op", std::string());
                const bool sized = op == "run" || op == "sweep" || op == "tune" || op == "compare";
                char text[480];
                state->Error(id, OutOfMemoryText(e,
                                                 sized ? "hold the data of this size: choose a "
                                                         "smaller size"
                                                       : "answer this request",
                                                 text, sizeof text));
                KeepMemoryForOutOfMemory();  // spent on this failure: set aside again
            } else {
                state->Error(id, e.what());
            }
            status = "error";
        }
        state->Done(id, status);
        std::vector<json> cancels;  // answered after the request they cancelled
        {
            std::lock_guard<std::mutex> lock(state->mutex);
            state->current_id = nullptr;
            state->busy = false;
            cancels.swap(state->after_current);
        }
        for (const json& cancel_id : cancels) state->Done(cancel_id, "ok");
        if (exit_code) break;
    }
    *served = true;
    if (watcher.joinable()) watcher.join();
    bool input_done = false;
    {
        std::lock_guard<std::mutex> lock(state->mutex);
        input_done = state->input_closed;
    }
    if (exit_code == 0 && (input_done || (state->shutdown && !stopped))) {
        reader.join();
    } else {
        reader.detach();  // still blocked on input; the process is about to end
    }
    return exit_code;
}

}  // namespace lessons
