// The GUI's logic without any drawing: requests to the worker, the results that come back,
// what happens when the worker dies. The UI thread calls Update() once per frame; a reader
// thread inside the WorkerLink is the only other thread.
#pragma once

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "registry.h"
#include "runner.h"
#include "worker_link.h"

namespace lessons::app {

// The settings a run is made with (the lesson page's controls).
struct RunSettings {
    uint64_t size_bytes = uint64_t(64) << 20;
    int block = 0;    // 0: the lesson's default
    int threads = 0;  // 0: all hardware threads
    DataKind data = DataKind::kRandom;
    bool cold_l2 = false;
};

enum class Origin { kRun, kBlockSweep, kSizeSweep, kRecorded };

struct StoredResult {
    RunResult result;
    Origin origin = Origin::kRun;
    int sequence = 0;  // order of arrival
};

enum class LessonMode { kLive, kRecorded, kUnavailable, kUnknown };

class Controller {
public:
    using WorkerFactory = std::function<std::unique_ptr<WorkerLink>()>;

    Controller(const Registry& registry, WorkerFactory factory, std::vector<RunResult> recorded);

    // Starts the worker and asks it for the lesson list and device info.
    void Start();
    // Takes what the worker sent; restarts it if it died. Call once per frame.
    void Update();

    // Runs `lesson` and the lesson before it, replacing anything pending.
    void RunWithPrevious(const Lesson& lesson, const RunSettings& settings);
    // Block-size sweep of this lesson and the previous one (the GPU ones among them).
    void SweepBlocks(const Lesson& lesson, const RunSettings& settings);
    // Size sweep, 1 KiB (or one element) up to the current size, doubling.
    void SweepSizes(const Lesson& lesson, const RunSettings& settings);
    void CancelAll();
    // The kernel's resource use at a block size: asked of the worker once, then remembered.
    // Returns nullptr until the answer has arrived.
    const KernelAttributes* Attributes(const Lesson& lesson, int block);
    // Starts a new worker by hand (after it stopped too often to be restarted automatically).
    void RestartWorker();

    bool Busy() const { return !m_pending.empty(); }
    // Progress of the oldest request in flight, 0..1; negative when unknown.
    float Progress() const;
    std::string BusyWith() const;  // "lesson 3", "block sweep of lesson 4", ...

    LessonMode Mode(const Lesson& lesson) const;
    std::string UnavailableReason(const Lesson& lesson) const;

    const std::vector<StoredResult>& results() const { return m_results; }
    // The newest result of a lesson matching size and data (live first, then recorded).
    const StoredResult* Latest(int lesson, uint64_t size_bytes, DataKind data) const;
    const StoredResult* LatestAnySize(int lesson) const;

    // Device facts from the worker's info reply (empty until it arrives).
    const Json& device() const { return m_device; }
    std::string WorkerState() const;
    // Notices for the user (worker restarts, errors), newest last; the UI may clear them.
    std::deque<std::string>& notices() { return m_notices; }
    int restarts() const { return m_restarts; }

private:
    struct Pending {
        std::string what;
        Origin origin;
        int done = 0, total = 0;
    };
    Json BaseRequest(const char* op, const Lesson& lesson, const RunSettings& s);
    void Send(Json request, Pending pending);
    void Handle(const Json& message);
    void HandleExit(const Json& message);
    void Restart();
    std::vector<const Lesson*> WithPrevious(const Lesson& lesson) const;

    const Registry& m_registry;
    WorkerFactory m_factory;
    std::unique_ptr<WorkerLink> m_worker;
    std::vector<StoredResult> m_results;
    std::map<int, Pending> m_pending;                              // by request id
    std::map<std::pair<int, int>, KernelAttributes> m_attributes;  // (lesson, block)
    std::map<int, std::pair<int, int>> m_attribute_requests;       // request id -> (lesson, block)
    std::map<int, std::pair<bool, std::string>> m_available;       // lesson -> (available, reason)
    Json m_device;
    std::deque<std::string> m_notices;
    int m_next_id = 1;
    int m_sequence = 0;
    int m_restarts = 0;
    bool m_started = false;
    std::string m_start_error;
    std::deque<std::chrono::steady_clock::time_point> m_recent_exits;
};

// What a request really uses for a chapter: whole elements, and a data kind it makes.
uint64_t EffectiveSize(const Chapter& chapter, uint64_t size_bytes);
DataKind EffectiveData(const Chapter& chapter, DataKind data);

// Recorded results for machines without a GPU (assets/reference/*.json, embedded).
std::vector<RunResult> LoadRecordedResults(std::string* problems);

}  // namespace lessons::app
