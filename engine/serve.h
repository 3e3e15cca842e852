// The worker protocol: JSON lines in, JSON lines out (see docs/serve-protocol.md).
// `cuda-lessons-cli serve` runs this on stdin/stdout; the GUI spawns it as its worker.
#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "registry.h"
#include "session.h"

namespace lessons {

// 2: named parameters (`params` in requests and results), sweeps over any parameter.
constexpr int kProtocolVersion = 2;
// Serve's exit code after a sticky CUDA error: the process must be replaced.
constexpr int kExitContextLost = 3;

// Serves requests until end of input or a "shutdown" request (returns 0), or until a sticky
// CUDA error (returns kExitContextLost). Requests are executed one at a time in order; a
// "cancel" request acts at once, on the running request and on queued ones.
// When `stop` turns true (a signal handler sets it: SIGTERM, SIGINT), serving ends as after a
// "shutdown" request: the running request is cancelled, queued ones are answered, and Serve
// returns without waiting for more input.
// How long the worker waits with nothing to do before it frees the data it kept for the next
// run (Session::ReleaseWorkload), by default.
constexpr double kDefaultReleaseAfterS = 10;

// What the program that serves makes of a student's kernel (ServeOptions::student).
struct StudentBuild {
    // The compile object, as `run --kernel --format json` writes it under "compile".
    nlohmann::ordered_json compile;
    bool compiled = false;
    // Why it cannot run, when it cannot: the error reply's text, and the "done" status:
    // "error" (refused, or it did not compile) or "unavailable" (no NVRTC; no harness or no
    // CUDA in this build). Empty where `lesson` is set.
    std::string problem;
    const char* status = "error";
    // Compiled, and this build can run it: the lesson with the student's kernel in its step's
    // place.
    std::optional<Lesson> lesson;
};

struct ServeOptions {
    const std::atomic<bool>* stop = nullptr;
    // Idle this long (no request queued or running): the kept workload is freed. Negative:
    // never.
    double release_after_s = kDefaultReleaseAfterS;
    // Called after each release (tests count them).
    std::function<void()> on_release;
    // The `profile` request: the program that serves supplies the profiler (the engine knows
    // none). Given the lesson, the request's params, whether only the recorded counters are
    // wanted, and the request's cancel flag, it returns the profile object of `profile
    // --format json` ("source": "live" or "recorded"), or throws UsageError/UnavailableError.
    // Unset: the request is answered with an error.
    std::function<nlohmann::ordered_json(const Lesson& lesson, const RawParams& params,
                                         bool recorded, const std::atomic<bool>* cancel)>
        profile;
    // A student's kernel (the `compile` request, and `run` with "kernel"): the program that
    // serves supplies the compiler and the step's harness (the engine knows neither). Given the
    // lesson, the kernel's source and, for a run, its parameters (null for `compile`): a kernel
    // written for one template instance refuses others. Unset: such requests are answered with
    // an error. `cancel` is set by a cancel or shutdown (or a signal) of the request: the
    // compile stops at once and Cancelled is thrown.
    std::function<StudentBuild(const Lesson& lesson, const std::string& source,
                               const RawParams* params, const std::atomic<bool>* cancel)>
        student;
    // The `check` request: a student's kernel (compiled by `student`) over its step kind's
    // hidden cases. Given the lesson with the student's kernel, the lesson itself, the control
    // and `emit` for each case's outcome (its object, its index and the count), it returns the
    // summary object ("checked", "passed", "cases_total", "cases_failed", "speed", or
    // "not_checked" and "not_checked_zh" where this machine has no GPU); `timing` hears "step"
    // or "yours" before each timed run of the speed target. Unset: an error.
    std::function<nlohmann::ordered_json(
        const Lesson& yours, const Lesson& lesson, const RunControl& control,
        const std::function<void(const nlohmann::ordered_json&, int, int)>& emit,
        const std::function<void(const std::string&)>& timing)>
        check;
    // The `tune` request: the program that serves supplies the tuner (the engine knows no
    // tuning). Given the lesson, the request's params (those tuned left out), the control
    // (cancel, progress) and `emit` for each run (its point and the points planned), it
    // returns the tuning's object (kept in the user's data folder), or throws. Unset: an error.
    std::function<nlohmann::ordered_json(
        const Lesson& lesson, const RawParams& params, const RunControl& control,
        const std::function<void(const RunResult&, int, int)>& emit)>
        tune;
};

int Serve(const Registry& registry, std::istream& in, std::ostream& out,
          const std::atomic<bool>* stop = nullptr);
int Serve(const Registry& registry, std::istream& in, std::ostream& out,
          const ServeOptions& options);

// The ops a request may name, one per row of the worker's table of handlers, in the order its
// usage lists them ("run", "sweep", ..., "cancel", "shutdown").
const std::vector<std::string>& ServeOps();

// The run options of a request or a CLI call; throws UsageError naming the bad field.
RunOptions RunOptionsFromJson(const nlohmann::ordered_json& request);

}  // namespace lessons
