// Chapter 8, tensor cores on Hopper: the compiled configurations of each step, as data. A kernel
// file instantiates its kernel template from each entry of its table (LESSONS_KERNEL_TABLE),
// the catalogue (compiled without CUDA) makes the step's `tile` choices from the same entries,
// and the harness pairs the two by equality. The first entry of each table is the default.
// CUDA-free.
#pragma once

#include <cstddef>
#include <iterator>
#include <string>

#include "../tile_names.h"

namespace lessons::tc {

// An ablation: a step at its default tile with one of its ideas taken out, so that the sweep
// over its tiles measures that idea's share on the same tile (as chapter 5's GemmAblation).
enum class TcAblation {
    kNone,
    kRowOrder,       // lessons 8.2, 8.6: the tiles of C taken row by row (no bands of rows)
    kUnswizzled,     // lesson 8.2: plain shared-memory tiles, unit u of row r at u (no XOR)
    kNoPrefetch,     // lesson 8.2: each k16 step's fragments read just before its mma.sync
    kWaitAll,        // lesson 8.6: every k-tile's wgmmas waited for at once (WgmmaWait<0>)
    kRegisterStore,  // lesson 8.6: C stored from the registers, as lesson 8.5 does
    kTilePerBlock,   // lesson 8.6: one block per tile of C, as lesson 8.5 launches
};

// One compiled configuration of a bf16 GEMM step. Fields a step does not use stay at their
// defaults (and are then left out of its name).
struct TcTile {
    int threads = 0;             // per block
    int bm = 0, bn = 0, bk = 0;  // the block's tile of C (BM × BN), k in steps of BK
    int wm = 0, wn = 0;          // a warp's tile (the mma.sync steps); 0: warpgroup steps
    int stages = 1;              // tiles of A and B in flight in shared memory
    int consumers = 0;           // consumer warpgroups beside one producer (warp-specialised)
    int cluster = 1;             // blocks per cluster sharing loads by TMA multicast
    bool persistent = false;     // one block per SM walks the tiles
    TcAblation ablation = TcAblation::kNone;  // the idea taken out, if any
    constexpr bool operator==(const TcTile&) const = default;
};

// `tile` with `idea` taken out (a step's default tile in the rows of its ablations).
constexpr TcTile Ablated(TcTile tile, TcAblation idea) {
    tile.ablation = idea;
    return tile;
}

// The threads an mma.sync tile's shape takes: one warp per WM × WN warp tile of the BM × BN
// block tile, whose sides are multiples of the instruction's 16 × 8 (and BK of its k = 16); 0
// when the shape does not divide evenly, or for a warpgroup tile (wm = 0).
constexpr int WarpTileThreads(const TcTile& t) {
    if (t.bm <= 0 || t.bn <= 0 || t.bk <= 0 || t.wm <= 0 || t.wn <= 0) return 0;
    if (t.bm % t.wm || t.bn % t.wn || t.wm % 16 || t.wn % 8 || t.bk % 16) return 0;
    return (t.bm / t.wm) * (t.bn / t.wn) * 32;
}

template <size_t N>
constexpr bool WarpTilesAgree(const TcTile (&tiles)[N]) {
    for (const TcTile& t : tiles)
        if (t.threads == 0 || t.threads != WarpTileThreads(t)) return false;
    return true;
}

// kernels/tc/mma-sync.cu: warp tiles of m16n8k16 instructions, operands by ldmatrix from plain
// (unswizzled) shared-memory tiles, one tile of A and B at a time.
inline constexpr TcTile kTilesMma[] = {
    {.threads = 128, .bm = 128, .bn = 128, .bk = 32, .wm = 64, .wn = 64},
    {.threads = 256, .bm = 128, .bn = 256, .bk = 32, .wm = 64, .wn = 64},
    {.threads = 256, .bm = 128, .bn = 128, .bk = 32, .wm = 64, .wn = 32},
    {.threads = 128, .bm = 64, .bn = 64, .bk = 32, .wm = 32, .wn = 32},
};
// kernels/tc/cp-async-pipeline.cu: the same warp tiles, `stages` tiles in flight by cp.async,
// shared memory swizzled for conflict-free ldmatrix.
inline constexpr TcTile kPipelineDefault{
    .threads = 256, .bm = 128, .bn = 256, .bk = 64, .wm = 64, .wn = 64, .stages = 3};
inline constexpr TcTile kTilesPipeline[] = {
    kPipelineDefault,
    {.threads = 256, .bm = 128, .bn = 256, .bk = 64, .wm = 64, .wn = 64, .stages = 4},
    {.threads = 256, .bm = 128, .bn = 256, .bk = 64, .wm = 64, .wn = 64, .stages = 2},
    {.threads = 256, .bm = 128, .bn = 256, .bk = 32, .wm = 64, .wn = 64, .stages = 3},
    {.threads = 128, .bm = 128, .bn = 128, .bk = 32, .wm = 64, .wn = 64, .stages = 4},
    {.threads = 128, .bm = 128, .bn = 128, .bk = 32, .wm = 64, .wn = 64, .stages = 2},
    // The default tile with one idea taken out each (the ablations).
    Ablated(kPipelineDefault, TcAblation::kRowOrder),
    Ablated(kPipelineDefault, TcAblation::kUnswizzled),
    Ablated(kPipelineDefault, TcAblation::kNoPrefetch),
};

static_assert(WarpTilesAgree(kTilesMma), "a tile's threads differ from what its shape takes");
static_assert(WarpTilesAgree(kTilesPipeline), "a tile's threads differ from what its shape takes");

// The threads and accumulator rows of a warpgroup tile. Steps without a producer (consumers =
// 0) compute with every warpgroup of the block; the warp-specialised ones with `consumers`
// warpgroups beside one producer. Each computing warpgroup owns BM / warpgroups rows of C, a
// multiple of the instruction's 64, and holds (rows / 64) × BN / 2 fp32 accumulators per thread,
// at most 128 so that they fit in registers. 0 when the shape does not work.
constexpr int WarpgroupTileThreads(const TcTile& t) {
    if (t.bk != 64 || t.wm || t.wn || t.bm <= 0 || t.bn <= 0 || t.stages < 1) return 0;
    if (t.bn != 64 && t.bn != 128 && t.bn != 256) return 0;            // the wgmma widths compiled
    if (t.stages * (t.bm + t.bn) * 128 + 2048 > 227 * 1024) return 0;  // shared memory per block
    if (t.consumers > 2) return 0;  // more would leave too few registers for the accumulators
    const int computing = t.consumers ? t.consumers : t.threads / 128;
    if (computing <= 0 || t.bm % computing || (t.bm / computing) % 64) return 0;
    if ((t.bm / computing / 64) * t.bn / 2 > 128) return 0;
    return 128 * (computing + (t.consumers ? 1 : 0));
}

template <size_t N>
constexpr bool WarpgroupTilesAgree(const TcTile (&tiles)[N]) {
    for (const TcTile& t : tiles)
        if (t.threads == 0 || t.threads != WarpgroupTileThreads(t)) return false;
    return true;
}

// kernels/tc/wgmma.cu: every warpgroup computes (threads / 128 of them, BM / that many rows
// each) with wgmma from shared memory that all threads fill by cp.async, `stages` k-tiles deep.
inline constexpr TcTile kTilesWgmma[] = {
    {.threads = 256, .bm = 128, .bn = 256, .bk = 64, .stages = 3},
    {.threads = 256, .bm = 128, .bn = 128, .bk = 64, .stages = 4},
    {.threads = 128, .bm = 128, .bn = 128, .bk = 64, .stages = 4},
    {.threads = 128, .bm = 64, .bn = 128, .bk = 64, .stages = 4},
};
// kernels/tc/tma.cu: the same warpgroups; one thread has TMA copy the k-tiles, which
// complete on an mbarrier per stage.
inline constexpr TcTile kTilesWgmmaTma[] = {
    {.threads = 256, .bm = 128, .bn = 256, .bk = 64, .stages = 4},
    {.threads = 256, .bm = 128, .bn = 256, .bk = 64, .stages = 3},
    {.threads = 256, .bm = 128, .bn = 128, .bk = 64, .stages = 4},
    {.threads = 128, .bm = 64, .bn = 128, .bk = 64, .stages = 4},
};
// kernels/tc/warp-specialization.cu: a producer warpgroup (one thread of it issues the copies)
// and `consumers` warpgroups that compute.
inline constexpr TcTile kTilesWarpSpecialized[] = {
    {.threads = 384, .bm = 256, .bn = 128, .bk = 64, .stages = 4, .consumers = 2},
    {.threads = 384, .bm = 128, .bn = 256, .bk = 64, .stages = 4, .consumers = 2},
    {.threads = 384, .bm = 128, .bn = 256, .bk = 64, .stages = 3, .consumers = 2},
    {.threads = 256, .bm = 64, .bn = 256, .bk = 64, .stages = 4, .consumers = 1},
};
// kernels/tc/persistent.cu: warp-specialised blocks, one per multiprocessor, each walking the
// tiles of C in an L2-friendly order; in clusters, Bᵀ's tile is multicast to the blocks.
// A persistent tile: a producer and two consumer warpgroups, BK = 64.
constexpr TcTile PersistentTile(int bm, int bn, int stages, int cluster) {
    return {.threads = 384,
            .bm = bm,
            .bn = bn,
            .bk = 64,
            .stages = stages,
            .consumers = 2,
            .cluster = cluster,
            .persistent = true};
}
inline constexpr TcTile kPersistentDefault = PersistentTile(128, 256, 4, 1);
inline constexpr TcTile kTilesPersistent[] = {
    kPersistentDefault,
    PersistentTile(128, 256, 4, 2),
    PersistentTile(256, 128, 4, 2),
    PersistentTile(128, 256, 3, 2),
    // The default tile with one idea taken out each (the ablations).
    Ablated(kPersistentDefault, TcAblation::kWaitAll),
    Ablated(kPersistentDefault, TcAblation::kRegisterStore),
    Ablated(kPersistentDefault, TcAblation::kTilePerBlock),
    Ablated(kPersistentDefault, TcAblation::kRowOrder),
};

static_assert(WarpgroupTilesAgree(kTilesWgmma),
              "a tile's threads differ from what its shape takes");
static_assert(WarpgroupTilesAgree(kTilesWgmmaTma),
              "a tile's threads differ from what its shape takes");
static_assert(WarpgroupTilesAgree(kTilesWarpSpecialized),
              "a tile's threads differ from what its shape takes");
static_assert(WarpgroupTilesAgree(kTilesPersistent),
              "a tile's threads differ from what its shape takes");

// Each ablation, in TcAblation's order.
inline constexpr AblationRow kTcAblations[] = {
    {"", "", ""},
    {"-row-order", "C's tiles taken row by row (no bands of tile rows), all else as written",
     "按行依次取 C 的分块（不分成若干行一带），其余不变"},
    {"-unswizzled",
     "plain shared-memory tiles, no XOR swizzle (lesson 8.1's layout), all else as written",
     "共享内存分块不做 XOR 重排（第 8.1 课的布局），其余不变"},
    {"-no-prefetch",
     "each k16 step's fragments read just before its mma.sync, not one step ahead, all else as "
     "written",
     "每个 k16 步的片段在它的 mma.sync 之前才读，不提前一步，其余不变"},
    {"-wait-all", "every k-tile's wgmmas waited for at once (WgmmaWait<0>), all else as written",
     "每个 k 分块的 wgmma 都当场等完（WgmmaWait<0>），其余不变"},
    {"-register-store",
     "C stored from the registers (lesson 8.5's way), not through shared memory and TMA, all "
     "else as written",
     "C 直接从寄存器写出（第 8.5 课的做法），不经共享内存和 TMA，其余不变"},
    {"-tile-per-block",
     "one block per tile of C (lesson 8.5's grid), not persistent, all else as written",
     "每个 C 分块一个线程块（第 8.5 课的网格），不常驻，其余不变"},
};
static_assert(std::size(kTcAblations) == static_cast<size_t>(TcAblation::kTilePerBlock) + 1,
              "one row per ablation");

// The tile's name, the `tile` parameter's value (recorded results store it): threads, block
// tile BM×BN×BK, then what differs from the defaults: the warp tile wWM×WN, the stages sN (when
// not 1), the consumer warpgroups wgN, the cluster cN (when not 1), p when persistent, then an
// ablation's suffix. "128t-128x128x32-w64x64", "256t-128x256x32-w64x64-s3",
// "384t-128x256x64-s4-wg2-c2-p", "256t-128x256x64-w64x64-s3-unswizzled".
inline std::string TcTileName(const TcTile& t) {
    std::string name = TileNameStart(t.threads, t.bm, t.bn, t.bk);
    if (t.wm) name += "-w" + TileDims({t.wm, t.wn});
    if (t.stages != 1) name += "-s" + std::to_string(t.stages);
    if (t.consumers) name += "-wg" + std::to_string(t.consumers);
    if (t.cluster != 1) name += "-c" + std::to_string(t.cluster);
    if (t.persistent) name += "-p";
    name += kTcAblations[static_cast<int>(t.ablation)].suffix;
    return name;
}

// What the name says, in words (`zh`: in Chinese): "256 threads, block tile 128x256x32, warp
// tile 64x64, 4-stage pipeline".
inline std::string TcTileDescription(const TcTile& t, bool zh) {
    std::string out = TileDescriptionStart(t.threads, t.bm, t.bn, t.bk, zh);
    if (t.wm) {
        const std::string warp = TileDims({t.wm, t.wn});
        out += zh ? "，线程束分块 " + warp : ", warp tile " + warp;
    }
    if (t.stages != 1) {
        const std::string stages = std::to_string(t.stages);
        out += zh ? "，" + stages + " 级流水线" : ", " + stages + "-stage pipeline";
    }
    if (t.consumers) {
        const std::string consumers = std::to_string(t.consumers);
        out +=
            zh ? "，" + consumers + " 个计算线程束组" : ", " + consumers + " consumer warpgroups";
    }
    if (t.cluster != 1) {
        const std::string cluster = std::to_string(t.cluster);
        out += zh ? "，每簇 " + cluster + " 个线程块" : ", clusters of " + cluster + " blocks";
    }
    if (t.persistent) out += zh ? "，常驻线程块" : ", persistent blocks";
    out += AblationClause(kTcAblations[static_cast<int>(t.ablation)], zh);
    return out;
}

}  // namespace lessons::tc
