// The harness of chapter 4's GPU steps. A and x are copied to the GPU once, when the step is
// set up; what is timed (CUDA events) is the product alone, as a program that already holds
// its matrix on the GPU would run it. Before every run y is filled with NaN, so a row a step
// forgets to write fails the check.
#include <memory>
#include <stdexcept>
#include <string>

#include "cublas_loader.h"
#include "cuda/cuda_util.h"
#include "cuda/module.h"
#include "errors.h"
#include "exercise_cases.h"
#include "exercise_kinds.h"
#include "gemv/gemv_gpu.cuh"
#include "gemv_chapter.h"
#include "gemv_steps.h"
#include "kernel_timer.cuh"
#include "kernels_of.h"
#include "launch_checks.cuh"

namespace lessons::gemv {
namespace {

class GpuGemvBase : public GemvStep {
public:
    explicit GpuGemvBase(const Workload& w)
        : GemvStep(w),
          m_a(m_work.m() * m_work.n(), "the matrix A"),
          m_x(m_work.n(), "the vector x"),
          m_y(m_work.m(), "the vector y"),
          m_out(m_work.m(), "the host copy of y") {
        // On the step's own stream: it is non-blocking, so it would not wait for a copy on
        // the legacy stream, and a pageable cudaMemcpy may return before its DMA is done.
        LESSONS_CUDA_CHECK(cudaMemcpyAsync(m_a.get(), m_work.a(), m_a.bytes(),
                                           cudaMemcpyHostToDevice, m_stream.get()));
        LESSONS_CUDA_CHECK(cudaMemcpyAsync(m_x.get(), m_work.x(), m_x.bytes(),
                                           cudaMemcpyHostToDevice, m_stream.get()));
        m_stream.Synchronize();
    }

protected:
    const float* Output() const override { return m_out.get(); }

    // Times `body` (which writes y on the stream it is given) and reads y back.
    template <typename Body>
    Sample Timed(Body&& body) {
        cudaStream_t s = m_stream.get();
        LESSONS_CUDA_CHECK(cudaMemsetAsync(m_y.get(), 0xff, m_y.bytes(), s));  // NaN
        const Sample sample = m_timer.Time(s, body);
        LESSONS_CUDA_CHECK(
            cudaMemcpyAsync(m_out.get(), m_y.get(), m_y.bytes(), cudaMemcpyDeviceToHost, s));
        m_stream.Synchronize();
        return sample;
    }

    int M() const { return static_cast<int>(m_work.m()); }  // <= kMaxDimension
    int N() const { return static_cast<int>(m_work.n()); }

    cuda::DeviceBuffer<float> m_a, m_x, m_y;
    cuda::PinnedBuffer<float> m_out;
    cuda::Stream m_stream;
    KernelTimer m_timer{KernelTimer::Batching::kShortKernelsBatched};
};

// The steps with a kernel of their own.
class KernelStep : public GpuGemvBase {
public:
    KernelStep(const Workload& w, const GemvKernel& kernel, int block)
        : GpuGemvBase(w), m_kernel(kernel), m_block(block) {}

    Sample Run() override {
        return Timed([this](cudaStream_t s) {
            LESSONS_CUDA_CHECK(
                m_kernel.launch(m_a.get(), m_x.get(), m_y.get(), M(), N(), m_block, s));
        });
    }

private:
    const GemvKernel& m_kernel;
    int m_block;
};

// How a hand-written step launches its kernel for m × n with `block` threads, by the row's
// layout (Kernel::layout): the grid, and the group-per-row step's sixth argument. The same formulas
// as the kernel files' Launch (kept there unchanged: their recorded SASS is keyed by their text);
// the exercise tests on a GPU run each reference solution through this at edge sizes, so a grid
// that drifted apart fails them.
struct GemvShape {
    unsigned blocks = 0;
    int group_log2 = -1;  // >= 0: the kernel takes it after (a, x, y, m, n)
};

GemvShape ShapeOf(RowLayout layout, int m, int n, int block) {
    switch (layout) {
        case RowLayout::kThreadPerRow:
            return {static_cast<unsigned>((static_cast<long long>(m) + block - 1) / block)};
        case RowLayout::kWarpPerRow: {
            const long long rows_per_block = block / 32;
            return {static_cast<unsigned>((m + rows_per_block - 1) / rows_per_block)};
        }
        case RowLayout::kGroupPerRow: {
            const int group = GemvLanesPerRow(n, block);
            int group_log2 = 0;
            while ((1 << group_log2) < group) ++group_log2;
            const long long threads = static_cast<long long>(m) * group;
            return {static_cast<unsigned>((threads + block - 1) / block), group_log2};
        }
    }
    throw std::logic_error("unknown row layout");
}

// A student's kernel (an exercise) in place of the step's own: the same data, the same grid
// (ShapeOf), the same check and timing.
class StudentStep : public GpuGemvBase {
public:
    StudentStep(const Workload& w, RowLayout layout, const StudentKernel& student, int block)
        : GpuGemvBase(w),
          m_shape(ShapeOf(layout, M(), N(), block)),
          m_kernel(student.cubin, student.lowered_name, student.name),
          m_block(block) {
        m_kernel.CheckBlock(block);
    }

    Sample Run() override {
        return Timed([this](cudaStream_t s) {
            const float* a = m_a.get();
            const float* x = m_x.get();
            float* y = m_y.get();
            int m = M(), n = N(), group_log2 = m_shape.group_log2;
            void* args[] = {&a, &x, &y, &m, &n, &group_log2};  // the sixth only when it takes it
            m_kernel.Launch(m_shape.blocks, static_cast<unsigned>(m_block), s, args);
        });
    }

private:
    GemvShape m_shape;
    cuda::LoadedKernel m_kernel;
    int m_block;
};

// The cuBLAS step.
class CublasStep : public GpuGemvBase {
public:
    explicit CublasStep(const Workload& w) : GpuGemvBase(w) {
        const std::string error = GemvCublasCreate(&m_handle, m_stream.get());
        if (!error.empty()) throw CudaError(error, false);
        m_timer.WarmBeforeFirstSample();  // the handle's first call, outside the timing hold
    }
    ~CublasStep() override { GemvCublasDestroy(m_handle); }
    CublasStep(const CublasStep&) = delete;
    CublasStep& operator=(const CublasStep&) = delete;

    Sample Run() override {
        return Timed([this](cudaStream_t) {
            const std::string error =
                GemvCublasRun(m_handle, m_a.get(), m_x.get(), m_y.get(), M(), N());
            if (!error.empty()) throw CudaError(error, false);
        });
    }

private:
    void* m_handle = nullptr;
};

// The step's kernel variant at the parameters' toggle values (lesson 4.3's ablations; the
// other steps register one kernel, without toggles).
StepRunner KernelRunner(std::vector<const GemvKernel*> variants) {
    return VariantRunner(
        std::move(variants), nullptr,
        [](const Workload& w, const StepContext&, const GemvKernel& k, int block) {
            return std::unique_ptr<StepInstance>(std::make_unique<KernelStep>(w, k, block));
        });
}

// The exercise fixes the toggles, so `params` name the variant the student's kernel stands for.
StepRunner StudentRunner(const Kernel& kind, std::shared_ptr<const StudentKernel> student) {
    StepRunner r;
    r.make = [kind, student](const Workload& w, const StepContext& c) {
        return std::unique_ptr<StepInstance>(
            std::make_unique<StudentStep>(w, kind.layout, *student, BlockOf(c.params)));
    };
    r.attributes = StudentAttributes(student);
    return r;
}

StepRunner CublasRunner() {
    StepRunner r;
    r.make = [](const Workload& w, const StepContext&) {
        const std::string why = GemvCublasUnavailable();
        if (!why.empty()) throw UnavailableError("cuBLAS cannot run here: " + why);
        // Loaded on first use (engine/cublas_loader.h): here, or the reason it cannot be.
        if (!cublas::Load())
            throw UnavailableError("cuBLAS cannot run here: " + cublas::Unavailable());
        return std::unique_ptr<StepInstance>(std::make_unique<CublasStep>(w));
    };
    return r;
}

}  // namespace

LESSONS_STEP_KIND(Kernel, [](const Kernel&, const StepSite& site) {
    return KernelRunner(Variants<GemvKernel>(site));
});
LESSONS_EXERCISE_KIND(
    Kernel,
    [](const Kernel& kind, const StepSite&) {
        KernelSpec spec;  // the arguments StudentStep passes: the sixth for a group per row
        spec.signature = kind.layout == RowLayout::kGroupPerRow
                             ? "const float*, const float*, float*, int, int, int"
                             : "const float*, const float*, float*, int, int";
        return spec;
    },
    [](const Kernel& kind, const StepSite&, std::shared_ptr<const StudentKernel> student) {
        return StudentRunner(kind, std::move(student));
    });
// The hidden cases of a GEMV exercise (`check`): one row, one column, counts of rows that are no
// multiple of a block's rows (a warp's 32 or the block), columns that are no multiple of the
// 4 floats of a vector load or of 32 lanes, and the default size and more.
LESSONS_EXERCISE_CASES(Kernel, [](const Kernel&, const StepSite&) {
    ExerciseCaseSet set;
    set.size_param = "n";
    set.widths = {4, 32, 128, 256};
    set.cases = {
        MatrixCase({1, 1}, "ones", "the smallest", "最小"),
        MatrixCase({1, 5}, "ones", "one row", "一行"),
        MatrixCase({3, 1}, "ones", "one column", "一列"),
        MatrixCase({33, 37}, "ones"),
        MatrixCase({257, 129}, "random"),
        MatrixCase({129, 4101}, "large"),
        MatrixCase({5, 4099}, "ones", "long rows, no multiple of 4", "长行，不是 4 的倍数"),
        MatrixCase({1000, 1001}, "random"),
        MatrixCase({4097, 1027}, "ones"),
        MatrixCase({8193, 8195}, "random", "the default size and more", "默认大小再多一点"),
    };
    return set;
});
LESSONS_STEP_KIND(Cublas, [](const Cublas&, const StepSite&) { return CublasRunner(); });

}  // namespace lessons::gemv
