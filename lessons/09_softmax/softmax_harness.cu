// The harness of chapter 9's GPU steps. x (and RMSNorm's w) are copied to the GPU once, when the
// step is set up; what is timed (CUDA events) is the kernel alone, as a model that already holds
// its activations on the GPU runs it. Before every run y is filled with NaN (0xff bytes), so an
// element a step forgets to write fails the check.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "cuda/cuda_util.h"
#include "cuda/module.h"
#include "errors.h"
#include "exercise.h"
#include "exercise_cases.h"
#include "exercise_kinds.h"
#include "kernel_timer.cuh"
#include "kernels_of.h"
#include "softmax/softmax_gpu.cuh"
#include "softmax_chapter.h"
#include "softmax_steps.h"

namespace lessons::softmax {
namespace {

class GpuStepBase : public SoftmaxStep {
public:
    GpuStepBase(const Workload& w, Op op)
        : SoftmaxStep(w, op),
          m_bytes(m_work.m() * m_work.n() * m_work.ElementBytes()),
          m_x(m_bytes, "the input x"),
          m_y(m_bytes, "the output y"),
          m_w(m_work.n() * m_work.ElementBytes(), "the weights w"),
          m_out(m_bytes, "the host copy of y") {
        LESSONS_CUDA_CHECK(cudaMemcpyAsync(m_x.get(), m_work.x_device_format(), m_bytes,
                                           cudaMemcpyHostToDevice, m_stream.get()));
        LESSONS_CUDA_CHECK(cudaMemcpyAsync(m_w.get(), m_work.w_device_format(), m_w.bytes(),
                                           cudaMemcpyHostToDevice, m_stream.get()));
        m_stream.Synchronize();
    }

protected:
    const void* Output() const override { return m_out.get(); }

    template <typename Body>
    Sample Timed(Body&& body) {
        cudaStream_t s = m_stream.get();
        LESSONS_CUDA_CHECK(cudaMemsetAsync(m_y.get(), 0xff, m_bytes, s));  // NaN
        const Sample sample = m_timer.Time(s, body);
        LESSONS_CUDA_CHECK(
            cudaMemcpyAsync(m_out.get(), m_y.get(), m_bytes, cudaMemcpyDeviceToHost, s));
        m_stream.Synchronize();
        return sample;
    }

    int M() const { return static_cast<int>(m_work.m()); }  // <= kMaxDimension
    int N() const { return static_cast<int>(m_work.n()); }

    uint64_t m_bytes;
    cuda::DeviceBuffer<unsigned char> m_x, m_y, m_w;
    cuda::PinnedBuffer<unsigned char> m_out;
    cuda::Stream m_stream;
    KernelTimer m_timer{KernelTimer::Batching::kShortKernelsBatched};
};

class KernelStep : public GpuStepBase {
public:
    KernelStep(const Workload& w, Op op, const SoftmaxKernel& kernel, int block, int variant)
        : GpuStepBase(w, op),
          m_kernel(kernel),
          m_block(block),
          m_variant(variant),
          m_workspace(kernel.workspace ? std::max<size_t>(kernel.workspace(M(), N()), 1) : 0,
                      "the step's workspace") {}

    Sample Run() override {
        // The launch's third pointer: RMSNorm's weights, or the step's workspace (9.7's split).
        const void* third = m_op == Op::kRmsNorm ? static_cast<const void*>(m_w.get())
                            : m_kernel.workspace ? static_cast<const void*>(m_workspace.get())
                                                 : nullptr;
        return Timed([this, third](cudaStream_t s) {
            LESSONS_CUDA_CHECK(
                m_kernel.launch(m_x.get(), m_y.get(), third, M(), N(), m_block, m_variant, s));
        });
    }

private:
    const SoftmaxKernel& m_kernel;
    int m_block;
    int m_variant;
    cuda::DeviceBuffer<unsigned char> m_workspace;
};

// A student's kernel launch: its grid, its clusters (0: none) and its dynamic shared memory a
// block, as the row's layout says.
struct StudentLaunch {
    unsigned blocks = 0, cluster = 0, smem = 0;
};

// The clusters of a student's cluster kernel (fp32): C as the `cluster` choice says (the
// automatic one as the step's own picks it), each block's part of the row in its shared memory.
ClusterPlan StudentClusters(const ParamValues& params) {
    const std::string& choice = params.Has("cluster") ? params.Choice("cluster") : "auto";
    const uint64_t asked = choice == "auto" ? 0 : std::stoull(choice);
    const uint64_t n = params.Number("n");
    const ClusterPlan plan = SoftmaxClusterOf(n, false, asked);
    if (plan.part_bytes == 0) {
        // The most floats whose parts fit: whole chunks of 4, C parts.
        const uint64_t most = kClusterPartLimitBytes / 16 * 4 * plan.blocks;
        throw UsageError("a row of " + std::to_string(n) + " floats over a cluster of " +
                         std::to_string(plan.blocks) + " blocks gives each block more than the " +
                         std::to_string(kClusterPartLimitBytes / 1024) +
                         " KiB of shared memory a block may have for its part: take at most " +
                         std::to_string(most) + " columns");
    }
    return plan;
}

StudentLaunch StudentLaunchOf(const Kernel& kind, const ParamValues& params, int block) {
    const long long m = static_cast<long long>(params.Number("m"));
    StudentLaunch l;
    if (kind.layout == RowLayout::kClusterPerRow) {
        const ClusterPlan plan = StudentClusters(params);
        // A grid has at most 2^31 - 1 blocks in x.
        const long long most_rows = 2147483647LL / static_cast<long long>(plan.blocks);
        if (m > most_rows)
            throw UsageError("clusters of " + std::to_string(plan.blocks) + " blocks a row take " +
                             "at most " + std::to_string(most_rows) + " rows (a grid's " +
                             "2147483647 blocks): take fewer rows");
        l.cluster = static_cast<unsigned>(plan.blocks);
        l.blocks = static_cast<unsigned>(m * l.cluster);
        l.smem = static_cast<unsigned>(plan.part_bytes);
        return l;
    }
    const long long rows_per_block = kind.layout == RowLayout::kBlockPerRow  ? 1
                                     : kind.layout == RowLayout::kWarpPerRow ? block / 32
                                                                             : block;
    l.blocks = static_cast<unsigned>((m + rows_per_block - 1) / rows_per_block);
    l.smem = static_cast<unsigned>(block * kind.smem_per_thread);
    return l;
}

// A student's kernel (an exercise, fp32) in place of the step's own: the same data, check and
// timing, launched as the row's layout says.
class StudentStep : public GpuStepBase {
public:
    StudentStep(const Workload& w, const StudentKernel& student, int block, StudentLaunch launch)
        : GpuStepBase(w, Op::kSoftmax),
          m_kernel(student.cubin, student.lowered_name, student.name),
          m_block(block),
          m_launch(launch) {
        m_kernel.CheckBlock(block);
        if (m_launch.cluster > 0)
            m_kernel.CheckClusters(static_cast<unsigned>(block), m_launch.cluster, m_launch.smem);
    }

    Sample Run() override {
        return Timed([&](cudaStream_t s) {
            const void* x = m_x.get();
            void* y = m_y.get();
            int rows = M(), cols = N();
            void* args[] = {&x, &y, &rows, &cols};
            if (m_launch.cluster > 0)
                m_kernel.LaunchClusters(m_launch.blocks, static_cast<unsigned>(m_block),
                                        m_launch.cluster, s, args, m_launch.smem);
            else
                m_kernel.Launch(m_launch.blocks, static_cast<unsigned>(m_block), s, args,
                                m_launch.smem);
        });
    }

private:
    cuda::LoadedKernel m_kernel;
    int m_block;
    StudentLaunch m_launch;
};

class CudnnStep : public GpuStepBase {
public:
    explicit CudnnStep(const Workload& w) : GpuStepBase(w, Op::kSoftmax) {
        const std::string error = CudnnCreate(&m_state, M(), N(), m_work.bf16(), m_stream.get());
        if (!error.empty()) {
            CudnnDestroy(m_state);
            throw CudaError("cuDNN: " + error, false);
        }
        m_timer.WarmBeforeFirstSample();  // the plan's first run, outside the timing hold
    }
    ~CudnnStep() override { CudnnDestroy(m_state); }
    CudnnStep(const CudnnStep&) = delete;
    CudnnStep& operator=(const CudnnStep&) = delete;

    Sample Run() override {
        return Timed([this](cudaStream_t) {
            const std::string error = CudnnRun(m_state, m_x.get(), m_y.get());
            if (!error.empty()) throw CudaError("cuDNN: " + error, false);
        });
    }

private:
    void* m_state = nullptr;
};

int Block(const ParamValues& params) {
    return static_cast<int>(params.Number("block"));
}

// The step's variant choice as a number: 0 for "auto" or where the step has none.
int Variant(const SoftmaxKernel& k, const ParamValues& params) {
    if (!k.variant_param || !params.Has(k.variant_param)) return 0;
    const std::string& choice = params.Choice(k.variant_param);
    if (choice == "auto") return 0;
    return std::stoi(choice);
}

// The dynamic shared memory a block of the launch has (the kernel's attributes are asked at it).
size_t DynamicSmem(const SoftmaxKernel& k, int n, int block, int variant) {
    return k.dynamic_smem ? k.dynamic_smem(n, block, variant) : size_t(block) * k.smem_per_thread;
}

// The descriptor for the run's dtype.
const SoftmaxKernel& ForDtype(const std::vector<const SoftmaxKernel*>& kernels,
                              const ParamValues& params) {
    const bool bf16 = params.Choice("dtype") == "bf16";
    for (const SoftmaxKernel* k : kernels)
        if (k->bf16 == bf16) return *k;
    throw std::logic_error("no kernel for this dtype");
}

StepRunner KernelRunner(std::vector<const SoftmaxKernel*> kernels, Op op) {
    StepRunner r;
    r.make = [kernels, op](const Workload& w, const StepContext& c) {
        const SoftmaxKernel& k = ForDtype(kernels, c.params);
        const int block = Block(c.params);
        const int n = static_cast<int>(c.params.Number("n"));
        const int variant = Variant(k, c.params);
        cuda::CheckBlockAgainstKernel(k.pick(n, block, variant), k.name, block,
                                      DynamicSmem(k, n, block, variant));
        return std::unique_ptr<StepInstance>(
            std::make_unique<KernelStep>(w, op, k, block, variant));
    };
    r.attributes = [kernels](const ParamValues& params) {
        const SoftmaxKernel& k = ForDtype(kernels, params);
        const int block = Block(params);
        const int n = static_cast<int>(params.Number("n"));
        const int variant = Variant(k, params);
        return cuda::QueryKernelAttributes(k.pick(n, block, variant), k.name, block,
                                           DynamicSmem(k, n, block, variant));
    };
    return r;
}

// The exercise fixes dtype=fp32 (its kernel takes floats).
StepRunner StudentRunner(const Kernel& kind, std::shared_ptr<const StudentKernel> student) {
    StepRunner r;
    r.make = [kind, student](const Workload& w, const StepContext& c) {
        if (c.params.Choice("dtype") != "fp32")
            throw UsageError("the exercise's kernel takes floats: run it with --set dtype=fp32");
        const int block = Block(c.params);
        return std::unique_ptr<StepInstance>(std::make_unique<StudentStep>(
            w, *student, block, StudentLaunchOf(kind, c.params, block)));
    };
    r.attributes = [kind, student](const ParamValues& params) {
        const int block = Block(params);
        unsigned smem = 0;
        try {
            smem = StudentLaunchOf(kind, params, block).smem;
        } catch (const UsageError&) {  // a part too large: the run says why; asked at none
        }
        return cuda::StudentKernelAttributes(*student, block, smem);
    };
    return r;
}

// The student's kernel: (const float* x, float* y, int m, int n); the chapter's device helpers
// (kernels/softmax/softmax_device.cuh, embedded) in the prelude, at global scope as the
// student's kernel (and a solution) stands; a cluster kernel's also the clusters' device helpers
// (softmax_cluster_device.cuh).
KernelSpec StudentSpec(const Kernel& kind) {
    const auto prelude_of = [](bool cluster) {
        return "#include <cuda_bf16.h>\n" +
               EmbeddedHeaderBody("kernels/softmax/softmax_device.cuh") +
               (cluster ? EmbeddedHeaderBody("kernels/softmax/softmax_cluster_device.cuh") : "") +
               "using namespace lessons::softmax;\n";
    };
    static const std::string prelude = prelude_of(false), cluster_prelude = prelude_of(true);
    KernelSpec spec;
    spec.signature = "const float*, float*, int, int";
    spec.prelude = kind.layout == RowLayout::kClusterPerRow ? cluster_prelude : prelude;
    spec.toolkit_headers = {"cuda_bf16.h"};
    return spec;
}

StepRunner CudnnRunner() {
    StepRunner r;
    r.make = [](const Workload& w, const StepContext&) {
        const std::string why = CudnnUnavailable();
        if (!why.empty()) throw UnavailableError("cuDNN cannot run here: " + why);
        return std::unique_ptr<StepInstance>(std::make_unique<CudnnStep>(w));
    };
    return r;
}

}  // namespace

LESSONS_STEP_KIND(Kernel, [](const Kernel&, const StepSite& site) {
    return KernelRunner(KernelsOf<SoftmaxKernel>(site), Op::kSoftmax);
});
LESSONS_EXERCISE_KIND(
    Kernel, [](const Kernel& kind, const StepSite&) { return StudentSpec(kind); },
    [](const Kernel& kind, const StepSite&, std::shared_ptr<const StudentKernel> student) {
        return StudentRunner(kind, std::move(student));
    });

// The hidden cases of a softmax exercise (`check`): one element, rows shorter than a warp,
// columns that are no multiple of the 4 floats of a chunk or of 32 lanes, rows longer than a
// kernel keeps in registers, ±80 inputs that overflow without the max, and the default size.
LESSONS_EXERCISE_CASES(Kernel, [](const Kernel&, const StepSite&) {
    ExerciseCaseSet set;
    set.size_param = "n";
    set.widths = {4, 32, 128, 256, 1024};
    set.cases = {
        MatrixCase({1, 1}, "random", "the smallest", "最小"),
        MatrixCase({3, 33}, "random"),
        MatrixCase({37, 5}, "large", "short rows", "短行"),
        MatrixCase({1000, 1023}, "random", "no multiple of 4", "不是 4 的倍数"),
        MatrixCase({33, 1025}, "large", "just over 1024", "刚超过 1024"),
        MatrixCase({5, 4099}, "random"),
        MatrixCase({7, 65537}, "large", "long rows, beyond the registers", "长行，超出寄存器"),
        MatrixCase({65537, 1001}, "random", "the default size and more", "默认大小再多一点"),
    };
    return set;
});
LESSONS_STEP_KIND(RmsNorm, [](const RmsNorm&, const StepSite& site) {
    return KernelRunner(KernelsOf<SoftmaxKernel>(site), Op::kRmsNorm);
});
LESSONS_STEP_KIND(Cudnn, [](const Cudnn&, const StepSite&) { return CudnnRunner(); });

}  // namespace lessons::softmax
