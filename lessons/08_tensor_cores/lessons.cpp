// Chapter 8, tensor cores on Hopper: the chapter and its lessons, one row each. Each GPU step's
// kind is implemented in tc_harness.cu, where the GPU library is linked.
#include <memory>
#include <string>
#include <utility>

#include "catalog.h"
#include "declare.h"
#include "tc/tc_tiles.h"
#include "tc_chapter.h"
#include "tc_steps.h"

namespace lessons {

void RegisterTensorCoresChapter(Registry& registry) {
    using namespace tc;
    Chapter chapter = ProductChapter(
        "tensor-cores", kMaxDimension,
        "the harness pads each row of A, Bᵀ and C to a multiple of 8 elements with zeros, and "
        "edge tiles are handled inside the kernels",
        DataParam({
            {"random", "A and B uniform in [-1, 1), rounded to bf16",
             "A 和 B 在 [-1, 1) 上均匀分布，舍入为 bf16"},
            {"ones", "all 1.0: every element of C is k (exact in bf16 up to k = 256)",
             "全为 1.0：C 的每个元素都等于 k（k ≤ 256 时在 bf16 中精确）"},
            {"large",
             "A uniform in [-2^40, 2^40), B in [-1, 1), rounded to bf16: large magnitudes, far "
             "from overflow",
             "A 在 [-2^40, 2^40) 上、B 在 [-1, 1) 上均匀分布，舍入为 bf16：数值很大，但远不会溢出"},
        }),
        " bf16", &TcWorkloadHostBytes);
    chapter.make_workload = MakeWorkload<TcWorkload>;
    chapter.work = [](StepKind, const ParamValues& p) {
        return TcWork(p.Number("m"), p.Number("n"), p.Number("k"));
    };

    AddChapter(
        registry, chapter, "lessons/08_tensor_cores",
        {.kernels = "kernels/tc", .needs = &TcGpuNeeds},
        {
            {.slug = "mma-sync",
             .title = "mma.sync with ldmatrix: the fragments by hand",
             .step = Tiled{kTilesMma},
             .focus = {"HMMA", "LDSM", "LDS", "BAR"},
             .previous = "",
             .exercise = {.fixed = {{"tile", "128t-128x128x32-w64x64"}},
                          .instance =
                              "constexpr int BM = 128, BN = 128, BK = 32, WM = 64, WN = 64;"}},
            {.slug = "cp-async-pipeline",
             .title = "A cp.async pipeline and swizzled shared memory",
             .step = Tiled{kTilesPipeline, TcArgs::kProblemTileRow},
             .focus = {"HMMA", "LDSM", "CP.ASYNC", "BAR"},
             .exercise =
                 {.fixed = {{"tile", "256t-128x256x64-w64x64-s3"}},
                  .instance =
                      "constexpr int BM = 128, BN = 256, BK = 64, WM = 64, WN = 64, STAGES = 3, "
                      "GROUP_M = 8; constexpr bool SWIZZLE = true, PREFETCH = true;"}},
            {.slug = "wgmma",
             .title = "wgmma: a warpgroup multiplies from shared memory",
             .step = Tiled{kTilesWgmma},
             .focus = {"HGMMA", "WARPGROUP", "CP.ASYNC", "BAR"},
             .exercise = {.fixed = {{"tile", "256t-128x256x64-s3"}},
                          .instance =
                              "constexpr int BM = 128, BN = 256, STAGES = 3, WARPGROUPS = 2;"}},
            {.slug = "tma",
             .title = "TMA copies completing on an mbarrier",
             .step = Tiled{kTilesWgmmaTma, TcArgs::kTensorMaps},
             .focus = {"HGMMA", "TMA", "SYNCS", "WARPGROUP"},
             .exercise = {.fixed = {{"tile", "256t-128x256x64-s4"}},
                          .instance =
                              "constexpr int BM = 128, BN = 256, STAGES = 4, WARPGROUPS = 2;"}},
            {.slug = "warp-specialization",
             .title = "Warp specialisation: a producer and consumer warpgroups",
             .step = Tiled{kTilesWarpSpecialized, TcArgs::kTensorMaps},
             .focus = {"HGMMA", "TMA", "SYNCS", "SETMAXNREG"},
             .exercise = {.fixed = {{"tile", "384t-256x128x64-s4-wg2"}},
                          .instance =
                              "constexpr int BM = 256, BN = 128, STAGES = 4, CONSUMERS = 2;"}},
            {.slug = "persistent",
             .title = "Persistent blocks, tile order and clusters",
             .step = Tiled{kTilesPersistent, TcArgs::kTensorMapsAndC},
             .focus = {"HGMMA", "TMA", "SYNCS", "SETMAXNREG"},
             .exercise =
                 {.fixed = {{"tile", "384t-128x256x64-s4-wg2-p"}},
                  .instance =
                      "constexpr int BM = 128, BN = 256, STAGES = 4, CONSUMERS = 2, CLUSTER = 1; "
                      "constexpr bool WAIT_ONE = true, TMA_STORE = true, BANDS = true;"}},
            {.slug = "cublas-bf16", .title = "cuBLAS bf16 GEMM", .step = Cublas{}},
        });
}

}  // namespace lessons
