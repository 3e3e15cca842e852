// Chapter 1, split lines: the chapter and its lessons, one row each. Each GPU step's kind is
// implemented in split_harness.cu or split_multi_harness.cu, where the GPU library is linked.
#include <algorithm>

#include "catalog.h"
#include "declare.h"
#include "shares.h"
#include "split/split_cpu.h"
#include "split/split_toggles.h"
#include "split_chapter.h"
#include "split_steps.h"
#include "units.h"

namespace lessons {
namespace split {
namespace {

// The work of a GPU step at a parameter set, the line breaks as expected for the data kind.
Work GpuWork(const ParamValues& p) {
    const uint64_t n = p.Number("size");
    return SplitWork(n, ExpectedBreaks(p.Choice("data"), n), true);
}

}  // namespace

WorkFn OverlappedChunks::Work() const {
    return [](const ParamValues& p) {
        lessons::Work w = GpuWork(p);
        w.bound = Bound::kH2D;
        return w;
    };
}

WorkFn MultiGpu::Work() const {
    return [gathers = plan != Plan::kEachScans](const ParamValues& p) {
        lessons::Work w = GpuWork(p);
        w.bound = Bound::kH2D;
        w.rate_part.clear();
        // Every share but GPU 0's travels to GPU 0 (about (g - 1) / g of the text).
        const uint64_t n = p.Number("size");
        const int gpus = p.Has("gpus") ? std::max(int(p.Number("gpus")), 1) : 1;
        if (gathers) w.peer_bytes = n - ShareOf(n, gpus, 0, kSplitShareAlign).size();
        return w;
    };
}

}  // namespace split

namespace {

using namespace split;

// The kernel the chunked and multi-GPU steps launch on each piece of the text.
constexpr const char* kRangeScanKernel = "kernels/split/vector-loads-block-compaction.cu";

Chapter SplitChapter() {
    Chapter chapter = NewChapter("split");
    chapter.params = {
        SizeParam(uint64_t(64) << 20),
        DataParam({
            {"random", "random bytes: \\r and \\n each 1/256", "随机字节：\\r 与 \\n 各占 1/256"},
            {"dense", "lines of 0-3 bytes", "每行 0 到 3 个字节"},
            {"none", "no line breaks at all", "完全没有换行"},
        }),
    };
    chapter.messages = SplitMessages();
    chapter.accepts_input_file = true;
    chapter.make_workload = MakeWorkload<SplitWorkload>;
    chapter.workload_host_bytes = [](const ParamValues& p) {
        return SplitWorkloadHostBytes(p.Number("size"));
    };
    chapter.params_of_file = [](uint64_t bytes) {
        ParamValues p;
        p.Set("size", ParamValue::Number(bytes));
        return p;
    };
    chapter.describe = [](const ParamValues& p) {
        return FormatSize(p.Number("size")) + " of " + p.Choice("data") + " text";
    };
    chapter.work = [](StepKind kind, const ParamValues& p) {
        const uint64_t n = p.Number("size");
        return SplitWork(n, ExpectedBreaks(p.Choice("data"), n), kind == StepKind::kGpu);
    };
    return chapter;
}

// The kernels that stage up to 16 offsets of 4 bytes per thread in shared memory: 32 KiB at
// 512 threads, within the 48 KiB a block gets without opting in to more.
ParamSpec StagedBlock() {
    return BlockParam(32, 512, 256, false,
                      "each thread stages up to 16 offsets of 4 bytes in shared memory: 512 "
                      "threads take 32 KiB, and 1024 would need 64 KiB, more than the 48 KiB a "
                      "block gets by default");
}

// The vector-loads step's ablation toggles, one per idea it bundles: each takes one idea out
// and leaves the others as written. The block cap stays for all, so that they compare at the
// same sizes. Its parameters: the staged block size, then the toggles.
std::vector<ParamSpec> VectorLoadsParams() {
    return {
        StagedBlock(),
        ToggleParam(
            kOutputToggle, "Output of the offsets", "结果的写出方式",
            {"a block prefix sum places the hits, one atomicAdd per block, offsets staged "
             "in shared memory and written contiguously (as written)",
             "one atomicAdd on the global counter per hit, each offset written where it "
             "lands, as the earlier steps do"},
            {"块内前缀和为命中定位，每个线程块一次 "
             "atomicAdd，偏移先暂存在共享内存再连续写出（原课做法）",
             "每个命中对全局计数器做一次 atomicAdd，偏移写到各自分到的位置，与前面几步相同"},
            {"按线程块", "每次命中"}),
        ToggleParam(kSplitLoadsToggle, "Load width", "加载宽度",
                    {"two 16-byte loads per thread, a block-width apart (as written)",
                     "the same 32 bytes per thread as eight 4-byte loads: the same bytes and "
                     "layout, four times the load instructions"},
                    {"每个线程两次 16 字节加载，相隔一个线程块宽度（原课做法）",
                     "每个线程同样的 32 字节，改为八次 4 字节加载：字节和布局不变，加载指令是四倍"},
                    {"16 字节", "4 字节"}),
        ToggleParam(kPairTestToggle, "Test for \\r\\n", "\\r\\n 的检测方式",
                    {"one bit test per 4-byte word finds every \\r followed by \\n in it "
                     "(as written)",
                     "a compare of each byte and the byte after it, as the earlier steps do"},
                    {"每个 4 字节的字做一次位运算检测，找出其中每个后面跟着 \\n 的 "
                     "\\r（原课做法）",
                     "逐个字节与它后面的字节比较，与前面几步相同"},
                    {"按字", "按字节"}),
        ToggleParam(kExitsToggle, "Early exits", "提前退出",
                    {"a warp without hits skips its scan, a block without hits leaves at its "
                     "first barrier (as written)",
                     "every warp scans and every block claims its range, empty or not (with "
                     "output=per-hit, which has neither, the same code as early)"},
                    {"没有命中的 warp 跳过扫描，没有命中的线程块在第一道屏障处退出（原课做法）",
                     "每个 warp 都做扫描，每个线程块都认领自己的区间，不论是否为空（output=per-hit "
                     "本来就没有这两步，代码与 early 相同）"},
                    {"提前", "不退出"}),
    };
}

std::vector<LessonRow> CpuRows() {
    return {
        {.slug = "naive-scan",
         .title = "Naive CPU scan",
         .cpu = &MakeSplitNaive,
         .needs = &SplitCpuNeeds,
         .seed = {"1759 ms (4 GB, Xeon E5-2698 v4)", "1759 ms（4 GB，Xeon E5-2698 v4）",
                  "seed 000"}},
        {.slug = "even-positions",
         .title = "Check only even positions",
         .cpu = &MakeSplitEvenPositions,
         .needs = &SplitCpuNeeds,
         .seed = {"1312 ms (4 GB, Xeon E5-2698 v4)", "1312 ms（4 GB，Xeon E5-2698 v4）",
                  "seed 000"}},
        {.slug = "openmp",
         .title = "OpenMP threads",
         .cpu = &MakeSplitOpenMP,
         .params = {ThreadsParam()},
         .needs = &SplitCpuNeeds,
         .seed = {"130 ms (4 GB, 80 threads, DGX-1)", "130 ms（4 GB，80 个线程，DGX-1）",
                  "seed 000"}},
    };
}

// One GPU, from pageable memory, then (from pinned-memory on) from page-locked memory.
std::vector<LessonRow> KernelRows() {
    const ParamSpec block = BlockParam(32, 1024, 256);
    const std::vector<std::string> pairs = {"LDG", "ATOM", "BRA"};
    return {
        {.slug = "one-thread-per-pair",
         .title = "CUDA: one thread per pair",
         .step = Kernel{.args = ScanArgs::kWithN},
         .params = {block},
         .needs = &SplitGpuNeeds,
         .focus = pairs,
         .in_flight = InFlight(2),
         .seed = {"H2D 487.5 ms + kernel 10.0 ms (4 GB, V100)",
                  "H2D 487.5 ms + 内核 10.0 ms（4 GB，V100）", "seed 000"}},
        {.slug = "pinned-memory",
         .title = "Pinned host memory",
         .step =
             Kernel{
                 .pinned = true, .measure_allocation = true, .from = KernelsFrom::kPreviousLesson},
         .params = {block},
         .focus = pairs,
         .in_flight = InFlight(2),
         .seed = {"H2D 388.6 ms + kernel 10.0 ms (4 GB, V100)",
                  "H2D 388.6 ms + 内核 10.0 ms（4 GB，V100）", "seed 000"}},
        {.slug = "branch-free-padding",
         .title = "Branch-free kernel with padding",
         .step = Kernel{.pinned = true},
         .params = {block},
         .focus = pairs,
         .in_flight = InFlight(2),
         .seed = {"kernel 9.0 ms (4 GB, V100)", "内核 9.0 ms（4 GB，V100）", "seed 000"}},
        {.slug = "shared-memory",
         .title = "Shared-memory staging",
         .step = Kernel{.pinned = true},
         .params = {block},
         .focus = {"LDS", "STS", "BAR", "ATOM"},
         .in_flight = InFlight(2),
         .seed = {"kernel 23 ms (1 GB, K80; method 6: 35 ms)",
                  "内核 23 ms（1 GB，K80；方法六：35 ms）", "seed 001"}},
        {.slug = "four-bytes-per-thread",
         .title = "More work per thread",
         .step = Kernel{.pinned = true},
         .params = {block},
         .focus = {"LDG", "LDS", "STS", "BAR", "ATOM"},
         .in_flight = InFlight(4),
         .seed = {"kernel 13 ms (1 GB, K80)", "内核 13 ms（1 GB，K80）", "seed 001"}},
    };
}

// The library, then the kernel that stages its output, alone and with the copy hidden.
std::vector<LessonRow> StagedRows() {
    const std::vector<std::string> staged = {"LDG.128", "SHFL", "BAR", "ATOM"};
    return {
        {.slug = "thrust-copy-if",
         .title = "Thrust copy_if",
         .step = Thrust{},
         .seed = {"344 ms end to end (1 GB, K80; method 8: 281 ms)",
                  "端到端 344 ms（1 GB，K80；方法八：281 ms）", "seed 001"}},
        {.slug = "vector-loads-block-compaction",
         .title = "16-byte loads, block-aggregated output",
         .source = kRangeScanKernel,
         .step = Kernel{.pinned = true, .args = ScanArgs::kWithOffsetBase},
         .params = VectorLoadsParams(),
         .focus = staged,
         .in_flight = InFlight(32),
         .exercise = {.fixed = {{"output", "block"},
                                {"loads", "16-byte"},
                                {"pair_test", "word"},
                                {"exits", "early"}},
                      .instance = "constexpr Output kOutput = Output::kBlock; constexpr Loads "
                                  "kLoads = Loads::k16Byte; constexpr PairTest kTest = "
                                  "PairTest::kWord; constexpr Exits kExits = Exits::kEarly;"}},
        {.slug = "overlapped-chunks",
         .title = "Hide the copy: overlapped chunks",
         .step = OverlappedChunks{},
         .params = {StagedBlock()},
         .focus = staged,
         .in_flight = InFlight(32)},
    };
}

// Several GPUs (`gpus`), the vector-loads kernel, pinned text.
std::vector<LessonRow> MultiGpuRows() {
    const std::vector<std::string> loads_and_stores = {"LDG", "STG"};
    const auto row = [&](const char* slug, const char* title, const char* source, Plan plan) {
        return LessonRow{.slug = slug,
                         .title = title,
                         .source = source,
                         .step = MultiGpu{.plan = plan, .kernels = kRangeScanKernel},
                         .params = {StagedBlock()},
                         .needs = &SplitPinnedGpuNeeds,
                         .focus = loads_and_stores,
                         .in_flight = InFlight(32)};
    };
    return {
        row("scatter-gather", "Several GPUs: scatter, then gather on GPU 0",
            "kernels/split/scatter-gather.cu", Plan::kGatherToFirst),
        row("openmp-per-gpu", "One OpenMP thread per GPU", "kernels/split/openmp-per-gpu.cu",
            Plan::kOpenMPGather),
        row("each-scans-its-share", "Each GPU scans its own share",
            "kernels/split/each-scans-its-share.cu", Plan::kEachScans),
    };
}

}  // namespace

void RegisterSplitChapter(Registry& registry) {
    std::vector<LessonRow> rows = CpuRows();
    for (auto part : {KernelRows(), StagedRows(), MultiGpuRows()})
        rows.insert(rows.end(), part.begin(), part.end());
    AddChapter(registry, SplitChapter(), "lessons/01_split_lines",
               {.kernels = "kernels/split", .needs = &SplitPinnedGpuNeeds}, rows);
}

}  // namespace lessons
