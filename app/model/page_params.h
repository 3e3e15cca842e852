// The lesson page's settings as named parameters: one text value per parameter name, kept
// while the student moves between lessons (a block size of 512 stays where the next lesson
// accepts it; elsewhere that lesson's default is shown). Everything here is pure: the
// controls, the requests and the charts' matching are all built from a lesson's ParamSpecs,
// so a new chapter needs no GUI code for its settings.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "registry.h"
#include "result.h"

namespace lessons::app {

// The settings a run is made with (the lesson page's controls).
struct RunSettings {
    // By parameter name, typed: kept across lessons, so a lesson whose parameter of that name
    // takes another range fits the value to it (ParamSpec::Fit).
    std::map<std::string, ParamValue> params;
    bool cold_l2 = false;
};

void SetParam(RunSettings* settings, const std::string& name, const ParamValue& value);
// `settings` with the choices the lesson's exercise fixes (the template instance a student's
// kernel is written for, exercise.h): what a run of the student's kernel, and of the step it is
// compared with, is made at. Unchanged for a lesson without an exercise or fixed choices.
RunSettings AtExerciseChoices(const Lesson& lesson, RunSettings settings);

// The value of `spec` on this page: the kept value when the parameter accepts it (a number that
// is not a whole multiple of its step is rounded down to one), else its default; the engine's
// one resolution (lessons::ResolveParams, Unaccepted::kFit).
ParamValue ResolveParam(const ParamSpec& spec, const RunSettings& settings);
ParamValues ResolveParams(const std::vector<ParamSpec>& specs, const RunSettings& settings);
// The chapter's own parameters (size, data, ...): what results are matched by.
ParamValues ChapterValues(const Chapter& chapter, const RunSettings& settings);
// Writes the resolved value of each of the lesson's parameters back into the settings (after
// selecting a lesson: the controls then show what the lesson really runs with).
void KeepParams(const Lesson& lesson, RunSettings* settings);

// The lesson's parameters that are not its chapter's (block, threads, a tile configuration).
std::vector<ParamSpec> OwnParams(const Registry& registry, const Lesson& lesson);
// The parameter that sets the shape of the lesson's launch (ParamSpec::launch_shape: a block
// size, or a tile configuration that fixes the block); null for a library or CPU step.
const ParamSpec* LaunchShapeParam(const Lesson& lesson);
// The launch-shape parameter when it is a number of threads per block: what a block sweep
// runs along and what sets a block's threads; null when the launch shape is a choice (a tile)
// or there is none.
const ParamSpec* BlockSizeParam(const Lesson& lesson);
// The number of GPUs the lesson uses (ParamSpec::gpu_count); null for a one-GPU step.
const ParamSpec* GpuCountParam(const Lesson& lesson);
// The size of the lesson's data in bytes (its chapter's parameter of type kBytes): what a size
// sweep runs along; null when the data is not sized in bytes (matrix dimensions).
const ParamSpec* DataSizeParam(const Lesson& lesson);
// Whether `result` was run with each of `values` (other parameters are not compared).
bool MatchesParams(const RunResult& result, const ParamValues& values);
// "1 GiB, random": the values of `specs` found in `values`, formatted by their specs.
// In Chinese, each with its Chinese label and choice name ("线程块大小 256，每次加载的宽度：标量").
std::string DescribeParams(const std::vector<ParamSpec>& specs, const ParamValues& values,
                           const std::string& language = "en");
// The parameter's label in `language` ("zh": Chinese, else English).
const char* Label(const ParamSpec& spec, const std::string& language);

// How a parameter is shown on the page.
enum class ControlKind {
    kValues,  // a slider over the few accepted values (block sizes)
    kInt,     // an integer slider (threads, a GPU count)
    kLog,     // a log slider snapping to powers of two and halves (data and matrix sizes)
    kCombo,   // a choice, with its notes as tooltips
};
ControlKind ControlFor(const ParamSpec& spec);

// kInt: the slider's range. A parameter with a run-time default (threads) goes up to twice it.
std::pair<uint64_t, uint64_t> IntRange(const ParamSpec& spec);

// kLog: the slider's lower end (1 KiB for sizes in bytes, else the smallest accepted value).
uint64_t LogMin(const ParamSpec& spec);
// kLog: the value a slider position 2^log2_value stands for: powers of two and the halves
// between them, rounded down to a whole number of `step`, within [LogMin, cap].
uint64_t SnapLog(const ParamSpec& spec, double log2_value, uint64_t cap);

// kLog: the largest power of two (at most the spec's max; 64 GiB for bytes) whose memory this
// lesson fits in: the chapter's workload and the lesson's needs against `host_bytes`, and GPU
// needs against `device_bytes` (0: unknown). `why` says what limits it.
uint64_t LogCap(const Registry& registry, const Lesson& lesson, const ParamSpec& spec,
                const RunSettings& settings, uint64_t host_bytes, uint64_t device_bytes,
                std::string* why);

}  // namespace lessons::app
