// Chapter 1's ablation toggle: it switches off one idea of a step, so that a sweep over it
// measures that idea's share. Named once, here: lesson 10 offers these names as its choices
// (lessons.cpp, today's kernel first: the default), and split_gpu.cuh exports a kernel for
// each. No CUDA: the catalogue reads it.
#pragma once

#include <array>

namespace lessons::split {

// Lesson 10: how the offsets found reach global memory.
enum class Output { kBlock, kPerHit };
inline constexpr std::array<const char*, 2> kOutputNames{"block", "per-hit"};

}  // namespace lessons::split
