// Chapter 10, attention forward: the chapter and its lessons, one row each. Each GPU step's kind
// is implemented in attention_harness.cu, where the GPU library is linked.
#include <string>

#include "attention_chapter.h"
#include "attention_steps.h"
#include "catalog.h"
#include "declare.h"

namespace lessons {

void RegisterAttentionChapter(Registry& registry) {
    using namespace attention;
    Chapter chapter = NewChapter("attention");
    // B·N = 32K tokens, 16 heads of 128: the shape the PyTorch and cuDNN figures were
    // measured at.
    chapter.params = {
        MatrixDimension("b", "Batch", "批大小", 32, kMaxBatch,
                        "B·H heads are one dimension of the fused kernels' grid"),
        MatrixDimension("h", "Heads", "头数", 16, kMaxHeads,
                        "B·H heads are one dimension of the fused kernels' grid"),
        MatrixDimension("n", "Sequence length (N)", "序列长度 (N)", 1024, kMaxSequence,
                        "any N works (the last tiles are masked); the unfused step's N × N "
                        "matrix, 2·N² bytes a head, runs out of memory first"),
        ChoiceParam("d", "Head dimension (d)", "头维度 (d)", {"128", "64"},
                    {"128 values a row of Q, K, V and O", "64 values a row"},
                    {"Q、K、V、O 每行 128 个值", "每行 64 个值"}, {"128", "64"}),
        ChoiceParam("mask", "Mask", "掩码", {"none", "causal"},
                    {"every query sees every key",
                     "query i sees keys 0..i only (a decoder): half the work"},
                    {"每个查询看到所有键", "查询 i 只看到键 0..i（解码器）：工作量减半"},
                    {"无", "因果"}),
        DataParam({
            {"random", "Q, K and V standard normal, rounded to bf16",
             "Q、K、V 为标准正态分布，舍入为 bf16"},
        }),
    };
    chapter.messages = AttentionMessages();
    chapter.make_workload = MakeWorkload<AttentionWorkload>;
    chapter.workload_host_bytes = [](const ParamValues& p) {
        return AttentionWorkloadHostBytes(p.Number("b") * p.Number("h"), p.Number("n"),
                                          uint64_t(HeadDim(p)));
    };
    chapter.describe = [](const ParamValues& p) {
        return "B = " + std::to_string(p.Number("b")) + ", H = " + std::to_string(p.Number("h")) +
               ", N = " + std::to_string(p.Number("n")) + ", d = " + p.Choice("d") +
               (Causal(p) ? ", causal" : "") + " (bf16)";
    };
    chapter.work = [](StepKind, const ParamValues& p) { return AttentionWork(p); };

    const Fused mma_tiles{
        {"128x64", "64x64"},
        {"128 query rows a block (8 warps, 16 rows each), K and V in tiles of 64 keys",
         "64 query rows a block (4 warps), K and V in tiles of 64 keys"},
        {"每个线程块 128 个查询行（8 个 warp，每个 16 行），K 和 V 每块 64 个键",
         "每个线程块 64 个查询行（4 个 warp），K 和 V 每块 64 个键"}};
    // The pipelined steps: the same warps and tile of 64 keys, and 2 or 3 stages of K and V.
    const Fused pipelined_tiles{
        {"128x64-s2", "128x64-s3", "64x64-s2", "64x64-s3"},
        {"128 query rows a block (8 warps), 2 stages of K and V tiles of 64 keys in flight",
         "128 query rows a block (8 warps), 3 stages of K and V tiles of 64 keys",
         "64 query rows a block (4 warps), 2 stages of K and V tiles of 64 keys",
         "64 query rows a block (4 warps), 3 stages of K and V tiles of 64 keys"},
        {"每个线程块 128 个查询行（8 个 warp），K 和 V 各 64 个键的分块，2 级流水",
         "每个线程块 128 个查询行（8 个 warp），K 和 V 各 64 个键的分块，3 级流水",
         "每个线程块 64 个查询行（4 个 warp），K 和 V 各 64 个键的分块，2 级流水",
         "每个线程块 64 个查询行（4 个 warp），K 和 V 各 64 个键的分块，3 级流水"}};
    // The log2 step's tiles: the pipelined step's, then three whose warps own 32 query rows
    // (two m16 slices: each K and V fragment read from shared memory feeds twice the products).
    Fused log2_tiles = pipelined_tiles;
    log2_tiles.tiles.insert(log2_tiles.tiles.end(),
                            {"128x64-s2-w32", "128x64-s3-w32", "256x64-s2-w32"});
    log2_tiles.notes.insert(
        log2_tiles.notes.end(),
        {"128 query rows a block (4 warps of 32 rows), 2 stages of K and V tiles of 64 keys",
         "128 query rows a block (4 warps of 32 rows), 3 stages of K and V tiles of 64 keys",
         "256 query rows a block (8 warps of 32 rows), 2 stages of K and V tiles of 64 keys"});
    log2_tiles.notes_zh.insert(
        log2_tiles.notes_zh.end(),
        {"每个线程块 128 个查询行（4 个 warp，各 32 行），K 和 V 各 64 个键的分块，2 级流水",
         "每个线程块 128 个查询行（4 个 warp，各 32 行），K 和 V 各 64 个键的分块，3 级流水",
         "每个线程块 256 个查询行（8 个 warp，各 32 行），K 和 V 各 64 个键的分块，2 级流水"});
    AddChapter(registry, chapter, "lessons/10_attention",
               {.kernels = "kernels/attention", .needs = &AttentionGpuNeeds},
               {
                   {.slug = "unfused",
                    .title = "Three kernels: the N × N matrix goes through memory",
                    .step = Unfused{},
                    .params = {BlockParam(32, 1024, 256, true)},
                    .needs = &UnfusedAttentionNeeds,
                    .focus = {"LDG.128", "STG.128", "SHFL", "BAR"},
                    .previous = "",
                    .work = &UnfusedAttentionWork},
                   {.slug = "fused-simt",
                    .title = "One fused kernel: the scores never leave the chip",
                    .step = Fused{{"w4-r4", "w4-r2", "w8-r2"},
                                  {"4 warps of 4 query rows: 16 rows a block",
                                   "4 warps of 2 query rows: 8 rows a block",
                                   "8 warps of 2 query rows: 16 rows a block"},
                                  {"4 个 warp，每个 4 个查询行：每块 16 行",
                                   "4 个 warp，每个 2 个查询行：每块 8 行",
                                   "8 个 warp，每个 2 个查询行：每块 16 行"}},
                    .focus = {"FP32", "LDS", "SHFL", "BAR"},
                    .work = &SimtAttentionWork,
                    .exercise = {.fixed = {{"tile", "w4-r4"}, {"d", "128"}},
                                 .instance = "constexpr int D = 128, WARPS = 4, ROWS = 4;"}},
                   {.slug = "mma-sync",
                    .title = "Tensor cores in the fused kernel: the scores stay in registers",
                    .step = mma_tiles,
                    .focus = {"HMMA", "LDSM", "STS", "BAR"},
                    .exercise = {.fixed = {{"tile", "128x64"}, {"d", "128"}},
                                 .instance = "constexpr int D = 128, BR = 128;"}},
                   {.slug = "swizzled",
                    .title = "Swizzled tiles, and ldmatrix.trans for V",
                    .step = mma_tiles,
                    .focus = {"HMMA", "LDSM", "STS", "BAR"},
                    .exercise = {.fixed = {{"tile", "128x64"}, {"d", "128"}},
                                 .instance = "constexpr int D = 128, BR = 128;"}},
                   {.slug = "pipelined",
                    .title = "A cp.async pipeline: the next K and V tiles load during the products",
                    .step = pipelined_tiles,
                    .focus = {"CP.ASYNC", "HMMA", "LDSM", "BAR"},
                    .exercise = {.fixed = {{"tile", "128x64-s2"}, {"d", "128"}},
                                 .instance = "constexpr int D = 128, BR = 128, STAGES = 2;"}},
                   {.slug = "log2-softmax",
                    .title = "Softmax in the log2 domain: one FFMA and one EX2 a score",
                    .step = log2_tiles,
                    .focus = {"FP32", "HMMA", "CP.ASYNC", "BAR"},
                    .exercise = {.fixed = {{"tile", "128x64-s2"}, {"d", "128"}},
                                 .instance = "constexpr int D = 128, BR = 128, STAGES = 2, "
                                             "WM = 1;"}},
                   {.slug = "wgmma-tma",
                    .title = "Hopper: wgmma on the scores, TMA for K and V",
                    .step = Fused{{"128x128", "128x64"},
                                  {"128 query rows a block (two warpgroups of 64), K and V in "
                                   "tiles of 128 keys, two stages",
                                   "128 query rows a block (two warpgroups of 64), K and V in "
                                   "tiles of 64 keys, three stages"},
                                  {"每个线程块 128 个查询行（两个线程束组，各 64 行），K 和 V "
                                   "每块 128 个键，两级流水",
                                   "每个线程块 128 个查询行（两个线程束组，各 64 行），K 和 V "
                                   "每块 64 个键，三级流水"},
                                  true},
                    .focus = {"HGMMA", "TMA", "SYNCS", "WARPGROUP"},
                    .exercise = {.fixed = {{"tile", "128x128"}, {"d", "128"}},
                                 .instance = "constexpr int D = 128, BC = 128, STAGES = 2;"}},
                   {.slug = "warp-specialized",
                    .title = "Warp specialisation: a producer, and two warpgroups taking turns",
                    .step = Fused{{"128x128", "128x128-no-overlap", "128x128-no-pingpong"},
                                  {"a producer warpgroup and two consumer warpgroups of 64 query "
                                   "rows taking turns at the tensor cores; K and V in tiles of "
                                   "128 keys, two stages; each consumer's softmax of one tile "
                                   "runs beside its P·V of the previous one",
                                   "the same, without that overlap inside a warpgroup: Q·Kᵀ, "
                                   "softmax, P·V, one after another",
                                   "the producer alone: no turns and no overlap, each consumer "
                                   "warpgroup issues its products as soon as it is ready"},
                                  {"一个生产者线程束组和两个各 64 个查询行、轮流使用张量核心的"
                                   "消费者线程束组；K 和 V 每块 128 个键，两级流水；每个消费者"
                                   "对一个分块做 softmax 的同时，它对上一个分块的 P·V 仍在运行",
                                   "同上，但线程束组内部不重叠：Q·Kᵀ、softmax、P·V 依次进行",
                                   "只有生产者：不轮流也不重叠，每个消费者线程束组一准备好就发出"
                                   "自己的乘法"},
                                  true,
                                  true},
                    .focus = {"HGMMA", "BAR", "SYNCS", "SETMAXNREG"},
                    // The exercise's one change is the turns: its tile takes them without the
                    // overlap inside a warpgroup.
                    .exercise = {.fixed = {{"tile", "128x128-no-overlap"}, {"d", "128"}},
                                 .instance = "constexpr int D = 128, BC = 128, STAGES = 2;\n"
                                             "constexpr bool PINGPONG = true, OVERLAP = false;"}},
               });
}

}  // namespace lessons
