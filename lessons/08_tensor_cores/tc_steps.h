// Chapter 8's step kinds: what a row of its table says about how the step runs. Data only (the
// catalogue compiles without CUDA); tc_harness.cu implements each where the GPU is linked.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "params.h"
#include "tc/tc_tiles.h"
#include "tc_chapter.h"

namespace lessons::tc {

// A tiled kernel: one compiled kernel per tile of `tiles` (the source registers one TcKernel
// for each), chosen by the `tile` parameter, the first by default.
struct Tiled {
    std::span<const TcTile> tiles;

    std::vector<ParamSpec> Params() const {
        std::vector<std::string> names, notes, notes_zh;
        for (const TcTile& t : tiles) {
            names.push_back(TcTileName(t));
            notes.push_back(TcTileDescription(t, false));
            notes_zh.push_back(TcTileDescription(t, true));
        }
        ParamSpec p = ChoiceParam("tile", "Tile configuration", "分块配置", names, notes, notes_zh);
        p.launch_shape = true;
        p.verbatim_choices = true;
        p.why =
            "each configuration is a separately compiled kernel (tile sizes, pipeline depth and "
            "warpgroup counts are template arguments, so the compiler can size the shared-memory "
            "stages and keep the accumulators in registers)";
        return {p};
    }
};

// cuBLAS's bf16 GEMM (fp32 accumulation), on the same layout.
struct Cublas {
    static constexpr bool kLibrary = true;
};

}  // namespace lessons::tc
