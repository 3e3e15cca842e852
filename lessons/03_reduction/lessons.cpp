// Chapter 3, reduction: the chapter and its lessons, one row each. Each GPU step's kind is
// implemented in reduce_harness.cu or reduce_multi_harness.cu, where the GPU library is linked.
#include <algorithm>

#include "catalog.h"
#include "declare.h"
#include "reduce/reduce_toggles.h"
#include "reduce_chapter.h"
#include "reduce_steps.h"
#include "units.h"

namespace lessons {
void RegisterReduceChapter(Registry& registry) {
    using namespace reduce;
    Chapter chapter = NewChapter("reduce");
    chapter.params = {
        SizeParam(uint64_t(64) << 20, sizeof(float)),
        DataParam({
            kUniformFloats,
            {"ones", "all 1.0: the sum is exact up to 2^24",
             "全为 1.0：元素数不超过 2^24 时和是精确的"},
            {"large", "floats uniform in [-2^40, 2^40): large magnitudes, far from overflow",
             "在 [-2^40, 2^40) 上均匀分布的浮点数：数值很大，但远不会溢出"},
        }),
    };
    chapter.messages = ReduceMessages();
    chapter.part_names = {{"nccl", "NCCL", "NCCL"}};  // the multi-GPU step's last add
    chapter.make_workload = MakeWorkload<ReduceWorkload>;
    chapter.workload_host_bytes = [](const ParamValues& p) {
        return ReduceWorkloadHostBytes(p.Number("size"));
    };
    chapter.work = [](StepKind, const ParamValues& p) {
        return ReduceWork(p.Number("size") / sizeof(float));
    };
    chapter.describe = [](const ParamValues& p) {
        return FloatsOfSize(p, ", " + p.Choice("data"));
    };

    const std::string why_pow2 =
        "its interleaved tree pairs each element with the one 1, 2, 4, ... places away, which "
        "only covers a block whose size is a power of two";
    const ParamSpec pow2_block = BlockParam(32, 1024, 256, true, why_pow2);
    // v1 carries Harris's tree-addressing steps (his kernels 1, 2 and 3 change only the tree of
    // a one-element-per-thread kernel, which v1 is); on v2 the tree is a smaller share of the
    // time. strided vs sequential is the cost of the bank conflicts alone.
    const ParamSpec addressing = ToggleParam(
        kAddressingToggle, "Tree addressing", "归约树寻址方式",
        {"thread t adds when t % 2s == 0 (as written): scattered active threads, divergent warps",
         "thread t adds at word 2st (Harris's kernel 2): whole warps work, but the words of a "
         "warp crowd into a few shared-memory banks (2- to 32-way bank conflicts)",
         "thread t < half adds word t + half (Harris's kernel 3, v3's tree): no divergence, no "
         "bank conflicts"},
        {"线程 t 在 t % 2s == 0 时相加（原课做法）：活跃线程分散，线程束内分支发散",
         "线程 t 加第 2st 个字（Harris 的 kernel 2）：整个线程束都在工作，但一个线程束访问的字"
         "挤在少数几个共享内存 bank 上（2 到 32 路 bank 冲突）",
         "t < half 的线程把第 t + half 个字加到自己的字上（Harris 的 kernel 3，即 v3 "
         "的归约树）：没有分支发散，也没有 bank 冲突"},
        {"交错", "跨步", "顺序"});
    // v3 without its register accumulation (two-per-thread is v2's load, so
    // accumulate=two-per-thread, last_warp=loop is v2 with only the addressing changed) or
    // without its unrolled last warp.
    const ParamSpec accumulate = ToggleParam(
        kAccumulateToggle, "Elements per thread before the tree", "归约树之前每线程累加的元素数",
        {"a grid that fills the GPU; each thread adds many elements in a register (as written)",
         "two per thread, added while loading (v2's load); a grid covering the data",
         "one per thread (v1's load); a grid covering the data"},
        {"网格正好铺满 GPU，每个线程先在寄存器里累加许多元素（原课做法）",
         "每个线程两个元素，加载时相加（v2 的加载方式）；网格覆盖全部数据",
         "每个线程一个元素（v1 的加载方式）；网格覆盖全部数据"},
        {"每线程多个", "每线程两个", "每线程一个"});
    const ParamSpec last_warp = ToggleParam(
        kLastWarpToggle, "Last warp", "最后一个线程束",
        {"one warp adds the last 64 sums, with __syncwarp only (as written)",
         "the block-wide loop goes on down to one sum, with __syncthreads at every level"},
        {"由一个线程束把最后 64 个部分和加起来，只用 __syncwarp（原课做法）",
         "整个线程块的循环一直进行到只剩一个和，每一层都用 __syncthreads"},
        {"展开", "循环"});
    const ParamSpec loads = ToggleParam(
        kLoadsToggle, "Load width", "每次加载的宽度",
        {"16-byte loads, four floats each (as written)",
         "4-byte loads, one float each, in the same grid-stride loop with two accumulators"},
        {"16 字节加载，每次四个浮点数（原课做法）",
         "4 字节加载，每次一个浮点数，网格跨步循环和两个累加器都不变"},
        {"float4 向量", "标量"});
    const ParamSpec passes =
        ToggleParam(kPassesToggle, "Passes", "归约趟数",
                    {"the last block to finish adds the block sums: one launch (as written)",
                     "a second launch of one block adds the block sums"},
                    {"最后完成的线程块把各块的和加起来：只启动一次（原课做法）",
                     "再启动一个只有一个线程块的 kernel 把各块的和加起来"},
                    {"一趟", "两趟"});
    AddChapter(
        registry, chapter, "lessons/03_reduction",
        {.kernels = "kernels/reduce", .needs = &ReduceGpuNeeds},
        {
            {.slug = "cpu-sum",
             .title = "CPU sum, serial and OpenMP",
             .cpu = &MakeReduceCpuSum,
             .params = {ThreadsParam()},
             .needs = &ReduceCpuNeeds,
             .seed = {"CPU 5.73 ms (2^20 floats)", "CPU 5.73 ms（2^20 个浮点数）", "seed 003"},
             .was = 19},
            {.slug = "v0-interleaved-global",
             .title = "v0: interleaved, global memory",
             .step = Pass{},
             .params = {pow2_block},
             .needs = &ReduceInPlaceGpuNeeds,
             .focus = {"LDG", "STG", "BAR", "BRA"},
             .in_flight = InFlight(4),
             .seed = {"0.970 ms (2^20 floats, block 1024)",
                      "0.970 ms（2^20 个浮点数，线程块 1024）", "seed 003"},
             .was = 20},
            {.slug = "v1-shared-memory",
             .title = "v1: shared memory",
             .step = Pass{},
             .params = {pow2_block, addressing},
             .focus = {"LDS", "STS", "BAR", "BRA"},
             .in_flight = InFlight(4),
             .seed = {"0.886 ms (2^20 floats, block 1024)",
                      "0.886 ms（2^20 个浮点数，线程块 1024）", "seed 003"},
             .was = 21,
             .exercise = {.fixed = {{"addressing", "interleaved"}},
                          .instance =
                              "constexpr Addressing kAddressing = Addressing::kInterleaved;"}},
            {.slug = "v2-add-during-load",
             .title = "v2: add during load, half the blocks",
             .step = Pass{},
             .params = {pow2_block},
             .focus = {"LDG", "LDS", "STS", "BAR"},
             .in_flight = InFlight(8),
             .seed = {"0.628 ms (2^20 floats, block 1024, half the blocks)",
                      "0.628 ms（2^20 个浮点数，线程块 1024，线程块减半）", "seed 003"},
             .was = 22},
            {.slug = "v3-unrolled-last-warp",
             .title = "v3: sequential addressing, unrolled last warp",
             .step = Pass{},
             .params = {BlockParam(64, 1024, 256, true,
                                   "its tree halves the block down to one warp reading 32 places "
                                   "away, so the block must be a power of two of at least 64 "
                                   "(with every toggle, so that they compare at the same sizes)"),
                        accumulate, last_warp},
             .focus = {"LDS", "STS", "BAR", "FP32"},
             .in_flight = [](const ParamValues& p) -> uint64_t {
                 // One float per iteration of the register loop; two with v2's load.
                 const char* name = kAccumulateToggle.name;
                 const bool two =
                     p.Has(name) && p.Choice(name) == kAccumulateToggle[Accumulate::kTwoPerThread];
                 return two ? 8 : 4;
             },
             .was = 23,
             .exercise = {.fixed = {{"accumulate", "many-per-thread"}, {"last_warp", "unrolled"}},
                          .instance =
                              "constexpr Accumulate kAccumulate = Accumulate::kManyPerThread;\n"
                              "constexpr LastWarp kLastWarp = LastWarp::kUnrolled;"}},
            {.slug = "v4-warp-shuffle",
             .title = "v4: warp shuffle",
             .step = Pass{},
             .params = {BlockParam(32, 1024, 256)},
             .focus = {"SHFL", "LDS", "BAR"},
             .in_flight = InFlight(4),
             .was = 24},
            {.slug = "v5-vectorized-one-pass",
             .title = "v5: float4 loads, one pass",
             .step = OnePass{},
             .params = {BlockParam(32, 1024, 512), loads, passes},
             .focus = {"LDG.128", "LDG", "SHFL", "ATOM"},
             .in_flight = [](const ParamValues& p) -> uint64_t {
                 // Two independent accumulators, each fed by a 16-byte (or a 4-byte) load.
                 const char* name = kLoadsToggle.name;
                 const bool scalar = p.Has(name) && p.Choice(name) == kLoadsToggle[Loads::kScalar];
                 return scalar ? 8 : 32;
             },
             .was = 25,
             .exercise = {.fixed = {{"loads", "float4"}, {"passes", "one"}},
                          .instance = "constexpr Loads kLoads = Loads::kFloat4;\n"
                                      "constexpr Passes kPasses = Passes::kOne;"}},
            {.slug = "cub", .title = "CUB DeviceReduce::Sum", .step = Cub{}, .was = 26},
            {.slug = "multi-gpu-nccl",
             .title = "Several GPUs: a share each, NCCL adds",
             .step = MultiGpuNccl{},
             .params = {BlockParam(32, 1024, 512), GpusParam()},
             .focus = {"LDG", "STG"},
             // Judged end to end (the shares' kernels, then NCCL), as its step reports; the
             // GPUs' sums, 4 bytes each, cross between GPUs.
             .work =
                 [](const ParamValues& p) {
                     Work w = ReduceWork(p.Number("size") / sizeof(float));
                     w.peer_bytes =
                         4 * (p.Has("gpus") ? std::max<uint64_t>(p.Number("gpus"), 1) : 1);
                     w.rate_part.clear();
                     return w;
                 }},
        });
}

}  // namespace lessons
