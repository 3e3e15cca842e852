// Chapter 5's step kinds: what a row of its table says about how the step runs. Data only (the
// catalogue compiles without CUDA); gemm_harness.cu implements each where the GPU is linked.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "gemm/gemm_tiles.h"
#include "gemm_chapter.h"
#include "params.h"
#include "tile_param.h"
#include "work.h"

namespace lessons::gemm {

// The work of C = A·B at a parameter set (m, n, k), held to the TF32 tensor-core ceiling
// (`tf32`) or the fp32 FMA peak: the chapter's rule, and the tensor-core steps' own.
inline WorkFn GemmWorkRule(bool tf32) {
    return [tf32](const ParamValues& p) {
        return GemmWork(p.Number("m"), p.Number("n"), p.Number("k"), tf32);
    };
}

// The one kernel its source registers, launched with the row's block size (blocks of 32 ×
// block/32 threads).
struct Block {
    // Which dimension of C threadIdx.x, the fastest index, walks: a block of 32 × block/32 threads
    // covers 32 rows (x along a column of C) or 32 columns (x along a row). A student's kernel
    // for the exercise is launched on the same grid.
    enum class X { kDownAColumn, kAlongARow } x = X::kDownAColumn;
};

// A tiled kernel: one compiled kernel per tile of `tiles` (the source registers one for each,
// of the same GemmTile), chosen by the `tile` parameter, the first by default. `tf32`: the step
// rounds A and B to TF32 on tensor cores, is held to the TF32 ceiling and checked with TF32's
// tolerance.
struct Tiled {
    std::span<const GemmTile> tiles;
    bool tf32 = false;

    std::vector<ParamSpec> Params() const {
        return {TileParam(
            tiles, &TileName, &TileDescription,
            "each configuration is a separately compiled kernel (tile sizes are template "
            "arguments, so the compiler can keep the tiles in registers and unroll the loops)")};
    }
    WorkFn Work() const { return tf32 ? GemmWorkRule(true) : nullptr; }
};

// cuBLAS's cublasSgemm, in plain fp32 or (`tf32`) allowed TF32 tensor cores.
struct Cublas {
    bool tf32 = false;
    static constexpr bool kLibrary = true;
    WorkFn Work() const { return tf32 ? GemmWorkRule(true) : nullptr; }
};

}  // namespace lessons::gemm
