// Chapter 1, split lines: the chapter and its lessons, one row each. GPU steps get their
// runners from split_harness.cu where the GPU library is linked.
#include <algorithm>

#include "catalog.h"
#include "declare.h"
#include "split/split_cpu.h"
#include "split/split_toggles.h"
#include "split_chapter.h"
#include "units.h"

namespace lessons {

void RegisterSplitChapter(Registry& registry) {
    using namespace split;
    Chapter chapter;
    chapter.number = 1;
    chapter.id = "split";
    chapter.title = "Split lines: find every \\r\\n";
    chapter.title_zh = "拆分行：找出每个 \\r\\n";
    chapter.work_rule =
        "reads the buffer once (n bytes) and writes 8 bytes per line break found; GPU steps are "
        "compared with the read-only bandwidth, lesson 11 (copy and scan overlapped) with the "
        "host-to-device copy";
    chapter.params = {
        SizeParam(uint64_t(64) << 20),
        ChoiceParam(
            "data", "Data", "数据", {"random", "dense", "none"},
            {"random bytes: \\r and \\n each 1/256", "lines of 0-3 bytes", "no line breaks at all"},
            {"随机字节：\\r 与 \\n 各占 1/256", "每行 0 到 3 个字节", "完全没有换行"}),
    };
    chapter.accepts_input_file = true;
    chapter.make_workload = [](const WorkloadSpec& spec) {
        return std::make_shared<SplitWorkload>(spec);
    };
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
    // Lesson 11 overlaps the copy with the scan: it is held to the host-to-device copy.
    const WorkFn overlapped_work = [](const ParamValues& p) {
        const uint64_t n = p.Number("size");
        Work w = SplitWork(n, ExpectedBreaks(p.Choice("data"), n), true);
        w.bound = Bound::kH2D;
        return w;
    };
    // Lessons 12-14 copy the text to several GPUs and are held to the copies; 12 and 13 also
    // gather the other GPUs' shares on GPU 0 (about (g - 1) / g of the text between GPUs).
    const WorkFn multi_work = [overlapped_work](const ParamValues& p) {
        Work w = overlapped_work(p);
        const uint64_t gpus = p.Has("gpus") ? std::max<uint64_t>(p.Number("gpus"), 1) : 1;
        w.peer_bytes = p.Number("size") - p.Number("size") / gpus;
        w.rate_part.clear();
        return w;
    };
    const WorkFn each_scans_work = [overlapped_work](const ParamValues& p) {
        Work w = overlapped_work(p);
        w.rate_part.clear();
        return w;
    };

    const ParamSpec any_block = BlockParam(32, 1024, 256);
    // Lessons 10 and 11 stage up to 16 offsets of 4 bytes per thread in shared memory: 32 KiB
    // at 512 threads, within the 48 KiB a block gets without opting in to more.
    const ParamSpec staged_block =
        BlockParam(32, 512, 256, false,
                   "each thread stages up to 16 offsets of 4 bytes in shared memory: 512 threads "
                   "take 32 KiB, and 1024 would need 64 KiB, more than the 48 KiB a block gets "
                   "by default");
    // Lesson 10's ablation toggle: its block-level compaction switched off, leaving lesson 8's
    // output (one atomic per hit) on lesson 10's loads and tests. The block cap above stays for
    // both, so that they compare at the same sizes.
    const ParamSpec output = ChoiceParam(
        "output", "Output of the offsets", "结果的写出方式",
        std::vector<std::string>(kOutputNames.begin(), kOutputNames.end()),
        {"a block prefix sum places the hits, one atomicAdd per block, offsets staged in shared "
         "memory and written contiguously (as written)",
         "one atomicAdd on the global counter per hit, each offset written where it lands, as in "
         "lesson 8"},
        {"块内前缀和为命中定位，每个线程块一次 "
         "atomicAdd，偏移先暂存在共享内存再连续写出（原课做法）",
         "每个命中对全局计数器做一次 atomicAdd，偏移写到各自分到的位置，与第 8 课相同"});
    const StepKind cpu = StepKind::kCpu, gpu = StepKind::kGpu;
    AddChapter(
        registry, chapter, "lessons/01_split_lines",
        {
            {1,
             "01-naive-scan",
             "Naive CPU scan",
             cpu,
             0,
             "kernels/split/01_naive.cpp",
             {},
             &SplitCpuNeeds,
             &MakeSplitNaive,
             false,
             nullptr,
             nullptr,
             {"1759 ms (4 GB, Xeon E5-2698 v4)", "1759 ms（4 GB，Xeon E5-2698 v4）", "seed 000"}},
            {2,
             "02-even-positions",
             "Check only even positions",
             cpu,
             1,
             "kernels/split/02_even_positions.cpp",
             {},
             &SplitCpuNeeds,
             &MakeSplitEvenPositions,
             false,
             nullptr,
             nullptr,
             {"1312 ms (4 GB, Xeon E5-2698 v4)", "1312 ms（4 GB，Xeon E5-2698 v4）", "seed 000"}},
            {3,
             "03-openmp",
             "OpenMP threads",
             cpu,
             2,
             "kernels/split/03_openmp.cpp",
             {ThreadsParam()},
             &SplitCpuNeeds,
             &MakeSplitOpenMP,
             false,
             nullptr,
             nullptr,
             {"130 ms (4 GB, 80 threads, DGX-1)", "130 ms（4 GB，80 个线程，DGX-1）", "seed 000"}},
            {4,
             "04-one-thread-per-pair",
             "CUDA: one thread per pair",
             gpu,
             3,
             "kernels/split/04_one_thread_per_pair.cu",
             {any_block},
             &SplitGpuNeeds,
             nullptr,
             false,
             nullptr,
             InFlight(2),
             {"H2D 487.5 ms + kernel 10.0 ms (4 GB, V100)",
              "H2D 487.5 ms + 内核 10.0 ms（4 GB，V100）", "seed 000"}},
            // Lessons 5 to 11 keep the text in page-locked host memory (lesson 5's change).
            {5,
             "05-pinned-memory",
             "Pinned host memory",
             gpu,
             4,
             "kernels/split/05_pinned_memory.cu",
             {any_block},
             &SplitPinnedGpuNeeds,
             nullptr,
             false,
             nullptr,
             InFlight(2),
             {"H2D 388.6 ms + kernel 10.0 ms (4 GB, V100)",
              "H2D 388.6 ms + 内核 10.0 ms（4 GB，V100）", "seed 000"}},
            {6,
             "06-branch-free-padding",
             "Branch-free kernel with padding",
             gpu,
             5,
             "kernels/split/06_branch_free_padding.cu",
             {any_block},
             &SplitPinnedGpuNeeds,
             nullptr,
             false,
             nullptr,
             InFlight(2),
             {"kernel 9.0 ms (4 GB, V100)", "内核 9.0 ms（4 GB，V100）", "seed 000"}},
            {7,
             "07-shared-memory",
             "Shared-memory staging",
             gpu,
             6,
             "kernels/split/07_shared_memory.cu",
             {any_block},
             &SplitPinnedGpuNeeds,
             nullptr,
             false,
             nullptr,
             InFlight(2),
             {"kernel 23 ms (1 GB, K80; method 6: 35 ms)", "内核 23 ms（1 GB，K80；方法六：35 ms）",
              "seed 001"}},
            {8,
             "08-four-bytes-per-thread",
             "More work per thread",
             gpu,
             7,
             "kernels/split/08_four_bytes_per_thread.cu",
             {any_block},
             &SplitPinnedGpuNeeds,
             nullptr,
             false,
             nullptr,
             InFlight(4),
             {"kernel 13 ms (1 GB, K80)", "内核 13 ms（1 GB，K80）", "seed 001"}},
            {9,
             "09-thrust-copy-if",
             "Thrust copy_if",
             gpu,
             8,
             "kernels/split/09_thrust_copy_if.cu",
             {},
             &SplitPinnedGpuNeeds,
             nullptr,
             true,
             nullptr,
             nullptr,
             {"344 ms end to end (1 GB, K80; method 8: 281 ms)",
              "端到端 344 ms（1 GB，K80；方法八：281 ms）", "seed 001"}},
            {10,
             "10-vector-loads-block-compaction",
             "16-byte loads, block-aggregated output",
             gpu,
             9,
             "kernels/split/10_vector_loads_block_compaction.cu",
             {staged_block, output},
             &SplitPinnedGpuNeeds,
             nullptr,
             false,
             nullptr,
             InFlight(32)},
            {11,
             "11-overlapped-chunks",
             "Hide the copy: overlapped chunks",
             gpu,
             10,
             "kernels/split/11_overlapped_chunks.cu",
             {staged_block},
             &SplitPinnedGpuNeeds,
             nullptr,
             false,
             overlapped_work,
             InFlight(32)},
            // Lessons 12-14: several GPUs (`gpus`), lesson 10's kernel, pinned text.
            {12,
             "12-scatter-gather",
             "Several GPUs: scatter, then gather on GPU 0",
             gpu,
             11,
             "kernels/split/12_scatter_gather.cu",
             {staged_block, GpusParam()},
             &SplitPinnedGpuNeeds,
             nullptr,
             false,
             multi_work,
             InFlight(32)},
            {13,
             "13-openmp-per-gpu",
             "One OpenMP thread per GPU",
             gpu,
             12,
             "kernels/split/13_openmp_per_gpu.cu",
             {staged_block, GpusParam()},
             &SplitPinnedGpuNeeds,
             nullptr,
             false,
             multi_work,
             InFlight(32)},
            {14,
             "14-each-scans-its-share",
             "Each GPU scans its own share",
             gpu,
             13,
             "kernels/split/14_each_scans_its_share.cu",
             {staged_block, GpusParam()},
             &SplitPinnedGpuNeeds,
             nullptr,
             false,
             each_scans_work,
             InFlight(32)},
        });
}

}  // namespace lessons
