// Chapter 1's GPU steps, as the catalogue sees them (no CUDA types: the declarations are
// compiled into builds without CUDA too, where they are never called).
#pragma once

#include <memory>

#include "lesson.h"

namespace lessons::split {

std::unique_ptr<StepInstance> MakeOneThreadPerPair(const Workload& w, const StepConfig& c);  // 4
std::unique_ptr<StepInstance> MakePinned(const Workload& w, const StepConfig& c);            // 5
std::unique_ptr<StepInstance> MakeBranchFree(const Workload& w, const StepConfig& c);        // 6
std::unique_ptr<StepInstance> MakeSharedMemory(const Workload& w, const StepConfig& c);      // 7
std::unique_ptr<StepInstance> MakeFourBytes(const Workload& w, const StepConfig& c);         // 8
std::unique_ptr<StepInstance> MakeThrust(const Workload& w, const StepConfig& c);            // 9
std::unique_ptr<StepInstance> MakeVectorWarp(const Workload& w, const StepConfig& c);        // 10
std::unique_ptr<StepInstance> MakeOverlapped(const Workload& w, const StepConfig& c);        // 11

KernelAttributes OneThreadPerPairAttributes(int block);
KernelAttributes BranchFreeAttributes(int block);
KernelAttributes SharedMemoryAttributes(int block);
KernelAttributes FourBytesAttributes(int block);
KernelAttributes VectorWarpAttributes(int block);

}  // namespace lessons::split
