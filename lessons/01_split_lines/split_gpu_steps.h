// Chapter 1's GPU steps, as the catalogue sees them (no CUDA types: the declarations are
// compiled into builds without CUDA too, where they are never called).
#pragma once

#include <memory>

#include "lesson.h"

namespace lessons::split {

std::unique_ptr<StepInstance> MakeOneThreadPerPair(const Workload& w, const StepConfig& c);
KernelAttributes OneThreadPerPairAttributes(int block);

}  // namespace lessons::split
