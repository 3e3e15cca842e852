// The results the page shows, without the worker: those recorded on reference GPUs, those that
// came live from this machine's worker (runs, sweeps' points, tunings' runs), the student's own
// kernels' runs, which recordings are shown (the reference-GPU choice), and which lessons the
// worker said run here. The worker client (worker/worker_client.h) adds to it; the page and
// the model's functions read it.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "message.h"
#include "registry.h"
#include "result.h"

namespace lessons::app {

// kParamSweep: a sweep along any other parameter (SweepOver).
enum class Origin { kRun, kBlockSweep, kSizeSweep, kRecorded, kParamSweep };

struct StoredResult {
    RunResult result;
    Origin origin = Origin::kRun;
    int sequence = 0;   // order of arrival
    std::string swept;  // the parameter a sweep ran along (its name); empty: not a sweep's point
};

enum class LessonMode { kLive, kRecorded, kUnavailable, kUnknown };

class ResultsStore {
public:
    // Holds `recorded` (each named as this catalogue names its lesson) and shows the reference
    // GPU's recordings.
    ResultsStore(const Registry& registry, std::vector<RunResult> recorded);

    const Registry& registry() const { return m_registry; }

    // The GPUs results were recorded on alone (a multi-GPU recording is not one of them), the one
    // with the most recorded results first (the project's reference GPU), and the one whose
    // recordings results() holds now. Multi-GPU recordings are always held: only one machine
    // made them.
    const std::vector<std::string>& ReferenceGpus() const { return m_reference_gpus; }
    const std::string& ReferenceGpu() const { return m_reference_gpu; }
    // Shows the recordings of `name` (one of ReferenceGpus(); anything else, empty included,
    // picks the first) in place of the others; live results stay as they are. Returns whether
    // `name` was one of them.
    bool SetReferenceGpu(const std::string& name);

    // Every result, recorded and live, in order of arrival. Each names its lesson as this
    // catalogue does: `id` its current id, `lesson` its number here (0: a lesson this catalogue
    // does not have).
    const std::vector<StoredResult>& results() const { return m_results; }
    // The newest live result of a lesson run with these values of its chapter's parameters
    // (size, data, ...).
    const StoredResult* Latest(const Lesson& lesson, const ParamValues& chapter_values) const;
    const StoredResult* LatestAnySize(const Lesson& lesson) const;
    // Every run of a student's kernel in this session, in order ("yours": never a lesson's own
    // result, so no chart takes it for the step's).
    const std::vector<StoredResult>& yours() const { return m_yours; }

    // A live result, named as this catalogue names its lesson, numbered in order of arrival:
    // a lesson's own (results()), or a run of a student's kernel (yours(), marked `yours`).
    const StoredResult& AddLive(RunResult result, Origin origin, std::string swept);
    const StoredResult& AddYours(RunResult result, Origin origin, std::string swept);

    // What the worker's lesson list said of a lesson: whether it runs here, and why not.
    void SetAvailable(const Lesson& lesson, bool available, Message why_not);
    // Whether the worker has said of any lesson whether it runs here.
    bool KnowsAvailability() const { return !m_available.empty(); }
    // Live where the worker runs it, else recorded where a GPU lesson has recordings, else
    // unavailable (the worker said so) or unknown (it has not said).
    LessonMode Mode(const Lesson& lesson) const;
    // The worker's reason why `lesson` does not run here; null when it has not said.
    const Message* WhyUnavailable(const Lesson& lesson) const;

private:
    StoredResult Stored(RunResult result, Origin origin, std::string swept);

    const Registry& m_registry;
    std::vector<StoredResult> m_results;
    std::vector<StoredResult> m_recorded;  // every recording, of every reference GPU
    std::vector<std::string> m_reference_gpus;
    std::string m_reference_gpu;
    std::vector<StoredResult> m_yours;
    // By lesson number: (available here, why not).
    std::map<int, std::pair<bool, Message>> m_available;
    int m_sequence = 0;
};

}  // namespace lessons::app
