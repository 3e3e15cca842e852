// Chapter 2's choices: which kernel (or host memory) a lesson runs. Named once, here: the
// lessons offer these names as their choices (lessons.cpp; the first is the default) and
// basics_gpu.cuh exports one compiled kernel per name, in the same order. No CUDA: the
// catalogue reads it.
#pragma once

#include <array>
#include <cstdint>

namespace lessons::basics {

// Lesson 15: where every thread reads the vector x from.
enum class VecMatVariant { kShared, kGlobal, kSharedOneThread };
inline constexpr std::array<const char*, 3> kVecMatNames{"shared", "global", "shared-one-thread"};

// Lesson 16: into how many paths each warp splits (the case a thread takes: CaseOf()).
inline constexpr std::array<const char*, 6> kDivergenceNames{"none",  "2-way",  "4-way",
                                                             "8-way", "16-way", "32-way"};
inline constexpr std::array<unsigned, 6> kDivergenceWays{1, 2, 4, 8, 16, 32};

// Lesson 17: the distance in floats between the elements of neighbouring lanes.
inline constexpr std::array<unsigned, 6> kStrides{1, 2, 4, 8, 16, 32};
inline constexpr unsigned kMaxOffset = 32;  // floats a buffer may start past its allocation

// Lesson 18: how the host buffer is allocated.
enum class HostMemory { kPinned, kRegistered, kPageable };
inline constexpr std::array<const char*, 3> kMemoryNames{"pinned", "registered", "pageable"};

}  // namespace lessons::basics
