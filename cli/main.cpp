// cuda-lessons-cli: list | info | run | check | sweep | bench | profile | tune | exercise | page |
// progress | serve.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <iostream>

#include "catalog.h"
#include "check.h"
#include "commands.h"
#include "errors.h"
#include "files.h"
#include "host.h"
#include "out_of_memory.h"
#include "serve.h"
#include "units.h"

namespace {

using namespace lessons;

// Raw option values; parsed by the engine's own parsers so messages name the valid ranges.
struct RawOptions {
    std::string size, block, threads, reps, data, seed = "1", input, output;
    std::string blocks, sizes, over, format = "table", min_time;
    std::vector<std::string> sets;  // NAME=VALUE
    bool cold_l2 = false;
    bool no_ceilings = false;
    bool recorded = false;          // profile: the recorded counters
    bool no_save = false;           // tune: show, do not remember
    std::string timeout = "300";    // profile: seconds ncu may take
    std::string kernel;             // run: a student's kernel file
    std::string time_limit = "10";  // run --kernel, check: seconds a student's kernel may take
    cli::KernelCheckOptions check;
    bool no_guard_zones = false;  // run --kernel: without guard zones (the cost benchmark)
    cli::ExerciseOptions exercise;
};

void AddRunOptions(CLI::App* cmd, RawOptions& raw, bool with_output) {
    cmd->add_option("--size", raw.size,
                    "data size with a unit: B, KiB, MiB, GiB (K, M, G), KB, MB, GB");
    cmd->add_option("--block", raw.block, "threads per block (GPU lessons)");
    cmd->add_option("--threads", raw.threads, "host threads (OpenMP lessons)");
    cmd->add_option("--reps", raw.reps,
                    "timed repetitions (default: as many as fit in --min-time)");
    cmd->add_option("--min-time", raw.min_time, "seconds of timing per measurement (default 0.25)");
    cmd->add_option("--data", raw.data,
                    "generated data: random, dense, none (split); random, ones (reduce)");
    cmd->add_option("--seed", raw.seed, "seed of the data generator");
    cmd->add_flag("--cold-l2", raw.cold_l2, "flush the GPU's L2 cache before every sample");
    cmd->add_flag("--no-ceilings", raw.no_ceilings,
                  "do not measure this GPU's ceilings (no % of ceiling; faster one-off runs, "
                  "e.g. under compute-sanitizer)");
    cmd->add_option("--input", raw.input, "scan this file instead of generated data (chapter 1)");
    if (with_output)
        cmd->add_option("--offsets-out", raw.output,
                        "write the offsets found, sorted, one per line (chapter 1)");
    cmd->add_option("--set", raw.sets,
                    "a lesson parameter, NAME=VALUE (repeatable); 'list' shows each lesson's")
        ->allow_extra_args(false);
    cmd->add_option("--format", raw.format, "table, json or csv");
}

// An option given with an empty value (--size '') is an error, not the default.
void RejectEmptyValues(const CLI::App* command) {
    for (const CLI::Option* option : command->get_options()) {
        if (option->count() == 0 || option->get_type_size() == 0) continue;  // absent, or a flag
        for (const std::string& value : option->results())
            if (value.find_first_not_of(" \t") == std::string::npos)
                throw UsageError(option->get_name() +
                                 " is given an empty value: give a value or leave it out");
    }
}

cli::Options ToOptions(const RawOptions& raw) {
    cli::Options options;
    RunOptions& o = options.run;
    // The shorthands set the parameters of the same names; --set may set any parameter.
    const std::pair<const std::string*, const char*> shorthands[] = {
        {&raw.size, "size"}, {&raw.block, "block"}, {&raw.threads, "threads"}, {&raw.data, "data"}};
    for (const auto& [value, name] : shorthands)
        if (!value->empty()) o.Set(name, *value);
    for (const std::string& set : raw.sets) {
        const size_t eq = set.find('=');
        if (eq == std::string::npos || eq == 0)
            throw UsageError("--set needs NAME=VALUE, e.g. --set block=256; got '" + set + "'");
        const std::string name = set.substr(0, eq);
        // One parameter, one value: a shorthand and --set (or --set twice) for the same name
        // would leave one of them silently unused.
        for (const auto& [value, shorthand] : shorthands)
            if (name == shorthand && !value->empty())
                throw UsageError("--" + name + " and --set " + name + "= both set '" + name +
                                 "': give it once");
        if (std::find(options.from_set.begin(), options.from_set.end(), name) !=
            options.from_set.end())
            throw UsageError("--set " + Excerpt(name, 40) + "= is given twice: give it once");
        o.Set(name, set.substr(eq + 1));
        options.from_set.push_back(name);
    }
    if (!raw.reps.empty())
        o.reps = static_cast<int>(ParseIntInRange(raw.reps, "reps", 1, kMaxRequestedReps));
    if (!raw.min_time.empty()) {
        o.min_time_s = ParseSeconds(raw.min_time, "--min-time", 0, 60);
        o.max_time_s = std::max(o.max_time_s, o.min_time_s);
    }
    o.seed = ParseCount(raw.seed);
    o.cold_l2 = raw.cold_l2;
    o.measure_ceilings = !raw.no_ceilings;
    o.input_file = raw.input;
    o.output_file = raw.output;
    return options;
}

// The sweep's parameter and range: --over NAME=RANGE, or the shorthands --blocks and --sizes.
std::pair<std::string, std::string> SweepAxis(const RawOptions& raw) {
    const int given = !raw.over.empty() + !raw.blocks.empty() + !raw.sizes.empty();
    if (given != 1)
        throw UsageError(
            "sweep needs exactly one of --over NAME=RANGE (e.g. --over block=32..1024), "
            "--blocks (e.g. 32..1024) or --sizes (e.g. 1MiB..1GiB)");
    if (!raw.blocks.empty()) return {"block", raw.blocks};
    if (!raw.sizes.empty()) return {"size", raw.sizes};
    const size_t eq = raw.over.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == raw.over.size())
        throw UsageError(
            "--over needs NAME=RANGE, e.g. --over block=32..1024 or --over data=all; "
            "got '" +
            raw.over + "'");
    return {raw.over.substr(0, eq), raw.over.substr(eq + 1)};
}

// The nice levels the worker lowers itself by unless told otherwise (serve --nice). 10 gives the
// GUI's thread (and the display server's, at nice 0 too) about nine times a worker thread's share
// of a busy core (CFS weights 1024 and 110). Measured here on 2026-11-27 (2 cores, software GL
// under Xvfb, lesson 3.1 at 1 GiB on both cores, five runs each): mean frame 22.5 ms at 5, 19.4 at
// 10, 16.0 at 19. Not 19: the worker's own start (the lesson list, the ceilings) and its runs
// then wait behind any other program the user has running.
constexpr int kServeNice = 10;

void OnSignal(int) {
    cli::RequestCancel();
}

// `serve`: SIGTERM and SIGINT end serving as a shutdown request does.
std::atomic<bool> g_serve_stop{false};
void OnServeSignal(int) {
    g_serve_stop = true;
}

// The command: everything main() does, inside its out-of-memory boundary.
int Main(int argc, char** argv) {
    KeepMemoryForOutOfMemory();  // so that running out of memory can still be said
    // A file over the size limit (ulimit -f) is a failed write, reported with exit code 1 and
    // its temporary removed, not a death by SIGXFSZ.
    std::signal(SIGXFSZ, SIG_IGN);
    if (const std::string note = LimitOpenMpThreads(); !note.empty())
        std::cerr << "note: " << note << "\n";
    // A rank of a multi-process step, started by the step itself (not by hand, so not in the
    // help): lessons/07_allreduce/ranks_harness.cu says what it reads and answers.
    if (argc > 1 && std::string(argv[1]) == "rank") {
        const Lesson* l = argc > 2 ? RunnableCatalog().FindLesson(argv[2]) : nullptr;
        if (!l || !l->runner.rank) {
            const std::string named = argc > 2 ? Excerpt(argv[2], 60) : std::string();
            std::cerr << "error: 'rank LESSON ...' runs one process of a multi-process step and is "
                         "started by that step; "
                      << (argc <= 2 ? std::string("no lesson was given")
                          : !l      ? "'" + named + "' is no such lesson in this build"
                                    : "lesson " + l->label + " (" + l->id +
                                     ") is not a multi-process step")
                      << "\n";
            return cli::kExitUsage;
        }
        return l->runner.rank(std::vector<std::string>(argv + 3, argv + argc));
    }
    CLI::App app{"cuda-lessons-cli: run, check and time the CUDA Lessons steps"};
    app.require_subcommand(1);
    RawOptions raw;
    std::string lesson, chapter;

    auto* list = app.add_subcommand("list", "list the lessons");
    list->add_option("--format", raw.format, "table, json or csv");
    auto* info = app.add_subcommand("info", "describe this machine's GPU and CPU");
    info->add_option("--format", raw.format, "table or json");
    auto* run = app.add_subcommand("run", "run one lesson: check it, then time it");
    run->add_option(
           "lesson", lesson,
           "lesson: its number (5.8), its id (gemm/double-buffering) or its old number (39)")
        ->required();
    AddRunOptions(run, raw, true);
    run->add_option("--kernel", raw.kernel,
                    "your kernel for the lesson's exercise (a .cu file): compiled with NVRTC, then "
                    "run in place of the step's own on a GPU (see 'exercise')");
    run->add_option("--time-limit", raw.time_limit,
                    "with --kernel: seconds your kernel's run may take before it is stopped "
                    "(1 to 600, default 10, as in the GUI)");
    run->add_flag("--no-guard-zones", raw.no_guard_zones,
                  "with --kernel: no guard zones around the step's buffers (by default a write "
                  "past the end of one makes the run wrong)");
    auto* check = app.add_subcommand(
        "check",
        "check your kernel for a lesson's exercise over its hidden cases: the smallest "
        "sizes, sizes off the block or tile, large sizes, data that breaks naive code");
    check
        ->add_option(
            "lesson", lesson,
            "lesson: its number (5.8), its id (gemm/double-buffering) or its old number (39)")
        ->required();
    check->add_option("--kernel", raw.kernel, "your kernel (a .cu file)")->required();
    check->add_option("--format", raw.format, "table or json");
    check->add_option("--lang", raw.check.lang, "en or zh");
    check->add_flag("--memcheck", raw.check.memcheck,
                    "run the cases under compute-sanitizer's memcheck as well (where installed)");
    check->add_flag("--no-guard-zones", raw.no_guard_zones,
                    "no guard zones around the buffers (--memcheck runs so, for the memory "
                    "checker to see the real out-of-bounds accesses)");
    check->add_option("--time-limit", raw.time_limit,
                      "seconds each case may take before your kernel is stopped (1 to 600, "
                      "default 10, as in the GUI)");
    check->add_flag("--no-speed", raw.check.no_speed,
                    "leave out the speed target (--memcheck runs so: times under the memory "
                    "checker mean nothing)");
    auto* sweep = app.add_subcommand("sweep", "run one lesson over block sizes or data sizes");
    sweep
        ->add_option(
            "lesson", lesson,
            "lesson: its number (5.8), its id (gemm/double-buffering) or its old number (39)")
        ->required();
    sweep->add_option("--blocks", raw.blocks,
                      "block sizes: 32..1024 (doubling), 64..512:64, 128,256");
    sweep->add_option("--sizes", raw.sizes, "data sizes: 1MiB..1GiB (doubling), or a list");
    sweep->add_option(
        "--over", raw.over,
        "any parameter: NAME=RANGE, e.g. block=64..512:64, size=1MiB..1GiB, data=all");
    AddRunOptions(sweep, raw, false);
    std::vector<std::string> compared;
    int trials = kDefaultTrials;
    auto* compare = app.add_subcommand(
        "compare",
        "time two or more lessons in turn (A B, B A, A B, ...) at the same settings, each one's "
        "samples pooled over its trials: a speed-up that a machine's drift between runs does not "
        "decide");
    compare->add_option("lessons", compared, "the lessons, each compared with the first")
        ->required()
        ->expected(2, static_cast<int>(kMaxCompared));
    compare
        ->add_option("--trials", trials,
                     "rounds (1 to " + std::to_string(kMaxTrials) + ", default " +
                         std::to_string(kDefaultTrials) +
                         "); each lesson is timed for --min-time in all, a share in each round")
        ->check(CLI::Range(1, kMaxTrials));
    AddRunOptions(compare, raw, false);
    auto* bench = app.add_subcommand("bench", "run every lesson of a chapter at one size");
    bench->add_option("chapter", chapter, "chapter number or id (default: every chapter)");
    AddRunOptions(bench, raw, false);
    auto* profile = app.add_subcommand(
        "profile", "profile one GPU step with NVIDIA Nsight Compute (ncu): its counters");
    profile
        ->add_option(
            "lesson", lesson,
            "lesson: its number (5.8), its id (gemm/double-buffering) or its old number (39)")
        ->required();
    profile->add_option("--size", raw.size, "data size with a unit (see run)");
    profile->add_option("--block", raw.block, "threads per block");
    profile->add_option("--data", raw.data, "generated data (see run)");
    profile->add_option("--set", raw.sets, "a lesson parameter, NAME=VALUE (repeatable)")
        ->allow_extra_args(false);
    profile->add_option("--format", raw.format, "table, json or csv");
    profile->add_flag("--recorded", raw.recorded,
                      "the counters recorded on the reference GPU, without profiling");
    profile->add_option("--timeout", raw.timeout, "seconds ncu may take (default 300)");
    auto* tune = app.add_subcommand(
        "tune", "find this machine's fastest block size, tile or thread count for a step");
    tune->add_option(
            "lesson", lesson,
            "lesson: its number (5.8), its id (gemm/double-buffering) or its old number (39)")
        ->required();
    tune->add_option("--size", raw.size, "data size with a unit (see run)");
    tune->add_option("--data", raw.data, "generated data (see run)");
    tune->add_option("--set", raw.sets, "a lesson parameter, NAME=VALUE (repeatable)")
        ->allow_extra_args(false);
    tune->add_option("--format", raw.format, "table or json");
    tune->add_flag("--no-save", raw.no_save, "show the sweep without remembering the best");
    auto* exercise = app.add_subcommand(
        "exercise", "write a step's kernel yourself: the task, hints and starting file");
    exercise->add_option("lesson", lesson, "lesson (default: list every exercise)");
    exercise->add_option("--hints", raw.exercise.hints, "show this many hints (one at a time)");
    exercise->add_flag("--solution", raw.exercise.solution, "show the lesson's own kernel");
    exercise->add_option("--write", raw.exercise.write,
                         "write the starting file to this path (never over an existing file)");
    exercise->add_option("--lang", raw.exercise.lang, "en or zh");
    exercise->add_option("--format", raw.format, "table or json");
    auto* page = app.add_subcommand(
        "page", "a lesson page with its figures read from a reference GPU's recordings");
    page->add_option("lesson", lesson, "lesson (with --glance: a chapter)")->required();
    page->add_option("--lang", raw.exercise.lang, "en or zh");
    std::string page_gpu;
    page->add_option("--gpu", page_gpu, "whose recordings (default: the reference GPU)");
    bool glance = false;
    page->add_flag("--glance", glance, "the chapter at a glance: every step in one table");
    page->add_option("--format", raw.format, "table (Markdown) or json");
    std::string page_text;
    page->add_option("--text", page_text,
                     "a draft of the lesson's text (its .en.md or .zh.md, per --lang) to show and "
                     "check instead of the built-in one");
    auto* parsons = app.add_subcommand(
        "parsons",
        "a chapter's Parsons problem: its key kernel's lines shuffled, with a few wrong ones; "
        "give them in order and the kernel is compiled and checked as an exercise is");
    parsons
        ->add_option("lesson", lesson,
                     "lesson: its number (3.6), its id (reduce/v4-warp-shuffle) or its old number")
        ->required();
    cli::ParsonsOptions parsons_options;
    parsons->add_option("--order", parsons_options.order,
                        "the shown line numbers in your order, as 3,1,4 (lines left out are "
                        "set aside)");
    parsons->add_option("--seed", parsons_options.seed,
                        "the shuffle's seed (default: yours, from your user name and the lesson)");
    parsons->add_flag("--answer", parsons_options.answer,
                      "show the answer's order too (for a teacher)");
    parsons->add_option("--lang", parsons_options.lang, "en or zh");
    parsons->add_option("--time-limit", raw.time_limit,
                        "seconds each hidden case may take (1 to 600, default 10)");
    parsons->add_option("--format", raw.format, "table or json");
    auto* progress = app.add_subcommand(
        "progress",
        "the student's progress kept on this machine: each exercise's checks (passed, speed "
        "target, when), each prediction (the guess, what was measured, how far off) and each "
        "Parsons problem (solved, attempts); for a teacher, as csv or json");
    progress->add_option("--format", raw.format, "table, csv or json");
    auto* serve = app.add_subcommand("serve", "worker mode: JSON-lines requests on stdin");
    int serve_nice = kServeNice;
    double release_after = kDefaultReleaseAfterS;
    serve
        ->add_option("--nice", serve_nice,
                     "lower the worker's scheduling priority by this many nice levels, so that "
                     "the GUI keeps drawing while a lesson uses every core (0: keep it)")
        ->check(CLI::Range(0, 19));
    serve
        ->add_option("--release-after", release_after,
                     "seconds idle before the data kept for the next run is freed (-1: never)")
        ->check(CLI::Range(-1.0, 86400.0));

    if (argc > 1 && argv[1][0] != '-') {
        bool known = false;
        for (const CLI::App* sub : app.get_subcommands({})) known |= sub->get_name() == argv[1];
        if (!known) {
            std::cerr << "error: unknown command '" << argv[1]
                      << "': use list, info, run, check, sweep, compare, bench, profile, tune, "
                         "exercise, page, parsons, progress or serve (see --help)\n";
            return cli::kExitUsage;
        }
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "error: " << e.what() << "\nRun with --help for usage.\n";
        return cli::kExitUsage;
    }

    const std::vector<std::string>& problems = OutOfMemoryAs(
        "build the lesson catalogue",
        []() -> const std::vector<std::string>& { return RunnableCatalogProblems(); });
    if (!problems.empty()) {
        std::cerr << "error: the lesson catalogue is inconsistent:\n";
        for (const std::string& p : problems) std::cerr << "  - " << p << "\n";
        return cli::kExitFailed;
    }

    std::signal(SIGINT, OnSignal);
    std::signal(SIGTERM, OnSignal);
    try {
        if (*serve) {
            std::signal(SIGINT, OnServeSignal);
            std::signal(SIGTERM, OnServeSignal);
            std::ios::sync_with_stdio(false);
            std::cin.tie(nullptr);  // reading must never flush the replies outside their lock
            // Before any thread starts (the reader, OpenMP's): they inherit it.
            if (serve_nice > 0) {
                std::string problem;
                LowerPriority(serve_nice, &problem);
                if (!problem.empty()) std::cerr << "note: " << problem << "\n";
            }
            ServeOptions options;
            options.stop = &g_serve_stop;
            options.release_after_s = release_after;
            options.profile = cli::ProfileForWorker;
            options.student = cli::StudentForWorker;
            options.tune = cli::TuneForWorker;
            options.check = cli::CheckForWorker;
            const int rc = Serve(RunnableCatalog(), std::cin, std::cout, options);
            std::cout.flush();
            std::fflush(stdout);
            std::_Exit(rc);  // the reader thread may still be blocked on stdin
        }
        for (const CLI::App* command : {list, info, run, check, sweep, compare, bench, profile,
                                        tune, exercise, page, parsons, progress})
            if (*command) RejectEmptyValues(command);
        const cli::Format format = cli::ParseFormat(raw.format);
        int rc = cli::kExitUsage;
        if (*list) {
            rc = cli::List(format);
        } else if (*info) {
            rc = cli::Info(format);
        } else if (*page) {
            rc = cli::PrintPage(lesson, raw.exercise.lang, page_gpu, glance, format, page_text);
        } else if (*exercise) {
            rc = cli::ShowExercise(lesson, raw.exercise, format);
        } else if (*parsons) {
            parsons_options.time_limit_s =
                ParseSeconds(raw.time_limit, "--time-limit", cli::kMinKernelTimeLimitS,
                             cli::kMaxKernelTimeLimitS);
            rc = cli::Parsons(lesson, parsons_options, format);
        } else if (*progress) {
            rc = cli::ShowProgress(format);
        } else if (*check) {
            cli::KernelCheckOptions o = raw.check;
            o.guard_zones = !raw.no_guard_zones;
            o.time_limit_s = ParseSeconds(raw.time_limit, "--time-limit", cli::kMinKernelTimeLimitS,
                                          cli::kMaxKernelTimeLimitS);
            rc = cli::CheckKernel(lesson, raw.kernel, o, format);
        } else if (*run && !raw.kernel.empty()) {
            rc = cli::RunKernel(lesson, raw.kernel, ToOptions(raw), format,
                                ParseSeconds(raw.time_limit, "--time-limit",
                                             cli::kMinKernelTimeLimitS, cli::kMaxKernelTimeLimitS),
                                !raw.no_guard_zones);
        } else {
            const cli::Options options = ToOptions(raw);
            if (*run) rc = cli::Run(lesson, options, format);
            if (*sweep) {
                const auto [param, range] = SweepAxis(raw);
                rc = cli::Sweep(lesson, options, param, range, format);
            }
            if (*compare) rc = cli::Compare(compared, options, trials, format);
            if (*bench) rc = cli::Bench(chapter, options, format);
            if (*tune) rc = cli::Tune(lesson, options, format, !raw.no_save);
            if (*profile)
                rc = cli::Profile(lesson, options, format, raw.recorded,
                                  ParseSeconds(raw.timeout, "--timeout", 1, 3600));
        }
        FlushStandardOutput();  // a full disk or /dev/full is an error, not a silent success
        return rc;
    } catch (const UsageError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return cli::kExitUsage;
    } catch (const UnavailableError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return cli::kExitFailed;
    } catch (const Cancelled&) {
        std::cerr << "cancelled\n";
        return 130;
    } catch (const CudaError& e) {
        std::cerr << "CUDA error: " << e.what() << "\n";
        return cli::kExitFailed;
    } catch (const std::exception& e) {
        // Out of memory: named by what was being loaded (OutOfMemory), or, where the command
        // allocates what a size asks for, that size; main() says the rest.
        if (IsOutOfMemory(e)) {
            if (dynamic_cast<const OutOfMemory*>(&e) ||
                !((*run && raw.kernel.empty()) || *sweep || *compare || *bench || *tune))
                throw;
            char text[480];
            std::fprintf(stderr, "error: %s\n",
                         OutOfMemoryText(e, "hold the data of this size: choose a smaller size",
                                         text, sizeof text));
            return cli::kExitFailed;
        }
        std::cerr << "error: " << e.what() << "\n";
        return cli::kExitFailed;
    }
    return cli::kExitUsage;
}

}  // namespace

// Running out of memory anywhere, even while the catalogue is built before any command is
// parsed (under a small ulimit -v), ends with a message and exit code 1, never an abort: the
// commands name what they were loading (OutOfMemory), anything else says the command.
int main(int argc, char** argv) {
    char doing[160];
    std::snprintf(doing, sizeof doing, "run '%.60s'", argc > 1 ? argv[1] : "cuda-lessons-cli");
    EndWithAMessageWhenOutOfMemory("error: ", doing);
    try {
        return Main(argc, argv);
    } catch (const std::exception& e) {
        if (!IsOutOfMemory(e)) throw;
        char text[480];
        std::fprintf(stderr, "error: %s\n", OutOfMemoryText(e, doing, text, sizeof text));
        return cli::kExitFailed;
    }
}
