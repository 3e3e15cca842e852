#include <algorithm>
#include <exception>

#include "catalog.h"
#include "device.h"
#include "exercise.h"
#include "exercise_runner.h"
#include "kernel_family.h"
#include "out_of_memory.h"
#include "step_kinds.h"

namespace lessons {

std::vector<std::string> AttachGpuRunners(Registry& registry,
                                          const std::vector<KernelFamily>& families) {
    std::vector<std::string> problems;
    std::vector<Lesson>& lessons = registry.mutable_lessons();
    for (Lesson& l : lessons) {
        if (l.kind != StepKind::kGpu) continue;
        auto impl = StepKindImpls().find(l.step.type());
        if (impl == StepKindImpls().end()) {
            problems.push_back(l.Name() + ": the GPU library implements no step kind '" +
                               l.step.type().name() + "'");
            continue;
        }
        const Lesson* previous = registry.FindLesson(l.previous);
        try {
            l.runner = impl->second(l.step.data(), StepSite{l, previous});
        } catch (const std::exception& e) {
            RethrowIfOutOfMemory(e, "build the lesson catalogue");  // not a catalogue problem
            problems.push_back(l.Name() + ": " + e.what());
        }
    }
    // A kernel file whose kernels no lesson launches is declared by no row.
    for (const KernelFamily& f : families) {
        const bool named = std::any_of(lessons.begin(), lessons.end(), [&](const Lesson& l) {
            return SameSourceFile(f.file, l.source_path);
        });
        if (!named)
            problems.push_back("'" + f.file +
                               "' registers kernels, and no lesson names it as its source");
    }
    return problems;
}

namespace {

struct Runnable {
    Registry registry;
    std::vector<std::string> problems;
};

const Runnable& Get() {
    static const Runnable runnable = [] {
        Runnable r;
        r.registry = Catalog();
        if (BuiltWithCuda()) r.problems = AttachGpuRunners(r.registry, KernelFamilies());
        for (std::string& p : r.registry.Validate(BuiltWithCuda())) r.problems.push_back(p);
        // The exercises are found from the rows: checked with the rest of the catalogue.
        for (std::string& p : ExerciseProblems(r.registry)) r.problems.push_back(p);
        for (std::string& p : ExerciseKindProblems(r.registry)) r.problems.push_back(p);
        return r;
    }();
    return runnable;
}

}  // namespace

const Registry& RunnableCatalog() {
    return Get().registry;
}
const std::vector<std::string>& RunnableCatalogProblems() {
    return Get().problems;
}

}  // namespace lessons
