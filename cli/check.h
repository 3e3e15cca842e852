// `check LESSON --kernel FILE`: a student's kernel run over its step kind's hidden cases
// (engine/exercise_cases.h), each verified against the CPU reference and with guard zones around
// every device buffer (engine/guard_zones.h); and the time limit a student's kernel runs under in
// the CLI (run --kernel, check), as in the GUI.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "exercise_cases.h"
#include "guard_zones.h"
#include "registry.h"
#include "session.h"

namespace lessons::cli {

// The GUI's default (WorkerClient's kernel limit) and its range.
constexpr double kDefaultKernelTimeLimitS = 10;
constexpr double kMinKernelTimeLimitS = 1;
constexpr double kMaxKernelTimeLimitS = 600;

// A temporary file "/tmp/cuda-lessons-<tag>-XXXXXX" holding `text`, removed when done (a
// case's text for a run, the assembled kernel for `check`). Throws FileError naming `what`.
class TempFile {
public:
    TempFile(const std::string& text, const std::string& tag, const std::string& what);
    ~TempFile();
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
};

// The hidden cases of `lesson`'s exercise: its step kind's declaration. Throws UnavailableError
// when this build has none for the kind (no CUDA, or a kind that declares no cases).
ExerciseCaseSet CasesOf(const Registry& registry, const Lesson& lesson);

struct CaseOutcome {
    std::string name, name_zh;
    bool passed = false;
    bool ran = false;                 // false: it could not run (`message` says why)
    std::string message;              // the first mismatch, the guard damage or why it did not run
    std::string message_zh;           // the same in Chinese ("" where only English is known)
    std::vector<GuardDamage> guards;  // buffers written outside their bounds
    double ms = 0;                    // the run's time
};

// Runs `yours` (the lesson with the student's kernel) over `set`'s cases, with the exercise's
// fixed choices (`fixed`), guard zones on; `on_case` hears each outcome as it comes (i from 0).
// A lost CUDA context leaves the remaining cases not run. The case's text, where it gives one,
// is written to a temporary file the run scans.
std::vector<CaseOutcome> RunCases(
    Session& session, const Lesson& yours, const ExerciseCaseSet& set, const RawParams& fixed,
    const RunControl& control,
    const std::function<void(const CaseOutcome&, size_t i, size_t total)>& on_case = {},
    const std::function<void(const ExerciseCase&, size_t i)>& on_start = {},
    bool guard_zones = true);

nlohmann::ordered_json ToJson(const CaseOutcome& c);

// The speed target of an exercise (issue 41, item 3): the student's kernel and the step's own
// kernel timed at the lesson's default settings (the exercise's fixed choices), in the same run;
// it passes when the student's median is within kSpeedTolerance of the step's (or faster).
// Judged apart from correctness, and only where every case passed.
//
// The two are timed in turn (MeasureSpeed: runs in ABBA order, yours and the step's), so that a
// neighbour's load on a shared GPU falls on both alike; each side's samples are pooled and its
// median taken with the engine's order-statistics interval (MedianIntervalOf, the interval the
// app's "within noise" is judged by). The ratio yours / the step's then has an interval too,
// [your low / the step's high, your high / the step's low], and the verdict is one of three:
//   within the target  the whole interval is at or below 1 + kSpeedTolerance: met;
//   slower             the whole interval is above it: NOT met, "slower by X% (interval ...)";
//   within noise       the interval holds the target: the timings cannot tell that you miss it,
//                      so it is met (a kernel is never failed on noise), and it says so.
constexpr double kSpeedTolerance = 0.10;

enum class SpeedOutcome { kNotJudged, kWithinTarget, kSlower, kWithinNoise };
// "within-target", "slower", "within-noise", "not-judged" (JSON's "verdict").
const char* ToString(SpeedOutcome o);

struct SpeedVerdict {
    bool judged = false;
    bool passed = false;  // judged, and not kSlower
    SpeedOutcome outcome = SpeedOutcome::kNotJudged;
    double yours_ms = 0, step_ms = 0;  // medians at the default settings (all samples pooled)
    double ratio = 0;                  // yours_ms / step_ms
    // The medians' intervals (lo = hi = the median where no samples were given) and the level
    // each holds at (the smaller of the two; 0: none), and the ratio's interval from them.
    double yours_lo_ms = 0, yours_hi_ms = 0, step_lo_ms = 0, step_hi_ms = 0, level = 0;
    double ratio_lo = 0, ratio_hi = 0;
    int runs = 0;  // timed runs of each side, taken in turn (0: not known)
    int yours_samples = 0, step_samples = 0;
    std::string why_not, why_not_zh;  // where it was not judged
};

// The verdict on the samples (ms) of each side, pooled over `runs` runs each taken in turn; not
// judged where either side has no positive finite sample.
SpeedVerdict JudgeSpeed(const std::vector<double>& yours_ms, const std::vector<double>& step_ms,
                        int runs);
// The verdict on two medians alone (no interval: within the target or slower).
SpeedVerdict JudgeSpeed(double yours_ms, double step_ms);
SpeedVerdict SpeedNotJudged(const std::string& why, const std::string& why_zh);
// "speed: yours X ms (a-b), the step's Y ms (c-d), timed in turn, N runs each; target: within
// 10% (or faster): met -- within the target (2% slower, interval 1% to 3% slower)", "NOT met --
// slower by 23% (interval 18% to 27%)", "met -- within noise of the target (...)", or why not.
std::string SpeedText(const SpeedVerdict& v, bool zh);
nlohmann::ordered_json ToJson(const SpeedVerdict& v);

// Runs per side in the first timing (two ABBA blocks: yours, step, step, yours, step, yours,
// yours, step), and at most in all: a verdict within noise takes another block, up to this.
constexpr int kSpeedRuns = 4;
constexpr int kMaxSpeedRuns = 8;
// Each timed run's automatic repetitions last at least this long (the samples of all runs of a
// side are pooled: four runs time as long as two did before).
constexpr double kSpeedRunMinTimeS = 0.125;

// Times the student's kernel (`yours`) and the step's own (`step`) in turn at the default
// settings with the fixed choices, in `session` (kSpeedRuns runs each, more where the verdict is
// within noise). `on_phase` hears "step" or "yours" before each run (the time limit is a run's).
// Where one of your runs gives a wrong answer, `*wrong` gets its message and the verdict is not
// judged.
SpeedVerdict MeasureSpeed(Session& session, const Lesson& yours, const Lesson& step,
                          const RawParams& fixed, const RunControl& control,
                          const std::function<void(const std::string& phase)>& on_phase,
                          std::string* wrong, std::string* wrong_zh);

// A watchdog for a student's kernel: armed with a label, it ends this process (after printing
// `on_expiry`'s text) when it is not disarmed within the limit; a kernel that never ends cannot
// be stopped otherwise, and the driver frees the GPU when the process is gone.
class KernelWatchdog {
public:
    KernelWatchdog(double limit_s, std::function<void(const std::string& label)> on_expiry);
    ~KernelWatchdog();
    KernelWatchdog(const KernelWatchdog&) = delete;
    KernelWatchdog& operator=(const KernelWatchdog&) = delete;
    void Arm(const std::string& label);
    void Disarm();

private:
    struct State;
    State* m_state;
};

}  // namespace lessons::cli
