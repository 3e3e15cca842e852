// Chapter 8, tensor cores on Hopper: the compiled configurations of each step, as data. A kernel
// file instantiates its kernel template from each entry of its table (Config<kTilesMma[0]>()),
// the catalogue (compiled without CUDA) makes the step's `tile` choices from the same entries,
// and the harness pairs the two by equality. The first entry of each table is the default.
// CUDA-free.
#pragma once

#include <string>

namespace lessons::tc {

// One compiled configuration of a bf16 GEMM step. Fields a step does not use stay at their
// defaults (and are then left out of its name).
struct TcTile {
    int threads = 0;              // per block
    int bm = 0, bn = 0, bk = 0;   // the block's tile of C (BM × BN), k in steps of BK
    int wm = 0, wn = 0;           // a warp's tile (the mma.sync steps); 0: warpgroup steps
    int stages = 1;               // tiles of A and B in flight in shared memory
    int consumers = 0;            // consumer warpgroups beside one producer (warp-specialised)
    int cluster = 1;              // blocks per cluster sharing loads by TMA multicast
    bool persistent = false;      // one block per SM walks the tiles
    constexpr bool operator==(const TcTile&) const = default;
};

// The tables (one per kernel file) and the name/description helpers are added below by the
// kernel files' authors: TcTileName(t) -> "256t-128x256x64-s4-wg2-c2-p" style name, stable
// (recorded results store it), and TcTileDescription(t, zh) for the parameter's notes.

}  // namespace lessons::tc
