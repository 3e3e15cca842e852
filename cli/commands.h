// The CLI's subcommands. Each returns the process exit code:
// 0 ok, 1 a wrong result or a failed run, 2 bad arguments.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "serve.h"  // StudentBuild
#include "session.h"
#include "tuning.h"

namespace lessons::cli {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;

// Ctrl-C: stops the run in progress at its next sample.
void RequestCancel();
bool CancelRequested();
const std::atomic<bool>* CancelFlag();
// A run's control that stops at RequestCancel().
RunControl CancelControl();

// The lesson a command line names (number, id or old number), or a UsageError saying how to
// name one.
const Lesson& FindLessonOrThrow(const std::string& key);

enum class Format { kTable, kJson, kCsv };
Format ParseFormat(const std::string& text);  // throws UsageError

// The run options of a command line, and where its parameters came from: a parameter given
// with --set that a lesson does not have is an error; one given by a shorthand (--block,
// --threads, --size, --data) gets a one-line notice.
struct Options {
    RunOptions run;
    std::vector<std::string> from_set;  // names given with --set
};

// Reports the parameters `lessons` do not have: an error for --set, a notice for shorthands.
void CheckUnused(const std::vector<const Lesson*>& lessons, const Options& options);

int List(Format format);
int Info(Format format);
int Run(const std::string& lesson, const Options& options, Format format);
// `param`: the parameter to sweep; `range`: "32..1024", "64..512:64", "a,b,c" or "all".
int Sweep(const std::string& lesson, const Options& options, const std::string& param,
          const std::string& range, Format format);
int Bench(const std::string& chapter, const Options& options, Format format);
// Two or more lessons timed in turn over `trials` rounds (RunInTurn), each against the first.
int Compare(const std::vector<std::string>& lessons, const Options& options, int trials,
            Format format);
// A lesson page with its figures read from the recordings of `gpu` (empty: the reference GPU);
// with `glance`, the chapter at a glance; with `text_file`, a draft of the lesson's text read from
// that file instead of the built-in one (for writing a page). Fails when a reference does not
// resolve or a page in the model breaks docs/pages.md (each problem is printed).
int PrintPage(const std::string& name, const std::string& lang, const std::string& gpu, bool glance,
              Format format, const std::string& text_file);
// The step at each launch shape (or thread count) on this machine; the fastest verified one
// saved for this GPU model (or CPU) unless `save` is false (cli/tune.cpp).
int Tune(const std::string& lesson, const Options& options, Format format, bool save);

// What a tuning run measured: every run (the first at the declared defaults), the fastest
// verified values of the tuned parameters, and the Tuning to keep.
struct TuneRun {
    std::string machine;  // the GPU model, or "CPU: <model>"
    std::vector<RunResult> results;
    ParamValues best_values;
    double best_ms = 0;  // 0: no run was right
    bool all_right = true;
    std::vector<std::string> skipped;  // candidates refused, with why
    Tuning tuning;
};
// Runs `lesson` at its defaults, then at each candidate of each tuned parameter (from the best
// so far); `on_result` gets each run with its point and the points planned. Throws
// UsageError (nothing to tune), UnavailableError (no GPU for a GPU step), Cancelled.
TuneRun MeasureTuning(const Lesson& lesson, RunOptions base, const RunControl& control,
                      const std::function<void(const RunResult&, int, int)>& on_result);
// The worker's `tune` request (ServeOptions::tune): measures as MeasureTuning, sending each run
// through `emit`, and keeps the tuning in the user's data folder where every run was right.
// Returns the tuning's object with "all_right" and "saved_to" (null when not kept).
nlohmann::ordered_json TuneForWorker(const Lesson& lesson, const RawParams& params,
                                     const RunControl& control,
                                     const std::function<void(const RunResult&, int, int)>& emit);
// The step under NVIDIA Nsight Compute (cli/profile.cpp); `recorded`: the counters recorded on
// the reference GPU instead. ncu is stopped after `timeout_s`.
int Profile(const std::string& lesson, const Options& options, Format format, bool recorded,
            double timeout_s);
// The worker's `profile` request (ServeOptions::profile): live where ncu and a GPU can, else the
// recorded counters with "live_failure" saying why; an UnavailableError when neither.
nlohmann::ordered_json ProfileForWorker(const Lesson& lesson, const RawParams& params,
                                        bool recorded, const std::atomic<bool>* cancel);

// run LESSON --kernel FILE: the student's kernel for the lesson's exercise, compiled (exit 2 when
// the file is refused or does not compile) and, with a GPU, run by the step's harness (exit 0
// right, 1 wrong or not run) (cli/exercise.cpp).
// `time_limit_s`: the run ends the process, saying so, when it takes longer (an endless kernel).
// `guard_zones`: every device buffer of the step gets guard zones (engine/guard_zones.h); a
// write outside one makes the run wrong.
int RunKernel(const std::string& lesson, const std::string& path, const Options& options,
              Format format, double time_limit_s, bool guard_zones = true);

// `check LESSON --kernel FILE`: the kernel over its step kind's hidden cases (cli/check.h).
struct KernelCheckOptions {
    std::string lang = "en";
    bool memcheck = false;
    bool guard_zones = true;   // off under memcheck: it sees the real out-of-bounds accesses     //
                               // run the cases under compute-sanitizer's memcheck
    double time_limit_s = 10;  // per case (and per run of run --kernel)
    bool no_speed = false;     // leave out the speed target (under memcheck)
    bool record = true;        // keep the check in the progress file (a Parsons attempt: not)
    // With json: the check's object goes here instead of to stdout (a Parsons attempt's answer
    // holds it).
    std::function<void(const nlohmann::ordered_json&)> json_out;
};
int CheckKernel(const std::string& lesson, const std::string& path,
                const KernelCheckOptions& options, Format format);

struct ExerciseOptions {
    int hints = 0;          // how many hints to show
    bool solution = false;  // show the lesson's own kernel
    std::string write;      // write the starting file here (never over an existing file)
    std::string lang = "en";
};
// exercise [LESSON]: every exercise, or one's task, hints, starting file and solution.
int ShowExercise(const std::string& lesson, const ExerciseOptions& options, Format format);
// serve's `compile` and `run` with "kernel": the student's kernel for `lesson` compiled for this
// GPU (sm_90 without one) and, where this build has the step's harness, the lesson with it in
// the step's place. `params` (a run's; null for a compile): refused when they ask for another
// instance than the exercise's kernel is written for. A set `cancel` stops the compile
// (Cancelled is thrown).
// The worker's `check` request (ServeOptions::check): the hidden cases of `lesson`'s exercise run
// with `yours`, each outcome through `emit`; then, where every case passed, the speed target
// (`timing` hears each timed run's start); the summary.
nlohmann::ordered_json CheckForWorker(
    const Lesson& yours, const Lesson& lesson, const RunControl& control,
    const std::function<void(const nlohmann::ordered_json&, int, int)>& emit,
    const std::function<void(const std::string&)>& timing);
// `parsons LESSON`: the lesson's Parsons problem (lessons/parsons.h), its lines shuffled by the
// seed (the student's by default); with `order`, the kernel assembled in that order: which
// places are out of place, then compiled and, with a GPU, checked as `check` does (the hidden
// cases); the attempt is kept in the progress file. Exit 0 solved (or only shown), 1 not solved
// (out of order, not compiled, wrong, or not checked without a GPU), 2 bad arguments
// (cli/parsons.cpp).
struct ParsonsOptions {
    std::string order;    // "3,1,4,...": the shown line numbers in order; "": show the problem
    std::string seed;     // "": the student's own (ParsonsSeed)
    bool answer = false;  // show the answer's order too (for a teacher)
    std::string lang = "en";
    double time_limit_s = 10;
};
int Parsons(const std::string& lesson, const ParsonsOptions& options, Format format);

// `progress`: the progress file (lessons/progress.h) as a table, csv or json; a corrupt one is
// named (and left as it is) with exit code 1.
int ShowProgress(Format format);
StudentBuild StudentForWorker(const Lesson& lesson, const std::string& source,
                              const RawParams* params, const std::atomic<bool>* cancel);

}  // namespace lessons::cli
