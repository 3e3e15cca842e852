// Chapter 3's ablation toggles: each one switches off one idea of a step, so that a sweep over
// it measures that idea's share. Named once, here: the lessons offer these names as their
// choices (lessons.cpp, today's kernel first: the default), and reduce_gpu.cuh exports one
// compiled kernel per combination, indexed by the same enums. No CUDA: the catalogue reads it.
#pragma once

#include <array>

namespace lessons::reduce {

// Lesson 21: which threads add at each level of the tree (Harris's kernels 1, 2 and 3).
enum class Addressing { kInterleaved, kStrided, kSequential };
inline constexpr std::array<const char*, 3> kAddressingNames{"interleaved", "strided",
                                                             "sequential"};

// Lesson 23: how many elements a thread adds before the tree, and how the tree ends.
enum class Accumulate { kManyPerThread, kTwoPerThread, kOnePerThread };
inline constexpr std::array<const char*, 3> kAccumulateNames{"many-per-thread", "two-per-thread",
                                                             "one-per-thread"};
enum class LastWarp { kUnrolled, kLoop };
inline constexpr std::array<const char*, 2> kLastWarpNames{"unrolled", "loop"};

// Lesson 25: how wide a thread's loads are, and how the block sums are combined.
enum class Loads { kFloat4, kScalar };
inline constexpr std::array<const char*, 2> kLoadsNames{"float4", "scalar"};
enum class Passes { kOne, kTwo };
inline constexpr std::array<const char*, 2> kPassesNames{"one", "two"};

}  // namespace lessons::reduce
