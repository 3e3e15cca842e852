// Chapter 2, GPU performance basics (seed 002): four topics, one lesson each, and in each
// lesson a family of kernels doing the same work, picked by a parameter (`variant`,
// `divergence`, `stride` and `offset`, `memory`). The first choice, the default, is what the
// seed recommends; the others are what it warns about, so a sweep over the parameter puts
// them side by side. Each GPU step's kind is implemented in basics_harness.cu, where the GPU
// library is linked.
#include <stdexcept>

#include "basics/basics_choices.h"
#include "basics_chapter.h"
#include "basics_steps.h"
#include "catalog.h"
#include "declare.h"
#include "number_param.h"
#include "units.h"

namespace lessons {
namespace {

// A choice's words: what it does, in English and Chinese, and its Chinese label.
struct ChoiceWords {
    std::string note, note_zh, label_zh;
};

// A parameter choosing among `names` (a kernel family's, kernels/basics/basics_choices.h), each
// with its words, one row a choice in the same order.
template <size_t N>
ParamSpec Choices(std::string name, std::string label_en, std::string label_zh,
                  const std::array<const char*, N>& names, const std::vector<ChoiceWords>& words) {
    if (words.size() != N) throw std::logic_error(name + ": not a row of words for each choice");
    std::vector<std::string> notes, notes_zh, labels_zh;
    for (const ChoiceWords& w : words) {
        notes.push_back(w.note);
        notes_zh.push_back(w.note_zh);
        labels_zh.push_back(w.label_zh);
    }
    return ChoiceParam(std::move(name), std::move(label_en), std::move(label_zh),
                       std::vector<std::string>(names.begin(), names.end()), std::move(notes),
                       std::move(notes_zh), std::move(labels_zh));
}

Chapter BasicsChapter() {
    using namespace basics;
    Chapter chapter = NewChapter("basics");
    // Four topics, one lesson each: not a sequence of optimisations of one problem.
    chapter.independent_steps = true;
    chapter.params = {
        SizeParam(uint64_t(64) << 20, sizeof(float)),
        DataParam({
            kUniformFloats,
            {"ones", "all 1.0", "全为 1.0"},
        }),
    };
    chapter.make_workload = MakeWorkload<BasicsWorkload>;
    chapter.workload_host_bytes = [](const ParamValues& p) {
        return BasicsWorkloadHostBytes(p.Number("size"));
    };
    chapter.describe = [](const ParamValues& p) {
        return "2 x " + FloatsOfSize(p, " each, " + p.Choice("data"));
    };
    return chapter;
}

// Global vs shared: where x is read from, and the rows of A (the length of x).
std::vector<ParamSpec> VecMatParams(const ParamSpec& block) {
    using namespace basics;
    const ParamSpec variant = Choices(
        "variant", "Where x is read from", "向量 x 从哪里读", kVecMatNames,
        {
            {"staged in shared memory once per block, every thread copying a share",
             "每个线程块先把 x 搬进共享内存，块内所有线程分担搬运", "共享内存"},
            {"from global memory, by every thread, for every row (the seed's "
             "multiply_without_shared)",
             "每个线程每一行都从全局内存读 x（原文的 multiply_without_shared）", "全局内存"},
            {"staged in shared memory, but thread 0 copies all of it while the block waits (the "
             "seed's multiply_with_shared)",
             "搬进共享内存，但由 0 号线程独自搬完，整个块等它（原文的 multiply_with_shared）",
             "共享内存（单线程加载）"},
        });
    const ParamSpec rows = NumberParam(
        ParamType::kCount, "rows", "Rows of A (length of x)", "A 的行数（x 的长度）", 1, 8192, 256,
        "rows", false,
        "x must fit in a block's shared memory (8192 floats = 32 KiB, under the 48 KiB a block "
        "gets without opting in); the columns are size / 4 / rows");
    return {block, variant, rows};
}

// Branch divergence: into how many paths each warp splits.
ParamSpec DivergenceParam() {
    using namespace basics;
    return Choices(
        "divergence", "Paths per warp", "每个线程束分出的路径数", kDivergenceNames,
        {
            {"every warp takes one case: no divergence", "每个线程束只走一个分支：没有分化", "无"},
            {"each warp splits into 2 cases", "每个线程束分成 2 个分支", "2 路"},
            {"into 4 cases", "分成 4 个分支", "4 路"},
            {"into 8 cases", "分成 8 个分支", "8 路"},
            {"into 16 cases", "分成 16 个分支", "16 路"},
            {"into 32 cases, one per lane: the seed's switch (threadIdx.x) over 128 cases",
             "分成 32 个分支，每条通道一个：即原文的 switch (threadIdx.x)，共 128 个 case",
             "32 路"},
        });
}

// Coalescing: the stride between lanes and the arrays' misalignment.
std::vector<ParamSpec> AddParams(const ParamSpec& block) {
    using namespace basics;
    const ParamSpec stride = NumberParam(
        ParamType::kInt, "stride", "Stride between lanes", "相邻通道的跨度", 1, 32, 1, "floats",
        true,
        "a warp's 32 lanes read floats `stride` apart: 1 is add_coalesced, 32 touches a "
        "different 128-byte line per lane (the seed's add_striped with 1024-thread blocks)");
    const ParamSpec offset =
        NumberParam(ParamType::kInt, "offset", "Misalignment", "错位", 0, kMaxOffset, 0, "floats",
                    false, "the three arrays start this many floats past a 256-byte boundary");
    return {block, stride, offset};
}

// Pinned transfers: how the host buffer is allocated.
ParamSpec MemoryParam() {
    using namespace basics;
    return Choices(
        "memory", "Host memory", "主机内存", kMemoryNames,
        {
            {"page-locked from the start: cudaMallocHost", "一开始就是锁页内存：cudaMallocHost",
             "锁页"},
            {"malloc, first touch, then cudaHostRegister locks the existing buffer",
             "先 malloc 并写一遍，再用 cudaHostRegister 锁页", "已注册（cudaHostRegister）"},
            {"malloc and first touch: the driver stages the copy through its own locked buffer",
             "malloc 并写一遍：驱动经由自己的锁页缓冲区分段中转", "可分页"},
        });
}

}  // namespace

void RegisterBasicsChapter(Registry& registry) {
    using namespace basics;
    const ParamSpec block = BlockParam(32, 1024, 256);
    // Four experiments, each compared with nothing before it: a sweep over its own parameter
    // puts its kernels side by side.
    AddChapter(registry, BasicsChapter(), "lessons/02_basics", {.kernels = "kernels/basics"},
               {
                   {.slug = "global-vs-shared",
                    .title = "Global vs shared memory: vector x matrix",
                    .step = VecMat{},
                    .params = VecMatParams(block),
                    .needs = &VecMatNeeds,
                    .focus = {"LDG", "LDS", "STS", "BAR"},
                    .exercise = {.fixed = {{"variant", "shared"}},
                                 .instance = "constexpr bool kOneThread = false;"}},
                   {.slug = "branch-divergence",
                    .title = "Branch divergence: a 128-way switch",
                    .step = Divergence{},
                    .params = {block, DivergenceParam()},
                    .needs = &DivergenceNeeds,
                    .focus = {"BRA", "FP32"},
                    .previous = ""},
                   {.slug = "coalescing",
                    .title = "Coalescing: add_coalesced vs add_striped",
                    .step = Add{},
                    .params = AddParams(block),
                    .needs = &AddNeeds,
                    .focus = {"LDG", "STG"},
                    .previous = ""},
                   {.slug = "pinned-transfers",
                    .title = "Pageable vs pinned transfers",
                    .step = Transfer{},
                    .params = {MemoryParam()},
                    .needs = &TransferNeeds,
                    .previous = ""},
               });
}

}  // namespace lessons
