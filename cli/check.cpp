#include "check.h"

#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <thread>
#include <utility>

#include "errors.h"
#include "message.h"

namespace lessons::cli {

using json = nlohmann::ordered_json;

ExerciseCaseSet CasesOf(const Registry& registry, const Lesson& lesson) {
    const auto it = ExerciseCaseImpls().find(lesson.step.type());
    if (it == ExerciseCaseImpls().end())
        throw UnavailableError("this build has no hidden cases for " + lesson.Name() +
                               (StepKindImpls().empty()
                                    ? ": it was built without CUDA"
                                    : ": its step kind declares none (LESSONS_EXERCISE_CASES)"));
    return it->second(lesson.step.data(), StepSite{lesson, registry.FindLesson(lesson.previous)});
}

namespace {

// A case's text in a temporary file, removed when done.
class TempText {
public:
    explicit TempText(const std::string& text) {
        char name[] = "/tmp/cuda-lessons-case-XXXXXX";
        const int fd = mkstemp(name);
        if (fd < 0) throw FileError("cannot make a temporary file for a case's text");
        m_path = name;
        size_t done = 0;
        while (done < text.size()) {
            const ssize_t n = write(fd, text.data() + done, text.size() - done);
            if (n <= 0) {
                close(fd);
                std::remove(m_path.c_str());
                throw FileError("cannot write a case's text to '" + m_path + "'");
            }
            done += static_cast<size_t>(n);
        }
        close(fd);
    }
    ~TempText() { std::remove(m_path.c_str()); }
    TempText(const TempText&) = delete;
    TempText& operator=(const TempText&) = delete;
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
};

// Guard zones on for the buffers allocated while it lives.
struct GuardScope {
    explicit GuardScope(bool on) {
        TakeGuardDamage();
        SetGuardZones(on);
    }
    ~GuardScope() { SetGuardZones(false); }
};

}  // namespace

std::vector<CaseOutcome> RunCases(
    Session& session, const Lesson& yours, const ExerciseCaseSet& set, const RawParams& fixed,
    const RunControl& control,
    const std::function<void(const CaseOutcome&, size_t i, size_t total)>& on_case,
    const std::function<void(const ExerciseCase&, size_t i)>& on_start, bool guard_zones) {
    std::vector<CaseOutcome> out;
    bool lost = false;
    for (size_t i = 0; i < set.cases.size(); ++i) {
        const ExerciseCase& c = set.cases[i];
        CaseOutcome o;
        o.name = c.name;
        o.name_zh = c.name_zh;
        if (on_start) on_start(c, i);
        if (lost) {
            o.message = "not run: the GPU context was lost in an earlier case";
            o.message_zh = "未运行：前面的用例使 GPU 上下文失效";
        } else {
            RunOptions options;
            options.params = fixed;
            for (const auto& [name, value] : c.params) options.Set(name, value);
            options.reps = 1;
            options.measure_ceilings = false;
            try {
                std::optional<TempText> text;
                if (c.use_text) {
                    text.emplace(c.text);
                    options.input_file = text->path();
                }
                RunResult r;
                {
                    GuardScope guards(guard_zones);
                    r = session.Run(yours, options, control);
                    // The step is gone by now: its buffers were freed and their zones read.
                }
                o.guards = TakeGuardDamage();
                o.ran = true;
                o.ms = r.median_ms;
                o.passed = r.verified && o.guards.empty();
                if (!r.verified) {
                    // The chapter's words for it, in both languages (its English where the
                    // check gave no form).
                    o.message = r.check_message;
                    o.message_zh = Render(r.CheckMessage(), "zh");
                } else if (!o.guards.empty()) {
                    o.message = o.guards.front().text;
                    o.message_zh = o.guards.front().text_zh;
                }
                if (!r.verified && !o.guards.empty()) {
                    o.message += "; and " + o.guards.front().text;
                    o.message_zh += "；并且" + o.guards.front().text_zh;
                }
            } catch (const CudaError& e) {
                TakeGuardDamage();
                o.message = std::string("the run failed: ") + e.what();
                o.message_zh = std::string("运行失败：") + e.what();
                lost = e.sticky();
            } catch (const Cancelled&) {
                throw;
            } catch (const std::exception& e) {
                TakeGuardDamage();
                o.message = std::string("not run: ") + e.what();
                o.message_zh = std::string("未运行：") + e.what();
            }
        }
        if (on_case) on_case(o, i, set.cases.size());
        out.push_back(std::move(o));
    }
    return out;
}

json ToJson(const CaseOutcome& c) {
    json guards = json::array();
    for (const GuardDamage& g : c.guards)
        guards.push_back(json{{"buffer", g.buffer}, {"text", g.text}, {"text_zh", g.text_zh}});
    return json{{"name", c.name},        {"name_zh", c.name_zh},
                {"passed", c.passed},    {"ran", c.ran},
                {"message", c.message},  {"message_zh", c.message_zh},
                {"guard_zones", guards}, {"ms", c.ms}};
}

struct KernelWatchdog::State {
    double limit_s;
    std::function<void(const std::string&)> on_expiry;
    std::mutex mutex;
    std::condition_variable changed;
    bool armed = false, stop = false;
    unsigned serial = 0;
    std::string label;
    std::thread thread;
};

KernelWatchdog::KernelWatchdog(double limit_s,
                               std::function<void(const std::string& label)> on_expiry)
    : m_state(new State) {
    m_state->limit_s = limit_s;
    m_state->on_expiry = std::move(on_expiry);
    m_state->thread = std::thread([s = m_state] {
        std::unique_lock<std::mutex> lock(s->mutex);
        while (!s->stop) {
            if (!s->armed) {
                s->changed.wait(lock);
                continue;
            }
            const unsigned serial = s->serial;
            const bool changed =
                s->changed.wait_for(lock, std::chrono::duration<double>(s->limit_s),
                                    [&] { return s->stop || !s->armed || s->serial != serial; });
            if (changed) continue;
            // Past the limit: said, then the process ends (a kernel in an endless loop cannot
            // be stopped from the host; the driver ends it with the process).
            s->on_expiry(s->label);
            std::fflush(stdout);
            std::fflush(stderr);
            std::_Exit(1);
        }
    });
}

KernelWatchdog::~KernelWatchdog() {
    {
        const std::lock_guard<std::mutex> lock(m_state->mutex);
        m_state->stop = true;
    }
    m_state->changed.notify_all();
    m_state->thread.join();
    delete m_state;
}

void KernelWatchdog::Arm(const std::string& label) {
    {
        const std::lock_guard<std::mutex> lock(m_state->mutex);
        m_state->armed = true;
        m_state->label = label;
        ++m_state->serial;
    }
    m_state->changed.notify_all();
}

void KernelWatchdog::Disarm() {
    {
        const std::lock_guard<std::mutex> lock(m_state->mutex);
        m_state->armed = false;
    }
    m_state->changed.notify_all();
}

}  // namespace lessons::cli
