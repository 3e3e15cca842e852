// Chapter 1, split lines: the chapter and its lessons, each declared once.
// Compiled with LESSONS_HAVE_CUDA=1 into the CLI and worker, and with 0 where no GPU code is
// linked; there the GPU lessons keep their text and source but have no runner.
#include "catalog.h"
#include "declare.h"
#include "split_chapter.h"
#include "split_gpu_steps.h"

namespace lessons {

void RegisterSplitChapter(Registry& registry) {
    using namespace split;
    Chapter chapter;
    chapter.number = 1;
    chapter.id = "split";
    chapter.title = "Split lines: find every \\r\\n";
    chapter.bytes_rule = "reads the buffer once (n bytes) and writes 8 bytes per line break found";
    chapter.default_size = uint64_t(64) << 20;
    chapter.data_kinds = {DataKind::kRandom, DataKind::kDense, DataKind::kNone};
    chapter.accepts_input_file = true;
    chapter.make_workload = [](const WorkloadSpec& spec) {
        return std::make_shared<SplitWorkload>(spec);
    };
    chapter.workload_host_bytes = &WorkloadHostBytes;
    registry.AddChapter(chapter);

    const std::string folder = "lessons/01_split_lines";
    Lesson l = DeclareLesson(
        "split", folder,
        {1, "01-naive-scan", "Naive CPU scan", StepKind::kCpu, 0, "kernels/split/01_naive.cpp"});
    l.needs = &CpuStepNeeds;
    l.make = &MakeNaive;
    registry.AddLesson(l);

    l = DeclareLesson("split", folder,
                      {2, "02-even-positions", "Check only even positions", StepKind::kCpu, 1,
                       "kernels/split/02_even_positions.cpp"});
    l.needs = &CpuStepNeeds;
    l.make = &MakeEvenPositions;
    registry.AddLesson(l);

    l = DeclareLesson(
        "split", folder,
        {3, "03-openmp", "OpenMP threads", StepKind::kCpu, 2, "kernels/split/03_openmp.cpp"});
    l.needs = &CpuStepNeeds;
    l.uses_threads = true;
    l.make = &MakeOpenMP;
    registry.AddLesson(l);

    l = DeclareLesson("split", folder,
                      {4, "04-one-thread-per-pair", "CUDA: one thread per pair", StepKind::kGpu, 3,
                       "kernels/split/04_one_thread_per_pair.cu"});
    l.blocks = BlockSpec{32, 1024, 256, false, ""};
    l.needs = &GpuStepNeeds;
    l.make = LESSONS_GPU(&MakeOneThreadPerPair);
    l.attributes = LESSONS_GPU(&OneThreadPerPairAttributes);
    registry.AddLesson(l);

    // Lessons 5 to 11 keep the text in page-locked host memory (lesson 5's change).
    const BlockSpec any_warp_multiple{32, 1024, 256, false, ""};
    l = DeclareLesson("split", folder,
                      {5, "05-pinned-memory", "Pinned host memory", StepKind::kGpu, 4,
                       "kernels/split/05_pinned_memory.cu"});
    l.blocks = any_warp_multiple;
    l.needs = &PinnedGpuStepNeeds;
    l.make = LESSONS_GPU(&MakePinned);
    l.attributes = LESSONS_GPU(&OneThreadPerPairAttributes);
    registry.AddLesson(l);

    l = DeclareLesson("split", folder,
                      {6, "06-branch-free-padding", "Branch-free kernel with padding",
                       StepKind::kGpu, 5, "kernels/split/06_branch_free_padding.cu"});
    l.blocks = any_warp_multiple;
    l.needs = &PinnedGpuStepNeeds;
    l.make = LESSONS_GPU(&MakeBranchFree);
    l.attributes = LESSONS_GPU(&BranchFreeAttributes);
    registry.AddLesson(l);

    l = DeclareLesson("split", folder,
                      {7, "07-shared-memory", "Shared-memory staging", StepKind::kGpu, 6,
                       "kernels/split/07_shared_memory.cu"});
    l.blocks = any_warp_multiple;
    l.needs = &PinnedGpuStepNeeds;
    l.make = LESSONS_GPU(&MakeSharedMemory);
    l.attributes = LESSONS_GPU(&SharedMemoryAttributes);
    registry.AddLesson(l);

    l = DeclareLesson("split", folder,
                      {8, "08-four-bytes-per-thread", "More work per thread", StepKind::kGpu, 7,
                       "kernels/split/08_four_bytes_per_thread.cu"});
    l.blocks = any_warp_multiple;
    l.needs = &PinnedGpuStepNeeds;
    l.make = LESSONS_GPU(&MakeFourBytes);
    l.attributes = LESSONS_GPU(&FourBytesAttributes);
    registry.AddLesson(l);

    l = DeclareLesson("split", folder,
                      {9, "09-thrust-copy-if", "Thrust copy_if", StepKind::kGpu, 8,
                       "kernels/split/09_thrust_copy_if.cu"});
    l.library = true;
    l.needs = &PinnedGpuStepNeeds;
    l.make = LESSONS_GPU(&MakeThrust);
    registry.AddLesson(l);

    // Lessons 10 and 11 stage up to 16 offsets of 4 bytes per thread in shared memory: 32 KiB
    // at 512 threads, within the 48 KiB a block gets without opting in to more.
    const BlockSpec staged_blocks{
        32, 512, 256, false,
        "each thread stages up to 16 offsets in shared memory, and 512 threads "
        "fill the 48 KiB a block gets by default"};
    l = DeclareLesson(
        "split", folder,
        {10, "10-vector-loads-block-compaction", "16-byte loads, block-aggregated output",
         StepKind::kGpu, 9, "kernels/split/10_vector_loads_block_compaction.cu"});
    l.blocks = staged_blocks;
    l.needs = &PinnedGpuStepNeeds;
    l.make = LESSONS_GPU(&MakeVectorWarp);
    l.attributes = LESSONS_GPU(&VectorWarpAttributes);
    registry.AddLesson(l);

    l = DeclareLesson("split", folder,
                      {11, "11-overlapped-chunks", "Hide the copy: overlapped chunks",
                       StepKind::kGpu, 10, "kernels/split/11_overlapped_chunks.cu"});
    l.blocks = staged_blocks;
    l.needs = &PinnedGpuStepNeeds;
    l.make = LESSONS_GPU(&MakeOverlapped);
    l.attributes = LESSONS_GPU(&VectorWarpAttributes);
    registry.AddLesson(l);
}

}  // namespace lessons
