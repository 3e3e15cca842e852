// What chapter 1's two harnesses share about launching a kernel of kernels/split/: which of a
// file's kernels a step runs, the checks before a launch, and a runner that makes the step and
// reports the kernel's attributes (split_harness.cu implements them).
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "lesson.h"
#include "split/split_gpu.cuh"

namespace lessons::split {

// The kernel a step launches at a parameter set.
using PickKernel = std::function<const SplitKernel&(const ParamValues&)>;

// The kernel `lesson` launches from `kernels`: where they are variants by toggles, the one that
// implements the chosen values (every combination is checked to have exactly one, now); else
// the only one. Throws std::logic_error for a declaration mistake.
PickKernel KernelByToggle(const Lesson& lesson, const std::vector<const SplitKernel*>& kernels);

// The kernel as written, among a file's kernels: its only one, or the one that implements
// every toggle's first choice (today's kernel, split_toggles.h); it must scan ranges
// (SplitKernel::launch_range), for the steps that cut the text up. Throws std::logic_error.
const SplitKernel& RangeKernelAsWritten(const std::vector<const SplitKernel*>& kernels);

// Checks the block and the grid for n bytes against the kernel's and the GPU's limits.
void CheckLaunch(const SplitKernel& k, uint64_t n, int block);

// Sets up a step that launches `kernel` with `block` threads (already checked).
using MakeKernelStep = std::function<std::unique_ptr<StepInstance>(
    const Workload& w, const StepContext& c, const SplitKernel& kernel, int block)>;

// A runner whose step launches the picked kernel: the launch checked before the step is made,
// the kernel's attributes reported at a block size.
StepRunner LaunchRunner(PickKernel pick, MakeKernelStep make);

}  // namespace lessons::split
