#include "check.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <thread>
#include <utility>

#include "errors.h"
#include "message.h"
#include "report.h"

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

TempFile::TempFile(const std::string& text, const std::string& tag, const std::string& what) {
    std::string name = "/tmp/cuda-lessons-" + tag + "-XXXXXX";
    const int fd = mkstemp(name.data());
    if (fd < 0) throw FileError("cannot make a temporary file for " + what);
    m_path = name;
    size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = write(fd, text.data() + done, text.size() - done);
        if (n <= 0) break;
        done += static_cast<size_t>(n);
    }
    close(fd);
    if (done < text.size()) {
        std::remove(m_path.c_str());
        throw FileError("cannot write " + what + " to '" + m_path + "'");
    }
}

TempFile::~TempFile() {
    std::remove(m_path.c_str());
}

namespace {

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
                std::optional<TempFile> text;
                if (c.use_text) {
                    text.emplace(c.text, "case", "a case's text");
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

SpeedVerdict JudgeSpeed(double yours_ms, double step_ms) {
    const auto good = [](double ms) { return std::isfinite(ms) && ms > 0; };
    if (!good(yours_ms) || !good(step_ms))
        return SpeedNotJudged(
            "no time was measured for " +
                std::string(good(yours_ms) ? "the step's kernel" : "your kernel"),
            good(yours_ms) ? "这一步的 kernel 没有测得时间" : "你的 kernel 没有测得时间");
    SpeedVerdict v;
    v.judged = true;
    v.yours_ms = yours_ms;
    v.step_ms = step_ms;
    v.ratio = yours_ms / step_ms;
    v.passed = yours_ms <= step_ms * (1 + kSpeedTolerance);
    return v;
}

SpeedVerdict SpeedNotJudged(const std::string& why, const std::string& why_zh) {
    SpeedVerdict v;
    v.why_not = why;
    v.why_not_zh = why_zh;
    return v;
}

std::string SpeedText(const SpeedVerdict& v, bool zh) {
    if (!v.judged)
        return zh ? "速度：未评判（" + v.why_not_zh + "）"
                  : "speed: not judged (" + v.why_not + ")";
    const std::string percent = Fixed(kSpeedTolerance * 100, 0);
    if (zh)
        return "速度：你的 " + Ms(v.yours_ms) + " ms，这一步的 " + Ms(v.step_ms) +
               " ms，目标：不慢于它的 " + percent + "%（或更快）：" +
               (v.passed ? "达到" : "未达到");
    return "speed: yours " + Ms(v.yours_ms) + " ms, the step's " + Ms(v.step_ms) +
           " ms, target: within " + percent + "% (or faster): " + (v.passed ? "met" : "NOT met");
}

json ToJson(const SpeedVerdict& v) {
    json out{{"judged", v.judged},
             {"passed", v.passed},
             {"yours_ms", v.judged ? json(v.yours_ms) : json()},
             {"step_ms", v.judged ? json(v.step_ms) : json()},
             {"ratio", v.judged ? json(v.ratio) : json()},
             {"target_ratio", 1 + kSpeedTolerance}};
    if (!v.judged) {
        out["why_not"] = v.why_not;
        out["why_not_zh"] = v.why_not_zh;
    }
    return out;
}

SpeedVerdict MeasureSpeed(Session& session, const Lesson& yours, const Lesson& step,
                          const RawParams& fixed, const RunControl& control,
                          const std::function<void(const std::string& phase)>& on_phase,
                          std::string* wrong, std::string* wrong_zh) {
    RunOptions options;
    options.params = fixed;  // the lesson's defaults otherwise
    options.measure_ceilings = false;
    double step_ms = 0, yours_ms = 0;
    for (int round = 0; round < 2; ++round) {
        if (on_phase) on_phase("step");
        RunResult s, y;
        try {
            s = session.Run(step, options, control);
        } catch (const Cancelled&) {
            throw;
        } catch (const std::exception& e) {
            return SpeedNotJudged(std::string("the step's own run failed: ") + e.what(),
                                  std::string("这一步自己的运行失败：") + e.what());
        }
        if (!s.verified)
            return SpeedNotJudged("the step's own kernel gave a wrong answer: " + s.check_message,
                                  "这一步自己的 kernel 结果不对：" + s.check_message);
        if (on_phase) on_phase("yours");
        try {
            y = session.Run(yours, options, control);
        } catch (const CudaError& e) {
            if (wrong) *wrong = std::string("at the default settings: the run failed: ") + e.what();
            if (wrong_zh) *wrong_zh = std::string("在默认设置下运行失败：") + e.what();
            return SpeedNotJudged("your kernel's run at the default settings failed",
                                  "你的 kernel 在默认设置下运行失败");
        } catch (const Cancelled&) {
            throw;
        } catch (const std::exception& e) {
            return SpeedNotJudged(std::string("your kernel was not timed: ") + e.what(),
                                  std::string("你的 kernel 没有计时：") + e.what());
        }
        if (!y.verified) {
            if (wrong) *wrong = "at the default settings: " + y.check_message;
            if (wrong_zh) *wrong_zh = "在默认设置下：" + Render(y.CheckMessage(), "zh");
            return SpeedNotJudged("your kernel's answer at the default settings is wrong",
                                  "你的 kernel 在默认设置下结果不对");
        }
        step_ms = round == 0 ? s.median_ms : std::min(step_ms, s.median_ms);
        yours_ms = round == 0 ? y.median_ms : std::min(yours_ms, y.median_ms);
        if (JudgeSpeed(yours_ms, step_ms).passed) break;
    }
    return JudgeSpeed(yours_ms, step_ms);
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
