// Runs a lesson: validate, set up, check the output against the reference, then time it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lesson.h"
#include "registry.h"

namespace lessons {

struct RunOptions {
    std::optional<uint64_t> size_bytes;  // default: the chapter's
    std::optional<int> block;            // GPU steps; default: the lesson's
    std::optional<int> threads;          // OpenMP steps; default: all hardware threads
    std::optional<int> reps;             // timed samples; default: until min_time_s has passed
    std::optional<DataKind> data;        // default: the chapter's first kind
    uint64_t seed = 1;
    bool cold_l2 = false;      // flush the L2 before every GPU sample
    std::string input_file;    // chapters that accept one: scan this file
    std::string output_file;   // chapters with an output: write it here (split: offsets)
    double min_time_s = 0.25;  // automatic repetitions: time at least this long...
    double max_time_s = 5.0;   // ...and stop after this long, even before kMinReps
};

// Automatic repetition bounds.
constexpr int kMinReps = 3;
constexpr int kMaxReps = 1000;

struct RunResult {
    int lesson = 0;
    std::string id;
    std::string title;
    std::string chapter;
    StepKind kind = StepKind::kCpu;
    uint64_t size_bytes = 0;
    std::optional<int> block;
    std::optional<int> threads;
    std::string data;  // "random", "dense", "none" or "file"
    uint64_t seed = 0;
    bool cold_l2 = false;

    int reps = 0;
    double median_ms = 0, min_ms = 0, max_ms = 0;  // the whole timed region of the step
    std::vector<double> samples_ms;
    std::optional<double> h2d_ms, kernel_ms, d2h_ms;  // medians of the parts
    uint64_t bytes_moved = 0;
    double gbps = 0;  // bytes_moved over the kernel time (GPU steps) or the total (CPU steps)
    std::optional<double> ceiling_gbps;    // measured device copy bandwidth (GPU steps)
    std::optional<double> pct_of_ceiling;  // gbps / ceiling_gbps * 100

    bool verified = false;
    std::string check_message;
    std::optional<uint64_t> found;
    std::optional<double> value, expected;  // the answer and the reference's (reduction)
    std::vector<std::pair<std::string, double>> extra;  // the step's own extra measurements

    std::string device;  // GPU name for GPU steps, CPU name for CPU steps
    std::optional<KernelAttributes> attributes;
    std::string timestamp;
    bool recorded = false;  // loaded from assets/reference, not measured now
};

// How a caller watches and stops a run.
struct RunControl {
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(int done, int total)> progress;  // total may grow while timing
};

// Keeps the last workload, so that runs of several lessons (bench, sweeps, slider moves) on
// the same data do not generate it again.
class Session {
public:
    explicit Session(const Registry& registry) : m_registry(registry) {}

    // Throws UsageError (bad options, too large), CudaError (a failed CUDA call), Cancelled.
    // A wrong answer is not an exception: the result says verified = false.
    RunResult Run(const Lesson& lesson, const RunOptions& options, const RunControl& control = {});

    // Why a lesson cannot run here, or empty when it can.
    std::string Unavailable(const Lesson& lesson) const;

    const Registry& registry() const { return m_registry; }

private:
    std::shared_ptr<Workload> GetWorkload(const Chapter& chapter, const WorkloadSpec& spec,
                                          uint64_t step_host_bytes);
    const Registry& m_registry;
    std::shared_ptr<Workload> m_workload;
    std::string m_workload_chapter;
    WorkloadSpec m_workload_spec;
};

// The resolved step settings for a lesson, validated; throws UsageError naming the range.
StepConfig ResolveConfig(const Lesson& lesson, const RunOptions& options);

// Median of a list (the mean of the middle two for an even count); 0 for an empty list.
double Median(std::vector<double> values);

}  // namespace lessons

namespace lessons {

// Sweeps: the same lesson at several block sizes or data sizes.
enum class SweepAxis { kBlock, kSize };

struct SweepPoint {
    RunOptions options;
    std::string skip_reason;  // non-empty: this value is not accepted by the lesson
};

// Throws UsageError when the lesson has nothing to sweep on that axis.
std::vector<SweepPoint> PlanSweep(const Lesson& lesson, const RunOptions& base, SweepAxis axis,
                                  const std::vector<uint64_t>& values);

}  // namespace lessons
