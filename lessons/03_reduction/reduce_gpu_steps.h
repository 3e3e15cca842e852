// Chapter 3's GPU steps, as the catalogue sees them (no CUDA types).
#pragma once

#include <memory>

#include "lesson.h"

namespace lessons::reduce {

std::unique_ptr<StepInstance> MakeInterleavedGlobal(const Workload& w, const StepConfig& c);
std::unique_ptr<StepInstance> MakeSharedMemory(const Workload& w, const StepConfig& c);
std::unique_ptr<StepInstance> MakeAddDuringLoad(const Workload& w, const StepConfig& c);
std::unique_ptr<StepInstance> MakeSequentialUnrolledWarp(const Workload& w, const StepConfig& c);
std::unique_ptr<StepInstance> MakeWarpShuffle(const Workload& w, const StepConfig& c);
std::unique_ptr<StepInstance> MakeVectorizedOnePass(const Workload& w, const StepConfig& c);
std::unique_ptr<StepInstance> MakeCub(const Workload& w, const StepConfig& c);

KernelAttributes InterleavedGlobalAttributes(int block);
KernelAttributes SharedMemoryAttributes(int block);
KernelAttributes AddDuringLoadAttributes(int block);
KernelAttributes SequentialUnrolledWarpAttributes(int block);
KernelAttributes WarpShuffleAttributes(int block);
KernelAttributes VectorizedOnePassAttributes(int block);

}  // namespace lessons::reduce
