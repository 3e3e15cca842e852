// Chapter 5, GEMM tiling: the chapter and its lessons, one row each. Each GPU step's kind is
// implemented in gemm_harness.cu, where the GPU library is linked.
#include <memory>
#include <string>
#include <utility>

#include "catalog.h"
#include "declare.h"
#include "gemm/gemm_tiles.h"
#include "gemm_chapter.h"
#include "gemm_steps.h"

namespace lessons {

void RegisterGemmChapter(Registry& registry) {
    using namespace gemm;
    Chapter chapter = ProductChapter(
        "gemm", kMaxDimension, "edge tiles are handled inside the kernels",
        DataParam({
            {"random", "A and B uniform in [-1, 1)", "A 和 B 在 [-1, 1) 上均匀分布"},
            {"ones", "all 1.0: every element of C is exactly k",
             "全为 1.0：C 的每个元素都精确等于 k"},
            {"large",
             "A uniform in [-2^40, 2^40), B in [-1, 1): large magnitudes, far from overflow",
             "A 在 [-2^40, 2^40) 上、B 在 [-1, 1) 上均匀分布：数值很大，但远不会溢出"},
        }),
        "", &GemmWorkloadHostBytes);
    chapter.make_workload = MakeWorkload<GemmWorkload>;

    // The work without running (the page's prediction, the runner's choice of ceilings); the
    // TF32 steps declare their own through their kinds.
    chapter.work = [fp32 = GemmWorkRule(false)](StepKind, const ParamValues& p) { return fp32(p); };

    const ParamSpec block =
        BlockParam(32, 1024, 256, false, "a block is 32 threads wide and block / 32 rows tall");
    AddChapter(
        registry, chapter, "lessons/05_gemm", {.kernels = "kernels/gemm", .needs = &GemmGpuNeeds},
        {
            {.slug = "naive",
             .title = "Naive: one thread per element of C",
             .step = Block{},
             .params = {block},
             .focus = {"LDG", "FP32"}},
            {.slug = "coalesced",
             .title = "Coalesced: a warp walks along a row of C",
             .step = Block{.x = Block::X::kAlongARow},
             .params = {block},
             .focus = {"LDG", "FP32"}},
            {.slug = "shared-memory-tiles",
             .title = "Shared-memory tiles",
             .step = Tiled{kTilesSharedMemoryTiles},
             .focus = {"LDS", "STS", "BAR", "FP32"},
             .exercise = {.fixed = {{"tile", "256t-16x16x64"}},
                          .instance = "constexpr int BM = 16, BN = 16, BK = 64;\n"}},
            {.slug = "1d-register-blocking",
             .title = "1D register blocking",
             .step = Tiled{kTiles1dRegisterBlocking},
             .focus = {"LDS", "FP32", "BAR"},
             .exercise = {.fixed = {{"tile", "512t-128x64x8-16x1"}},
                          .instance = "constexpr int BM = 128, BN = 64, BK = 8, TM = 16;\n"}},
            {.slug = "2d-register-blocking",
             .title = "2D register blocking",
             .step = Tiled{kTiles2dRegisterBlocking},
             .focus = {"LDS", "FP32", "BAR"},
             .exercise = {.fixed = {{"tile", "256t-64x64x16-4x4"}},
                          .instance =
                              "constexpr int BM = 64, BN = 64, BK = 16, TM = 4, TN = 4;\n"}},
            {.slug = "vectorized-transposed-a",
             .title = "16-byte loads, transposed A tile",
             .step = Tiled{kTilesVectorizedTransposedA},
             .focus = {"LDG.128", "LDS", "STS", "FP32"},
             .exercise = {.fixed = {{"tile", "256t-128x128x16-8x8"}},
                          .instance = "constexpr int BM = 128, BN = 128, BK = 16, TM = 8, TN = 8;\n"
                                      "constexpr bool kVec = true, kTransposedA = true;\n"}},
            {.slug = "warp-tiling",
             .title = "Warp tiling",
             .step = Tiled{kTilesWarpTiling},
             .focus = {"LDS", "FP32", "BAR"},
             .exercise = {.fixed = {{"tile", "256t-128x128x16-w64x32"}},
                          .instance = "constexpr int BM = 128, BN = 128, BK = 16, WM = 64, WN = "
                                      "32, THREADS = 256;\n"}},
            {.slug = "double-buffering",
             .title = "Double buffering (cp.async)",
             .step = Tiled{kTilesDoubleBuffering},
             .focus = {"CP.ASYNC", "LDS", "BAR", "FP32"},
             .exercise =
                 {.fixed = {{"tile", "256t-128x256x8-w64x64-s3"}},
                  .instance =
                      "constexpr int BM = 128, BN = 256, BK = 8, WM = 64, WN = 64, THREADS = 256, "
                      "STAGES = 3, MIN_BLOCKS = 1;\n"
                      "constexpr bool kPairLanes = true;\n"}},
            {.slug = "cublas-sgemm", .title = "cuBLAS SGEMM, fp32", .step = Cublas{.tf32 = false}},
            {.slug = "wmma-tf32",
             .title = "Tensor cores: WMMA in TF32",
             .step = Tiled{.tiles = kTilesWmmaTf32, .tf32 = true},
             .focus = {"HMMA", "LDS", "STS", "BAR"},
             .previous = "double-buffering",
             .exercise = {.fixed = {{"tile", "128t-128x128x16-w64x64"}},
                          .instance = "constexpr int BM = 128, BN = 128, WARPS_M = 2, WARPS_N = 2, "
                                      "MIN_BLOCKS = 2;\n"}},
            {.slug = "cublas-tf32",
             .title = "cuBLAS with TF32 tensor cores",
             .step = Cublas{.tf32 = true}},
        });
}

}  // namespace lessons
