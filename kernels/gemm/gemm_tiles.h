// Chapter 5, GEMM: the tile configurations of each tiled step, as data. A kernel file
// instantiates its kernel template from each (LESSONS_KERNEL_TABLE, kernels/kernel_table.h), the
// catalogue (compiled without CUDA) makes the step's `tile` choices from the same entries, and the
// harness pairs the two by equality. The first of each table is the default. CUDA-free.
#pragma once

#include <iterator>
#include <span>
#include <string>

#include "../tile_names.h"

namespace lessons::gemm {

// An ablation: a step at one of its tiles with one of its ideas taken out, so that the sweep
// over its tiles measures that idea's share on the same tile.
enum class GemmAblation {
    kNone,
    kScalarGlobal,   // lesson 5.6: global loads and stores of one float each (lesson 5.5's)
    kUntransposedA,  // lesson 5.6: the A tile stored as A is, [row][k] (lesson 5.5's)
    kRowLanes,       // lesson 5.8: lanes in rows of 8 over the warp tile (lesson 5.7's map)
};

// One compiled configuration: the block's tile of C (BM × BN, k in steps of BK), and what a
// thread computes (TM × TN outputs) or what a warp computes (a WM × WN warp tile, its 32 threads
// sharing it); `stages` copies of the tiles in flight (a pipelined step; 0: none; 1: copied,
// waited for, then used, no overlap), `min_blocks`, the blocks per SM promised to the compiler
// (__launch_bounds__), and the idea taken out, if any.
struct GemmTile {
    int threads = 0;  // per block: ThreadsOf(*this), checked for every table entry below
    int bm = 0, bn = 0, bk = 0;
    int tm = 1, tn = 1;  // a thread's outputs (no warp tile)
    int wm = 0, wn = 0;  // a warp's tile; 0: none
    int stages = 0;
    int min_blocks = 1;
    GemmAblation ablation = GemmAblation::kNone;
    constexpr bool operator==(const GemmTile&) const = default;
};

// `tile` with `idea` taken out (a step's tile in the rows of its ablations).
constexpr GemmTile Ablated(GemmTile tile, GemmAblation idea) {
    tile.ablation = idea;
    return tile;
}

// The threads a tile's shape takes: one per warp tile's 32 lanes, else one per TM × TN outputs
// (one per output when TM = TN = 1); 0 when the shape does not divide evenly.
constexpr int ThreadsOf(const GemmTile& t) {
    if (t.bm <= 0 || t.bn <= 0 || t.bk <= 0) return 0;
    if (t.wm || t.wn) {
        if (t.wm <= 0 || t.wn <= 0 || t.bm % t.wm || t.bn % t.wn) return 0;
        return (t.bm / t.wm) * (t.bn / t.wn) * 32;
    }
    if (t.tm <= 0 || t.tn <= 0 || t.bm % t.tm || t.bn % t.tn) return 0;
    return (t.bm / t.tm) * (t.bn / t.tn);
}

constexpr bool ThreadsAgree(std::span<const GemmTile> tiles) {
    for (const GemmTile& t : tiles)
        if (t.threads == 0 || t.threads != ThreadsOf(t)) return false;
    return true;
}

// The tiles of the steps, by the file that compiles them.
// kernels/gemm/shared-memory-tiles.cu: one output per thread.
inline constexpr GemmTile kTilesSharedMemoryTiles[] = {
    {.threads = 256, .bm = 16, .bn = 16, .bk = 64},
    {.threads = 1024, .bm = 32, .bn = 32, .bk = 32},
    {.threads = 256, .bm = 16, .bn = 16, .bk = 16},
    {.threads = 64, .bm = 8, .bn = 8, .bk = 8},
};
// kernels/gemm/1d-register-blocking.cu: TM outputs of one column per thread.
inline constexpr GemmTile kTiles1dRegisterBlocking[] = {
    {.threads = 512, .bm = 128, .bn = 64, .bk = 8, .tm = 16},
    {.threads = 512, .bm = 64, .bn = 64, .bk = 8, .tm = 8},
    {.threads = 256, .bm = 64, .bn = 64, .bk = 8, .tm = 16},
    {.threads = 256, .bm = 32, .bn = 32, .bk = 8, .tm = 4},
};
// kernels/gemm/2d-register-blocking.cu: TM × TN outputs per thread.
inline constexpr GemmTile kTiles2dRegisterBlocking[] = {
    {.threads = 256, .bm = 64, .bn = 64, .bk = 16, .tm = 4, .tn = 4},
    {.threads = 128, .bm = 64, .bn = 128, .bk = 8, .tm = 8, .tn = 8},
    {.threads = 64, .bm = 64, .bn = 64, .bk = 8, .tm = 8, .tn = 8},
    {.threads = 256, .bm = 128, .bn = 128, .bk = 8, .tm = 8, .tn = 8},
};
// kernels/gemm/vectorized-transposed-a.cu: TM × TN outputs per thread, in fours; the
// default tile again without its 16-byte global accesses, and without its transposed A tile.
inline constexpr GemmTile kVectorizedDefault{
    .threads = 256, .bm = 128, .bn = 128, .bk = 16, .tm = 8, .tn = 8};
inline constexpr GemmTile kTilesVectorizedTransposedA[] = {
    kVectorizedDefault,
    {.threads = 256, .bm = 64, .bn = 64, .bk = 16, .tm = 4, .tn = 4},
    {.threads = 256, .bm = 128, .bn = 128, .bk = 8, .tm = 8, .tn = 8},
    {.threads = 128, .bm = 64, .bn = 128, .bk = 8, .tm = 8, .tn = 8},
    Ablated(kVectorizedDefault, GemmAblation::kScalarGlobal),
    Ablated(kVectorizedDefault, GemmAblation::kUntransposedA),
};
// kernels/gemm/warp-tiling.cu: a warp tile of 64 × 32 or 32 × 64, 8 × 8 per thread.
inline constexpr GemmTile kTilesWarpTiling[] = {
    {.threads = 256, .bm = 128, .bn = 128, .bk = 16, .wm = 64, .wn = 32},
    {.threads = 256, .bm = 128, .bn = 128, .bk = 8, .wm = 64, .wn = 32},
    {.threads = 128, .bm = 128, .bn = 64, .bk = 16, .wm = 64, .wn = 32},
    {.threads = 128, .bm = 64, .bn = 128, .bk = 8, .wm = 32, .wn = 64},
};
// kernels/gemm/double-buffering.cu: warp tiles, a pipeline of `stages` tiles; a thread
// computes (WM / 4) × (WN / 8). After the step's tiles, its ideas one at a time at the default's
// block tile: one stage (no overlap), lesson 5.7's lane map, and an 8 × 8 thread tile.
inline constexpr GemmTile kDoubleBufferingDefault{
    .threads = 256, .bm = 128, .bn = 256, .bk = 8, .wm = 64, .wn = 64, .stages = 3};
inline constexpr GemmTile kTilesDoubleBuffering[] = {
    kDoubleBufferingDefault,
    {.threads = 256, .bm = 128, .bn = 256, .bk = 8, .wm = 64, .wn = 64, .stages = 2},
    // clang-format off
    {.threads = 256, .bm = 128, .bn = 128, .bk = 8, .wm = 32, .wn = 64, .stages = 2, .min_blocks = 2},
    {.threads = 128, .bm = 64, .bn = 128, .bk = 8, .wm = 32, .wn = 64, .stages = 3, .min_blocks = 3},
    // clang-format on
    {.threads = 256, .bm = 128, .bn = 256, .bk = 8, .wm = 64, .wn = 64, .stages = 1},
    Ablated(kDoubleBufferingDefault, GemmAblation::kRowLanes),
    {.threads = 512, .bm = 128, .bn = 256, .bk = 8, .wm = 32, .wn = 64, .stages = 3},
};
// kernels/gemm/wmma-tf32.cu: warp tiles of 16 × 16 × 8 TF32 fragments, BK = 16.
inline constexpr GemmTile kTilesWmmaTf32[] = {
    {.threads = 128, .bm = 128, .bn = 128, .bk = 16, .wm = 64, .wn = 64, .min_blocks = 2},
    {.threads = 256, .bm = 128, .bn = 256, .bk = 16, .wm = 64, .wn = 64},
    {.threads = 256, .bm = 128, .bn = 128, .bk = 16, .wm = 64, .wn = 32, .min_blocks = 2},
    {.threads = 128, .bm = 64, .bn = 64, .bk = 16, .wm = 32, .wn = 32, .min_blocks = 2},
};

static_assert(ThreadsAgree(kTilesSharedMemoryTiles),
              "a tile's threads differ from what its shape takes");
static_assert(ThreadsAgree(kTiles1dRegisterBlocking),
              "a tile's threads differ from what its shape takes");
static_assert(ThreadsAgree(kTiles2dRegisterBlocking),
              "a tile's threads differ from what its shape takes");
static_assert(ThreadsAgree(kTilesVectorizedTransposedA),
              "a tile's threads differ from what its shape takes");
static_assert(ThreadsAgree(kTilesWarpTiling), "a tile's threads differ from what its shape takes");
static_assert(ThreadsAgree(kTilesDoubleBuffering),
              "a tile's threads differ from what its shape takes");
static_assert(ThreadsAgree(kTilesWmmaTf32), "a tile's threads differ from what its shape takes");

// Each ablation, in GemmAblation's order.
inline constexpr AblationRow kGemmAblations[] = {
    {"", "", ""},
    {"-scalar-global",
     "global loads and stores of one float each (lesson 5.5's), all else as written",
     "全局内存的加载和存储每次只有一个 float（第 5.5 课的做法），其余不变"},
    {"-a-untransposed", "the A tile stored as A is, [row][k] (lesson 5.5's), all else as written",
     "A 分块按 A 本来的布局 [行][k] 存放（第 5.5 课的做法），其余不变"},
    {"-lanes-rows",
     "lanes in rows of 8 over the warp tile (lesson 5.7's map), no lane pairs reading one address",
     "线程束分块里的线程按每行 8 个排列（第 5.7 课的映射），没有两两读同一地址的线程对"},
};
static_assert(std::size(kGemmAblations) == static_cast<size_t>(GemmAblation::kRowLanes) + 1,
              "one row per ablation");

// What a tile's name ends with when an idea is taken out.
constexpr const char* AblationSuffix(GemmAblation a) {
    return kGemmAblations[static_cast<int>(a)].suffix;
}

// The tile's name, the `tile` parameter's value (recorded results store it): threads, block
// tile BM×BN×BK, then the thread tile TM×TN (when a thread computes more than one output) or
// the warp tile wWM×WN, then the pipeline's stages sN, then an ablation's suffix:
// "256t-16x16x64", "512t-128x64x8-16x1", "256t-128x128x16-w64x32", "256t-128x256x8-w64x64-s3",
// "256t-128x256x8-w64x64-s3-lanes-rows". `min_blocks` is not in it.
inline std::string TileName(const GemmTile& t) {
    std::string name = TileNameStart(t.threads, t.bm, t.bn, t.bk);
    if (t.wm) {
        name += "-w";
        name += TileDims({t.wm, t.wn});
    } else if (t.tm * t.tn > 1) {
        name += '-';
        name += TileDims({t.tm, t.tn});
    }
    if (t.stages) {
        name += "-s";
        name += std::to_string(t.stages);
    }
    name += AblationSuffix(t.ablation);
    return name;
}

// What the name says, in words (`zh`: in Chinese): "256 threads, block tile 128x128x16, warp
// tile 64x32, 64 outputs per thread".
inline std::string TileDescription(const GemmTile& t, bool zh) {
    std::string out = TileDescriptionStart(t.threads, t.bm, t.bn, t.bk, zh);
    if (t.wm) {
        const std::string warp = TileDims({t.wm, t.wn});
        const std::string per_thread = std::to_string(t.wm * t.wn / 32);
        out += zh ? "，线程束分块 " + warp + "，每线程 " + per_thread + " 个输出"
                  : ", warp tile " + warp + ", " + per_thread + " outputs per thread";
    } else if (t.tm * t.tn > 1) {
        const std::string per_thread = TileDims({t.tm, t.tn});
        out +=
            zh ? "，每线程 " + per_thread + " 个输出" : ", " + per_thread + " outputs per thread";
    } else {
        out += zh ? "，每线程 1 个输出" : ", one output per thread";
    }
    if (t.stages == 1) {
        out += zh ? "，不用流水线：每个分块先复制、等待复制完成，再计算"
                  : ", no pipeline: each tile is copied, waited for, then used";
    } else if (t.stages) {
        const std::string stages = std::to_string(t.stages);
        out += zh ? "，" + stages + " 级流水线" : ", " + stages + "-stage pipeline";
    }
    out += AblationClause(kGemmAblations[static_cast<int>(t.ablation)], zh);
    return out;
}

}  // namespace lessons::gemm
