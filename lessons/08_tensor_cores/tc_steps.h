// Chapter 8's step kinds: what a row of its table says about how the step runs. Data only (the
// catalogue compiles without CUDA); tc_harness.cu implements each where the GPU is linked.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "params.h"
#include "tc/tc_tiles.h"
#include "tc_chapter.h"
#include "tile_param.h"

namespace lessons::tc {

// How the step's kernel is launched, and so a student's kernel for its exercise: with the
// TcProblem by value on a grid of one block per BM × BN tile laid out as C (the mma.sync and
// wgmma steps) or in one row (the cp.async pipeline, which orders the tiles itself); or with the
// tensor maps that the TMA steps' launch makes (PlanTmaLaunch; C's too for the persistent step,
// which stores C by TMA), then C, m, n, k, ldc. The first two run on sm_80 and later; the TMA
// ones, like wgmma, on Hopper only (sm_90a).
enum class TcArgs { kProblemTileGrid, kProblemTileRow, kTensorMaps, kTensorMapsAndC };

// A tiled kernel: one compiled kernel per tile of `tiles` (the source registers one TcKernel
// for each), chosen by the `tile` parameter, the first by default.
struct Tiled {
    std::span<const TcTile> tiles;
    TcArgs args = TcArgs::kProblemTileGrid;

    std::vector<ParamSpec> Params() const {
        return {TileParam(
            tiles, &TcTileName, &TcTileDescription,
            "each configuration is a separately compiled kernel (tile sizes, pipeline depth and "
            "warpgroup counts are template arguments, so the compiler can size the shared-memory "
            "stages and keep the accumulators in registers)")};
    }
};

// cuBLAS's bf16 GEMM (fp32 accumulation), on the same layout.
struct Cublas {
    static constexpr bool kLibrary = true;
};

}  // namespace lessons::tc
