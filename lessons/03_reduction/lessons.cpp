// Chapter 3, reduction: the chapter and its lessons, one row each. GPU steps get their runners
// from reduce_harness.cu where the GPU library is linked.
#include "catalog.h"
#include "declare.h"
#include "reduce_chapter.h"
#include "units.h"

namespace lessons {

void RegisterReduceChapter(Registry& registry) {
    using namespace reduce;
    Chapter chapter;
    chapter.number = 3;
    chapter.id = "reduce";
    chapter.title = "Reduction: sum an array";
    chapter.work_rule =
        "reads every float once (4 bytes each) and adds it (1 flop each); GPU steps are "
        "compared with the read-only bandwidth";
    chapter.params = {
        SizeParam(uint64_t(64) << 20, sizeof(float)),
        ChoiceParam("data", "Data", "数据", {"random", "ones"},
                    {"floats uniform in [-1, 1)", "all 1.0: the sum is exact up to 2^24"}),
    };
    chapter.make_workload = [](const WorkloadSpec& spec) {
        return std::make_shared<ReduceWorkload>(spec);
    };
    chapter.workload_host_bytes = [](const ParamValues& p) {
        return ReduceWorkloadHostBytes(p.Number("size"));
    };
    chapter.describe = [](const ParamValues& p) {
        return std::to_string(p.Number("size") / sizeof(float)) + " floats (" +
               FormatSize(p.Number("size")) + ", " + p.Choice("data") + ")";
    };

    const std::string why_pow2 =
        "its interleaved tree pairs each element with the one 1, 2, 4, ... places away, which "
        "only covers a block whose size is a power of two";
    const ParamSpec pow2_block = BlockParam(32, 1024, 256, true, why_pow2);
    const StepKind cpu = StepKind::kCpu, gpu = StepKind::kGpu;
    AddChapter(
        registry, chapter, "lessons/03_reduction",
        {
            {19,
             "19-cpu-sum",
             "CPU sum, serial and OpenMP",
             cpu,
             0,
             "kernels/reduce/19_cpu_openmp.cpp",
             {ThreadsParam()},
             &ReduceCpuNeeds,
             &MakeReduceCpuSum},
            {20,
             "20-v0-interleaved-global",
             "v0: interleaved, global memory",
             gpu,
             19,
             "kernels/reduce/20_interleaved_global.cu",
             {pow2_block},
             &ReduceInPlaceGpuNeeds},
            {21,
             "21-v1-shared-memory",
             "v1: shared memory",
             gpu,
             20,
             "kernels/reduce/21_shared_memory.cu",
             {pow2_block},
             &ReduceGpuNeeds},
            {22,
             "22-v2-add-during-load",
             "v2: add during load, half the blocks",
             gpu,
             21,
             "kernels/reduce/22_add_during_load.cu",
             {pow2_block},
             &ReduceGpuNeeds},
            {23,
             "23-v3-unrolled-last-warp",
             "v3: sequential addressing, unrolled last warp",
             gpu,
             22,
             "kernels/reduce/23_sequential_unrolled_warp.cu",
             {BlockParam(64, 1024, 256, true,
                         "its tree halves the block down to one warp reading 32 places away, so "
                         "the block must be a power of two of at least 64")},
             &ReduceGpuNeeds},
            {24,
             "24-v4-warp-shuffle",
             "v4: warp shuffle",
             gpu,
             23,
             "kernels/reduce/24_warp_shuffle.cu",
             {BlockParam(32, 1024, 256)},
             &ReduceGpuNeeds},
            {25,
             "25-v5-vectorized-one-pass",
             "v5: float4 loads, one pass",
             gpu,
             24,
             "kernels/reduce/25_vectorized_one_pass.cu",
             {BlockParam(32, 1024, 512)},
             &ReduceGpuNeeds},
            {26,
             "26-cub",
             "CUB DeviceReduce::Sum",
             gpu,
             25,
             "kernels/reduce/26_cub.cu",
             {},
             &ReduceGpuNeeds,
             nullptr,
             true},
        });
}

}  // namespace lessons
