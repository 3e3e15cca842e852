// Chapter 4's ablation toggles (toggles.h), on lesson 4.3: each switches off one of the ideas
// the step bundles, so that a sweep over it measures that idea's share. The lessons offer these
// values as their choices (lessons.cpp), the lesson as written first; every compiled variant of
// the step's kernel carries the values it implements (kernels/gemv/vectorized-rows-per-warp.cu).
// No CUDA.
#pragma once

#include "toggles.h"

namespace lessons::gemv {

// How wide a lane's loads of A and x are.
enum class Loads { kFloat4, kScalar };
inline constexpr Toggle<Loads, 2> kGemvLoadsToggle{"loads", {"float4", "scalar"}};

// How many lanes share a row: as many as the row has work for (as written: one to a few for
// short rows, a warp, or the whole block for long rows), never more than a warp (no block per
// row), or always a warp (lesson 4.2's split: neither a block per row nor rows sharing a warp).
enum class RowLanes { kAsNeeded, kAtMostAWarp, kAWarp };
inline constexpr Toggle<RowLanes, 3> kRowLanesToggle{"row_lanes",
                                                     {"as-needed", "at-most-a-warp", "a-warp"}};

}  // namespace lessons::gemv
