// The harness of chapter 5's GPU steps. A and B are copied to the GPU once, when the step is
// set up; what is timed (CUDA events) is the multiplication alone, as a program that already
// holds its matrices on the GPU would run it. C is read back for the check, outside the timing.
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
#include "gemm/gemm_gpu.cuh"
#include "gemm_chapter.h"
#include "gemm_steps.h"
#include "kernel_timer.cuh"
#include "kernels_of.h"
#include "launch_checks.cuh"

namespace lessons::gemm {
namespace {

class GpuGemmBase : public LaunchTimedStep<GemmStep> {
public:
    GpuGemmBase(const Workload& w, bool tf32)
        : LaunchTimedStep<GemmStep>(w, tf32),
          m_a(std::max<size_t>(size_t(m_work.m()) * size_t(m_work.k()), 1), "A"),
          m_b(std::max<size_t>(size_t(m_work.k()) * size_t(m_work.n()), 1), "B"),
          m_cd(std::max<size_t>(size_t(m_work.m()) * size_t(m_work.n()), 1), "C") {
        LESSONS_CUDA_CHECK(cudaMemcpyAsync(m_a.get(), m_work.a(),
                                           size_t(m_work.m()) * size_t(m_work.k()) * sizeof(float),
                                           cudaMemcpyHostToDevice, m_stream.get()));
        LESSONS_CUDA_CHECK(cudaMemcpyAsync(m_b.get(), m_work.b(),
                                           size_t(m_work.k()) * size_t(m_work.n()) * sizeof(float),
                                           cudaMemcpyHostToDevice, m_stream.get()));
        // NaN everywhere, so an element a step forgets to write cannot pass the check.
        LESSONS_CUDA_CHECK(cudaMemsetAsync(m_cd.get(), 0xFF, m_cd.bytes(), m_stream.get()));
        m_stream.Synchronize();
    }

protected:
    void ReadBack() const override {
        m_c.resize(size_t(m_work.m()) * size_t(m_work.n()));
        LESSONS_CUDA_CHECK(cudaMemcpyAsync(m_c.data(), m_cd.get(), m_c.size() * sizeof(float),
                                           cudaMemcpyDeviceToHost, m_stream.get()));
        LESSONS_CUDA_CHECK(cudaStreamSynchronize(m_stream.get()));
    }

    cuda::DeviceBuffer<float> m_a, m_b, m_cd;
};

class KernelStep : public GpuGemmBase {
public:
    KernelStep(const Workload& w, const GemmKernel& kernel, int block, bool tf32)
        : GpuGemmBase(w, tf32), m_kernel(kernel), m_block(block) {}

private:
    void Launch(cudaStream_t s) override {
        LESSONS_CUDA_CHECK(m_kernel.launch(m_work.m(), m_work.n(), m_work.k(), m_a.get(), m_b.get(),
                                           m_cd.get(), m_block, s));
    }
    const GemmKernel& m_kernel;
    int m_block;
};

// A student's kernel (an exercise) in place of a step's own: the grid and block the step's
// kernel is launched with (GridOf), the same data, check and timing.
struct StudentLaunch {
    dim3 grid, block;
    unsigned shared_bytes = 0;
};

// The launch of a student's kernel in place of the step's kernel `k` at `threads` threads a block,
// for an m × n C: the tiled steps' one block of the tile's threads per BM × BN tile (LaunchTiled);
// the steps that take the `block` parameter, blocks of 32 × block/32 threads over C, x along the
// dimension the row says (Block::x), as each one's Launch lays them.
StudentLaunch LaunchOf(const GemmKernel& k, Block::X x, int m, int n, int threads) {
    if (k.tile)
        return {dim3(unsigned((n + k.tile->bn - 1) / k.tile->bn),
                     unsigned((m + k.tile->bm - 1) / k.tile->bm)),
                dim3(unsigned(k.tile->threads)), unsigned(k.dynamic_smem)};
    const dim3 block(32, unsigned(threads / 32));
    if (x == Block::X::kDownAColumn)
        return {dim3(unsigned((m + 31) / 32), unsigned((n + block.y - 1) / block.y)), block, 0};
    return {dim3(unsigned((n + 31) / 32), unsigned((m + block.y - 1) / block.y)), block, 0};
}

class StudentStep : public GpuGemmBase {
public:
    StudentStep(const Workload& w, std::shared_ptr<const cuda::LoadedKernel> kernel,
                StudentLaunch launch, bool tf32)
        : GpuGemmBase(w, tf32), m_kernel(std::move(kernel)), m_launch(launch) {}

private:
    void Launch(cudaStream_t s) override {
        int m = m_work.m(), n = m_work.n(), k = m_work.k();
        const float* a = m_a.get();
        const float* b = m_b.get();
        float* c = m_cd.get();
        void* args[] = {&m, &n, &k, &a, &b, &c};
        m_kernel->Launch(m_launch.grid, m_launch.block, s, args, m_launch.shared_bytes);
    }
    std::shared_ptr<const cuda::LoadedKernel> m_kernel;
    StudentLaunch m_launch;
};

class CublasStep : public GpuGemmBase {
public:
    CublasStep(const Workload& w, bool tf32) : GpuGemmBase(w, tf32) {
        std::string error = GemmCublasCreate(&m_handle, m_stream.get());
        if (error.empty() && tf32) error = GemmCublasAllowTf32(m_handle);
        if (!error.empty()) {
            GemmCublasDestroy(m_handle);
            throw UnavailableError("cuBLAS: " + error);
        }
        m_timer.WarmBeforeFirstSample();  // the handle's first call, outside the timing hold
    }
    ~CublasStep() override { GemmCublasDestroy(m_handle); }
    CublasStep(const CublasStep&) = delete;
    CublasStep& operator=(const CublasStep&) = delete;

private:
    void Launch(cudaStream_t) override {
        const std::string error = GemmCublasRun(m_handle, m_work.m(), m_work.n(), m_work.k(),
                                                m_a.get(), m_b.get(), m_cd.get());
        if (!error.empty()) throw std::runtime_error(error);
    }
    void* m_handle = nullptr;
};

// The kernel of a lesson at a parameter set: its tile's, or the one kernel of a step whose
// blocks the `block` parameter sets.
using Pick = std::function<const GemmKernel&(const ParamValues&)>;

int Threads(const GemmKernel& k, const ParamValues& p) {
    return k.tile ? k.tile->threads : static_cast<int>(p.Number("block"));
}

// "tile=256t-128x128x8-w64x32" or "block=256": what the user chose, for messages.
std::string Chosen(const GemmKernel& k, const ParamValues& p) {
    return k.tile ? "tile=" + TileName(*k.tile) : "block=" + std::to_string(Threads(k, p));
}

// What this GPU cannot run: a compute capability below the step's, more threads than the
// kernel's registers allow in a block, or no block of it fitting on an SM at all.
void CheckRunnable(const GemmKernel& k, const ParamValues& p, int device) {
    const DeviceInfo& d = GetDevices().devices[size_t(device)];
    const int cc = d.cc_major * 10 + d.cc_minor;
    if (cc < k.min_cc)
        throw UnavailableError(std::string(k.name) + " needs compute capability " +
                               std::to_string(k.min_cc / 10) + "." + std::to_string(k.min_cc % 10) +
                               " (TF32 tensor cores); " + d.name + " has " +
                               std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor));
    const std::string what = Chosen(k, p);
    AllowDynamicSmem(k.kernel, k.dynamic_smem, what, d.name);
    CheckBlockFits(k.kernel, k.name, Threads(k, p), k.dynamic_smem, what, d.name);
}

// `tf32`: the step rounds A and B to TF32 (tensor cores) and is checked with TF32's tolerance.
StepRunner KernelRunner(Pick pick, bool tf32) {
    StepRunner r;
    r.make = [pick, tf32](const Workload& w, const StepContext& c) {
        const GemmKernel& k = pick(c.params);
        CheckRunnable(k, c.params, c.devices.front());
        return std::unique_ptr<StepInstance>(
            std::make_unique<KernelStep>(w, k, Threads(k, c.params), tf32));
    };
    r.attributes = [pick](const ParamValues& params) {
        const GemmKernel& k = pick(params);
        AllowDynamicSmem(k.kernel, k.dynamic_smem, Chosen(k, params), "this GPU");
        return cuda::QueryKernelAttributes(k.kernel, k.name, Threads(k, params), k.dynamic_smem);
    };
    return r;
}

// `tf32`: the step rounds A and B to TF32 and is checked with TF32's tolerance, as its own kernel.
// `x`: a block-parameter step's layout (Block::x); a tiled step's tile says its own.
StepRunner StudentRunner(Pick pick, std::shared_ptr<const StudentKernel> student, bool tf32,
                         Block::X x = Block::X::kDownAColumn) {
    StepRunner r;
    r.make = [pick, student, tf32, x](const Workload& w, const StepContext& c) {
        const GemmKernel& k = pick(c.params);
        CheckRunnable(k, c.params, c.devices.front());
        const int threads = Threads(k, c.params);
        auto loaded = cuda::LoadStudentKernel(*student, threads);
        const auto& work = static_cast<const GemmWorkload&>(w);
        return std::unique_ptr<StepInstance>(std::make_unique<StudentStep>(
            w, std::move(loaded), LaunchOf(k, x, work.m(), work.n(), threads), tf32));
    };
    r.attributes = [pick, student](const ParamValues& params) {
        return cuda::StudentKernelAttributes(*student, Threads(pick(params), params));
    };
    return r;
}

StepRunner CublasRunner(bool tf32) {
    StepRunner r;
    r.make = [tf32](const Workload& w, const StepContext&) {
        const std::string why = GemmCublasUnavailable();
        if (!why.empty()) throw UnavailableError(why);
        // Loaded on first use (engine/cublas_loader.h): here, or the reason it cannot be.
        if (!cublas::Load())
            throw UnavailableError("cuBLAS cannot run here: " + cublas::Unavailable());
        return std::unique_ptr<StepInstance>(std::make_unique<CublasStep>(w, tf32));
    };
    return r;
}

// The TF32 tensor-core ceiling (engine/device.h): cuBLAS's own TF32 SGEMM, the very call of the
// cuBLAS TF32 step (the cuBLAS SGEMM handle with CUBLAS_TF32_TENSOR_OP_MATH), at n = 8192 (4096
// or 2048 when the GPU has less free memory), the fastest of five runs after two warm-ups. On
// an H100 that is about 20 ms of GPU time, with the handle's creation well under a second.
double MeasureTf32Gflops(int ordinal) {
    const std::string why = GemmCublasUnavailable();
    if (!why.empty()) throw UnavailableError(why);
    if (!cublas::Load()) throw UnavailableError("cuBLAS cannot run here: " + cublas::Unavailable());
    cuda::ScopedDevice on(ordinal);
    cuda::Stream stream;
    const cudaStream_t s = stream.get();
    const CeilingOperands<float> op("TF32", s);
    const int n = op.n;
    void* handle = nullptr;
    std::string error = GemmCublasCreate(&handle, s);
    if (error.empty()) error = GemmCublasAllowTf32(handle);
    struct Release {
        void* h;
        ~Release() { GemmCublasDestroy(h); }
    } release{handle};
    if (!error.empty()) throw UnavailableError("cuBLAS: " + error);
    auto run = [&] {
        const std::string e = GemmCublasRun(handle, n, n, n, op.a.get(), op.b.get(), op.c.get());
        if (!e.empty()) throw UnavailableError("cuBLAS: " + e);
    };
    const std::vector<double> ms = TimeCeilingRuns(s, 5, run);
    const double best_ms = *std::min_element(ms.begin(), ms.end());
    const double flops = 2.0 * double(n) * double(n) * double(n);
    return best_ms > 0 ? flops / (best_ms * 1e6) : 0;
}

// The engine's TF32 ceiling is measured here, where cuBLAS is linked: registered explicitly as
// this library is loaded (the GPU steps are linked whole), and measured only on demand.
const struct Tf32MeasurerRegistration {
    Tf32MeasurerRegistration() { SetTf32Measurer(&MeasureTf32Gflops); }
} kTf32MeasurerRegistration;

// The kernel of each tile of the row, by the tile's name.
std::vector<std::pair<std::string, const GemmKernel*>> KernelsByTile(const Tiled& kind,
                                                                     const StepSite& site) {
    return lessons::KernelsByTile<GemmKernel>(kind.tiles, site, &TileName);
}

}  // namespace

namespace {

Pick BlockPick(const StepSite& site) {
    const GemmKernel& k = OnlyKernel<GemmKernel>(site);
    if (k.tile)
        throw std::logic_error(std::string(k.name) + " is compiled for tile " + TileName(*k.tile) +
                               ", and its row launches it by block size");
    return [&k](const ParamValues&) -> const GemmKernel& { return k; };
}

Pick TilePick(const Tiled& kind, const StepSite& site) {
    return lessons::TilePick(KernelsByTile(kind, site));
}

// A student's GEMM kernel: (m, n, k, a, b, c), as StudentStep passes them; the chapter's
// bounds-checked loads and stores (kernels/gemm/gemm_tile_io.cuh, embedded) in the prelude, made
// visible at global scope, where a student's kernel (and a solution) stands. The TF32 step's
// kernel includes the toolkit's <mma.h> (NVRTC finds it through the toolkit's include folder).
KernelSpec StudentSpec(bool tf32) {
    static const std::string prelude =
        EmbeddedHeaderBody("kernels/gemm/gemm_tile_io.cuh") + "using namespace lessons::gemm;\n";
    KernelSpec spec;
    spec.signature = "int, int, int, const float*, const float*, float*";
    spec.prelude = prelude;
    if (tf32) spec.allowed_includes = spec.toolkit_headers = {"mma.h"};
    return spec;
}

}  // namespace

namespace {

// The hidden cases of a GEMM exercise (`check`, both kinds): 1 x 1 x 1, sizes that are no
// multiple of any tile (32, 64, 128 and the 4 floats of a vector load) in each dimension on its
// own, k = 1, and a large one; all 1.0 where every element of C is exactly k.
ExerciseCaseSet GemmCases() {
    ExerciseCaseSet set;
    set.size_param = "m";
    set.widths = {4, 8, 16, 32, 64, 128, 256};
    set.cases = {
        MatrixCase({1, 1, 1}, "ones", "the smallest", "最小"),
        MatrixCase({2, 3, 5}, "random"),
        MatrixCase({33, 33, 33}, "ones"),
        MatrixCase({65, 64, 64}, "ones", "m alone off the tile", "只有 m 不整除分块"),
        MatrixCase({64, 67, 64}, "ones", "n alone off the tile", "只有 n 不整除分块"),
        MatrixCase({64, 64, 63}, "ones", "k alone off the tile", "只有 k 不整除分块"),
        MatrixCase({129, 127, 131}, "random"),
        MatrixCase({97, 101, 103}, "large"),
        MatrixCase({1000, 1000, 1}, "random", "k = 1", "k = 1"),
        MatrixCase({255, 257, 1027}, "random"),
        MatrixCase({2049, 1025, 517}, "random", "large", "较大"),
    };
    return set;
}

}  // namespace

LESSONS_STEP_KIND(Block, [](const Block&, const StepSite& site) {
    return KernelRunner(BlockPick(site), false);
});
LESSONS_EXERCISE_KIND(
    Block, [](const Block&, const StepSite&) { return StudentSpec(false); },
    [](const Block& kind, const StepSite& site, std::shared_ptr<const StudentKernel> student) {
        return StudentRunner(BlockPick(site), std::move(student), false, kind.x);
    });
LESSONS_EXERCISE_CASES(Block, [](const Block&, const StepSite&) { return GemmCases(); });

LESSONS_STEP_KIND(Tiled, [](const Tiled& kind, const StepSite& site) {
    return KernelRunner(TilePick(kind, site), kind.tf32);
});
LESSONS_EXERCISE_KIND(
    Tiled, [](const Tiled& kind, const StepSite&) { return StudentSpec(kind.tf32); },
    [](const Tiled& kind, const StepSite& site, std::shared_ptr<const StudentKernel> student) {
        return StudentRunner(TilePick(kind, site), std::move(student), kind.tf32);
    });
LESSONS_EXERCISE_CASES(Tiled, [](const Tiled&, const StepSite&) { return GemmCases(); });

LESSONS_STEP_KIND(Cublas,
                  [](const Cublas& kind, const StepSite&) { return CublasRunner(kind.tf32); });

}  // namespace lessons::gemm
