// A student's kernel run in place of a step's own (an exercise): a step kind's implementation
// may also say how to launch a compiled kernel with the step's harness (the same data, check,
// grid and timing). Registered beside the step kind in the chapter's harness with
// LESSONS_EXERCISE_KIND; a kind without one cannot run students' kernels yet.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <typeindex>
#include <typeinfo>
#include <utility>

#include "step_kinds.h"

namespace lessons {

// A kernel compiled by NVRTC (kernel_compile.h) for this GPU.
struct StudentKernel {
    std::string name;          // the __global__ function's name in the source ("gemv_..._kernel")
    std::string lowered_name;  // its symbol in the CUBIN
    std::string cubin;         // the CUBIN (an ELF image), for the GPU it runs on
};

using ExerciseKindImpl = std::function<StepRunner(const void* kind, const StepSite& site,
                                                  std::shared_ptr<const StudentKernel> kernel)>;

inline std::map<std::type_index, ExerciseKindImpl>& ExerciseKindImpls() {
    static std::map<std::type_index, ExerciseKindImpl> impls;
    return impls;
}

template <class Kind>
struct ExerciseKindRegistration {
    explicit ExerciseKindRegistration(
        std::function<StepRunner(const Kind&, const StepSite&,
                                 std::shared_ptr<const StudentKernel>)>
            make) {
        ExerciseKindImpls()[std::type_index(typeid(Kind))] =
            [make = std::move(make)](const void* kind, const StepSite& site,
                                     std::shared_ptr<const StudentKernel> kernel) {
                return make(*static_cast<const Kind*>(kind), site, std::move(kernel));
            };
    }
};

// In a harness (.cu): LESSONS_EXERCISE_KIND(gemv::Kernel, [](const gemv::Kernel&, const
// StepSite& s, std::shared_ptr<const StudentKernel> k) { ... return runner; });
#define LESSONS_EXERCISE_KIND(Kind, ...)                                          \
    static const ::lessons::ExerciseKindRegistration<Kind> LESSONS_STEP_KIND_CAT( \
        lessons_exercise_kind_, __LINE__) {                                       \
        __VA_ARGS__                                                               \
    }

}  // namespace lessons
