// A session runs lessons (its timing loop): resolve and validate a lesson's parameters, set
// up its step (its StepRunner), check the output against the reference, then time it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "lesson.h"
#include "message.h"
#include "registry.h"
#include "result.h"

namespace lessons {

// How a caller watches and stops a run.
struct RunControl {
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(int done, int total)> progress;  // total may grow while timing
};

// Every parameter of `lesson`, from `raw` where given and valid, else its default.
// Throws UsageError naming the parameter, the value and the valid range or choices. Names in
// `raw` that the lesson does not have are returned in `unused` (or rejected when it is null).
ParamValues ResolveParams(const Lesson& lesson, const RawParams& raw,
                          std::vector<std::string>* unused = nullptr);

// Keeps the last workload, so that runs of several lessons (bench, sweeps, slider moves) on
// the same data do not generate it again.
class Session {
public:
    explicit Session(const Registry& registry) : m_registry(registry) {}

    // Throws UsageError (bad options, too large), CudaError (a failed CUDA call), Cancelled.
    // A wrong answer is not an exception: the result says verified = false. Parameters the
    // lesson does not have are ignored (bench passes one set to every lesson of a chapter).
    RunResult Run(const Lesson& lesson, const RunOptions& options, const RunControl& control = {});

    // Why a lesson cannot run here, or empty when it can: its id and arguments, and its English.
    Message UnavailableMessage(const Lesson& lesson) const;
    std::string Unavailable(const Lesson& lesson) const;  // UnavailableMessage's English

    const Registry& registry() const { return m_registry; }

    // Frees the kept workload (the generated input and its reference answer: 1.2 GB after a
    // 1 GiB run) and returns the memory to the system. The worker calls it when idle; the next
    // run makes its data again.
    void ReleaseWorkload();
    // Whether a workload is kept now.
    bool HoldsWorkload() const { return m_workload != nullptr; }

private:
    std::shared_ptr<Workload> GetWorkload(const Chapter& chapter, const WorkloadSpec& spec,
                                          uint64_t step_host_bytes);
    const Registry& m_registry;
    std::shared_ptr<Workload> m_workload;
    std::string m_workload_chapter;
    WorkloadSpec m_workload_spec;
};

// Refuses (UsageError) what Session::Run would refuse on every machine before running: a
// parameter value `lesson` does not accept, options its chapter does not take. Parameters the
// lesson does not have are left to the caller.
void CheckRun(const Registry& registry, const Lesson& lesson, const RunOptions& options);

// Lessons timed in turn (the CLI's `compare`, the worker's `compare` op): `trials` rounds, each
// running every lesson once (Session::Run, checked first as every run is) for a share of
// min_time_s, forward in even rounds and backward in odd ones (A B, B A, A B, ...), so that the
// machine's drift over the rounds falls on every lesson alike; each lesson's runs pooled into
// one result (PoolTrials), whose median interval then spans the rounds. Automatic repetitions
// take at least kMinReps over the rounds together; fixed `reps` are shared among them (at least
// one each). The results are in the order of `lessons`. A wrong answer ends the rounds: that
// lesson's result is its wrong run, and a lesson that had not run yet has none. Lessons of
// different chapters (or data) make their data again for every run. Throws as Session::Run,
// and UsageError for trials outside 1..kMaxTrials.
// The place in `lessons` of the k-th lesson RunInTurn runs in round `trial`: forward in even
// rounds, backward in odd ones (A B, B A, A B, ...).
constexpr size_t InTurnIndex(size_t count, int trial, size_t k) {
    return trial % 2 == 0 ? k : count - 1 - k;
}
constexpr int kMaxTrials = 20;
constexpr int kDefaultTrials = 3;   // the CLI's and the worker's `compare`
constexpr size_t kMaxCompared = 8;  // lessons in one `compare`
std::vector<RunResult> RunInTurn(Session& session, const std::vector<const Lesson*>& lessons,
                                 const RunOptions& options, int trials,
                                 const RunControl& control = {});

// The GPUs a lesson runs on: 0 .. n - 1 where it has a GPU-count parameter (n), else device 0.
std::vector<int> DevicesFor(const Lesson& lesson, const ParamValues& params);

// Sweeps: the same lesson along one parameter.
struct SweepPoint {
    RunOptions options;
    std::string value;        // the parameter's value at this point, as text
    std::string skip_reason;  // non-empty: this value is not accepted by the lesson
};

// The most points one sweep may have (a range or a list).
constexpr size_t kMaxSweepPoints = 4096;

// `range`: "32..1024" (doubling), "64..512:64", "a,b,c", or "all" (every accepted value of a
// parameter with few values). Throws UsageError when the lesson has no such parameter, or
// when nothing of the range can be run (naming why each value was refused).
std::vector<SweepPoint> PlanSweep(const Lesson& lesson, const RunOptions& base,
                                  const std::string& param, const std::string& range);

}  // namespace lessons
