// The worker client, without any drawing: requests to the worker, its replies (results go into
// the ResultsStore, model/results_store.h), progress and cancel, what happens when the worker
// dies. The UI thread calls Update() once per frame; a reader thread inside the WorkerLink is
// the only other thread.
#pragma once

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/device_facts.h"
#include "model/page_params.h"
#include "model/results_store.h"
#include "progress.h"
#include "registry.h"
#include "report.h"
#include "result.h"
#include "tuning.h"
#include "worker/worker_link.h"

namespace lessons::app {

// The worker's answer to a compile of a student's kernel (the `compile` reply's object, read
// field by field: the worker is another program).
struct CompileReport {
    std::string status;  // "ok", "error" (did not compile), "refused", "unavailable" (no NVRTC)
    std::string message, arch, arch_note, compiler, log, ptx;
    struct Diagnostic {
        int line = 0, column = 0;  // 1-based; 0: not named
        std::string severity, message;
        // The file it is about: the student's ("kernel.cu", kStudentFile), another (the check
        // appended to it, an included header), or "" where the compiler named none.
        std::string file;
        // Whether its line is one of the student's file (the editor marks only those).
        bool InStudentFile() const;
    };
    std::vector<Diagnostic> diagnostics;
    bool has_kernel = false;  // compiled: what ptxas said of the kernel
    int registers = 0, spill_bytes = 0, stack_bytes = 0, shared_bytes = 0;
    bool ok() const { return status == "ok"; }
};
// The name the worker gives the student's kernel in a compile's diagnostics.
inline constexpr const char* kStudentFile = "kernel.cu";
// Throws std::runtime_error naming a field of another type than the protocol's.
CompileReport CompileReportFromJson(const Json& j);

// The time each run is timed for at least (the worker's min_time_s), and the longer one of a
// re-run at more repetitions.
constexpr double kDefaultMinTimeS = 0.2;
constexpr double kPreciseMinTimeS = 2.0;
// The rounds in which two CPU steps are timed in turn (the worker's `compare`; RunWithPrevious).
constexpr int kCompareTrials = 3;

// The ops this client sends (docs/serve-protocol.md). Every request it makes names its op through
// OpName: SentOps() is all it ever asks of the worker (a test holds it against the worker's own
// table of handlers, ServeOps()).
enum class Op {
    kList,
    kInfo,
    kKernelAttributes,
    kProfile,
    kCompile,
    kRunStep,
    kTune,
    kSweep,
    kCompare,
    kCheck,
    kCancelRequest,
    kShutdown
};
const char* OpName(Op op);
std::vector<std::string> SentOps();

class WorkerClient {
public:
    using WorkerFactory = std::function<std::unique_ptr<WorkerLink>()>;

    // Live results and what the worker says of each lesson go into `store`, which must outlive
    // this client.
    WorkerClient(const Registry& registry, ResultsStore& store, WorkerFactory factory);
    // Asks a worker that speaks our protocol to shut down (cancelling everything), then ends it
    // (WorkerProcess: a few seconds at most, whatever it does).
    ~WorkerClient();
    WorkerClient(const WorkerClient&) = delete;
    WorkerClient& operator=(const WorkerClient&) = delete;

    // Starts the worker; once it has said hello in this program's protocol, asks it for the
    // lesson list and device info. A worker speaking another protocol is refused: it gets no
    // request and is not restarted.
    void Start();
    // What to tell the user when no worker can be started: where it was looked for, what to do.
    void SetWorkerHint(std::string hint) { m_worker_hint = std::move(hint); }
    // A worker that has not said hello this long after starting is stopped with a message.
    void SetHelloTimeout(std::chrono::milliseconds timeout) { m_hello_timeout = timeout; }
    // Takes what the worker sent; restarts it if it died. Call once per frame.
    void Update();

    // Runs `lesson` and the lesson before it, replacing anything pending, each timed for at
    // least `min_time_s` (more repetitions: kPreciseMinTimeS, where a speed-up was within noise).
    // Two CPU steps of one chapter are timed in turn in kCompareTrials rounds (one `compare`
    // request): the machine's drift over the runs falls on both alike, and each one's interval
    // spans the rounds. GPU steps, timed by events and less drifting, run one after the other.
    void RunWithPrevious(const Lesson& lesson, const RunSettings& settings,
                         double min_time_s = kDefaultMinTimeS);
    // Runs every lesson of `lesson`'s chapter that runs here, in the chapter's order, at the
    // page's settings (each lesson takes those of its parameters it has), replacing anything
    // pending: every bar of the step chart at the start of a class.
    void RunChapter(const Lesson& lesson, const RunSettings& settings);
    // Block-size sweep of this lesson and the previous one (those whose launch shape is a block
    // size, BlockSizeParam): every power of two the lesson accepts.
    void SweepBlocks(const Lesson& lesson, const RunSettings& settings);
    // Size sweep of the data size (DataSizeParam), 1 KiB (or one element) up to the current size,
    // doubling.
    void SweepSizes(const Lesson& lesson, const RunSettings& settings);
    // Sweep of this lesson and the previous one (each that has it) along the parameter `name`:
    // every choice, every power of two a number accepts (a size in bytes up to the page's value,
    // as SweepSizes).
    void SweepOver(const Lesson& lesson, const RunSettings& settings, const std::string& name);
    void CancelAll();
    // The kernel's resource use at the lesson's own parameters (block size, ...): asked of the
    // worker once, then remembered. Returns nullptr until the answer has arrived.
    const KernelAttributes* Attributes(const Lesson& lesson, const RunSettings& settings);
    // The step's Nsight Compute counters (the worker's profile request): live where the worker
    // can profile, else those recorded on the reference GPU (`recorded`: only those). The
    // answer replaces the lesson's previous one; `error` says why there is none.
    struct ProfileAnswer {
        bool pending = false;
        std::string error;
        Json profile;  // the profile object ("source": "live" or "recorded"), or null
    };
    void RequestProfile(const Lesson& lesson, const RunSettings& settings, bool recorded);
    const ProfileAnswer* Profile(const Lesson& lesson) const;
    // A student's kernel for `lesson`'s exercise (docs/serve-protocol.md, `compile` and `run`
    // with "kernel"): compiled by the worker, and with `run` also run by the step's harness,
    // after the previous lesson and the lesson's own step at the same settings (each replacing
    // anything pending, as RunWithPrevious), so that the three are measured side by side. A
    // run that goes on longer than the time limit after its compile is stopped by restarting
    // the worker; the answer and a notice say so.
    struct ExerciseAnswer {
        bool pending = false;                  // a compile or run on its way
        bool running = false;                  // ... that runs the kernel too
        int serial = 0;                        // counts the answers: the page sees a new one
        std::optional<CompileReport> compile;  // the worker's newest compile answer
        bool compiled = false;   // the newest request's compile answer came (not an older one)
        std::string error;       // why the newest request did not compile or run; "" when it did
        bool timed_out = false;  // the newest run passed the time limit
        std::optional<RunResult> result;  // the newest run of the student's kernel
        // "Check my kernel" (CheckKernel): the hidden cases as they come, then the summary.
        bool checking = false;  // the newest request is a check
        struct Case {
            std::string name, name_zh;
            bool passed = false;
            bool ran = false;
            std::string message, message_zh;  // the first mismatch, or why it did not run
            double ms = 0;
        };
        std::vector<Case> cases;
        int cases_total = 0;        // as the worker counts them (0 until the first case)
        bool check_done = false;    // the summary came
        bool checked = false;       // ... and the cases ran (false: `not_checked` says why)
        bool check_passed = false;  // every case passed, and the step's change is in the kernel
        // The step's change in the kernel (lessons/kernel_change.h): judged, present, and the
        // checker's own words for it (both languages).
        bool change_judged = false, change_present = false;
        std::string change_text, change_text_zh;
        std::string not_checked, not_checked_zh;
        // Your kernel's answer at the default settings, where its timed run was wrong.
        std::string wrong_at_default, wrong_at_default_zh;
        // The speed target (judged only where every case passed): yours and the step's own
        // median at the lesson's default settings, timed in the same check.
        std::string timing;  // "step" or "yours" while it is timed, else ""
        struct Speed {
            bool judged = false;
            bool passed = false;  // yours within `target_ratio` of the step's time (or faster)
            double yours_ms = 0, step_ms = 0, target_ratio = 1.1;
            std::string why_not, why_not_zh;
            // A worker that times the two kernels in turn: its verdict ("within-target",
            // "slower", "within-noise") and its own words for it, with both medians' intervals
            // (both languages); empty from an older worker.
            std::string verdict, text, text_zh;
        };
        std::optional<Speed> speed;  // the summary's, once it came
    };
    // "Check my kernel": the student's kernel compiled, then run over its step kind's hidden
    // cases (docs/serve-protocol.md, `check`), each case within the time limit.
    void CheckKernel(const Lesson& lesson, const RunSettings& settings, const std::string& source);
    // Each check whose cases ran, as it finished, for the student's progress: taken once.
    struct FinishedCheck {
        std::string lesson_id;
        CheckRecord record;  // as the progress file keeps it (lessons/progress.h)
    };
    std::vector<FinishedCheck> TakeFinishedChecks() { return std::exchange(m_finished_checks, {}); }
    // A Parsons problem's assembled kernel (lessons/parsons.h), checked as CheckKernel checks a
    // student's kernel, its answer kept apart from the exercise's (Parsons()).
    void CheckParsons(const Lesson& lesson, const RunSettings& settings, const std::string& source);
    const ExerciseAnswer* Parsons(const Lesson& lesson) const;
    // Each Parsons attempt as it finished, for the student's progress: the lesson's id and
    // "solved", "wrong", "did not compile" or "not checked"; taken once.
    std::vector<std::pair<std::string, std::string>> TakeFinishedParsons() {
        return std::exchange(m_finished_parsons, {});
    }
    void SubmitKernel(const Lesson& lesson, const RunSettings& settings, const std::string& source,
                      bool run);
    const ExerciseAnswer* Exercise(const Lesson& lesson) const;
    // How long a student's request may take (from when the worker takes it up: its compile and
    // its run), 1 to 600 s.
    void SetKernelTimeLimit(double seconds);
    double KernelTimeLimit() const { return m_kernel_limit_s; }
    // (Its runs go into the store's yours().)

    // Tunes `lesson` on this machine (the worker's `tune`: its block size, tile or thread count
    // swept at the page's other settings, replacing anything pending), the sweep shown as it
    // comes (a block size in the block-size sweep). The worker keeps the tuning in the user's
    // data folder; TuningOf then has it.
    void Tune(const Lesson& lesson, const RunSettings& settings);
    struct TuneAnswer {
        bool pending = false;
        int serial = 0;  // counts the answers
        std::optional<Tuning> tuning;
        std::string saved_to;  // "" when it was not kept (a wrong result somewhere)
        std::string error;
    };
    const TuneAnswer* TuningOf(const Lesson& lesson) const;
    // The machine a lesson's tunings are for: the GPU model (GPU steps), "CPU: <model>" (CPU
    // steps), as the worker reported them; "" until it has.
    std::string MachineFor(const Lesson& lesson) const;

    // Starts a new worker by hand (after it stopped too often to be restarted automatically),
    // which measures every ceiling afresh; `measure_tf32` also has it measure the TF32 ceiling
    // (with cuBLAS) before its first device information.
    void RestartWorker(bool measure_tf32 = false);

    // Asks an idle worker for its device information again (the GPU's free memory changes as
    // other programs run): quietly, not shown as work in progress. Does nothing while busy.
    void RefreshDeviceInfo();
    // When the newest device information arrived (the epoch: none yet).
    std::chrono::steady_clock::time_point InfoTime() const { return m_info_time; }

    // The nice value the running worker said it has lowered itself to (its hello's "nice"),
    // and its process id: every thread of the worker runs at this value once it is known. None
    // before the hello, and from an older worker that does not say.
    std::optional<int> WorkerNice() const { return m_worker_nice; }
    int WorkerPid() const { return m_worker ? m_worker->Pid() : -1; }

    bool Busy() const {
        for (const auto& [id, p] : m_pending)
            if (!p.quiet) return true;
        return false;
    }
    // A CPU step is being run, swept or tuned: every core the GUI leaves idle is the step's.
    bool MeasuringCpuStep() const;
    // Progress of the work in flight, 0..1; negative when unknown: the share of the newest
    // batch (a run with its previous lesson, a whole chapter, two sweeps) done, each request
    // counting by its sweep points and its timed samples.
    float Progress() const;
    // The seconds the batch in flight still needs at its pace so far; negative while unknown.
    double SecondsLeft() const;
    // "lesson 1.3", "block sweep of lesson 1.4", ... in `language` ("zh" or English).
    std::string BusyWith(std::string_view language = "en") const;

    // A worker is running and has not yet said which lessons run here.
    bool AwaitingList() const { return m_worker && !m_store.KnowsAvailability(); }
    // The worker's reason (its message id and arguments, and its English), else this program's.
    Message UnavailableReason(const Lesson& lesson) const;

    // What the worker's newest info reply says about this machine's GPUs (not reported until
    // one arrives).
    const DeviceFacts& devices() const { return m_devices; }
    std::string WorkerState() const;
    // Notices for the user (worker restarts, errors), newest last; the UI may clear them.
    std::deque<std::string>& notices() { return m_notices; }
    int restarts() const { return m_restarts; }

private:
    struct Pending {
        std::string what;
        Origin origin;
        int done = 0, total = 0;
        int points = 0, points_done = 0;  // a sweep's points, and those answered
        bool chapter = false;             // one run of a RunChapter batch
        bool batch = false;               // one request of the newest batch (Progress)
        bool quiet = false;          // not shown as work in progress (a refresh of the device info)
        std::string label{};         // a run or sweep of the lesson shown so ("": `what` says what)
        std::string over{};          // a sweep: the parameter it runs along
        std::string in_turn_with{};  // a comparison: the lesson timed in turn with `label`
        std::string over_label{}, over_label_zh{};  // ... as the page names it
        int exercise = 0;         // a student's kernel for this lesson number (0: none; its
                                  // negative: the lesson's Parsons problem)
        int tune = 0;             // a tuning of this lesson number (0: none)
        bool keep = false;        // not cancelled: the lesson list, the device information
        bool kernel_run = false;  // ... run, not only compiled
        bool cpu = false;         // a CPU step measured (MeasuringCpuStep)
        std::optional<std::chrono::steady_clock::time_point> run_started{};  // its compile came
    };
    // What a pending request does, in `language`.
    static std::string Describe(const Pending& p, std::string_view language);
    Json BaseRequest(Op op, const Lesson& lesson, const RunSettings& s,
                     double min_time_s = kDefaultMinTimeS);
    // Sweeps this lesson and the previous one, each along the parameter `along` gives it (none:
    // that lesson is not swept).
    void Sweep(const Lesson& lesson, const RunSettings& settings,
               const std::function<const ParamSpec*(const Lesson&)>& along, Origin origin,
               const char* what);
    void Send(Json request, Pending pending);
    // A new compile, run or check of the student's kernel for `lesson`: its answer starts afresh
    // (the newest compile report and run result stay until the new answer replaces them).
    ExerciseAnswer& StartExerciseAnswer(const Lesson& lesson, bool running, bool checking);
    // Sends an exercise request; where no worker takes it, the answer says why. `counted`: it is
    // one request of the newest batch (Progress).
    void SendExercise(ExerciseAnswer& a, Json request, Pending pending, bool counted);
    // Hands a message to its type's row of kReplies (worker_client.cpp); a type without one is
    // ignored (a newer worker's).
    void Handle(const Json& message);
    // One notice for a message of a shape the GUI does not read, quoting it.
    void Unreadable(const Json& message, const std::string& why);
    // The handlers of kReplies: the message, its id (-1: none), its pending request (or end).
    using PendingAt = std::map<int, Pending>::iterator;
    void HandleExit(const Json& message, int id, PendingAt pending);
    void HandleHello(const Json& message, int id, PendingAt pending);
    void HandleList(const Json& message, int id, PendingAt pending);
    void HandleInfo(const Json& message, int id, PendingAt pending);
    void HandleAttributes(const Json& message, int id, PendingAt pending);
    void HandleCompile(const Json& message, int id, PendingAt pending);
    void HandleCase(const Json& message, int id, PendingAt pending);
    void HandleCheck(const Json& message, int id, PendingAt pending);
    void HandleTiming(const Json& message, int id, PendingAt pending);
    void HandleTuning(const Json& message, int id, PendingAt pending);
    void HandleProgress(const Json& message, int id, PendingAt pending);
    void HandleResult(const Json& message, int id, PendingAt pending);  // "result", "skipped"
    void HandleProfile(const Json& message, int id, PendingAt pending);
    void HandleError(const Json& message, int id, PendingAt pending);
    void HandleDone(const Json& message, int id, PendingAt pending);
    struct ReplyHandler {
        const char* type;
        void (WorkerClient::*handle)(const Json& message, int id, PendingAt pending);
    };
    static const ReplyHandler kReplies[];
    // Stops the worker for good (until Restart worker): `why` becomes the notice.
    void GiveUp(const std::string& why);
    void Restart();
    // Profile requests the worker will not answer (it stopped, or everything was cancelled).
    void ForgetProfileRequests();
    // Exercise requests the worker will not answer: `why` becomes their answers' error.
    void ForgetExerciseRequests(const std::string& why);
    // A student's kernel past the time limit: the worker is killed (HandleExit restarts it).
    void EnforceKernelLimit();
    std::vector<const Lesson*> WithPrevious(const Lesson& lesson) const;

    const Registry& m_registry;
    ResultsStore& m_store;
    WorkerFactory m_factory;
    std::unique_ptr<WorkerLink> m_worker;
    std::map<int, Pending> m_pending;  // by request id: sent, or waiting in m_unsent
    std::vector<Json> m_unsent;        // requests made before the worker's hello
    // The kernel attributes by (lesson, its own parameters as JSON text).
    using AttributesKey = std::pair<int, std::string>;
    std::map<AttributesKey, KernelAttributes> m_attributes;
    std::map<int, AttributesKey> m_attribute_requests;  // request id -> key
    // Keys the worker answered with an error: not asked again (every frame would ask, and
    // each answer add a notice) until the worker is restarted or the settings change.
    std::set<AttributesKey> m_attribute_failed;
    std::map<int, ProfileAnswer> m_profiles;    // by lesson number
    std::map<int, int> m_profile_requests;      // request id -> lesson number
    std::map<int, ExerciseAnswer> m_exercises;  // by lesson number (negative: Parsons problems)
    std::vector<FinishedCheck> m_finished_checks;
    std::vector<std::pair<std::string, std::string>> m_finished_parsons;
    std::map<int, TuneAnswer> m_tunes;  // by lesson number
    double m_kernel_limit_s = 10;
    // The worker was killed for a student's kernel past the limit: the notice for its exit.
    std::string m_killed_for;
    DeviceFacts m_devices;
    bool m_measure_tf32 = false;  // the next worker's first info request measures TF32
    std::chrono::steady_clock::time_point m_info_time{};
    std::deque<std::string> m_notices;
    int m_chapter_total = 0;  // runs of the newest RunChapter batch
    int m_batch_total = 0;    // requests of the newest batch (run, chapter, sweep)
    std::chrono::steady_clock::time_point m_batch_started{};
    // Starts a batch: the requests sent until the next one count towards Progress().
    void StartBatch();
    // How much of one request of a batch is done, 0..1.
    static float RequestFraction(const Pending& p);
    int m_next_id = 1;
    int m_restarts = 0;
    bool m_started = false;
    bool m_greeted = false;            // the worker said hello in our protocol: requests may go
    std::optional<int> m_worker_nice;  // its hello's "nice", once said
    bool m_refused = false;            // it spoke another protocol: stopped, not restarted
    std::string m_worker_hint;
    std::chrono::milliseconds m_hello_timeout{8000};
    std::chrono::steady_clock::time_point m_worker_started;
    std::string m_start_error;  // why no worker serves (cannot start, another protocol)
    std::deque<std::chrono::steady_clock::time_point> m_recent_exits;
};

}  // namespace lessons::app
