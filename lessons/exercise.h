// Exercises: write a step's kernel yourself. An exercise belongs to one hand-written GPU step:
// a starting file (the previous step's kernel, or a skeleton with the signature the harness
// launches), a task in both languages, hints, and the lesson's own kernel as the reference
// solution. Declared as data in the chapter's folder (lessons/NN_<chapter>/exercises.cpp, with
// the starting files in exercises/, embedded); compiled with kernel_compile.h.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "kernel_compile.h"
#include "registry.h"

namespace lessons {

struct ExerciseHint {
    std::string en;
    std::string zh;
};

// A parameter a student's kernel fixes: a step whose kernel is a template (a tile, an ablation
// toggle) is written for one of its choices, and runs only at it.
struct ExerciseParam {
    std::string name;   // "tile", "addressing"
    std::string value;  // one of the lesson's choices
};

struct Exercise {
    std::string lesson;  // the lesson's id: "gemv/warp-per-row"
    KernelSpec kernel;   // the kernel's name and signature, allowed includes, extra options
    std::string start;   // the starting file's path: "lessons/04_gemv/exercises/warp-per-row.cu"
    std::string task_en;
    std::string task_zh;
    std::vector<ExerciseHint> hints;  // revealed one at a time
    // The choices the student's kernel is written for (the lesson's parameters that pick a
    // template instance of its kernel): a run of the student's kernel is made at these, and so
    // is the step's own run it is compared with.
    std::vector<ExerciseParam> fixed = {};
    // For a lesson whose kernel is a template: the declarations that stand for its template
    // parameters in the solution ("constexpr Addressing kAddressing = Addressing::kSequential;"),
    // so the solution is the plain kernel a student writes, at the `fixed` choices.
    std::string instance = {};
};

// Every exercise of the catalogue, chapter by chapter.
const std::vector<Exercise>& Exercises();
// The exercise of a lesson (by id), or null.
const Exercise* FindExercise(std::string_view lesson_id);

// The chapters' declarations (lessons/NN_<chapter>/exercises.cpp).
std::vector<Exercise> SplitExercises();
std::vector<Exercise> BasicsExercises();
std::vector<Exercise> ReduceExercises();
std::vector<Exercise> GemvExercises();
std::vector<Exercise> GemmExercises();
std::vector<Exercise> TcExercises();

// Empty when `given` (a run's parameters, by name, as text) agrees with the choices the
// exercise fixes (an unset one takes the fixed choice); else why the run is refused, naming them.
std::string FixedParamsConflict(const Exercise& exercise, const RawParams& given);

// The starting file's contents (embedded), or an empty view when it is missing.
std::string_view StartingFile(const Exercise& exercise);

// The reference solution: the device code of the lesson's own kernel file, i.e. its text before
// the anonymous namespace that holds the launch, without its #include lines, its
// `namespace lessons::...` line, the lines of an anonymous namespace that holds device helpers
// before the kernel, and any host function defined there (a line at column 0 that
// opens a definition without __global__ or __device__, up to its closing brace at column 0): the
// kernel then stands at global scope, as a student's does. When the lesson has an exercise
// whose `instance` is set, the template header of its first templated __global__ kernel is
// replaced by that line, so the kernel is the plain one the exercise asks for.
// Throws std::logic_error when the file has no such part.
std::string SolutionOf(const Lesson& lesson);

// What is wrong with the exercises' declarations: an exercise naming no lesson, or a CPU one,
// two exercises for one lesson, a starting file not embedded, a task or hint missing in a
// language, fewer than two hints, a solution that cannot be extracted, a templated kernel
// without an instance, a fixed parameter the lesson does not offer. Empty when all is well.
std::vector<std::string> ExerciseProblems(const Registry& registry);

}  // namespace lessons
