// Chapter 1's ablation toggle: it switches off one idea of a step, so that a sweep over it
// measures that idea's share. Named once, here: the vector-loads step offers these names as its
// choices (lessons.cpp, today's kernel first: the default), and its kernel file registers a
// kernel for each, naming the choice it implements (SplitKernel::output). No CUDA: the
// catalogue reads it.
#pragma once

#include <array>
#include <cstddef>

namespace lessons::split {

// The vector-loads step: how the offsets found reach global memory.
enum class Output { kBlock, kPerHit };
inline constexpr std::array<const char*, 2> kOutputNames{"block", "per-hit"};
constexpr const char* OutputName(Output output) {
    return kOutputNames[static_cast<size_t>(output)];
}

}  // namespace lessons::split
