// A lesson with a student's compiled kernel in place of its step's own (exercise.h), run by the
// step's harness where this build has one for the step's kind (exercise_kinds.h).
#pragma once

#include <memory>

#include "exercise_kinds.h"
#include "registry.h"

namespace lessons {

// A copy of `lesson` whose runner launches `kernel` with the step's harness; its title says it
// is the student's; the parameters its exercise fixes offer only the fixed choice. Throws
// UnavailableError when this build cannot run it (no CUDA, or no harness for students' kernels of
// this step's kind).
Lesson WithStudentKernel(const Registry& registry, const Lesson& lesson,
                         std::shared_ptr<const StudentKernel> kernel);

}  // namespace lessons
