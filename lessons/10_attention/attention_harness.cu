// The harness of chapter 10's GPU steps. Q, K and V are copied to the GPU once, when the step is
// set up; O is filled with NaN (0xFFFF in bf16), so an element a step forgets to write fails the
// check. What is timed (CUDA events) is the step's kernels alone; O is read back for the check
// outside the timing.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "attention/attention_gpu.cuh"
#include "attention/attention_hopper.cuh"
#include "attention_chapter.h"
#include "attention_steps.h"
#include "cublas_loader.h"
#include "cuda/cuda_util.h"
#include "cuda/module.h"
#include "device.h"
#include "errors.h"
#include "exercise.h"
#include "exercise_cases.h"
#include "exercise_kinds.h"
#include "kernel_timer.cuh"
#include "kernels_of.h"
#include "launch_checks.cuh"
#include "resources.h"
#include "tc_chapter.h"

namespace lessons::attention {
namespace {

// A fused or unfused step: Q, K and V copied to the GPU at set-up; a run is its Launch, timed as
// chapter 8's steps are: the first run (the one checked) launches once and sets how many launches
// a timed sample holds (KernelTimer, cuda::BatchFor).
class GpuAttentionBase : public LaunchTimedStep<AttentionStep> {
public:
    GpuAttentionBase(const Workload& w, bool scores_in_bf16)
        : LaunchTimedStep<AttentionStep>(w, scores_in_bf16),
          m_q(std::max<size_t>(m_work.Elements(), 1), "Q"),
          m_k(std::max<size_t>(m_work.Elements(), 1), "K"),
          m_v(std::max<size_t>(m_work.Elements(), 1), "V"),
          m_od(std::max<size_t>(m_work.Elements(), 1), "O") {
        const cudaStream_t s = m_stream.get();
        const size_t bytes = m_work.Elements() * sizeof(uint16_t);
        LESSONS_CUDA_CHECK(
            cudaMemcpyAsync(m_q.get(), m_work.q(), bytes, cudaMemcpyHostToDevice, s));
        LESSONS_CUDA_CHECK(
            cudaMemcpyAsync(m_k.get(), m_work.k(), bytes, cudaMemcpyHostToDevice, s));
        LESSONS_CUDA_CHECK(
            cudaMemcpyAsync(m_v.get(), m_work.v(), bytes, cudaMemcpyHostToDevice, s));
        LESSONS_CUDA_CHECK(cudaMemsetAsync(m_od.get(), 0xFF, m_od.bytes(), s));  // NaN
        m_stream.Synchronize();
    }

protected:
    void ReadBack() const override {
        m_o.resize(m_work.Elements());
        LESSONS_CUDA_CHECK(cudaMemcpyAsync(m_o.data(), m_od.get(), m_o.size() * sizeof(uint16_t),
                                           cudaMemcpyDeviceToHost, m_stream.get()));
        LESSONS_CUDA_CHECK(cudaStreamSynchronize(m_stream.get()));
    }
    AttentionProblem Problem() const {
        AttentionProblem p;
        p.heads = m_work.heads();
        p.n = m_work.n();
        p.d = m_work.d();
        p.causal = m_work.causal();
        p.scale = float(1.0 / std::sqrt(double(p.d)));
        p.q = m_q.get();
        p.k = m_k.get();
        p.v = m_v.get();
        p.o = m_od.get();
        return p;
    }

    cuda::DeviceBuffer<__nv_bfloat16> m_q, m_k, m_v, m_od;
};

class FusedStep : public GpuAttentionBase {
public:
    FusedStep(const Workload& w, const AttentionKernel& kernel)
        : GpuAttentionBase(w, false), m_kernel(kernel) {}

private:
    void Launch(cudaStream_t s) override { LESSONS_CUDA_CHECK(m_kernel.launch(Problem(), s)); }
    const AttentionKernel& m_kernel;
};

class UnfusedStep : public GpuAttentionBase {
public:
    UnfusedStep(const Workload& w, const UnfusedAttention& unfused, int block)
        : GpuAttentionBase(w, true),
          m_unfused(unfused),
          m_block(block),
          m_s(std::max<size_t>(size_t(m_work.heads()) * size_t(m_work.n()) * size_t(m_work.n()), 1),
              "the scores S") {
        const std::string error = m_unfused.create(&m_state, m_stream.get());
        if (!error.empty()) throw UnavailableError("cuBLAS: " + error);
        m_timer.WarmBeforeFirstSample();  // cuBLAS's first calls, outside the timing hold
    }
    ~UnfusedStep() override { m_unfused.destroy(m_state); }
    UnfusedStep(const UnfusedStep&) = delete;
    UnfusedStep& operator=(const UnfusedStep&) = delete;

private:
    void Launch(cudaStream_t s) override {
        const std::string error = m_unfused.run(m_state, Problem(), m_s.get(), m_block, s);
        if (!error.empty()) throw std::runtime_error(error);
    }
    const UnfusedAttention& m_unfused;
    int m_block;
    cuda::DeviceBuffer<__nv_bfloat16> m_s;
    void* m_state = nullptr;
};

// A student's TMA kernel takes the tensor maps by value as the exercises' prelude declares
// CUtensorMap (StudentSpec below: 128 bytes aligned to 128, as chapter 8's): cuLaunchKernel copies
// each parameter by the kernel's layout, so the harness's maps must be as large, and the
// prelude's alignment must meet the one <cuda.h> asks for.
static_assert(sizeof(CUtensorMap) == 128 && 128 % alignof(CUtensorMap) == 0,
              "the exercises' prelude declares CUtensorMap as 128 bytes aligned to 128");

// The keys a tile of a Hopper step holds: C of its tile's name "RxC" (or "RxC-..."), whose R must
// be the query rows a block owns (Fused::tensor_maps).
int KeyTileRows(const AttentionKernel& k) {
    const std::string tile = k.tile;
    const size_t x = tile.find('x');
    int rows = 0, keys = 0;
    size_t i = 0;
    for (; i < x && x != std::string::npos && std::isdigit(static_cast<unsigned char>(tile[i]));
         ++i)
        rows = rows * 10 + (tile[i] - '0');
    size_t j = x == std::string::npos ? tile.size() : x + 1;
    for (; j < tile.size() && std::isdigit(static_cast<unsigned char>(tile[j])) && keys < 100000;
         ++j)
        keys = keys * 10 + (tile[j] - '0');
    if (x == std::string::npos || i != x || rows != k.rows || keys < 16 || keys % 16 != 0 ||
        keys > 256)
        throw std::logic_error(std::string("tile ") + k.tile + " of " + k.name +
                               " is not named RxC (R = " + std::to_string(k.rows) +
                               " query rows a block, C keys a tile, a multiple of 16 up to 256), "
                               "so a student's TMA kernel cannot be given its tensor maps");
    return keys;
}

// A student's kernel (an exercise) in place of the step's own kernel `step`: launched on the
// same grid (ceil(n / rows) × B·H), with the same threads and dynamic shared memory, data, check
// and timing. For a Hopper step (Fused::tensor_maps) the tensor maps of Q, K and V come first,
// made at each launch, inside the timing, as the step's own launch makes them.
class StudentStep : public GpuAttentionBase {
public:
    StudentStep(const Workload& w, std::shared_ptr<const cuda::LoadedKernel> kernel,
                const AttentionKernel& step, bool tensor_maps)
        : GpuAttentionBase(w, false),
          m_kernel(std::move(kernel)),
          m_step(step),
          m_key_rows(tensor_maps ? KeyTileRows(step) : 0) {
        // TMA's coordinates are 32-bit: the B·H·N rows of the [B·H·N] × d matrix must fit.
        if (tensor_maps && int64_t(m_work.heads()) * m_work.n() > INT32_MAX)
            throw UsageError("TMA's coordinates are 32-bit: B·H·N = " +
                             std::to_string(int64_t(m_work.heads()) * m_work.n()) +
                             " rows are more than 2147483647; choose a smaller B, H or N");
    }

private:
    void Launch(cudaStream_t s) override {
        AttentionProblem p = Problem();
        const dim3 grid(unsigned((p.n + m_step.rows - 1) / m_step.rows), unsigned(p.heads));
        if (m_key_rows == 0) {
            void* args[] = {&p};
            m_kernel->Launch(grid, dim3(unsigned(m_step.threads)), s, args,
                             unsigned(m_step.dynamic_smem));
            return;
        }
        const int rows = p.heads * p.n, d = p.d;
        CUtensorMap map_q{}, map_k{}, map_v{};
        LESSONS_CUDA_CHECK(tc::EncodeMatrixMap(&map_q, p.q, rows, d, d, m_step.rows));
        LESSONS_CUDA_CHECK(tc::EncodeMatrixMap(&map_k, p.k, rows, d, d, m_key_rows));
        LESSONS_CUDA_CHECK(tc::EncodeMatrixMap(&map_v, p.v, rows, d, d, m_key_rows));
        void* args[] = {&map_q, &map_k, &map_v, &p};
        m_kernel->Launch(grid, dim3(unsigned(m_step.threads)), s, args,
                         unsigned(m_step.dynamic_smem));
    }
    std::shared_ptr<const cuda::LoadedKernel> m_kernel;
    const AttentionKernel& m_step;
    int m_key_rows;  // 0: the kernel takes the problem alone
};

// Why device `device` cannot run a kernel that needs compute capability `min_cc`; empty: it can.
// A Hopper kernel (min_cc 90) is compiled for sm_90a, which runs on compute capability 9.0 alone.
std::string WhyNotRunnable(int min_cc, const std::string& what, int device) {
    const DeviceInfo& d = GetDevices().devices[size_t(device)];
    const int cc = d.cc_major * 10 + d.cc_minor;
    const std::string has =
        d.name + " has " + std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor);
    if (min_cc >= 90)
        return d.cc_major == 9 ? std::string()
                               : what +
                                     " needs Hopper (compute capability 9.0): wgmma and TMA, "
                                     "compiled for sm_90a, run on no other GPU; " +
                                     has;
    if (cc >= min_cc) return {};
    return what + " needs compute capability " + std::to_string(min_cc / 10) + "." +
           std::to_string(min_cc % 10) + " (bf16 tensor cores, ldmatrix); " + has;
}

// "tile=64x64 at d=128": the user's choice, for messages.
std::string Chosen(const AttentionKernel& k) {
    return std::string("tile=") + k.tile + " at d=" + std::to_string(k.d);
}

void CheckRunnable(const AttentionKernel& k, int device) {
    const std::string why = WhyNotRunnable(k.min_cc, k.name, device);
    if (!why.empty()) throw UnavailableError(why);
    const DeviceInfo& d = GetDevices().devices[size_t(device)];
    AllowDynamicSmem(k.kernel, k.dynamic_smem, Chosen(k), d.name);
    cuda::CheckBlockAgainstKernel(k.kernel, k.name, k.threads, k.dynamic_smem);
    int per_sm = 0;
    LESSONS_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k.kernel, k.threads,
                                                                     k.dynamic_smem));
    if (per_sm == 0)
        throw UsageError(std::string("tile=") + k.tile + " cannot run on " + d.name +
                         ": a block of " + std::to_string(k.threads) + " threads and " +
                         std::to_string(k.dynamic_smem) +
                         " B of shared memory does not fit on one SM; choose another");
}

// The kernel of the run's tile and head dimension, among those the lesson's source registered;
// every tile of the row must have a kernel for each head dimension.
const AttentionKernel& Pick(const std::vector<const AttentionKernel*>& kernels,
                            const ParamValues& p) {
    const std::string& tile = p.Choice("tile");
    const int d = HeadDim(p);
    for (const AttentionKernel* k : kernels)
        if (k->tile == tile && k->d == d) return *k;
    throw std::logic_error("no kernel for tile=" + tile + " d=" + std::to_string(d));
}

std::vector<const AttentionKernel*> CheckedKernels(const Fused& kind, const StepSite& site) {
    const std::vector<const AttentionKernel*> kernels = KernelsOf<AttentionKernel>(site);
    for (const std::string& tile : kind.tiles)
        for (int d : {64, 128})
            if (std::none_of(kernels.begin(), kernels.end(), [&](const AttentionKernel* k) {
                    return k->tile == tile && k->d == d;
                }))
                throw std::logic_error("its tile " + tile + " has no kernel for d=" +
                                       std::to_string(d) + " in '" + site.lesson.source_path + "'");
    for (const AttentionKernel* k : kernels)
        if (std::find(kind.tiles.begin(), kind.tiles.end(), k->tile) == kind.tiles.end())
            throw std::logic_error(std::string("'") + site.lesson.source_path + "' registers " +
                                   k->name + " for tile " + k->tile + ", no tile of its row");
    return kernels;
}

}  // namespace

LESSONS_STEP_KIND(Fused, [](const Fused& kind, const StepSite& site) {
    const std::vector<const AttentionKernel*> kernels = CheckedKernels(kind, site);
    StepRunner r;
    r.make = [kernels](const Workload& w, const StepContext& c) {
        const AttentionKernel& k = Pick(kernels, c.params);
        CheckRunnable(k, c.devices.front());
        return std::unique_ptr<StepInstance>(std::make_unique<FusedStep>(w, k));
    };
    r.attributes = [kernels](const ParamValues& params) {
        const AttentionKernel& k = Pick(kernels, params);
        int device = 0;
        LESSONS_CUDA_CHECK(cudaGetDevice(&device));
        const std::string why = WhyNotRunnable(k.min_cc, k.name, device);
        if (!why.empty()) throw UnavailableError(why);
        AllowDynamicSmem(k.kernel, k.dynamic_smem, Chosen(k), "this GPU");
        return cuda::QueryKernelAttributes(k.kernel, k.name, k.threads, k.dynamic_smem);
    };
    return r;
});

// The device part of chapter 8's Hopper helpers (tc_chapter.h), in its namespace.
static std::string TcHopperDevicePart() {
    return "namespace lessons::tc {\n" + tc::HopperDevicePart() + "}  // namespace lessons::tc\n";
}

// A student's fused kernel takes the AttentionProblem by value (its declaration from
// kernels/attention/attention_gpu.cuh, embedded), with the chapter's device helpers
// (kernels/tc/tc_mma.cuh: ldmatrix, mma; kernels/attention/attention_device.cuh: the swizzle;
// attention_pipeline.cuh: cp.async, ex2) and the starting files' naive row
// (lessons/10_attention/attention_naive.cuh) in the prelude, at global scope as the student's
// kernel (and a solution) stands; bf16 from the toolkit's header. A Hopper step's kernel
// (Fused::tensor_maps) takes the tensor maps of Q, K and V first (an opaque CUtensorMap, 128 bytes
// aligned to 128, as chapter 8's exercises declare it) and is compiled for sm_90a, with chapter 8's
// Hopper helpers (descriptors, wgmma, mbarriers, TMA, setmaxnreg, the epilogue: tc_hopper.cuh's
// device part, in lessons::tc, which the kernel's `using namespace tc;` reaches through the alias
// `tc`) and the chapter's own (attention_hopper.cuh: the MN-major descriptor, wgmma with A from
// registers, ex2, the online softmax on the accumulators, the tiles in shared memory and their TMA
// copies) in place of attention_pipeline.cuh, after the fixed-width integers NVRTC lacks; where the
// step takes the products as given (Fused::products_given), attention_products.cuh after them.
KernelSpec StudentSpec(const Fused& kind, const StepSite&) {
    KernelSpec spec;
    spec.toolkit_headers = {"cuda_bf16.h"};
    if (kind.tensor_maps) {
        static const std::string hopper =
            std::string(kNvrtcIntegers) +
            "struct alignas(128) CUtensorMap { unsigned long long opaque[16]; };\n"
            "#include <cuda_bf16.h>\n" +
            EmbeddedDeclarations("kernels/attention/attention_gpu.cuh",
                                 {"struct AttentionProblem"}) +
            EmbeddedHeaderBody("kernels/tc/tc_mma.cuh") +
            EmbeddedHeaderBody("kernels/attention/attention_device.cuh") + TcHopperDevicePart() +
            EmbeddedHeaderBody("kernels/attention/attention_hopper.cuh");
        static const std::string products =
            EmbeddedHeaderBody("kernels/attention/attention_products.cuh");
        spec.signature =
            "const CUtensorMap, const CUtensorMap, const CUtensorMap, "
            "const AttentionProblem";
        spec.prelude = hopper + (kind.products_given ? products : std::string()) +
                       "namespace tc = lessons::tc;\nusing namespace lessons::attention;\n";
        spec.arch_suffix = "a";
        return spec;
    }
    static const std::string prelude =
        "#include <cuda_bf16.h>\n" +
        EmbeddedDeclarations("kernels/attention/attention_gpu.cuh", {"struct AttentionProblem"}) +
        EmbeddedHeaderBody("kernels/tc/tc_mma.cuh") +
        EmbeddedHeaderBody("kernels/attention/attention_device.cuh") +
        EmbeddedHeaderBody("kernels/attention/attention_pipeline.cuh") +
        EmbeddedHeaderBody("lessons/10_attention/attention_naive.cuh") +
        "using namespace lessons::attention;\n";
    spec.signature = "const AttentionProblem";
    spec.prelude = prelude;
    return spec;
}

LESSONS_EXERCISE_KIND(Fused, &StudentSpec,
                      [](const Fused& kind, const StepSite& site,
                         std::shared_ptr<const StudentKernel> student) {
                          const std::vector<const AttentionKernel*> kernels =
                              CheckedKernels(kind, site);
                          if (kind.tensor_maps)
                              for (const AttentionKernel* k : kernels) (void)KeyTileRows(*k);
                          StepRunner r;
                          r.make = [kernels, student, maps = kind.tensor_maps](
                                       const Workload& w, const StepContext& c) {
                              const AttentionKernel& k = Pick(kernels, c.params);
                              CheckRunnable(k, c.devices.front());
                              auto loaded = cuda::LoadStudentKernel(*student, k.threads);
                              return std::unique_ptr<StepInstance>(
                                  std::make_unique<StudentStep>(w, std::move(loaded), k, maps));
                          };
                          r.attributes = [kernels, student](const ParamValues& params) {
                              // A Hopper step's kernel is compiled for sm_90a: below 9.0 the
                              // driver would refuse to load it with a message about the image,
                              // so the step says what it needs first.
                              const AttentionKernel& k = Pick(kernels, params);
                              int device = 0;
                              LESSONS_CUDA_CHECK(cudaGetDevice(&device));
                              const std::string why = WhyNotRunnable(k.min_cc, k.name, device);
                              if (!why.empty()) throw UnavailableError(why);
                              return cuda::StudentKernelAttributes(*student, k.threads);
                          };
                          return r;
                      });

namespace {

ExerciseCase AttentionCase(uint64_t b, uint64_t h, uint64_t n, const std::string& mask,
                           const std::string& why, const std::string& why_zh) {
    ExerciseCase c;
    c.params = {{"b", std::to_string(b)},
                {"h", std::to_string(h)},
                {"n", std::to_string(n)},
                {"mask", mask},
                {"data", "random"}};
    const std::string shape =
        "B = " + std::to_string(b) + ", H = " + std::to_string(h) + ", N = " + std::to_string(n);
    c.name = shape + (mask == "causal" ? ", causal" : "") + ": " + why;
    c.name_zh = shape + (mask == "causal" ? "，因果" : "") + "：" + why_zh;
    return c;
}

}  // namespace

// The hidden cases of an attention exercise (`check`): one key, sequence lengths that are no
// multiple of any tile (8 to 128 query rows, 32 or 64 keys), the causal mask, several heads.
LESSONS_EXERCISE_CASES(Fused, [](const Fused&, const StepSite&) {
    ExerciseCaseSet set;
    set.size_param = "n";
    set.widths = {8, 16, 32, 64, 128};
    set.cases = {
        AttentionCase(1, 1, 1, "none", "one query, one key", "一个查询、一个键"),
        AttentionCase(1, 2, 17, "none", "no multiple of a tile", "不是分块的倍数"),
        AttentionCase(1, 2, 17, "causal", "the mask inside one tile", "掩码在一个分块之内"),
        AttentionCase(2, 3, 1000, "causal", "the mask across tiles", "掩码跨越多个分块"),
        AttentionCase(1, 1, 4097, "none", "one key past a tile", "比分块多一个键"),
        AttentionCase(4, 16, 1023, "none", "many heads", "多个头"),
    };
    return set;
});

LESSONS_STEP_KIND(Unfused, [](const Unfused&, const StepSite& site) {
    const UnfusedAttention& u = OnlyKernel<UnfusedAttention>(site);
    StepRunner r;
    r.make = [&u](const Workload& w, const StepContext& c) {
        const std::string unavailable = u.unavailable();
        if (!unavailable.empty()) throw UnavailableError(unavailable);
        // Loaded on first use (engine/cublas_loader.h): here, or the reason it cannot be.
        if (!cublas::Load())
            throw UnavailableError("cuBLAS cannot run here: " + cublas::Unavailable());
        const int block = static_cast<int>(c.params.Number("block"));
        const int n = static_cast<int>(c.params.Number("n"));
        const uint64_t rows = c.params.Number("b") * c.params.Number("h") * uint64_t(n);
        if (rows > 2147483647ull)
            throw UsageError("the softmax has a block per row of S, B·H·N = " +
                             std::to_string(rows) + " blocks, more than a grid's 2147483647");
        cuda::CheckBlockAgainstKernel(u.pick(n, block), u.name, block);
        return std::unique_ptr<StepInstance>(std::make_unique<UnfusedStep>(w, u, block));
    };
    r.attributes = [&u](const ParamValues& params) {
        const int block = static_cast<int>(params.Number("block"));
        return cuda::QueryKernelAttributes(u.pick(int(params.Number("n")), block), u.name, block);
    };
    r.unavailable = [&u] { return u.unavailable(); };
    return r;
});

}  // namespace lessons::attention
