// A chapter's lessons as a table: one row per lesson, written with designated initializers.
// Everything else about a lesson follows from its row and its place in the table: its number
// ("5.8"), its id ("gemm/double-buffering"), the lesson it is compared with (the row above unless
// `.previous` names another by slug), its texts ("<folder>/<slug>.en.md", ".zh.md"), and, for a
// GPU step, its runner (its step kind's implementation, over the kernels its source file
// registered).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lesson.h"
#include "registry.h"
#include "resources.h"
#include "step.h"
#include "toggles.h"

namespace lessons {

struct LessonRow {
    const char* slug = "";               // "one-thread-per-pair": the id is "<chapter>/<slug>"
    const char* title = "";              // English; the Chinese title is the Chinese text's heading
    const char* source = "";             // the step's file, relative to the repository root
    StepDecl step = {};                  // a GPU step: its kind and the kind's data
    StepFactory cpu = nullptr;           // a CPU step: what runs it
    std::vector<ParamSpec> params = {};  // the row's own (block, threads, toggles); the kind's and
                                         // the chapter's are added after them
    std::function<MemoryNeeds(const ParamValues&)> needs = nullptr;
    std::vector<std::string> focus = {};  // instruction classes the step is about (code view)
    const char* previous = nullptr;       // compared with this slug's lesson; null: the row
                                          // above (none for the first row); "" none at all
    WorkFn work = nullptr;                // the step's own work rule; null: its kind's or chapter's
    InFlightFn in_flight = nullptr;       // bytes one thread has in flight, for Little's law
    SeedFigure seed = {};                 // the seed author's figure for this step, as theirs
    int was = 0;  // its global number before chapters numbered their own lessons; 0 for new rows
    // Its exercise, when its kernel is a template (the choices and instance the student's kernel
    // is written for). A step has an exercise when <folder>/exercises/<slug>.cu exists.
    ExerciseDecl exercise = {};
};

// An ablation toggle (kernels/toggles.h) as a row's parameter: its choices are the values its
// kernels' variants carry, the lesson as written first, so the default changes nothing;
// `labels_zh` names them in Chinese, in the same order.
template <class Enum, size_t N>
ParamSpec ToggleParam(const Toggle<Enum, N>& toggle, std::string label_en, std::string label_zh,
                      std::vector<std::string> notes, std::vector<std::string> notes_zh,
                      std::vector<std::string> labels_zh) {
    return ChoiceParam(toggle.name, std::move(label_en), std::move(label_zh),
                       std::vector<std::string>(toggle.values.begin(), toggle.values.end()),
                       std::move(notes), std::move(notes_zh), std::move(labels_zh));
}

// A matrix chapter's dimensions, named alike in every chapter: m and n (the rows and columns of
// A), or m, n and k of a product C = A·B; each a MatrixDimension with the chapter's default, its
// limit and the reason for that limit. `then`, the chapter's other parameters, follow them.
enum class MatrixShape { kRowsColumns, kProduct };
std::vector<ParamSpec> MatrixDimensions(MatrixShape shape, uint64_t default_value, uint64_t max,
                                        const std::string& why, std::vector<ParamSpec> then);

// A chapter's heading: its id ("gemm"), its title in each language and its work rule in words;
// the rest of the Chapter is filled in by the chapter's own declaration. A chapter declared by
// its id alone takes the rest of its heading from its texts, beside its lessons' (AddChapter):
// "<folder>/chapter.en.md" is "# <title>" followed by the work rule, which continues "the chapter
// ..." ("reads A once ..."), and "<folder>/chapter.zh.md" is "# <Chinese title>".
inline Chapter NewChapter(std::string id, std::string title = "", std::string title_zh = "",
                          std::string work_rule = "") {
    Chapter chapter;
    chapter.id = std::move(id);
    chapter.title = std::move(title);
    chapter.title_zh = std::move(title_zh);
    chapter.work_rule = std::move(work_rule);
    return chapter;
}

// A chapter's "data" parameter: what its inputs hold, one choice a row: its name ("random",
// "ones", "large", "dense", "none"), what it holds in English and in Chinese. Each name's Chinese
// label is said here once, for every chapter; a name without one has none (a catalogue problem).
struct DataChoice {
    std::string name, note, note_zh;
};
ParamSpec DataParam(const std::vector<DataChoice>& choices);
// The random data of a chapter of float arrays.
inline const DataChoice kUniformFloats = {"random", "floats uniform in [-1, 1)",
                                          "在 [-1, 1) 上均匀分布的浮点数"};

// A product chapter, C = A·B (chapters 5 and 8): m, n and k (4096 by default, at most `max`: the
// kernels and cuBLAS index with int, then `how` edge sizes are handled), its `data`, the product's
// check messages, the host bytes of its workload (`host_bytes(m, n, k)`) and its line
// "m = 4096, n = 4096, k = 4096 (random<element>)". The chapter adds its make_workload.
Chapter ProductChapter(std::string id, uint64_t max, const std::string& how, ParamSpec data,
                       const std::string& element,
                       uint64_t (*host_bytes)(uint64_t m, uint64_t n, uint64_t k));

// A chapter's make_workload: the workload class W built from the spec.
template <class W>
std::shared_ptr<Workload> MakeWorkload(const WorkloadSpec& spec) {
    return std::make_shared<W>(spec);
}

// Pieces of a chapter's `describe`: "16777216 floats (64.0 MiB<then>)" for a chapter of float
// arrays (its "size" in bytes); the size of an m × n matrix of `element_bytes` elements
// ("64.0 MiB", or "too large to count" where it overflows); and a product chapter's whole line,
// "m = 4096, n = 4096, k = 4096 (random<element>)".
std::string FloatsOfSize(const ParamValues& p, const std::string& then);
std::string MatrixSizeText(uint64_t m, uint64_t n, uint64_t element_bytes);
std::string ProductDescription(const ParamValues& p, const std::string& element);

// Bytes in flight per thread that do not depend on the parameters.
inline InFlightFn InFlight(uint64_t bytes) {
    return [bytes](const ParamValues&) { return bytes; };
}

// The title in a text's first line, "# Lesson 4 — Title" or "# Title": what follows the dash
// (or the "# "), without markdown code marks ("Thrust `copy_if`" gives "Thrust copy_if"); empty
// when the line is no heading.
inline std::string HeadingTitle(std::string_view text) {
    const std::string_view line = text.substr(0, text.find('\n'));
    if (line.rfind("# ", 0) != 0) return {};
    const std::string_view dash = "— ";
    const size_t at = line.find(dash);
    const std::string_view rest =
        at == std::string_view::npos ? line.substr(2) : line.substr(at + dash.size());
    std::string title;
    for (char c : rest)
        if (c != '`') title += c;
    return title;
}

// Adds the chapter (numbered after those already added), then each row as a lesson of it.
// Problems a row cannot have at compile time (a `.previous` slug that names no earlier row) are
// found by Registry::Validate().
void AddChapter(Registry& registry, Chapter chapter, const std::string& folder,
                const std::vector<LessonRow>& rows);

// What a chapter's rows take unless a row says otherwise: its step's file is
// "<kernels>/<slug>.cu" (".cpp" for a CPU step), and its memory needs are `needs`.
struct RowDefaults {
    std::string kernels;  // "kernels/gemm"; empty: every row names its source
    std::function<MemoryNeeds(const ParamValues&)> needs = nullptr;
};
void AddChapter(Registry& registry, Chapter chapter, const std::string& folder,
                const RowDefaults& defaults, const std::vector<LessonRow>& rows);

}  // namespace lessons
