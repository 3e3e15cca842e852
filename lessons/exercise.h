// Exercises: write a step's kernel yourself. An exercise belongs to one hand-written GPU step and
// is found from its row, as its texts are, by the lesson's slug in its chapter's folder:
//   lessons/NN_<chapter>/exercises/<slug>.cu     the starting file (the previous step's kernel, or
//                                                a skeleton with the signature the harness
//                                                launches)
//   lessons/NN_<chapter>/exercises/<slug>.en.md  the task and hints (ExerciseText), rendered with
//   lessons/NN_<chapter>/exercises/<slug>.zh.md  [[links]] as the lesson's own texts are
// The lesson's own kernel is the reference solution (SolutionOf), and the kernel's name is the
// __global__ function that solution defines. A row whose kernel is a template says which
// instance the student writes (LessonRow::exercise). How the kernel is compiled and launched
// (its parameter types, the prelude NVRTC needs) belongs to the step kind's exercise
// implementation (engine/exercise_kinds.h; ExerciseKernelSpec in exercise_runner.h).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "registry.h"
#include "text_links.h"

namespace lessons {

struct ExerciseHint {
    std::string en;
    std::string zh;
};

struct Exercise {
    std::string lesson;  // the lesson's id: "gemv/warp-per-row"
    // The __global__ function's name, read from the lesson's own source: its only kernel, or the
    // templated one that the row's instance stands in for (a source may add another kernel, such
    // as a second pass's, which the exercise does not ask for).
    std::string kernel;
    std::string start;  // the starting file's path: "lessons/04_gemv/exercises/warp-per-row.cu"
    std::string task_en;
    std::string task_zh;
    std::vector<ExerciseHint> hints;        // revealed one at a time
    std::vector<ExerciseParam> fixed = {};  // from the row (ExerciseDecl)
    std::string instance = {};              // from the row (ExerciseDecl)
};

// Reads a file of the catalogue by its path from the repository root ("" when there is none):
// EmbeddedFile in the program; a test gives its own.
using ExerciseFileReader = std::function<std::string_view(const std::string& path)>;
const ExerciseFileReader& EmbeddedExerciseFiles();

// The paths of a lesson's exercise files, by its folder and slug.
std::string ExerciseStartPath(const Lesson& lesson);
std::string ExerciseTextPath(const Lesson& lesson, TextLanguage language);

// A task text split in its parts. The format of exercises/<slug>.en.md and .zh.md: the first
// line is a level-1 heading (its words are free: "# Task", "# 任务"); the text up to the first
// level-2 heading is the task; each level-2 heading ("## Hint 1", "## 提示 1") opens one hint,
// which runs to the next. Blank lines around a part are dropped. `problem` says what is wrong
// (no heading first, no task, a level-1 heading later on); empty when all is well.
struct ExerciseText {
    std::string task;
    std::vector<std::string> hints;
    std::string problem;
};
ExerciseText ParseExerciseText(std::string_view text);

// The exercise of `lesson` from its files, links rendered with `registry`'s numbers, or nullopt
// when the lesson has no starting file. What is wrong with it is appended to `problems` (when
// given): a CPU or library step with a starting file, a text missing or malformed, a task or hint
// missing in a language, fewer than two hints or more than three, a broken link, a solution that
// cannot be extracted, a source that defines no kernel or several, a fixed parameter the lesson
// does not offer.
std::optional<Exercise> ExerciseOf(const Lesson& lesson, const Registry& registry,
                                   const ExerciseFileReader& read,
                                   std::vector<std::string>* problems = nullptr);

// Every exercise of the catalogue (Catalog()), in the catalogue's order.
const std::vector<Exercise>& Exercises();
// The exercise of a lesson (by id), or null.
const Exercise* FindExercise(std::string_view lesson_id);

// Empty when `given` (a run's parameters, by name, as text) agrees with the choices the
// exercise fixes (an unset one takes the fixed choice); else why the run is refused, naming them.
std::string FixedParamsConflict(const Exercise& exercise, const RawParams& given);

// The starting file's contents (embedded), or an empty view when it is missing.
std::string_view StartingFile(const Exercise& exercise);

// A starting file that would pass the check as it stands (its step's one change makes too little
// difference in time for the speed target to tell: 10.8's turns) is held back by a line at column
// 0, `#error "exercise N.M: what to write, then delete this line"`, so that it does not compile
// until the student has written the change. That line's message (between its quotes), or "" where
// the start has none.
std::string HeldBack(std::string_view start);

// The reference solution: the device code of the lesson's own kernel file, i.e. its text before
// the anonymous namespace that holds the launch, without its #include lines, its
// `namespace lessons::...` line, the lines of an anonymous namespace that holds device helpers
// before the kernel, and any host function defined there (a line at column 0 that
// opens a definition without __global__ or __device__, up to its closing brace at column 0): the
// kernel then stands at global scope, as a student's does. When the lesson's row gives an
// exercise `instance`, the template header of its first templated __global__ kernel is
// replaced by that line, so the kernel is the plain one the exercise asks for.
// Throws std::logic_error when the file has no such part.
std::string SolutionOf(const Lesson& lesson);

// For a step kind's exercise prelude (NVRTC has no standard headers): the declarations of an
// embedded header (`path` from the repository root) that start with one of `starts` at column 0
// ("enum class", "struct TcProblem"), each up to its line that closes it ("};", or the line
// itself when it ends with ";"), so a type is named once, in its header. Throws
// std::logic_error when the header is not embedded or declares none.
std::string EmbeddedDeclarations(const std::string& path, const std::vector<std::string>& starts);
// An embedded header without its #include and #pragma once lines (a header of device helpers the
// student's kernel may call). Throws std::logic_error when it is not embedded.
std::string EmbeddedHeaderBody(const std::string& path);
// The lines of an embedded header from the first that starts with `from` at column 0 to the first
// after it that starts with `to`, both kept (a device part of a header that also holds host code:
// tc_hopper.cuh's from "inline constexpr int kHopperBk" to "#endif  // __CUDA_ARCH__"). Throws
// std::logic_error, naming `why` (what the part is for), when the header is not embedded or
// either line is missing.
std::string EmbeddedPart(const std::string& path, std::string_view from, std::string_view to,
                         std::string_view why);
// NVRTC has no <cstdint>: the fixed-width types the kernels' parameters use, as on the host
// (Linux x86-64 and aarch64).
inline constexpr const char* kNvrtcIntegers =
    "typedef unsigned char uint8_t;\n"
    "typedef unsigned short uint16_t;\n"
    "typedef unsigned int uint32_t;\n"
    "typedef unsigned long uint64_t;\n";

// What is wrong with the catalogue's exercises (ExerciseOf's problems, for every lesson of
// `registry`). Empty when all is well. The runnable catalogue reports them at start with its
// other problems (RunnableCatalogProblems).
std::vector<std::string> ExerciseProblems(const Registry& registry);

}  // namespace lessons
