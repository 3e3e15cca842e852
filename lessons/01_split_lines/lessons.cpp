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
    Lesson l = DeclareLesson("split", folder, {1, "01-naive-scan", "Naive CPU scan", StepKind::kCpu,
                                               0, "kernels/split/01_naive.cpp"});
    l.needs = &CpuStepNeeds;
    l.make = &MakeNaive;
    registry.AddLesson(l);

    l = DeclareLesson("split", folder, {2, "02-even-positions", "Check only even positions",
                                        StepKind::kCpu, 1, "kernels/split/02_even_positions.cpp"});
    l.needs = &CpuStepNeeds;
    l.make = &MakeEvenPositions;
    registry.AddLesson(l);

    l = DeclareLesson("split", folder, {3, "03-openmp", "OpenMP threads", StepKind::kCpu, 2,
                                        "kernels/split/03_openmp.cpp"});
    l.needs = &CpuStepNeeds;
    l.uses_threads = true;
    l.make = &MakeOpenMP;
    registry.AddLesson(l);

    l = DeclareLesson("split", folder, {4, "04-one-thread-per-pair", "CUDA: one thread per pair",
                                        StepKind::kGpu, 3, "kernels/split/04_one_thread_per_pair.cu"});
    l.blocks = BlockSpec{32, 1024, 256, false, ""};
    l.needs = &GpuStepNeeds;
    l.make = LESSONS_GPU(&MakeOneThreadPerPair);
    l.attributes = LESSONS_GPU(&OneThreadPerPairAttributes);
    registry.AddLesson(l);
}

}  // namespace lessons
