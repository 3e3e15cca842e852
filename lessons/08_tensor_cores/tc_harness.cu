// The harness of chapter 8's GPU steps. A and Bᵀ are copied to the GPU once, when the step is
// set up, into rows padded with zeros to a multiple of 8 elements (16 bytes: what TMA and
// cp.async need); C's rows are padded the same way and filled with NaN, so an element a step
// forgets to write fails the check. What is timed (CUDA events) is the multiplication alone; C
// is read back for the check outside the timing.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ceiling_measure.cuh"
#include "cublas_loader.h"
#include "cuda/cuda_util.h"
#include "cuda/module.h"
#include "cuda/scoped_device.h"
#include "device.h"
#include "errors.h"
#include "exercise.h"
#include "exercise_cases.h"
#include "exercise_kinds.h"
#include "kernel_timer.cuh"
#include "kernels_of.h"
#include "launch_checks.cuh"
#include "resources.h"
#include "result.h"
#include "tc/tc_cublas.cuh"
#include "tc/tc_gpu.cuh"
#include "tc/tc_hopper.cuh"
#include "tc_chapter.h"
#include "tc_steps.h"

namespace lessons::tc {
namespace {

class GpuTcBase : public LaunchTimedStep<TcStep> {
public:
    explicit GpuTcBase(const Workload& w)
        : LaunchTimedStep<TcStep>(w),
          m_lda(int(PaddedLd(uint64_t(m_work.k())))),
          m_ldc(int(PaddedLd(uint64_t(m_work.n())))),
          m_a(std::max<size_t>(size_t(m_work.m()) * size_t(m_lda), 1), "A"),
          m_bt(std::max<size_t>(size_t(m_work.n()) * size_t(m_lda), 1), "B (transposed)"),
          m_cd(std::max<size_t>(size_t(m_work.m()) * size_t(m_ldc), 1), "C") {
        const cudaStream_t s = m_stream.get();
        const size_t row = size_t(m_work.k()) * sizeof(uint16_t);
        const size_t pitch = size_t(m_lda) * sizeof(__nv_bfloat16);
        // Zeros in the padding: a kernel that reads a whole 16-byte chunk past k adds 0.
        LESSONS_CUDA_CHECK(cudaMemsetAsync(m_a.get(), 0, m_a.bytes(), s));
        LESSONS_CUDA_CHECK(cudaMemsetAsync(m_bt.get(), 0, m_bt.bytes(), s));
        LESSONS_CUDA_CHECK(cudaMemcpy2DAsync(m_a.get(), pitch, m_work.a(), row, row,
                                             size_t(m_work.m()), cudaMemcpyHostToDevice, s));
        LESSONS_CUDA_CHECK(cudaMemcpy2DAsync(m_bt.get(), pitch, m_work.bt(), row, row,
                                             size_t(m_work.n()), cudaMemcpyHostToDevice, s));
        // 0xFFFF is a NaN in bf16.
        LESSONS_CUDA_CHECK(cudaMemsetAsync(m_cd.get(), 0xFF, m_cd.bytes(), s));
        m_stream.Synchronize();
    }

protected:
    void ReadBack() const override {
        m_c.resize(size_t(m_work.m()) * size_t(m_work.n()));
        const size_t row = size_t(m_work.n()) * sizeof(uint16_t);
        LESSONS_CUDA_CHECK(
            cudaMemcpy2DAsync(m_c.data(), row, m_cd.get(), size_t(m_ldc) * sizeof(__nv_bfloat16),
                              row, size_t(m_work.m()), cudaMemcpyDeviceToHost, m_stream.get()));
        LESSONS_CUDA_CHECK(cudaStreamSynchronize(m_stream.get()));
    }
    TcProblem Problem() const {
        return {m_work.m(), m_work.n(), m_work.k(), m_a.get(), m_lda,
                m_bt.get(), m_lda,      m_cd.get(), m_ldc};
    }

    int m_lda, m_ldc;  // Bᵀ's rows are k long too: ldb = lda
    cuda::DeviceBuffer<__nv_bfloat16> m_a, m_bt, m_cd;
};

class KernelStep : public GpuTcBase {
public:
    KernelStep(const Workload& w, const TcKernel& kernel) : GpuTcBase(w), m_kernel(kernel) {}

private:
    void Launch(cudaStream_t s) override { LESSONS_CUDA_CHECK(m_kernel.launch(Problem(), s)); }
    const TcKernel& m_kernel;
};

// A student's TMA kernel takes the tensor maps by value as the exercises' prelude declares
// CUtensorMap (StudentSpec below: 128 bytes aligned to 128): cuLaunchKernel
// copies each parameter by the kernel's layout, so the harness's maps must be as large, and the
// prelude's alignment must meet the one <cuda.h> asks for (64 in CUDA 12, 128 in CUDA 13).
static_assert(sizeof(CUtensorMap) == 128 && 128 % alignof(CUtensorMap) == 0,
              "the exercises' prelude declares CUtensorMap as 128 bytes aligned to 128");

bool TakesProblem(TcArgs args) {
    return args == TcArgs::kProblemTileGrid || args == TcArgs::kProblemTileRow;
}

// The grid a kProblem kernel is launched with for an m × n C (TcArgs).
dim3 StudentGrid(const TcKernel& k, TcArgs args, int m, int n) {
    const unsigned tiles_m = unsigned((m + k.tile.bm - 1) / k.tile.bm);
    const unsigned tiles_n = unsigned((n + k.tile.bn - 1) / k.tile.bn);
    if (args == TcArgs::kProblemTileRow) return dim3(tiles_m * tiles_n);
    return dim3(tiles_n, tiles_m);
}

// A student's kernel in place of the step's own kernel `step`: launched as the row says (TcArgs),
// with the same threads and dynamic shared memory, data, check and timing. For a TMA step the
// tensor maps are made at each launch, inside the timing, as the step's own launch makes them.
class StudentStep : public GpuTcBase {
public:
    StudentStep(const Workload& w, std::shared_ptr<const cuda::LoadedKernel> kernel,
                const TcKernel& step, TcArgs args)
        : GpuTcBase(w), m_kernel(std::move(kernel)), m_step(step), m_args(args) {
        // A student's kernel is launched without clusters (cuLaunchKernel): an exercise is
        // written for a tile without them.
        if (!TakesProblem(m_args) && step.tile.cluster > 1)
            throw std::logic_error("tile=" + TcTileName(step.tile) +
                                   " launches clusters, which a student's kernel is not "
                                   "launched in; its exercise must fix a tile without them");
    }

private:
    void Launch(cudaStream_t s) override {
        TcProblem p = Problem();
        if (TakesProblem(m_args)) {
            void* args[] = {&p};
            m_kernel->Launch(StudentGrid(m_step, m_args, p.m, p.n),
                             dim3(unsigned(m_step.tile.threads)), s, args,
                             unsigned(m_step.dynamic_smem));
            return;
        }
        TmaLaunchPlan plan;
        LESSONS_CUDA_CHECK(PlanTmaLaunch(m_step.tile, m_step.kernel, m_step.dynamic_smem,
                                         m_args == TcArgs::kTensorMapsAndC, p, &plan));
        if (m_args == TcArgs::kTensorMapsAndC) {
            void* args[] = {&plan.map_a, &plan.map_b, &plan.map_c, &p.c, &p.m, &p.n, &p.k, &p.ldc};
            m_kernel->Launch(plan.grid, dim3(plan.threads), s, args, unsigned(plan.smem));
        } else {
            void* args[] = {&plan.map_a, &plan.map_b, &p.c, &p.m, &p.n, &p.k, &p.ldc};
            m_kernel->Launch(plan.grid, dim3(plan.threads), s, args, unsigned(plan.smem));
        }
    }
    std::shared_ptr<const cuda::LoadedKernel> m_kernel;
    const TcKernel& m_step;
    TcArgs m_args;
};

class CublasStep : public GpuTcBase {
public:
    explicit CublasStep(const Workload& w) : GpuTcBase(w) {
        const std::string error = TcCublasCreate(&m_handle, m_stream.get());
        if (!error.empty()) throw UnavailableError("cuBLAS: " + error);
        m_timer.WarmBeforeFirstSample();  // the handle's first call, outside the timing hold
    }
    ~CublasStep() override { TcCublasDestroy(m_handle); }
    CublasStep(const CublasStep&) = delete;
    CublasStep& operator=(const CublasStep&) = delete;

private:
    void Launch(cudaStream_t) override {
        const std::string error = TcCublasRun(m_handle, Problem());
        if (!error.empty()) throw std::runtime_error(error);
    }
    void* m_handle = nullptr;
};

// Why device `device` cannot run a step that needs compute capability `min_cc`; empty: it can.
std::string WhyNotRunnable(int min_cc, const std::string& what, int device) {
    const DeviceInfo& d = GetDevices().devices[size_t(device)];
    const int cc = d.cc_major * 10 + d.cc_minor;
    if (cc >= min_cc) return {};
    const std::string has =
        d.name + " has " + std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor);
    if (min_cc >= 90)
        return what +
               " needs Hopper (compute capability 9.0): wgmma and TMA exist on no other "
               "GPU; " +
               has;
    return what + " needs compute capability " + std::to_string(min_cc / 10) + "." +
           std::to_string(min_cc % 10) + " (bf16 tensor cores); " + has;
}

void CheckRunnable(const TcKernel& k, int device) {
    const std::string why = WhyNotRunnable(k.min_cc, k.name, device);
    if (!why.empty()) throw UnavailableError(why);
    const DeviceInfo& d = GetDevices().devices[size_t(device)];
    const std::string what = "tile=" + TcTileName(k.tile);
    AllowDynamicSmem(k.kernel, k.dynamic_smem, what, d.name);
    CheckBlockFits(k.kernel, k.name, k.tile.threads, k.dynamic_smem, what, d.name);
}

using Pick = std::function<const TcKernel&(const ParamValues&)>;

StepRunner KernelRunner(Pick pick) {
    StepRunner r;
    r.make = [pick](const Workload& w, const StepContext& c) {
        const TcKernel& k = pick(c.params);
        CheckRunnable(k, c.devices.front());
        return std::unique_ptr<StepInstance>(std::make_unique<KernelStep>(w, k));
    };
    r.attributes = [pick](const ParamValues& params) {
        const TcKernel& k = pick(params);
        int device = 0;
        LESSONS_CUDA_CHECK(cudaGetDevice(&device));
        const std::string why = WhyNotRunnable(k.min_cc, k.name, device);
        if (!why.empty()) throw UnavailableError(why);
        AllowDynamicSmem(k.kernel, k.dynamic_smem, "tile=" + TcTileName(k.tile), "this GPU");
        return cuda::QueryKernelAttributes(k.kernel, k.name, k.tile.threads, k.dynamic_smem);
    };
    return r;
}

// The kernel of each tile of the row, by the tile's name.
std::vector<std::pair<std::string, const TcKernel*>> KernelsByTile(const Tiled& kind,
                                                                   const StepSite& site) {
    return lessons::KernelsByTile<TcKernel>(kind.tiles, site, &TcTileName);
}

// The bf16 tensor-core ceiling (engine/device.h): the cuBLAS bf16 step's own call at m = n = k
// = 8192 (4096 or 2048 when the GPU has less free memory), two warm-ups, then the median of
// nine runs: the statistic every result's time is (a fastest-of-N would sit above the medians
// it is compared with). On an H100 that is about 20 ms of GPU time.
double MeasureBf16Gflops(int ordinal) {
    const std::string unavailable = TcCublasUnavailable();
    if (!unavailable.empty()) throw UnavailableError(unavailable);
    const std::string why = WhyNotRunnable(80, "the bf16 ceiling", ordinal);
    if (!why.empty()) throw UnavailableError(why);
    if (!cublas::Load()) throw UnavailableError("cuBLAS cannot run here: " + cublas::Unavailable());
    cuda::ScopedDevice on(ordinal);
    cuda::Stream stream;
    const cudaStream_t s = stream.get();
    const CeilingOperands<__nv_bfloat16> op("bf16", s);  // B as Bᵀ: the same random matrix
    const int n = op.n;
    void* handle = nullptr;
    const std::string error = TcCublasCreate(&handle, s);
    struct Release {
        void* h;
        ~Release() { TcCublasDestroy(h); }
    } release{handle};
    if (!error.empty()) throw UnavailableError("cuBLAS: " + error);
    const TcProblem p{n, n, n, op.a.get(), n, op.b.get(), n, op.c.get(), n};
    auto run = [&] {
        const std::string e = TcCublasRun(handle, p);
        if (!e.empty()) throw UnavailableError("cuBLAS: " + e);
    };
    const double median = Median(TimeCeilingRuns(s, 9, run));
    const double flops = 2.0 * double(n) * double(n) * double(n);
    return median > 0 ? flops / (median * 1e6) : 0;
}

// The engine's bf16 ceiling is measured here, where cuBLAS is linked: registered as this
// library is loaded (the GPU steps are linked whole), and measured only on demand.
const struct Bf16MeasurerRegistration {
    Bf16MeasurerRegistration() { SetTensorMeasurer(Bound::kBf16, &MeasureBf16Gflops); }
} kBf16MeasurerRegistration;

}  // namespace

namespace {

Pick TilePick(const Tiled& kind, const StepSite& site) {
    return lessons::TilePick(KernelsByTile(kind, site));
}

// A student's tensor-core kernel, as StudentStep launches it (TcArgs): the TcProblem by value
// (its declaration from kernels/tc/tc_gpu.cuh, embedded; bf16 from the toolkit's header, which
// NVRTC lacks), or the TMA steps' tensor maps, C, m, n, k and ldc. A Hopper step's kernel (one
// whose kernels need 9.0) is compiled for sm_90a, with the device part of kernels/tc/tc_hopper.cuh
// (descriptors, wgmma, mbarriers, the epilogue: from its first declaration to the end of its
// `#if defined(__CUDA_ARCH__)` block) after the fixed-width integers NVRTC lacks and an opaque
// CUtensorMap (passed by value: 128 bytes aligned to 128 as CUDA 13's <cuda.h> declares it, which
// also meets CUDA 12's 64; the static_assert above holds the harness's maps to it; <cuda.h> itself
// needs the C library). The starting files' naive tile (lessons/08_tensor_cores/tc_naive.cuh)
// comes last.
KernelSpec StudentSpec(const Tiled& kind, const StepSite& site) {
    const std::string problem = "#include <cuda_bf16.h>\n" +
                                EmbeddedDeclarations("kernels/tc/tc_gpu.cuh", {"struct TcProblem"});
    KernelSpec spec;
    spec.toolkit_headers = {"cuda_bf16.h"};
    spec.signature =
        kind.args == TcArgs::kTensorMaps
            ? "const CUtensorMap, const CUtensorMap, __nv_bfloat16*, int, int, int, int"
        : kind.args == TcArgs::kTensorMapsAndC
            ? "const CUtensorMap, const CUtensorMap, const CUtensorMap, __nv_bfloat16*, int, int, "
              "int, int"
            : "const TcProblem";
    static const std::string naive = EmbeddedHeaderBody("lessons/08_tensor_cores/tc_naive.cuh") +
                                     "using namespace lessons::tc;\n";
    if (KernelsOf<TcKernel>(site).front()->min_cc < 90) {
        static const std::string mma = EmbeddedHeaderBody("kernels/tc/tc_mma.cuh");
        spec.prelude = problem + mma + naive;
        return spec;
    }
    static const std::string hopper = HopperDevicePart();
    spec.prelude = std::string(kNvrtcIntegers) +
                   "struct alignas(128) CUtensorMap { unsigned long long opaque[16]; };\n" +
                   problem + hopper + naive;
    spec.arch_suffix = "a";
    return spec;
}

}  // namespace

LESSONS_STEP_KIND(Tiled, [](const Tiled& kind, const StepSite& site) {
    return KernelRunner(TilePick(kind, site));
});
LESSONS_EXERCISE_KIND(Tiled, &StudentSpec,
                      [](const Tiled& kind, const StepSite& site,
                         std::shared_ptr<const StudentKernel> student) {
                          Pick pick = TilePick(kind, site);
                          StepRunner r;
                          r.make = [pick, student, args = kind.args](const Workload& w,
                                                                     const StepContext& c) {
                              const TcKernel& k = pick(c.params);
                              CheckRunnable(k, c.devices.front());
                              auto loaded = cuda::LoadStudentKernel(*student, k.tile.threads);
                              return std::unique_ptr<StepInstance>(
                                  std::make_unique<StudentStep>(w, std::move(loaded), k, args));
                          };
                          r.attributes = [pick, student](const ParamValues& params) {
                              // A Hopper step's kernel is compiled for sm_90a: below 9.0 the driver
                              // would refuse to load it with a message about the image, so the step
                              // says what it needs first.
                              const TcKernel& k = pick(params);
                              int device = 0;
                              LESSONS_CUDA_CHECK(cudaGetDevice(&device));
                              const std::string why = WhyNotRunnable(k.min_cc, k.name, device);
                              if (!why.empty()) throw UnavailableError(why);
                              return cuda::StudentKernelAttributes(*student, k.tile.threads);
                          };
                          return r;
                      });

LESSONS_STEP_KIND(Cublas, [](const Cublas&, const StepSite&) {
    StepRunner r;
    r.make = [](const Workload& w, const StepContext& c) {
        const std::string unavailable = TcCublasUnavailable();
        if (!unavailable.empty()) throw UnavailableError(unavailable);
        const std::string why = WhyNotRunnable(80, "cuBLAS's bf16 GEMM", c.devices.front());
        if (!why.empty()) throw UnavailableError(why);
        // Loaded on first use (engine/cublas_loader.h): here, or the reason it cannot be.
        if (!cublas::Load())
            throw UnavailableError("cuBLAS cannot run here: " + cublas::Unavailable());
        return std::unique_ptr<StepInstance>(std::make_unique<CublasStep>(w));
    };
    return r;
});

// The hidden cases of a tensor-core exercise (`check`): 1 x 1 x 1, sizes that are no multiple of
// a tile (64, 128, 256), of a k step (32, 64) or of the 8 elements rows are padded to, k = 1,
// and a large one.
LESSONS_EXERCISE_CASES(Tiled, [](const Tiled&, const StepSite&) {
    ExerciseCaseSet set;
    set.size_param = "m";
    set.widths = {8, 16, 32, 64, 128, 256};
    set.cases = {
        MatrixCase({1, 1, 1}, "ones", "the smallest", "最小"),
        MatrixCase({7, 9, 13}, "random"),
        MatrixCase({129, 128, 64}, "ones", "m alone off the tile", "只有 m 不整除分块"),
        MatrixCase({128, 257, 64}, "ones", "n alone off the tile", "只有 n 不整除分块"),
        MatrixCase({128, 256, 65}, "ones", "k alone off the k step", "只有 k 不整除 k 步长"),
        MatrixCase({1000, 1000, 1}, "random", "k = 1", "k = 1"),
        MatrixCase({333, 517, 1031}, "random"),
        MatrixCase({129, 257, 65}, "large"),
        MatrixCase({2049, 1537, 1031}, "random", "large", "较大"),
    };
    return set;
});

}  // namespace lessons::tc
