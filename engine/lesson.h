// What a chapter and a lesson are. Every list the programs show (CLI list, bench, the GUI's
// menu, tests) is built from the Registry that holds these declarations. The engine knows no
// chapter by name: a chapter brings its parameters, data, check and result values.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "message.h"
#include "params.h"
#include "step.h"
#include "work.h"

namespace lessons {

// Where a step runs. (How a GPU step runs is its step's declaration, StepDecl in step.h: a
// chapter's struct such as gemm::Tiled, implemented by the chapter's harness.)
enum class StepKind { kCpu, kGpu };
const char* ToString(StepKind kind);

// How a chapter's input is made: generated from its parameters and a seed, or read from a file.
struct WorkloadSpec {
    ParamValues params;  // the chapter's own parameters (size, data kind, dimensions...)
    uint64_t seed = 1;
    std::string input_file;                     // non-empty: read this file instead of generating
    const std::atomic<bool>* cancel = nullptr;  // generators stop early when it is set

    bool SameData(const WorkloadSpec& o) const {
        return params == o.params && seed == o.seed && input_file == o.input_file;
    }
};

// A chapter's input and its CPU reference answer, shared by every step of the chapter.
class Workload {
public:
    virtual ~Workload() = default;
    // The size of the input in bytes (what a file input measured, or what was generated).
    virtual uint64_t SizeBytes() const = 0;
};

// A timed part of one sample ("h2d", "kernel", "d2h"; with several GPUs "gpu1 peer", ...).
struct TimedPart {
    std::string name;
    double ms = 0;
};

// One timed execution of a step.
struct Sample {
    double total_ms = 0;
    std::vector<TimedPart> parts;
};

// A named value a result carries: what the check found (line breaks, the sum and the
// expected sum, the largest error) or what the step measured once (allocation costs).
struct NamedValue {
    std::string name;
    double value = 0;
};

// The check of a step's output against the chapter's reference.
struct Check {
    bool ok = false;
    std::string message;  // empty when ok; else what differs, e.g. the first mismatch
    // `message`'s form id and arguments when it was said with Fail(), so that front ends show
    // it in the student's language; empty for free text.
    std::string message_id;
    std::vector<std::string> message_args;
    std::vector<NamedValue> values;

    // Not ok, for the reason `form` gives (a chapter's forms are in Chapter::messages).
    void Fail(const MessageForm& form, std::vector<std::string> args) {
        const Message m = Message::Of(form, std::move(args));
        ok = false;
        message = m.text;
        message_id = m.id;
        message_args = m.args;
    }
};

// A step set up for one workload and parameter set: buffers allocated, nothing timed yet.
// Run() executes the step once and times itself; Verify() checks the output of the last Run().
class StepInstance {
public:
    virtual ~StepInstance() = default;
    virtual Sample Run() = 0;
    virtual Check Verify() const = 0;
    // The work of the last run. A lesson that declares a work rule (EstimateWork: its row's,
    // its step kind's or its chapter's) is reported with that rule at the run's parameters,
    // which the step corrects only where it measured what the rule can only expect (split: the
    // line breaks found), in Measured(). The rule is written once, and the page's prediction
    // and the run's rates share it.
    virtual Work Measured(Work declared) const { return declared; }
    // The work of the last run of a lesson that declares no work rule (a chapter whose work
    // only the run knows). The default throws: such a step must say its work here.
    virtual Work GetWork() const;
    // Writes the step's output in the chapter's file format (split: sorted offsets).
    virtual void WriteOutput(std::ostream& out) const;
    // Values the step measures once, at set-up, in milliseconds unless the name says
    // otherwise (e.g. "alloc_pinned_ms": what page-locking the host buffer cost).
    virtual std::vector<NamedValue> Extras() const { return {}; }
};

// Memory a step needs for a problem, checked before anything is allocated.
struct MemoryNeeds {
    uint64_t host_bytes = 0;
    uint64_t device_bytes = 0;  // on each GPU the step uses
};

// Resource use of a step's kernel at a parameter set (cudaFuncGetAttributes + occupancy).
struct KernelAttributes {
    std::string kernel;
    int registers = 0;
    int static_smem_bytes = 0;
    int dynamic_smem_bytes = 0;
    int max_threads_per_block = 0;
    int active_blocks_per_sm = 0;
    double occupancy = 0;  // active warps / max warps per SM
};

// What a run of a step gets besides its workload.
struct StepContext {
    const ParamValues& params;  // every parameter of the lesson, resolved and validated
    std::vector<int> devices;   // the GPUs to use (GPU steps; device 0 first)
    // Set when the caller cancels (Ctrl-C, serve's cancel op): a step that waits on other
    // processes stops waiting and throws Cancelled. May be null.
    const std::atomic<bool>* cancel = nullptr;
};

using StepFactory =
    std::function<std::unique_ptr<StepInstance>(const Workload&, const StepContext&)>;
// Bytes one thread of a step's kernel has in flight from memory at once (its independent
// loads), for Little's law; 0 when not declared.
using InFlightFn = std::function<uint64_t(const ParamValues&)>;

// The seed author's published figure for a step, quoted as theirs: "2.78 ms, 6.0 GB/s on a G80
// (2^22 ints)" with its source ("seed 003").
struct SeedFigure {
    std::string text_en;
    std::string text_zh;
    std::string source;
    bool empty() const { return text_en.empty(); }
};
using AttributesFn = std::function<KernelAttributes(const ParamValues&)>;

// The part of a lesson that runs: attached by the GPU library where it is linked (GPU
// steps), or declared with the lesson (CPU steps).
struct StepRunner {
    StepFactory make;
    AttributesFn attributes;  // GPU steps with a kernel of their own
    // Why the step cannot run in this process although the GPU can (a library it loads at
    // run time is missing: "unavailable: NCCL not found ..."); null or empty: it can.
    std::function<std::string()> unavailable;
    // A step that runs as several processes (one per GPU): what one of them runs, started by the
    // step as `cuda-lessons-cli rank LESSON ARGS...` with the arguments after the lesson here;
    // it answers its starter's requests on standard input and output and returns the exit
    // status. Null for steps that run in one process.
    std::function<int(const std::vector<std::string>& args)> rank;
};

// A parameter a student's exercise kernel fixes: a step whose kernel is a template (a tile, an
// ablation toggle) is written for one of its choices, and runs only at it.
struct ExerciseParam {
    std::string name;   // "tile", "addressing"
    std::string value;  // one of the lesson's choices
};

// What a row says about its exercise, when its kernel is a template: the rest (the starting file,
// the task, the hints, the kernel's name) is found by the lesson's slug (lessons/exercise.h).
struct ExerciseDecl {
    // The choices the student's kernel is written for: a run of the student's kernel is made at
    // these, and so is the step's own run it is compared with.
    std::vector<ExerciseParam> fixed = {};
    // The declarations that stand for the kernel's template parameters in the solution
    // ("constexpr Addressing kAddressing = Addressing::kInterleaved;"), so the solution is the
    // plain kernel a student writes, at the `fixed` choices.
    std::string instance = {};
};

struct Lesson {
    // The lesson's position in the catalogue (1, 2, ...), from the order of the chapters and of
    // their rows: a handle within one process, never typed, shown or stored (show `label`, store
    // `id`).
    int number = 0;
    std::string label;    // "5.8": the chapter's number and the row's place in it, as shown
    int was = 0;          // the global number it had before chapters numbered their own lessons
                          // (scripts and recorded results written before); 0 for later ones
    std::string id;       // "split/one-thread-per-pair": menu, legend, CLI, CSV, tests
    std::string chapter;  // chapter id
    std::string title;
    std::string title_zh;
    StepKind kind = StepKind::kCpu;
    bool library = false;     // a library call (CUB, cuBLAS): the library picks its launch
    int previous = 0;         // lesson plotted against this one (its `number`); 0 for none
    std::string source_path;  // the step's file, e.g. "kernels/split/one-thread-per-pair.cu"
    std::string_view source;  // its contents (embedded at build time)
    // The key of the sources its kernel was compiled from in this build (the recorded SASS's
    // key, cmake/MachineCodeScript.cmake); results carry it, so a recording taken from other
    // sources is known to be stale. Empty where the build has none.
    std::string source_key;
    // Its texts, links to other lessons ("[[gemm/double-buffering]]") rendered with their
    // current numbers (lessons/text_links.cpp).
    std::string text_en;
    std::string text_zh;
    // The chapter's folder of texts ("lessons/03_reduction"): its texts, and its exercise's
    // files (exercises/<slug>.cu, .en.md, .zh.md), are found there by the lesson's slug.
    std::string folder;
    ExerciseDecl exercise;  // the row's word on its exercise (a template kernel's instance)
    // The lesson's own parameters first, then its chapter's (added by Registry::AddLesson).
    std::vector<ParamSpec> params;
    std::function<MemoryNeeds(const ParamValues&)> needs;
    StepDecl step;         // how a GPU step runs (its kind's data); empty for CPU steps
    StepRunner runner;     // runner.make is null when this build cannot run the step
    WorkFn work;           // the work at a parameter set (EstimateWork); null: not declared
    InFlightFn in_flight;  // bytes in flight per thread (GPU steps); null: not declared
    SeedFigure seed;       // the seed author's figure for this step, when there is one
    // The instruction classes the step is about (highlighted and counted in the code view,
    // and what its profile measures); empty: the global loads and stores.
    std::vector<std::string> focus;

    const ParamSpec* FindParam(std::string_view name) const;
    // "lesson 5.8 (gemm/double-buffering)": how messages name it.
    std::string Name() const;
    // The id it had before chapters numbered their own lessons ("reduce/23-v3-unrolled-last-warp"),
    // as recorded results and scripts of that time name it; empty when `was` is 0.
    std::string OldId() const;
};

struct Chapter {
    int number = 0;
    std::string id;  // "split"
    std::string title;
    std::string title_zh;
    std::string work_rule;  // how the work is counted, in words
    // The data's parameters, shared by every lesson of the chapter (size, data kind, ...).
    std::vector<ParamSpec> params;
    bool accepts_input_file = false;
    std::function<std::shared_ptr<Workload>(const WorkloadSpec&)> make_workload;
    // Host memory the workload itself takes (input + reference), checked before generating.
    // Throws UsageError when the figure would overflow.
    std::function<uint64_t(const ParamValues&)> workload_host_bytes;
    // With an input file: the parameter values the file stands for (split: its size).
    std::function<ParamValues(uint64_t file_bytes)> params_of_file;
    // A short description of a data set for tables: "64.0 MiB of random data".
    std::function<std::string(const ParamValues&)> describe;
    // The work a step of this kind does at a parameter set, without running it (lessons may
    // declare their own instead).
    std::function<Work(StepKind, const ParamValues&)> work;
    // Its lesson pages draw the whole roofline (every chapter's results under this GPU's
    // roofs) in place of the small inset every other GPU lesson shows.
    bool whole_roofline = false;
    // Its lessons are independent experiments (each compares variants of its own parameter),
    // not a ladder of steps: charts draw each on its own axis, in its own unit, and nothing
    // computes a speed-up from one lesson to the next.
    bool independent_steps = false;
    // A model fitted to a size sweep of one of its lessons: (bytes, median ms) points and the
    // run's parameters in, a line in each language out ("alpha = 4.1 us, beta = 310 GB/s ...");
    // empty lines when the points do not determine it (with why). Null: no model to fit.
    struct Fit {
        std::string en, zh;
    };
    std::function<Fit(const std::vector<std::pair<uint64_t, double>>& points,
                      const ParamValues& params)>
        size_fit;
    // The forms of the messages its checks say (Check::Fail), in both languages: every front end
    // that links the catalogue finds them by id (Registry::AddChapter registers them).
    std::vector<MessageForm> messages;
    // The timed parts its steps report beyond every chapter's h2d, d2h, kernel and peer
    // ("broadcast", "reduce-scatter"), named in both languages for charts and tooltips. A part
    // of one GPU or one rank ("gpu1 broadcast", "rank0 nccl") is named from its own.
    struct PartName {
        std::string part, en, zh;
    };
    std::vector<PartName> part_names;
};

// The work `lesson` must do at `params` (every parameter of the lesson, resolved), computed
// without running it: the lesson's own declaration, else its chapter's; nullopt when neither
// declares one.
std::optional<Work> EstimateWork(const Lesson& lesson, const Chapter& chapter,
                                 const ParamValues& params);

}  // namespace lessons
