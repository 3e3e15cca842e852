// Chapter 5, GEMM tiling: the chapter and its lessons, one row each. GPU steps get their
// runners from gemm_harness.cu where the GPU library is linked.
#include "catalog.h"
#include "checked.h"
#include "declare.h"
#include "gemm/gemm_tiles.h"
#include "gemm_chapter.h"
#include "units.h"

namespace lessons {
namespace {

ParamSpec Dimension(std::string name, std::string label_en, std::string label_zh) {
    ParamSpec p;
    p.name = std::move(name);
    p.label_en = std::move(label_en);
    p.label_zh = std::move(label_zh);
    p.type = ParamType::kCount;
    p.min = 1;
    p.max = gemm::kMaxDimension;  // memory is checked before anything is allocated
    p.default_value = ParamValue::Number(4096);
    p.log_scale = true;
    p.why =
        "the kernels index rows and columns with int, and cuBLAS takes int; any value from "
        "1 works, edge tiles are handled inside the kernels";
    return p;
}

// "256t-128x128x8-w64x32" reads: 256 threads, block tile 128×128×8, warp tile 64×32 (a warp's
// 32 threads share its 64 × 32 outputs: 64 each); a trailing "-s3" names a 3-stage pipeline.
std::string Describe(const std::string& name, bool zh) {
    const size_t t = name.find('t'), d1 = name.find('-'), d2 = name.find('-', d1 + 1);
    const std::string threads = name.substr(0, t), block = name.substr(d1 + 1, d2 - d1 - 1);
    std::string rest = d2 == std::string::npos ? "" : name.substr(d2 + 1), stages;
    if (const size_t d3 = rest.find("-s"); d3 != std::string::npos) {
        stages = rest.substr(d3 + 2);
        rest = rest.substr(0, d3);
    }
    std::string out =
        zh ? threads + " 个线程，线程块分块 " + block : threads + " threads, block tile " + block;
    if (rest.empty()) return out + (zh ? "，每线程 1 个输出" : ", one output per thread");
    if (rest[0] == 'w') {
        const std::string warp = rest.substr(1);
        const size_t x = warp.find('x');
        const int per_thread = std::stoi(warp.substr(0, x)) * std::stoi(warp.substr(x + 1)) / 32;
        out +=
            zh ? "，线程束分块 " + warp + "，每线程 " + std::to_string(per_thread) + " 个输出"
               : ", warp tile " + warp + ", " + std::to_string(per_thread) + " outputs per thread";
    } else {
        out += zh ? "，每线程 " + rest + " 个输出" : ", " + rest + " outputs per thread";
    }
    if (!stages.empty())
        out += zh ? "，" + stages + " 级流水线" : ", " + stages + "-stage pipeline";
    return out;
}

ParamSpec Tile(const std::array<const char*, 4>& names) {
    std::vector<std::string> choices(names.begin(), names.end()), notes, notes_zh;
    for (const std::string& c : choices) {
        notes.push_back(Describe(c, false));
        notes_zh.push_back(Describe(c, true));
    }
    ParamSpec p = ChoiceParam("tile", "Tile configuration", "分块配置", choices, notes, notes_zh);
    p.why =
        "each configuration is a separately compiled kernel (tile sizes are template "
        "arguments, so the compiler can keep the tiles in registers and unroll the loops)";
    return p;
}

}  // namespace

void RegisterGemmChapter(Registry& registry) {
    using namespace gemm;
    Chapter chapter;
    chapter.number = 5;
    chapter.id = "gemm";
    chapter.title = "GEMM tiling: C = A·B";
    chapter.title_zh = "GEMM 分块：矩阵乘法 C = A·B";
    chapter.work_rule =
        "2·m·n·k flops (a multiply and an add per product); the bytes that must move are A and B "
        "read once and C written once; GPU steps are compared with the fp32 FMA peak, the "
        "tensor-core steps (41, 42) with the TF32 peak of cuBLAS's own TF32 SGEMM";
    chapter.params = {
        Dimension("m", "Rows of A and C (m)", "A 和 C 的行数 (m)"),
        Dimension("n", "Columns of B and C (n)", "B 和 C 的列数 (n)"),
        Dimension("k", "Columns of A, rows of B (k)", "A 的列数、B 的行数 (k)"),
        ChoiceParam("data", "Data", "数据", {"random", "ones"},
                    {"A and B uniform in [-1, 1)", "all 1.0: every element of C is exactly k"},
                    {"A 和 B 在 [-1, 1) 上均匀分布", "全为 1.0：C 的每个元素都精确等于 k"}),
    };
    chapter.make_workload = [](const WorkloadSpec& spec) {
        return std::make_shared<GemmWorkload>(spec);
    };
    chapter.workload_host_bytes = [](const ParamValues& p) {
        return GemmWorkloadHostBytes(p.Number("m"), p.Number("n"), p.Number("k"));
    };
    chapter.describe = [](const ParamValues& p) {
        return "m = " + std::to_string(p.Number("m")) + ", n = " + std::to_string(p.Number("n")) +
               ", k = " + std::to_string(p.Number("k")) + " (" + p.Choice("data") + ")";
    };

    // The work without running (the page's prediction, the runner's choice of ceilings).
    auto work = [](bool tf32) {
        return [tf32](const ParamValues& p) {
            return GemmWork(p.Number("m"), p.Number("n"), p.Number("k"), tf32);
        };
    };
    chapter.work = [work](StepKind, const ParamValues& p) { return work(false)(p); };

    const ParamSpec block =
        BlockParam(32, 1024, 256, false, "a block is 32 threads wide and block / 32 rows tall");
    const StepKind gpu = StepKind::kGpu;
    AddChapter(registry, chapter, "lessons/05_gemm",
               {
                   {32,
                    "32-naive",
                    "Naive: one thread per element of C",
                    gpu,
                    0,
                    "kernels/gemm/32_naive.cu",
                    {block},
                    &GemmGpuNeeds},
                   {33,
                    "33-coalesced",
                    "Coalesced: a warp walks along a row of C",
                    gpu,
                    32,
                    "kernels/gemm/33_coalesced.cu",
                    {block},
                    &GemmGpuNeeds},
                   {34,
                    "34-shared-memory-tiles",
                    "Shared-memory tiles",
                    gpu,
                    33,
                    "kernels/gemm/34_shared_memory_tiles.cu",
                    {Tile(kTiles34)},
                    &GemmGpuNeeds},
                   {35,
                    "35-1d-register-blocking",
                    "1D register blocking",
                    gpu,
                    34,
                    "kernels/gemm/35_1d_register_blocking.cu",
                    {Tile(kTiles35)},
                    &GemmGpuNeeds},
                   {36,
                    "36-2d-register-blocking",
                    "2D register blocking",
                    gpu,
                    35,
                    "kernels/gemm/36_2d_register_blocking.cu",
                    {Tile(kTiles36)},
                    &GemmGpuNeeds},
                   {37,
                    "37-vectorized-transposed-a",
                    "16-byte loads, transposed A tile",
                    gpu,
                    36,
                    "kernels/gemm/37_vectorized_transposed_a.cu",
                    {Tile(kTiles37)},
                    &GemmGpuNeeds},
                   {38,
                    "38-warp-tiling",
                    "Warp tiling",
                    gpu,
                    37,
                    "kernels/gemm/38_warp_tiling.cu",
                    {Tile(kTiles38)},
                    &GemmGpuNeeds},
                   {39,
                    "39-double-buffering",
                    "Double buffering (cp.async)",
                    gpu,
                    38,
                    "kernels/gemm/39_double_buffering.cu",
                    {Tile(kTiles39)},
                    &GemmGpuNeeds},
                   {40,
                    "40-cublas-sgemm",
                    "cuBLAS SGEMM, fp32",
                    gpu,
                    39,
                    "kernels/gemm/40_cublas_sgemm.cu",
                    {},
                    &GemmGpuNeeds,
                    nullptr,
                    true},
                   {41,
                    "41-wmma-tf32",
                    "Tensor cores: WMMA in TF32",
                    gpu,
                    39,
                    "kernels/gemm/41_wmma_tf32.cu",
                    {Tile(kTiles41)},
                    &GemmGpuNeeds,
                    nullptr,
                    false,
                    work(true)},
                   {42,
                    "42-cublas-tf32",
                    "cuBLAS with TF32 tensor cores",
                    gpu,
                    41,
                    "kernels/gemm/42_cublas_tf32.cu",
                    {},
                    &GemmGpuNeeds,
                    nullptr,
                    true,
                    work(true)},
               });
}

}  // namespace lessons
