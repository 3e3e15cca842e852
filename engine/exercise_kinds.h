// A student's kernel run in place of a step's own (an exercise): a step kind's implementation
// may also say how to compile a student's kernel for it (the parameter types its launch passes,
// the declarations NVRTC needs for them) and how to launch a compiled kernel with the step's
// harness (the same data, check, grid and timing). Registered beside the step kind in the
// chapter's harness with LESSONS_EXERCISE_KIND; a kind without one cannot run students' kernels.
// The kernel's name is not the kind's to say: it is read from the step's own source
// (lessons/exercise.h).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <typeindex>
#include <typeinfo>
#include <utility>

#include "kernel_compile.h"
#include "step_kinds.h"

namespace lessons {

// A kernel compiled by NVRTC (kernel_compile.h) for this GPU.
struct StudentKernel {
    std::string name;          // the __global__ function's name in the source ("gemv_..._kernel")
    std::string lowered_name;  // its symbol in the CUBIN
    std::string cubin;         // the CUBIN (an ELF image), for the GPU it runs on
};

struct ExerciseKindImpl {
    // The compile-time facts of the student's kernel at this step: its signature (the arguments
    // the launch passes, in order), prelude, includes, architecture; `kernel` left empty.
    std::function<KernelSpec(const void* kind, const StepSite& site)> spec;
    // The runner that launches the compiled kernel in place of the step's own.
    std::function<StepRunner(const void* kind, const StepSite& site,
                             std::shared_ptr<const StudentKernel> kernel)>
        make;
};

inline std::map<std::type_index, ExerciseKindImpl>& ExerciseKindImpls() {
    return KindImpls<ExerciseKindImpl>();
}

template <class Kind>
struct ExerciseKindRegistration {
    ExerciseKindRegistration(std::function<KernelSpec(const Kind&, const StepSite&)> spec,
                             std::function<StepRunner(const Kind&, const StepSite&,
                                                      std::shared_ptr<const StudentKernel>)>
                                 make) {
        RegisterKindImpl<Kind>(
            ExerciseKindImpl{ForKindAt(std::move(spec)), ForKindAt(std::move(make))});
    }
};

// In a harness (.cu), the spec first, then the runner:
//   LESSONS_EXERCISE_KIND(gemv::Kernel,
//       [](const gemv::Kernel&, const StepSite& s) { KernelSpec spec; ...; return spec; },
//       [](const gemv::Kernel&, const StepSite& s, std::shared_ptr<const StudentKernel> k) {
//           ...; return runner; });
#define LESSONS_EXERCISE_KIND(Kind, ...)                                          \
    static const ::lessons::ExerciseKindRegistration<Kind> LESSONS_STEP_KIND_CAT( \
        lessons_exercise_kind_, __LINE__) {                                       \
        __VA_ARGS__                                                               \
    }

}  // namespace lessons
