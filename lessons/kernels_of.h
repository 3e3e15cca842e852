// What a step kind's implementation asks for its lesson's kernels: the descriptors of type T
// that the lesson's source file registered (LESSONS_KERNELS), or the previous lesson's, for a
// step that launches the kernel of the step before it. A missing kernel is a mistake in the
// declarations: std::logic_error, which the runnable catalogue reports at start.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "kernel_family.h"
#include "step_kinds.h"

namespace lessons {

enum class KernelsFrom { kOwnSource, kPreviousLesson };

template <class T>
std::vector<const T*> KernelsOf(const StepSite& site, KernelsFrom from = KernelsFrom::kOwnSource) {
    const Lesson* lesson = &site.lesson;
    if (from == KernelsFrom::kPreviousLesson) {
        if (!site.previous)
            throw std::logic_error(
                "its step kind launches the previous lesson's kernel, and it "
                "has no previous lesson");
        lesson = site.previous;
    }
    std::vector<const T*> found = FindKernels<T>(lesson->source_path);
    if (found.empty())
        throw std::logic_error("'" + lesson->source_path +
                               "' registers no kernel of the kind its step launches "
                               "(LESSONS_KERNELS at the end of the file)");
    return found;
}

// Exactly one kernel.
template <class T>
const T& OnlyKernel(const StepSite& site, KernelsFrom from = KernelsFrom::kOwnSource) {
    const std::vector<const T*> found = KernelsOf<T>(site, from);
    if (found.size() != 1)
        throw std::logic_error("its source registers " + std::to_string(found.size()) +
                               " kernels where its step launches one");
    return *found.front();
}

}  // namespace lessons
