// Chapter 3's ablation toggles (toggles.h): each one switches off one idea of a step, so that a
// sweep over it measures that idea's share. Named once, here: the lessons offer these values as
// their choices (lessons.cpp, the lesson as written first: the default), and every compiled
// variant of a kernel carries the values it implements (reduce_gpu.cuh), by which the harness
// picks it. No CUDA: the catalogue reads it.
#pragma once

#include "toggles.h"

namespace lessons::reduce {

using lessons::Toggle;
using lessons::ToggleValue;
using lessons::ValueOf;

// v1 (shared memory): which threads add at each level of the tree (Harris's kernels 1, 2, 3).
enum class Addressing { kInterleaved, kStrided, kSequential };
inline constexpr Toggle<Addressing, 3> kAddressingToggle{"addressing",
                                                         {"interleaved", "strided", "sequential"}};

// v3 (unrolled last warp): how the tree ends, and how many elements a thread adds before it.
enum class LastWarp { kUnrolled, kLoop };
inline constexpr Toggle<LastWarp, 2> kLastWarpToggle{"last_warp", {"unrolled", "loop"}};
enum class Accumulate { kManyPerThread, kTwoPerThread, kOnePerThread };
inline constexpr Toggle<Accumulate, 3> kAccumulateToggle{
    "accumulate", {"many-per-thread", "two-per-thread", "one-per-thread"}};

// v5 (vectorized, one pass): how wide a thread's loads are, and how the block sums are
// combined.
enum class Loads { kFloat4, kScalar };
inline constexpr Toggle<Loads, 2> kLoadsToggle{"loads", {"float4", "scalar"}};
enum class Passes { kOne, kTwo };
inline constexpr Toggle<Passes, 2> kPassesToggle{"passes", {"one", "two"}};

}  // namespace lessons::reduce
