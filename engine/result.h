// What a run is asked to do (RunOptions) and what it reports (RunResult). One field table
// (ResultFields() in report.cpp) writes a result as JSON, CSV and the GUI's table, and reads it
// back.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lesson.h"
#include "params.h"

namespace lessons {

// The time automatic repetitions fill by default (RunOptions::min_time_s).
constexpr double kAutoMinTimeS = 0.25;

// Automatic repetition bounds.
constexpr int kMinReps = 3;

struct RunOptions {
    RawParams params;         // by name, as text; unset ones take the lesson's defaults
    std::optional<int> reps;  // timed samples; default: until min_time_s has passed
    uint64_t seed = 1;
    bool cold_l2 = false;               // flush the L2 before every GPU sample
    std::string input_file;             // chapters that accept one: scan this file
    std::string output_file;            // chapters with an output: write it here (split: offsets)
    double min_time_s = kAutoMinTimeS;  // automatic repetitions: time at least this long...
    double max_time_s = 5.0;            // ...and stop after this long, even before min_reps
    int min_reps = kMinReps;            // ...with at least this many (a trial of RunInTurn fewer)
    bool measure_ceilings = true;       // GPU steps: compare with this GPU's measured ceilings

    // Sets (or replaces) one parameter's text.
    void Set(const std::string& name, const std::string& value);
    const std::string* Get(const std::string& name) const;
};

constexpr int kMaxReps = 1000;
// The most automatic repetitions of a run timed for at least `min_time_s`: kMaxReps at the
// default time, and proportionally more for a longer one (at most 10 times as many), so that a
// longer run of a fast step takes more samples and narrows its median's interval.
int MaxAutomaticReps(double min_time_s);
// The most repetitions a run may ask for (RunOptions::reps: 1 to this).
constexpr int kMaxRequestedReps = 100000;

// The ceilings a result is compared with, as measured on the device that ran it.
struct CeilingFigures {
    double read_gbps = 0;
    double copy_gbps = 0;
    double fp32_gflops = 0;
    double h2d_gbps = 0;
    double peer_gbps = 0;
    double tf32_gflops = 0;        // only for a step held to it (Bound::kTf32); 0: unknown
    std::string tf32_unavailable;  // why tf32_gflops is 0
    double bf16_gflops = 0;        // only for a step held to it (Bound::kBf16); 0: unknown
    std::string bf16_unavailable;  // why bf16_gflops is 0
    uint64_t memory_bytes = 0;     // the footprint read_gbps and copy_gbps were measured over
};

struct RunResult {
    int lesson = 0;     // the lesson's position in this process's catalogue (Lesson::number)
    std::string label;  // "5.8", as shown; JSON's "lesson"
    std::string id;
    std::string title;
    std::string chapter;
    StepKind kind = StepKind::kCpu;
    ParamValues params;  // every parameter, as resolved for the run
    std::string input;   // the file scanned, when not generated
    uint64_t seed = 0;
    bool cold_l2 = false;

    int reps = 0;
    double median_ms = 0, min_ms = 0, max_ms = 0;  // the whole timed region of the step
    // The median's confidence interval (MedianInterval of samples_ms): it holds the true median
    // with probability median_level (kMedianConfidence once there are 6 samples or more).
    // median_level 0: no interval (one sample, or a result recorded without its samples).
    double median_lo_ms = 0, median_hi_ms = 0, median_level = 0;
    std::vector<double> samples_ms;
    std::vector<TimedPart> parts;  // medians of the timed parts (h2d, kernel, d2h, ...)
    // How many runs the samples were pooled from (PoolTrials: lessons timed in turn); 1: one.
    int trials = 1;

    Work work;
    double rate_ms = 0;             // the time the rates are taken over (see Work::rate_part)
    double gbps = 0;                // (bytes read + written) / rate_ms
    std::optional<double> gflops;   // flops / rate_ms, when the step does arithmetic
    std::optional<double> ceiling;  // the matching ceiling (GB/s, or GFLOP/s for arithmetic)
    std::optional<double> pct_of_ceiling;  // the rate / the ceiling * 100
    // A memory-bound step's ceiling (read or copy) is measured over a footprint near its own
    // bytes (GetMemoryCeilingsAt): that footprint. Unset for other bounds and older results.
    std::optional<uint64_t> ceiling_bytes;
    // Non-empty when `ceiling` is not the bound's own figure, and why: a TF32 step on a device
    // without a TF32 (or bf16) ceiling is compared with the fp32 peak, and says so here.
    std::string ceiling_note;
    std::optional<double> intensity;          // flops per byte of memory traffic (roofline x)
    std::optional<double> attainable_gflops;  // the roofline at that intensity

    bool verified = false;
    std::string check_message;
    // check_message's form id and arguments (Check::Fail), empty for free text: a front end
    // shows it in the student's language from these.
    std::string check_message_id;
    std::vector<std::string> check_message_args;
    Message CheckMessage() const { return {check_message_id, check_message_args, check_message}; }
    std::vector<NamedValue> values;  // the chapter's values and the step's extras

    std::vector<std::string> devices;  // every device used: GPU names, or the CPU's name
    std::optional<KernelAttributes> attributes;
    std::string timestamp;
    std::string source_key;  // the step's Lesson::source_key when it ran; empty: not known
    bool recorded = false;   // loaded from assets/reference, not measured now
    // A recorded CPU result: the GPU recorded in the same file (its machine's host ran it), so a
    // page reads the host of the GPU it reads; two machines' hosts may share a CPU model name.
    std::string recorded_with;
    // A student's kernel ran in place of the step's own (an exercise: run --kernel).
    bool yours = false;
    // A CPU step: how many cores other processes kept busy, on average, while it was timed
    // (the machine's busy time from /proc/stat less this process's own); unset where not
    // measured (GPU steps, no /proc). With the step's threads it tells whether the step had
    // the cores it used to itself.
    std::optional<double> other_cores_busy;
    // A GPU step: the SM clock while it was timed (NVML, read after each timed sample: their
    // median, MHz), the device's highest SM clock, and what held the clock below it (ids of
    // gpu_clock.h's ClockReasonIds: "power-cap", "thermal", ...); unset where not read (CPU
    // steps, no NVML, results recorded before this was kept).
    std::optional<double> sm_clock_mhz;
    std::optional<double> sm_clock_max_mhz;
    std::vector<std::string> clock_limits;

    std::optional<double> Part(std::string_view name) const;
    std::optional<double> Value(std::string_view name) const;
    std::optional<uint64_t> Number(std::string_view param) const;
    std::string ChoiceOr(std::string_view param, const std::string& fallback) const;
    // The GB/s or GFLOP/s the step is judged by, with its unit.
    double Rate() const { return IsArithmetic(work.bound) && gflops ? *gflops : gbps; }
    const char* RateUnit() const { return IsArithmetic(work.bound) ? "GFLOP/s" : "GB/s"; }
    // The ceiling this result was compared with, as its own bound's: a TF32 step compared with
    // the fp32 peak (ceiling_note) gives nothing for kTf32.
    std::optional<double> CeilingOf(Bound bound) const {
        if (work.bound != bound || !ceiling || *ceiling <= 0 || !ceiling_note.empty()) return {};
        return ceiling;
    }
    std::string Device() const { return devices.empty() ? std::string() : devices.front(); }
};

// Fills the rates, the ceiling and the roofline of `r` from its work and timings.
void DeriveMetrics(RunResult& r, const CeilingFigures* ceilings);

// Median of a list (the mean of the middle two for an even count); 0 for an empty list.
double Median(std::vector<double> values);

// The confidence the median's interval is asked for.
constexpr double kMedianConfidence = 0.95;

// A distribution-free confidence interval of the median, from order statistics: of n samples
// sorted, [x(k), x(n+1-k)] holds the true median with probability
// 1 - 2 P(B <= k-1), B ~ Binomial(n, 1/2), whatever the distribution (continuous; ties only make
// it wider). k is the largest whose level reaches `confidence`; it grows with n, so the
// interval tightens as the repetitions grow (about as 1/sqrt(n)), where the min-max spread only
// widens. Below 6 samples no interval reaches 95%: it is [min, max] at its own level,
// 1 - 2^(1-n) (0 for one sample, 50% for two, 75% for three). No samples: all zero.
struct MedianInterval {
    double lo = 0, hi = 0;
    double level = 0;  // the probability that [lo, hi] holds the median
    int k = 0;         // lo is the k-th smallest sample, hi the k-th largest (1-based)
};
MedianInterval MedianIntervalOf(std::vector<double> samples, double confidence = kMedianConfidence);
// The interval's order k for n samples (see MedianIntervalOf), and its level.
int MedianIntervalOrder(int n, double confidence, double* level);

// The result's median interval: its own when it has one (median_level > 0), else its min-max
// spread, else its median. Two results are within noise when these overlap.
struct Interval {
    double lo = 0, hi = 0;
};
Interval NoiseInterval(const RunResult& r);
// Sets r's median_lo_ms, median_hi_ms and median_level from its samples_ms.
void SetMedianInterval(RunResult& r);

// One result from several runs (trials) of one lesson at the same settings, timed in turn with
// other lessons (RunInTurn): the samples of every trial pooled, and the median, its interval,
// min and max over all of them, so that the interval holds what the machine did over the whole
// span of the trials, not over one run's; `trials` counts them. The first trial's description,
// check and work; each timed part the median of the trials' medians; the rates worked out again
// from the pooled time against the first trial's ceiling; other cores busy and the SM clock
// averaged over the trials by their samples. A trial whose answer was wrong is returned as it
// is (a wrong answer is never pooled). Throws UsageError for no trials, or trials of different
// lessons or settings.
RunResult PoolTrials(const std::vector<RunResult>& trials);

}  // namespace lessons
