#include "check.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "errors.h"
#include "message.h"
#include "report.h"
#include "result.h"

namespace lessons::cli {

using json = nlohmann::ordered_json;

ExerciseCaseSet CasesOf(const Registry& registry, const Lesson& lesson) {
    return KindImplOf<ExerciseCasesFn>(lesson, "this build has no hidden cases",
                                       "its step kind declares none (LESSONS_EXERCISE_CASES)")(
        lesson.step.data(), StepSite{lesson, registry.FindLesson(lesson.previous)});
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

const char* ToString(SpeedOutcome o) {
    switch (o) {
        case SpeedOutcome::kWithinTarget:
            return "within-target";
        case SpeedOutcome::kSlower:
            return "slower";
        case SpeedOutcome::kWithinNoise:
            return "within-noise";
        case SpeedOutcome::kNotJudged:
            break;
    }
    return "not-judged";
}

namespace {

bool GoodMs(double ms) {
    return std::isfinite(ms) && ms > 0;
}

// The positive finite samples of a list.
std::vector<double> GoodSamples(const std::vector<double>& samples) {
    std::vector<double> out;
    for (const double ms : samples)
        if (GoodMs(ms)) out.push_back(ms);
    return out;
}

SpeedVerdict NoTime(bool yours_timed) {
    return SpeedNotJudged(
        "no time was measured for " +
            std::string(yours_timed ? "the step's kernel" : "your kernel"),
        yours_timed ? "这一步的 kernel 没有测得时间" : "你的 kernel 没有测得时间");
}

// The verdict from the two medians and their intervals.
SpeedVerdict Decide(SpeedVerdict v) {
    v.judged = true;
    v.ratio = v.yours_ms / v.step_ms;
    v.ratio_lo = v.yours_lo_ms / v.step_hi_ms;
    v.ratio_hi = v.yours_hi_ms / v.step_lo_ms;
    // Exactly at the target is within it (the ratio's rounding aside).
    const double target = (1 + kSpeedTolerance) * (1 + 1e-12);
    v.outcome = v.ratio_hi <= target  ? SpeedOutcome::kWithinTarget
                : v.ratio_lo > target ? SpeedOutcome::kSlower
                                      : SpeedOutcome::kWithinNoise;
    v.passed = v.outcome != SpeedOutcome::kSlower;
    return v;
}

// "2% slower", "20% faster", "as fast" (zh: "慢 2%", "快 20%", "一样快") for a ratio of times.
std::string Relative(double ratio, bool zh) {
    const double percent = std::round(std::fabs(ratio - 1) * 100);
    if (percent == 0) return zh ? "一样快" : "as fast";
    const std::string p = Fixed(percent, 0) + "%";
    if (zh) return (ratio > 1 ? "慢 " : "快 ") + p;
    return p + (ratio > 1 ? " slower" : " faster");
}

// The ratio's interval in words: "18% to 27% slower", "3% faster to 5% slower"; with a decimal
// where whole percents would give both ends alike ("19.8% to 20.2% slower").
std::string RelativeInterval(double lo, double hi, bool zh) {
    const int digits =
        std::round(std::fabs(lo - 1) * 100) == std::round(std::fabs(hi - 1) * 100) ? 1 : 0;
    const auto percent = [&](double r) {
        const double scale = digits ? 10 : 1;
        return Fixed(std::round(std::fabs(r - 1) * 100 * scale) / scale, digits);
    };
    if (lo > 1 && hi > 1)
        return zh ? "慢 " + percent(lo) + "% 到 " + percent(hi) + "%"
                  : percent(lo) + "% to " + percent(hi) + "% slower";
    if (lo < 1 && hi < 1)
        return zh ? "快 " + percent(hi) + "% 到 " + percent(lo) + "%"
                  : percent(hi) + "% to " + percent(lo) + "% faster";
    return Relative(lo, zh) + (zh ? " 到 " : " to ") + Relative(hi, zh);
}

}  // namespace

SpeedVerdict JudgeSpeed(const std::vector<double>& yours_ms, const std::vector<double>& step_ms,
                        int runs) {
    const std::vector<double> yours = GoodSamples(yours_ms), step = GoodSamples(step_ms);
    if (yours.empty() || step.empty()) return NoTime(!yours.empty());
    SpeedVerdict v;
    v.runs = runs;
    v.yours_samples = static_cast<int>(yours.size());
    v.step_samples = static_cast<int>(step.size());
    v.yours_ms = Median(yours);
    v.step_ms = Median(step);
    const MedianInterval y = MedianIntervalOf(yours), s = MedianIntervalOf(step);
    v.yours_lo_ms = y.lo;
    v.yours_hi_ms = y.hi;
    v.step_lo_ms = s.lo;
    v.step_hi_ms = s.hi;
    v.level = std::min(y.level, s.level);
    return Decide(v);
}

SpeedVerdict JudgeSpeed(double yours_ms, double step_ms) {
    if (!GoodMs(yours_ms) || !GoodMs(step_ms)) return NoTime(GoodMs(yours_ms));
    SpeedVerdict v;
    v.yours_ms = v.yours_lo_ms = v.yours_hi_ms = yours_ms;
    v.step_ms = v.step_lo_ms = v.step_hi_ms = step_ms;
    return Decide(v);
}

SpeedVerdict SpeedNotJudged(const std::string& why, const std::string& why_zh) {
    SpeedVerdict v;
    v.why_not = why;
    v.why_not_zh = why_zh;
    return v;
}

namespace {

// The speed verdict's words in both languages: the times ({1} yours in ms, {2} its interval,
// {3} the step's, {4} its interval, {5} how they were timed, {6} the target in percent), then
// the outcome ({1} how much slower or the ratio in words, {2} its interval).
constexpr MessageForm kSpeedLine{
    "", "speed: yours {1} ms{2}, the step's {3} ms{4}{5}; target: within {6}% (or faster): ",
    "速度：你的 {1} ms{2}，这一步的 {3} ms{4}{5}；目标：不慢于它的 {6}%（或更快）："};
constexpr MessageForm kSlowerBy{"", "NOT met -- slower by {1}%{2}", "未达到 —— 慢了 {1}%{2}"};
constexpr MessageForm kWithin{"", " (interval {1})", "（区间 {1}）"};
constexpr MessageForm kMetWithinNoise{"", "met -- within noise of the target ({1}{2})",
                                      "达到 —— 与目标的差别在噪声之内（{1}{2}）"};
constexpr MessageForm kMetWithinTarget{"", "met -- within the target ({1}{2})",
                                       "达到 —— 在目标之内（{1}{2}）"};

}  // namespace

std::string SpeedText(const SpeedVerdict& v, bool zh) {
    if (!v.judged)
        return zh ? "速度：未评判（" + v.why_not_zh + "）"
                  : "speed: not judged (" + v.why_not + ")";
    const std::string percent = Fixed(kSpeedTolerance * 100, 0);
    const bool intervals = v.level > 0;
    const auto interval = [&](double lo, double hi) {
        return intervals ? std::string(zh ? "（" : " (") + Ms(lo) + "-" + Ms(hi) + (zh ? "）" : ")")
                         : std::string();
    };
    const std::string how = v.runs > 0
                                ? (zh ? "，交替计时，各 " + std::to_string(v.runs) + " 次运行"
                                      : ", timed in turn, " + std::to_string(v.runs) + " runs each")
                                : std::string();
    const std::string between =
        intervals ? (zh ? "，区间 " : ", interval ") + RelativeInterval(v.ratio_lo, v.ratio_hi, zh)
                  : std::string();
    const auto words = [zh](const MessageForm& form) { return zh ? form.zh : form.en; };
    const std::string line = FillForm(
        words(kSpeedLine), {Ms(v.yours_ms), interval(v.yours_lo_ms, v.yours_hi_ms), Ms(v.step_ms),
                            interval(v.step_lo_ms, v.step_hi_ms), how, percent});
    switch (v.outcome) {
        case SpeedOutcome::kSlower:
            return line +
                   FillForm(words(kSlowerBy),
                            {Fixed(std::round((v.ratio - 1) * 100), 0),
                             intervals ? FillForm(words(kWithin),
                                                  {RelativeInterval(v.ratio_lo, v.ratio_hi, zh)})
                                       : std::string()});
        case SpeedOutcome::kWithinNoise:
            return line + FillForm(words(kMetWithinNoise), {Relative(v.ratio, zh), between});
        default:
            return line + FillForm(words(kMetWithinTarget), {Relative(v.ratio, zh), between});
    }
}

json ToJson(const SpeedVerdict& v) {
    const auto when = [&](double x) { return v.judged ? json(x) : json(); };
    json out{{"judged", v.judged},
             {"passed", v.passed},
             {"yours_ms", when(v.yours_ms)},
             {"step_ms", when(v.step_ms)},
             {"ratio", when(v.ratio)},
             {"target_ratio", 1 + kSpeedTolerance},
             {"verdict", ToString(v.outcome)},
             {"yours_lo_ms", when(v.yours_lo_ms)},
             {"yours_hi_ms", when(v.yours_hi_ms)},
             {"step_lo_ms", when(v.step_lo_ms)},
             {"step_hi_ms", when(v.step_hi_ms)},
             {"ratio_lo", when(v.ratio_lo)},
             {"ratio_hi", when(v.ratio_hi)},
             {"level", when(v.level)},
             {"runs", v.runs},
             {"yours_samples", v.yours_samples},
             {"step_samples", v.step_samples},
             {"text", SpeedText(v, false)},
             {"text_zh", SpeedText(v, true)}};
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
    options.min_time_s = kSpeedRunMinTimeS;
    std::vector<double> yours_ms, step_ms;
    int runs = 0;
    SpeedVerdict verdict;
    // Blocks of four runs in ABBA order, the order flipping from block to block: yours, step,
    // step, yours; then step, yours, yours, step.
    for (int block = 0; runs < kMaxSpeedRuns; ++block) {
        for (int i = 0; i < 4; ++i) {
            const bool mine = (i == 0 || i == 3) == (block % 2 == 0);
            if (on_phase) on_phase(mine ? "yours" : "step");
            RunResult r;
            if (!mine) {
                try {
                    r = session.Run(step, options, control);
                } catch (const Cancelled&) {
                    throw;
                } catch (const std::exception& e) {
                    return SpeedNotJudged(std::string("the step's own run failed: ") + e.what(),
                                          std::string("这一步自己的运行失败：") + e.what());
                }
                if (!r.verified)
                    return SpeedNotJudged(
                        "the step's own kernel gave a wrong answer: " + r.check_message,
                        "这一步自己的 kernel 结果不对：" + r.check_message);
                step_ms.insert(step_ms.end(), r.samples_ms.begin(), r.samples_ms.end());
                continue;
            }
            try {
                r = session.Run(yours, options, control);
            } catch (const CudaError& e) {
                if (wrong)
                    *wrong = std::string("at the default settings: the run failed: ") + e.what();
                if (wrong_zh) *wrong_zh = std::string("在默认设置下运行失败：") + e.what();
                return SpeedNotJudged("your kernel's run at the default settings failed",
                                      "你的 kernel 在默认设置下运行失败");
            } catch (const Cancelled&) {
                throw;
            } catch (const std::exception& e) {
                return SpeedNotJudged(std::string("your kernel was not timed: ") + e.what(),
                                      std::string("你的 kernel 没有计时：") + e.what());
            }
            // Every run is verified: a kernel right only some of the time is wrong.
            if (!r.verified) {
                if (wrong) *wrong = "at the default settings: " + r.check_message;
                if (wrong_zh) *wrong_zh = "在默认设置下：" + Render(r.CheckMessage(), "zh");
                return SpeedNotJudged("your kernel's answer at the default settings is wrong",
                                      "你的 kernel 在默认设置下结果不对");
            }
            yours_ms.insert(yours_ms.end(), r.samples_ms.begin(), r.samples_ms.end());
        }
        runs += 2;
        if (runs < kSpeedRuns) continue;
        verdict = JudgeSpeed(yours_ms, step_ms, runs);
        // Within noise: another block narrows both intervals, up to kMaxSpeedRuns.
        if (verdict.outcome != SpeedOutcome::kWithinNoise) break;
    }
    return verdict;
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
