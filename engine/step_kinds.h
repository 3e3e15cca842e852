// The implementations of the step kinds, where the GPU library is linked: each chapter's harness
// registers one per kind, and the runnable catalogue asks them for every GPU lesson's runner.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <typeindex>
#include <typeinfo>
#include <utility>

#include "errors.h"
#include "lesson.h"

namespace lessons {

// Where a step kind's implementation is asked for a runner: the lesson (its source path names
// the kernel file whose kernels it launches) and the lesson before it (a step that reuses the
// previous step's kernels finds them through it).
struct StepSite {
    const Lesson& lesson;
    const Lesson* previous;
};

// `f`, which takes a step kind of type Kind first, as a function of the kind's address: what
// the tables below hold, one entry per kind by the kind's type.
template <class Kind, class R, class... Args>
std::function<R(const void*, Args...)> ForKindAt(std::function<R(const Kind&, Args...)> f) {
    return [f = std::move(f)](const void* kind, Args... args) {
        return f(*static_cast<const Kind*>(kind), std::forward<Args>(args)...);
    };
}

// A table of implementations by the kind's type, one per kind linked into this process: the
// runners below, and what an exercise adds (exercise_kinds.h, exercise_cases.h). `Impl` names
// the table; `Kind`'s entry is set by RegisterKindImpl.
template <class Impl>
std::map<std::type_index, Impl>& KindImpls() {
    static std::map<std::type_index, Impl> impls;
    return impls;
}
template <class Kind, class Impl>
void RegisterKindImpl(Impl impl) {
    KindImpls<Impl>()[std::type_index(typeid(Kind))] = std::move(impl);
}

// Makes a runner; throws std::logic_error naming what is missing (no kernels registered by the
// lesson's source, a tile without its kernel, ...), which the runnable catalogue reports.
using StepKindImpl = std::function<StepRunner(const void* kind, const StepSite& site)>;

// The implementations of the step kinds linked into this process, by the kind's type.
inline std::map<std::type_index, StepKindImpl>& StepKindImpls() {
    return KindImpls<StepKindImpl>();
}

template <class Kind>
struct StepKindRegistration {
    explicit StepKindRegistration(std::function<StepRunner(const Kind&, const StepSite&)> make) {
        RegisterKindImpl<Kind, StepKindImpl>(ForKindAt(std::move(make)));
    }
};

// The entry of `lesson`'s step kind in the table of Impl, or UnavailableError: "<cannot> for
// <lesson>: it was built without CUDA" where no harness is linked in, else ": <missing>".
template <class Impl>
const Impl& KindImplOf(const Lesson& lesson, const std::string& cannot,
                       const std::string& missing) {
    const auto it = KindImpls<Impl>().find(lesson.step.type());
    if (it == KindImpls<Impl>().end())
        throw UnavailableError(
            cannot + " for " + lesson.Name() +
            (StepKindImpls().empty() ? ": it was built without CUDA" : ": " + missing));
    return it->second;
}

#define LESSONS_STEP_KIND_CAT2(a, b) a##b
#define LESSONS_STEP_KIND_CAT(a, b) LESSONS_STEP_KIND_CAT2(a, b)
// In a harness (.cu): LESSONS_STEP_KIND(gemm::Tiled, [](const gemm::Tiled& k, const StepSite& s)
// { ... return runner; });
#define LESSONS_STEP_KIND(Kind, ...)                                                             \
    static const ::lessons::StepKindRegistration<Kind> LESSONS_STEP_KIND_CAT(lessons_step_kind_, \
                                                                             __LINE__) {         \
        __VA_ARGS__                                                                              \
    }

}  // namespace lessons
