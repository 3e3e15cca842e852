#include "exercise_runner.h"

#include <exception>
#include <string>

#include "errors.h"

namespace lessons {

Lesson WithStudentKernel(const Registry& registry, const Lesson& lesson,
                         std::shared_ptr<const StudentKernel> kernel) {
    if (lesson.kind != StepKind::kGpu || lesson.library)
        throw UsageError(lesson.Name() +
                         " is not a hand-written GPU step: there is no kernel "
                         "of yours to run in its place");
    const auto impl = ExerciseKindImpls().find(lesson.step.type());
    if (impl == ExerciseKindImpls().end())
        throw UnavailableError("this build cannot run your kernel for " + lesson.Name() +
                               (StepKindImpls().empty()
                                    ? ": it was built without CUDA"
                                    : ": its step's harness takes no student kernel yet"));
    Lesson copy = lesson;
    copy.title = lesson.title + " (your kernel)";
    copy.title_zh = lesson.title_zh + "（你的 kernel）";
    try {
        copy.runner =
            impl->second(lesson.step.data(), StepSite{lesson, registry.FindLesson(lesson.previous)},
                         std::move(kernel));
    } catch (const std::logic_error& e) {
        throw UnavailableError("cannot run your kernel for " + lesson.Name() + ": " + e.what());
    }
    return copy;
}

}  // namespace lessons
