// Chapter 1, split lines: the chapter and its lessons, each declared once.
// Compiled with LESSONS_HAVE_CUDA=1 into the CLI and worker, and with 0 where no GPU code is
// linked; there the GPU lessons keep their text and source but have no runner.
#include "catalog.h"
#include "resources.h"
#include "split/split_cpu.h"
#include "split_chapter.h"
#include "split_gpu_steps.h"

#if LESSONS_HAVE_CUDA
#define LESSONS_GPU(fn) (fn)
#else
#define LESSONS_GPU(fn) (nullptr)
#endif

namespace lessons {

void RegisterSplitChapter(Registry& registry) {
    using namespace split;
    Chapter chapter;
    chapter.number = 1;
    chapter.id = "split";
    chapter.title = "Split lines: find every \\r\\n";
    chapter.bytes_rule = "reads the buffer once (n bytes) and writes 8 bytes per line break found";
    chapter.default_size = uint64_t(64) << 20;
    chapter.accepts_input_file = true;
    chapter.make_workload = [](const WorkloadSpec& spec) {
        return std::make_shared<SplitWorkload>(spec);
    };
    chapter.workload_host_bytes = &WorkloadHostBytes;
    registry.AddChapter(chapter);

    auto add = [&](int number, const char* slug, const char* title, StepKind kind, int previous,
                   const char* source, auto&& setup) {
        Lesson l;
        l.number = number;
        l.id = std::string("split/") + slug;
        l.chapter = "split";
        l.title = title;
        l.kind = kind;
        l.previous = previous;
        l.source_path = source;
        l.source = EmbeddedFile(source);
        const std::string base = std::string("lessons/01_split_lines/") + slug;
        l.text_en = EmbeddedFile(base + ".en.md");
        l.text_zh = EmbeddedFile(base + ".zh.md");
        setup(l);
        registry.AddLesson(std::move(l));
    };

    add(1, "01-naive-scan", "Naive CPU scan", StepKind::kCpu, 0, "kernels/split/01_naive.cpp",
        [](Lesson& l) {
            l.needs = &CpuStepNeeds;
            l.make = &MakeNaive;
        });
    add(2, "02-even-positions", "Check only even positions", StepKind::kCpu, 1,
        "kernels/split/02_even_positions.cpp", [](Lesson& l) {
            l.needs = &CpuStepNeeds;
            l.make = &MakeEvenPositions;
        });
    add(3, "03-openmp", "OpenMP threads", StepKind::kCpu, 2, "kernels/split/03_openmp.cpp",
        [](Lesson& l) {
            l.needs = &CpuStepNeeds;
            l.uses_threads = true;
            l.make = &MakeOpenMP;
        });
    add(4, "04-one-thread-per-pair", "CUDA: one thread per pair", StepKind::kGpu, 3,
        "kernels/split/04_one_thread_per_pair.cu", [](Lesson& l) {
            l.blocks = BlockSpec{32, 1024, 256, false, ""};
            l.needs = &GpuStepNeeds;
            l.make = LESSONS_GPU(&MakeOneThreadPerPair);
            l.attributes = LESSONS_GPU(&OneThreadPerPairAttributes);
        });
}

}  // namespace lessons
