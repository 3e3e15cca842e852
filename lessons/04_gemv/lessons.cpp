// Chapter 4, GEMV: the chapter and its lessons, one row each. Each GPU step's kind is
// implemented in gemv_harness.cu, where the GPU library is linked.
#include "catalog.h"
#include "checked.h"
#include "declare.h"
#include "gemv/gemv_toggles.h"
#include "gemv_chapter.h"
#include "gemv_steps.h"
#include "units.h"

namespace lessons {

void RegisterGemvChapter(Registry& registry) {
    using namespace gemv;
    Chapter chapter = NewChapter("gemv");
    chapter.params = MatrixDimensions(
        MatrixShape::kRowsColumns, 8192, kMaxDimension,
        "cuBLAS takes the dimensions as int; memory limits m × n well before that",
        {
            DataParam({
                {"random", "A and x uniform in [-1, 1)", "A 和 x 在 [-1, 1) 上均匀分布"},
                {"ones", "all 1.0: every y is exactly n while n <= 2^24",
                 "全为 1.0：n 不超过 2^24 时每个 y 都精确等于 n"},
                {"large",
                 "A uniform in [-2^40, 2^40), x in [-1, 1): large magnitudes, far from overflow",
                 "A 在 [-2^40, 2^40) 上、x 在 [-1, 1) 上均匀分布：数值很大，但远不会溢出"},
            }),
        });
    chapter.messages = {kGemvWrongRows};
    chapter.make_workload = MakeWorkload<GemvWorkload>;
    chapter.workload_host_bytes = [](const ParamValues& p) {
        return GemvWorkloadHostBytes(p.Number("m"), p.Number("n"));
    };
    chapter.describe = [](const ParamValues& p) {
        const uint64_t m = p.Number("m"), n = p.Number("n");
        return "m = " + std::to_string(m) + " × n = " + std::to_string(n) + " (A " +
               MatrixSizeText(m, n, sizeof(float)) + ", " + p.Choice("data") + ")";
    };

    // The work without running: the page's prediction and the runner's choice of ceiling.
    chapter.work = [](StepKind, const ParamValues& p) {
        return GemvWork(p.Number("m"), p.Number("n"));
    };

    const ParamSpec block = BlockParam(32, 1024, 256);
    // Lesson 4.3's ablations: it changes three things at once against lesson 4.2 (16-byte
    // loads, a whole block on a long row, several short rows per warp); each toggle takes one
    // out.
    const ParamSpec loads = ToggleParam(
        kGemvLoadsToggle, "Load width", "每次加载的宽度",
        {"16-byte loads of A and x, four float4s before any is used (as written)",
         "4-byte loads, four floats before any is used; the same lanes per row and order"},
        {"A 和 x 用 16 字节加载，先发出四个 float4 再使用（原课做法）",
         "4 字节加载，先发出四个 float 再使用；每行的线程数和访问顺序不变"},
        {"float4 向量", "标量"});
    const ParamSpec row_lanes = ToggleParam(
        kRowLanesToggle, "Lanes per row", "每行的线程数",
        {"as many as the row has work for: a few for short rows, a warp, or the whole block for "
         "long rows (as written)",
         "the same, but never more than a warp: no block per row",
         "always a warp, as in lesson 4.2: no block per row, no short rows sharing a warp"},
        {"按每行的工作量分配：短行几个线程，或一个线程束，长行整个线程块（原课做法）",
         "同上，但最多一个线程束：不再用整个线程块处理一行",
         "总是一个线程束，和第 4.2 课一样：既不整块处理一行，也不让几个短行共用一个线程束"},
        {"按需", "最多一个线程束", "一个线程束"});
    AddChapter(registry, chapter, "lessons/04_gemv",
               {.kernels = "kernels/gemv", .needs = &GemvGpuNeeds},
               {
                   {.slug = "thread-per-row",
                    .title = "One thread per row",
                    .step = Kernel{},
                    .params = {block},
                    .focus = {"LDG", "FP32"}},
                   {.slug = "warp-per-row",
                    .title = "One warp per row, shuffle reduction",
                    .step = Kernel{.layout = RowLayout::kWarpPerRow},
                    .params = {block},
                    .focus = {"LDG", "SHFL", "FP32"}},
                   {.slug = "vectorized-rows-per-warp",
                    .title = "float4 loads, several rows per warp",
                    .step = Kernel{.layout = RowLayout::kGroupPerRow},
                    .params = {block, loads, row_lanes},
                    .focus = {"LDG.128", "SHFL", "FP32", "BAR"},
                    .exercise = {.fixed = {{"loads", "float4"}, {"row_lanes", "as-needed"}}}},
                   {.slug = "cublas", .title = "cuBLAS cublasSgemv", .step = Cublas{}},
               });
}

}  // namespace lessons
