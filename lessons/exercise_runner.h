// A lesson with a student's compiled kernel in place of its step's own (exercise.h), run by the
// step's harness where this build has one for the step's kind (exercise_kinds.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "exercise_kinds.h"
#include "registry.h"

namespace lessons {

// A copy of `lesson` whose runner launches `kernel` with the step's harness; its title says it
// is the student's; the parameters its exercise fixes offer only the fixed choice. Throws
// UnavailableError when this build cannot run it (no CUDA, or no harness for students' kernels of
// this step's kind).
Lesson WithStudentKernel(const Registry& registry, const Lesson& lesson,
                         std::shared_ptr<const StudentKernel> kernel);

// How a student's kernel for `lesson`'s exercise is compiled: its step kind's exercise spec
// (signature, prelude, includes, architecture) with the kernel's name read from the lesson's own
// source (`kernel_name`, Exercise::kernel). Throws UnavailableError when this build has no
// exercise implementation for the step's kind (no CUDA, or a kind that takes no student kernel).
KernelSpec ExerciseKernelSpec(const Registry& registry, const Lesson& lesson,
                              const std::string& kernel_name);

// What is wrong with the exercises where this build runs them: an exercise whose step kind has no
// exercise implementation, or whose spec names no signature. Empty without CUDA.
std::vector<std::string> ExerciseKindProblems(const Registry& registry);

}  // namespace lessons
