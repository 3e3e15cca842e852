#include "exercise_runner.h"

#include <exception>
#include <optional>
#include <string>

#include "errors.h"
#include "exercise.h"
#include "out_of_memory.h"

namespace lessons {
namespace {

constexpr const char* kNoStudentKernel = "its step's harness takes no student kernel yet";

}  // namespace

Lesson WithStudentKernel(const Registry& registry, const Lesson& lesson,
                         std::shared_ptr<const StudentKernel> kernel) {
    if (lesson.kind != StepKind::kGpu || lesson.library)
        throw UsageError(lesson.Name() +
                         " is not a hand-written GPU step: there is no kernel "
                         "of yours to run in its place");
    const ExerciseKindImpl& impl =
        KindImplOf<ExerciseKindImpl>(lesson, "this build cannot run your kernel", kNoStudentKernel);
    Lesson copy = lesson;
    // A kernel written for one template instance runs only at its choices: the copy offers
    // no other (a run asking for another is refused, naming the one it takes).
    for (const ExerciseParam& f : lesson.exercise.fixed)
        for (ParamSpec& p : copy.params)
            if (p.name == f.name) {
                p.choices = {f.value};
                p.choice_notes.clear();
                p.choice_notes_zh.clear();
                p.default_value = ParamValue::Choice(f.value);
                p.why = "your kernel is written for " + f.name + "=" + f.value;
            }
    copy.title = lesson.title + " (your kernel)";
    copy.title_zh = lesson.title_zh + "（你的 kernel）";
    try {
        copy.runner =
            impl.make(lesson.step.data(), StepSite{lesson, registry.FindLesson(lesson.previous)},
                      std::move(kernel));
    } catch (const std::logic_error& e) {
        throw UnavailableError("cannot run your kernel for " + lesson.Name() + ": " + e.what());
    }
    return copy;
}

KernelSpec ExerciseKernelSpec(const Registry& registry, const Lesson& lesson,
                              const std::string& kernel_name) {
    const ExerciseKindImpl& impl = KindImplOf<ExerciseKindImpl>(
        lesson, "this build cannot compile your kernel", kNoStudentKernel);
    KernelSpec spec;
    try {
        spec =
            impl.spec(lesson.step.data(), StepSite{lesson, registry.FindLesson(lesson.previous)});
    } catch (const std::logic_error& e) {
        throw UnavailableError("cannot compile your kernel for " + lesson.Name() + ": " + e.what());
    }
    spec.kernel = kernel_name;
    return spec;
}

std::vector<std::string> ExerciseKindProblems(const Registry& registry) {
    std::vector<std::string> problems;
    if (StepKindImpls().empty()) return problems;  // built without CUDA
    for (const Lesson& l : registry.lessons()) {
        const std::optional<Exercise> e = ExerciseOf(l, registry, EmbeddedExerciseFiles());
        if (!e) continue;
        try {
            const KernelSpec spec = ExerciseKernelSpec(registry, l, e->kernel);
            if (spec.signature.empty())
                problems.push_back("the exercise of " + l.Name() +
                                   ": its step kind's exercise spec gives no signature");
        } catch (const std::exception& error) {
            RethrowIfOutOfMemory(error, "build the lesson catalogue");
            problems.push_back("the exercise of " + l.Name() + ": " + error.what());
        }
    }
    return problems;
}

}  // namespace lessons
