// Chapter 9, softmax and RMSNorm over rows: the chapter and its lessons, one row each. Each GPU
// step's kind is implemented in softmax_harness.cu, where the GPU library is linked.
#include "catalog.h"
#include "checked.h"
#include "declare.h"
#include "softmax_chapter.h"
#include "softmax_steps.h"
#include "units.h"

namespace lessons {

void RegisterSoftmaxChapter(Registry& registry) {
    using namespace softmax;
    Chapter chapter = NewChapter("softmax");
    // 65536 rows of 1024: the rows of an attention score matrix at a 1K context, 256 MiB each
    // way in fp32, far beyond the L2 cache, so the GPU steps measure DRAM; a short row, where a
    // warp per row pays.
    chapter.params = {
        MatrixDimension("m", "Rows", "行数", 65536, kMaxDimension,
                        "the kernels index rows with int; memory limits m × n well before that"),
        MatrixDimension("n", "Columns", "列数", 1024, kMaxDimension,
                        "the kernels index a row with int; memory limits m × n well before that"),
        ChoiceParam("dtype", "Data type", "数据类型", {"fp32", "bf16"},
                    {"float in and out", "bf16 in and out, float arithmetic inside"},
                    {"输入输出都是 float", "输入输出是 bf16，内部用 float 计算"}, {"fp32", "bf16"}),
        DataParam({
            {"random", "standard normal values", "标准正态分布"},
            {"large",
             "uniform in [-80, 80): exp(80) would overflow float without subtracting the max",
             "在 [-80, 80) 上均匀分布：不减去最大值时 exp(80) 会让 float 溢出"},
        }),
    };
    chapter.messages = SoftmaxMessages();
    chapter.make_workload = MakeWorkload<SoftmaxWorkload>;
    chapter.workload_host_bytes = [](const ParamValues& p) {
        return SoftmaxWorkloadHostBytes(p.Number("m"), p.Number("n"), p.Choice("dtype") == "bf16");
    };
    chapter.describe = [](const ParamValues& p) {
        const uint64_t m = p.Number("m"), n = p.Number("n");
        const bool bf16 = p.Choice("dtype") == "bf16";
        return std::to_string(m) + " × " + std::to_string(n) + " " + p.Choice("dtype") + " (" +
               MatrixSizeText(m, n, bf16 ? 2 : 4) + ", " + p.Choice("data") + ")";
    };
    chapter.work = [](StepKind, const ParamValues& p) {
        return SoftmaxWork(p.Number("m"), p.Number("n"), p.Choice("dtype") == "bf16", Op::kSoftmax);
    };

    const ParamSpec block = BlockParam(32, 1024, 256, true);
    // Threads a row (9.5, 9.8): automatic (each thread about 8 chunks of 16 bytes) or fixed, at
    // most the block.
    std::vector<std::string> lanes_notes{
        "the fewest threads (a power of two) that leave each at most 8 chunks of 16 bytes"};
    std::vector<std::string> lanes_notes_zh{
        "最少的线程数（2 的幂），使每个线程至多 8 个 16 字节块"};
    std::vector<std::string> lanes_choices{"auto"};
    std::vector<std::string> lanes_labels_zh{"自动"};
    for (int l = 4; l <= 1024; l *= 2) {
        lanes_choices.push_back(std::to_string(l));
        lanes_labels_zh.push_back(std::to_string(l));
        lanes_notes.push_back(std::to_string(l) + " threads a row (at most the block)");
        lanes_notes_zh.push_back("每行 " + std::to_string(l) + " 个线程（不超过线程块大小）");
    }
    const ParamSpec lanes = ChoiceParam("lanes", "Threads a row", "每行线程数", lanes_choices,
                                        lanes_notes, lanes_notes_zh, lanes_labels_zh);
    // Blocks a row (9.7): automatic or a cluster of 1 to 16 blocks, each keeping its part of the
    // row in shared memory.
    const ParamSpec cluster = ChoiceParam(
        "cluster", "Blocks a row", "每行线程块数", {"auto", "1", "2", "4", "8", "16"},
        {"the fewest blocks (a power of two, up to 16) that leave each at most 32 KiB of the row",
         "one block a row", "a cluster of 2 blocks", "a cluster of 4 blocks",
         "a cluster of 8 blocks (the portable largest)",
         "a cluster of 16 blocks (sm_90's non-portable largest)"},
        {"最少的线程块数（2 的幂，至多 16），使每个线程块至多 32 KiB 的行", "每行一个线程块",
         "2 个线程块的簇", "4 个线程块的簇", "8 个线程块的簇（可移植的最大值）",
         "16 个线程块的簇（sm_90 不可移植的最大值）"},
        {"自动", "1", "2", "4", "8", "16"});
    // Bytes in flight per thread (Little's law in the prediction box): softmax_chapter.h.
    const auto InFlightOf = [](InFlightShape shape) -> InFlightFn {
        return [shape](const ParamValues& p) { return SoftmaxBytesInFlight(shape, p); };
    };
    AddChapter(
        registry, chapter, "lessons/09_softmax",
        {
            {.slug = "cpu-three-pass",
             .title = "CPU: three passes per row, OpenMP over rows",
             .source = "kernels/softmax/cpu-three-pass.cpp",
             .cpu = &MakeSoftmaxCpu,
             .params = {ThreadsParam()},
             .needs = &SoftmaxCpuNeeds},
            {.slug = "thread-per-row",
             .title = "One thread per row",
             .source = "kernels/softmax/thread-per-row.cu",
             .step = Kernel{},
             .params = {block},
             .needs = &SoftmaxGpuNeeds,
             .focus = {"LDG", "STG", "FP32"},
             .in_flight = InFlightOf(InFlightShape::kElement)},
            {.slug = "block-per-row",
             .title = "A block per row, shared-memory trees",
             .source = "kernels/softmax/block-per-row.cu",
             .step = Kernel{.layout = RowLayout::kBlockPerRow, .smem_per_thread = 4},
             .params = {block},
             .needs = &SoftmaxGpuNeeds,
             .focus = {"LDG", "LDS", "STS", "BAR"},
             .in_flight = InFlightOf(InFlightShape::kElement),
             .exercise = {.fixed = {{"dtype", "fp32"}}, .instance = "using T = float;"}},
            {.slug = "row-in-registers",
             .title = "The row in registers, warp shuffles",
             .source = "kernels/softmax/row-in-registers.cu",
             .step = Kernel{.layout = RowLayout::kWarpPerRow},
             .params = {block},
             .needs = &SoftmaxGpuNeeds,
             .focus = {"LDG", "SHFL", "STG"},
             .in_flight = InFlightOf(InFlightShape::kRowInRegisters),
             .exercise =
                 {.fixed = {{"dtype", "fp32"}},
                  .instance =
                      "using T = float; constexpr bool kWarp = true; constexpr int K = 32;"}},
            {.slug = "vectorized",
             .title = "16-byte loads, bf16 storage",
             .source = "kernels/softmax/vectorized.cu",
             .step = Kernel{.layout = RowLayout::kWarpPerRow},
             .params = {block, lanes},
             .needs = &SoftmaxGpuNeeds,
             .focus = {"LDG.128", "STG.128", "SHFL"},
             .in_flight = InFlightOf(InFlightShape::kChunksInRegisters),
             .exercise = {.fixed = {{"dtype", "fp32"}, {"lanes", "32"}},
                          .instance =
                              "using T = float; constexpr int K = 8; constexpr int kLanes = 32;"}},
            {.slug = "online",
             .title = "Online softmax: max and sum in one pass",
             .source = "kernels/softmax/online.cu",
             .step = Kernel{.layout = RowLayout::kWarpPerRow},
             .params = {block},
             .needs = &SoftmaxGpuNeeds,
             .focus = {"LDG.128", "SHFL", "FP32"},
             .in_flight = InFlightOf(InFlightShape::kChunk),
             .exercise = {.fixed = {{"dtype", "fp32"}},
                          .instance = "using T = float; constexpr bool kWarp = true;"}},
            {.slug = "cluster",
             .title = "Long rows across a thread block cluster",
             .source = "kernels/softmax/cluster.cu",
             .step = Kernel{.layout = RowLayout::kClusterPerRow},
             .params = {block, cluster},
             .needs = &SoftmaxClusterGpuNeeds,
             .focus = {"TMA", "SYNCS", "LDS", "STS"},
             .in_flight = InFlightOf(InFlightShape::kCluster),
             .exercise = {.fixed = {{"dtype", "fp32"}, {"cluster", "4"}},
                          .instance = "using T = float;"}},
            {.slug = "rmsnorm",
             .title = "RMSNorm with the final kernel",
             .source = "kernels/softmax/rmsnorm.cu",
             .step = RmsNorm{},
             .params = {block, lanes},
             .needs = &SoftmaxGpuNeeds,
             .focus = {"LDG.128", "SHFL", "STG.128"},
             .previous = "",
             .work = &RmsNormWork,
             .in_flight = InFlightOf(InFlightShape::kRmsNorm)},
            {.slug = "cudnn",
             .title = "cuDNN cudnnSoftmaxForward",
             .source = "kernels/softmax/cudnn.cu",
             .step = Cudnn{},
             .needs = &SoftmaxGpuNeeds,
             .previous = "vectorized"},
        });
}

}  // namespace lessons
