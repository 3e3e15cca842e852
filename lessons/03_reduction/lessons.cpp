// Chapter 3, reduction: the chapter and its lessons, each declared once (see
// lessons/01_split_lines/lessons.cpp for how GPU runners are left out of CUDA-less builds).
#include "catalog.h"
#include "declare.h"
#include "reduce_chapter.h"
#include "reduce_gpu_steps.h"

namespace lessons {

void RegisterReduceChapter(Registry& registry) {
    using namespace reduce;
    Chapter chapter;
    chapter.number = 3;
    chapter.id = "reduce";
    chapter.title = "Reduction: sum an array";
    chapter.bytes_rule = "reads every float once (4 bytes each)";
    chapter.default_size = uint64_t(64) << 20;
    chapter.element_bytes = sizeof(float);
    chapter.data_kinds = {DataKind::kRandom, DataKind::kOnes};
    chapter.make_workload = [](const WorkloadSpec& spec) {
        return std::make_shared<ReduceWorkload>(spec);
    };
    chapter.workload_host_bytes = &WorkloadHostBytes;
    registry.AddChapter(chapter);

    const std::string folder = "lessons/03_reduction";
    const std::string why_pow2 =
        "its interleaved tree pairs each element with the one 1, 2, 4, ... places away, which "
        "only covers a block whose size is a power of two";

    Lesson l = DeclareLesson("reduce", folder,
                             {19, "19-cpu-sum", "CPU sum, serial and OpenMP", StepKind::kCpu, 0,
                              "kernels/reduce/19_cpu_openmp.cpp"});
    l.needs = &CpuStepNeeds;
    l.uses_threads = true;
    l.make = &MakeCpuSum;
    registry.AddLesson(l);

    l = DeclareLesson("reduce", folder,
                      {20, "20-v0-interleaved-global", "v0: interleaved, global memory",
                       StepKind::kGpu, 19, "kernels/reduce/20_interleaved_global.cu"});
    l.blocks = BlockSpec{32, 1024, 256, true, why_pow2};
    l.needs = &InPlaceGpuStepNeeds;
    l.make = LESSONS_GPU(&MakeInterleavedGlobal);
    l.attributes = LESSONS_GPU(&InterleavedGlobalAttributes);
    registry.AddLesson(l);

    l = DeclareLesson("reduce", folder,
                      {21, "21-v1-shared-memory", "v1: shared memory", StepKind::kGpu, 20,
                       "kernels/reduce/21_shared_memory.cu"});
    l.blocks = BlockSpec{32, 1024, 256, true, why_pow2};
    l.needs = &GpuStepNeeds;
    l.make = LESSONS_GPU(&MakeSharedMemory);
    l.attributes = LESSONS_GPU(&SharedMemoryAttributes);
    registry.AddLesson(l);

    l = DeclareLesson("reduce", folder,
                      {22, "22-v2-add-during-load", "v2: add during load, half the blocks",
                       StepKind::kGpu, 21, "kernels/reduce/22_add_during_load.cu"});
    l.blocks = BlockSpec{32, 1024, 256, true, why_pow2};
    l.needs = &GpuStepNeeds;
    l.make = LESSONS_GPU(&MakeAddDuringLoad);
    l.attributes = LESSONS_GPU(&AddDuringLoadAttributes);
    registry.AddLesson(l);

    l = DeclareLesson(
        "reduce", folder,
        {23, "23-v3-unrolled-last-warp", "v3: sequential addressing, unrolled last warp",
         StepKind::kGpu, 22, "kernels/reduce/23_sequential_unrolled_warp.cu"});
    l.blocks = BlockSpec{64, 1024, 256, true,
                         "its tree halves the block down to one warp reading 32 places away, "
                         "so the block must be a power of two of at least 64"};
    l.needs = &GpuStepNeeds;
    l.make = LESSONS_GPU(&MakeSequentialUnrolledWarp);
    l.attributes = LESSONS_GPU(&SequentialUnrolledWarpAttributes);
    registry.AddLesson(l);

    l = DeclareLesson("reduce", folder,
                      {24, "24-v4-warp-shuffle", "v4: warp shuffle", StepKind::kGpu, 23,
                       "kernels/reduce/24_warp_shuffle.cu"});
    l.blocks = BlockSpec{32, 1024, 256, false, ""};
    l.needs = &GpuStepNeeds;
    l.make = LESSONS_GPU(&MakeWarpShuffle);
    l.attributes = LESSONS_GPU(&WarpShuffleAttributes);
    registry.AddLesson(l);

    l = DeclareLesson("reduce", folder,
                      {25, "25-v5-vectorized-one-pass", "v5: float4 loads, one pass",
                       StepKind::kGpu, 24, "kernels/reduce/25_vectorized_one_pass.cu"});
    l.blocks = BlockSpec{32, 1024, 512, false, ""};
    l.needs = &GpuStepNeeds;
    l.make = LESSONS_GPU(&MakeVectorizedOnePass);
    l.attributes = LESSONS_GPU(&VectorizedOnePassAttributes);
    registry.AddLesson(l);

    l = DeclareLesson(
        "reduce", folder,
        {26, "26-cub", "CUB DeviceReduce::Sum", StepKind::kGpu, 25, "kernels/reduce/26_cub.cu"});
    l.library = true;
    l.needs = &GpuStepNeeds;
    l.make = LESSONS_GPU(&MakeCub);
    registry.AddLesson(l);
}

}  // namespace lessons
