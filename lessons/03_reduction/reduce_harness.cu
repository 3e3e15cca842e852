// The harness of chapter 3's GPU steps. The floats are copied to the GPU once, when the
// step is set up; what is timed (CUDA events) is the reduction itself, all its passes, as a
// program that already holds its data on the GPU would run it.
#include <algorithm>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/cuda_util.h"
#include "cuda/module.h"
#include "device.h"
#include "exercise.h"
#include "exercise_cases.h"
#include "exercise_kinds.h"
#include "kernel_timer.cuh"
#include "kernels_of.h"
#include "launch_checks.cuh"
#include "reduce/reduce_gpu.cuh"
#include "reduce_chapter.h"
#include "reduce_steps.h"

namespace lessons::reduce {
namespace {

// Device copy of the input and a readback of the one-float result.
class GpuReduceBase : public ReduceStep {
public:
    // `rerun`: the work gives the same sum when run again on the same buffers, so a short one is
    // timed as it runs queued behind itself (KernelTimer's batch); an in-place pass does not.
    GpuReduceBase(const Workload& w, bool rerun)
        : ReduceStep(w),
          m_in(std::max<uint64_t>(m_work.count(), 1), "the input"),
          m_result(1, "the result"),
          m_timer(rerun ? KernelTimer::Batching::kShortKernelsBatched
                        : KernelTimer::Batching::kOnce) {
        // On the step's own stream: it is non-blocking, so it would not wait for a copy on
        // the legacy stream, and a pageable cudaMemcpy may return before its DMA is done.
        if (m_work.count())
            LESSONS_CUDA_CHECK(cudaMemcpyAsync(m_in.get(), m_work.data(), m_work.SizeBytes(),
                                               cudaMemcpyHostToDevice, m_stream.get()));
        m_stream.Synchronize();
    }

protected:
    // Times `body` (which leaves the sum in device memory at the pointer it returns, or returns
    // nullptr for the empty sum) and reads the sum back.
    template <typename Body>
    Sample Timed(Body&& body) {
        cudaStream_t s = m_stream.get();
        const float* sum = nullptr;
        const Sample sample = m_timer.Time(s, [&](cudaStream_t stream) { sum = body(stream); });
        if (sum)
            LESSONS_CUDA_CHECK(
                cudaMemcpyAsync(m_result.get(), sum, sizeof(float), cudaMemcpyDeviceToHost, s));
        else
            *m_result.get() = 0.0f;  // the empty sum
        m_stream.Synchronize();
        m_value = *m_result.get();
        return sample;
    }

    cuda::DeviceBuffer<float> m_in;
    cuda::PinnedBuffer<float> m_result;
    cuda::Stream m_stream;
    KernelTimer m_timer;
};

// One pass: reduces in[0, n) to partial sums in out, sets *written to how many it wrote.
using PassFn = std::function<cudaError_t(float* in, uint64_t n, float* out, cudaStream_t stream,
                                         uint64_t* written)>;

// A multi-pass step: repeat a pass on the partial sums until one value is left.
class MultiPassStep : public GpuReduceBase {
public:
    MultiPassStep(const Workload& w, PassFn pass, bool in_place)
        : GpuReduceBase(w, !in_place),
          m_pass(std::move(pass)),
          m_a(m_work.count() / 32 + 1, "the partial sums"),
          m_b(m_work.count() / 32 + 1, "the partial sums") {
        if (in_place)
            m_scratch = cuda::DeviceBuffer<float>(std::max<uint64_t>(m_work.count(), 1),
                                                  "a copy of the input");
    }

    Sample Run() override {
        // An in-place pass (v0) overwrites its input: give it a fresh copy, outside the timing.
        if (m_scratch.get() && m_work.count())
            LESSONS_CUDA_CHECK(cudaMemcpyAsync(m_scratch.get(), m_in.get(), m_work.SizeBytes(),
                                               cudaMemcpyDeviceToDevice, m_stream.get()));
        return Timed([this](cudaStream_t s) -> const float* {
            uint64_t count = m_work.count();
            if (count == 0) return nullptr;
            float* src = m_scratch.get() ? m_scratch.get() : m_in.get();
            float* dst = m_a.get();
            do {
                LESSONS_CUDA_CHECK(m_pass(src, count, dst, s, &count));
                src = dst;
                dst = dst == m_a.get() ? m_b.get() : m_a.get();
            } while (count > 1);
            return src;
        });
    }

private:
    PassFn m_pass;
    cuda::DeviceBuffer<float> m_a, m_b, m_scratch;
};

// The one-pass launch: in[0, n) to *result, with `partials` (grid floats) and `counter`.
using OnePassFn =
    std::function<cudaError_t(const float* in, uint64_t n, float* result, float* partials,
                              unsigned* counter, int grid, cudaStream_t stream)>;

class OnePassStep : public GpuReduceBase {
public:
    OnePassStep(const Workload& w, OnePassFn launch, int grid)
        : GpuReduceBase(w, true),
          m_launch(std::move(launch)),
          m_grid(grid),
          m_partials(grid, "the block sums"),
          m_counter(1, "the block counter"),
          m_sum(1, "the sum") {
        LESSONS_CUDA_CHECK(cudaMemsetAsync(m_counter.get(), 0, sizeof(unsigned), m_stream.get()));
        m_stream.Synchronize();
    }

    Sample Run() override {
        return Timed([this](cudaStream_t s) -> const float* {
            LESSONS_CUDA_CHECK(m_launch(m_in.get(), m_work.count(), m_sum.get(), m_partials.get(),
                                        m_counter.get(), m_grid, s));
            return m_sum.get();
        });
    }

private:
    OnePassFn m_launch;
    int m_grid;
    cuda::DeviceBuffer<float> m_partials;
    cuda::DeviceBuffer<unsigned> m_counter;
    cuda::DeviceBuffer<float> m_sum;
};

class CubStep : public GpuReduceBase {
public:
    CubStep(const Workload& w, const CubSum& cub)
        : GpuReduceBase(w, true), m_cub(cub), m_sum(1, "the sum") {
        LESSONS_CUDA_CHECK(m_cub.sum(nullptr, m_temp_bytes, m_in.get(), m_sum.get(), m_work.count(),
                                     m_stream.get()));
        m_temp =
            cuda::DeviceBuffer<char>(std::max<size_t>(m_temp_bytes, 1), "CUB's temporary storage");
    }

    Sample Run() override {
        return Timed([this](cudaStream_t s) -> const float* {
            LESSONS_CUDA_CHECK(
                m_cub.sum(m_temp.get(), m_temp_bytes, m_in.get(), m_sum.get(), m_work.count(), s));
            return m_sum.get();
        });
    }

private:
    const CubSum& m_cub;
    cuda::DeviceBuffer<float> m_sum;
    cuda::DeviceBuffer<char> m_temp;
    size_t m_temp_bytes = 0;
};

// The grid that fills the GPU: every SM with as many resident blocks as fit.
int FullGrid(const void* kernel, int block, size_t dynamic_smem, int device) {
    int per_sm = 0;
    LESSONS_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, dynamic_smem));
    return std::max(1, per_sm) * GetDevices().devices[size_t(device)].sm_count;
}

// A student's kernel (an exercise) in place of a step's own: the grid the step's kernel
// launches (its formula below, and the same full-GPU cap for the steps that loop over their
// data), the dynamic shared memory it declares, the same passes, check and timing. The
// exercise fixes the toggles, so `params` name the variant the student's kernel stands for.
uint64_t StudentBlocks(const std::string& name, uint64_t n, int block, int max_grid) {
    const uint64_t one_each = (n + block - 1) / block;
    if (name == "reduce_v0_interleaved_global_kernel" || name == "reduce_v1_shared_memory_kernel")
        return one_each;
    if (name == "reduce_v2_add_during_load_kernel")
        return (n + 2 * uint64_t(block) - 1) / (2 * uint64_t(block));
    if (name == "reduce_v3_unrolled_last_warp_kernel" || name == "reduce_v4_warp_shuffle_kernel")
        return std::min<uint64_t>(one_each, uint64_t(max_grid));
    throw std::logic_error(name +
                           ": the reduction harness does not know its grid, so a student's "
                           "kernel cannot be run in its place");
}

// The step's kernel variant at the parameters' toggle values, or a student's kernel in its
// place (`student`, when not null): the same passes, check and timing.
StepRunner PassRunner(std::vector<const ReducePassKernel*> variants,
                      std::shared_ptr<const StudentKernel> student = nullptr) {
    return VariantRunner(
        std::move(variants), student,
        [student](const Workload& w, const StepContext& c, const ReducePassKernel& k, int block) {
            const size_t smem = k.dynamic_smem(block);
            const int max_grid = FullGrid(k.kernel, block, smem, c.devices.front());
            PassFn pass = [&k, block, max_grid](float* in, uint64_t n, float* out, cudaStream_t s,
                                                uint64_t* written) {
                return k.pass(in, n, out, block, max_grid, s, written);
            };
            if (student) {
                auto loaded = cuda::LoadStudentKernel(*student, block);
                const std::string name = student->name;
                StudentBlocks(name, 1, block, max_grid);  // a kernel the harness cannot launch: now
                pass = [loaded, name, block, max_grid, smem](float* in, uint64_t n, float* out,
                                                             cudaStream_t s, uint64_t* written) {
                    const uint64_t blocks = StudentBlocks(name, n, block, max_grid);
                    void* args[] = {&in, &n, &out};
                    loaded->Launch(static_cast<unsigned>(blocks), static_cast<unsigned>(block), s,
                                   args, static_cast<unsigned>(smem));
                    *written = blocks;
                    return cudaSuccess;
                };
            }
            return std::unique_ptr<StepInstance>(
                std::make_unique<MultiPassStep>(w, std::move(pass), k.in_place));
        });
}

StepRunner OnePassRunner(std::vector<const OnePassKernel*> variants,
                         std::shared_ptr<const StudentKernel> student = nullptr) {
    return VariantRunner(
        std::move(variants), student,
        [student](const Workload& w, const StepContext& c, const OnePassKernel& k, int block) {
            OnePassFn launch = [&k, block](const float* in, uint64_t n, float* result,
                                           float* partials, unsigned* counter, int grid,
                                           cudaStream_t s) {
                return k.launch(in, n, result, partials, counter, block, grid, s);
            };
            if (student)
                launch = [loaded = cuda::LoadStudentKernel(*student, block), block](
                             const float* in, uint64_t n, float* result, float* partials,
                             unsigned* counter, int grid, cudaStream_t s) {
                    void* args[] = {&in, &n, &result, &partials, &counter};
                    loaded->Launch(static_cast<unsigned>(grid), static_cast<unsigned>(block), s,
                                   args);
                    return cudaSuccess;
                };
            return std::unique_ptr<StepInstance>(std::make_unique<OnePassStep>(
                w, std::move(launch), FullGrid(k.kernel, block, 0, c.devices.front())));
        });
}

StepRunner CubRunner(const CubSum& cub) {
    StepRunner r;
    r.make = [&cub](const Workload& w, const StepContext&) {
        return std::unique_ptr<StepInstance>(std::make_unique<CubStep>(w, cub));
    };
    return r;
}

// A student's reduction kernel: (in, n, out) for a pass, in writable when the step's kernel
// overwrites it (v0); the 64-bit types and the toggles' enums (reduce_toggles.h, which the
// instance lines name) in the prelude.
KernelSpec StudentSpec(std::string signature) {
    KernelSpec spec;
    spec.signature = std::move(signature);
    spec.prelude = std::string(kNvrtcIntegers) +
                   EmbeddedDeclarations("kernels/reduce/reduce_toggles.h", {"enum class"});
    return spec;
}

}  // namespace

LESSONS_STEP_KIND(Pass, [](const Pass&, const StepSite& site) {
    return PassRunner(Variants<ReducePassKernel>(site));
});
LESSONS_STEP_KIND(OnePass, [](const OnePass&, const StepSite& site) {
    return OnePassRunner(Variants<OnePassKernel>(site));
});
LESSONS_EXERCISE_KIND(
    Pass,
    [](const Pass&, const StepSite& site) {
        const bool in_place = KernelsOf<ReducePassKernel>(site).front()->in_place;
        return StudentSpec(in_place ? "float*, uint64_t, float*"
                                    : "const float*, uint64_t, float*");
    },
    [](const Pass&, const StepSite& site, std::shared_ptr<const StudentKernel> student) {
        return PassRunner(Variants<ReducePassKernel>(site), std::move(student));
    });
LESSONS_EXERCISE_KIND(
    OnePass,
    [](const OnePass&, const StepSite&) {
        return StudentSpec(
            "const float*, uint64_t, float*, float*, unsigned*");  // + partials, counter
    },
    [](const OnePass&, const StepSite& site, std::shared_ptr<const StudentKernel> student) {
        return OnePassRunner(Variants<OnePassKernel>(site), std::move(student));
    });
// The hidden cases of a reduction exercise (`check`): element counts from one up, counts that
// are no multiple of the warp, the block, the 4 floats of a vector load or a pass's share, and
// the default size and more; most with every element 1.0, where the sum is exactly the count, so
// one element dropped (the last of a block, a tail) shows however small it is.
namespace {

ExerciseCase Floats(uint64_t count, const char* data) {
    const std::string n = std::to_string(count);
    const std::string kind = data;
    return {n + " floats (" +
                (kind == "ones"    ? "all 1.0"
                 : kind == "large" ? "large magnitudes"
                                   : "random") +
                ")",
            n + " 个浮点数（" +
                (kind == "ones"    ? "全 1"
                 : kind == "large" ? "大数值"
                                   : "随机") +
                "）",
            {{"size", std::to_string(count * sizeof(float))}, {"data", data}}};
}

ExerciseCaseSet ReduceCases() {
    ExerciseCaseSet set;
    set.size_param = "size";
    set.size_unit = sizeof(float);
    set.widths = {4, 32, 256, 512, 1024, 2 * 1024};
    set.cases = {Floats(1, "ones"),      Floats(2, "ones"),
                 Floats(3, "ones"),      Floats(33, "ones"),
                 Floats(257, "ones"),    Floats(1023, "ones"),
                 Floats(1025, "ones"),   Floats(4099, "random"),
                 Floats(262147, "ones"), Floats(1000003, "random"),
                 Floats(65537, "large"), Floats((uint64_t(16) << 20) + 3, "ones")};
    return set;
}

}  // namespace

LESSONS_EXERCISE_CASES(Pass, [](const Pass&, const StepSite&) { return ReduceCases(); });
LESSONS_EXERCISE_CASES(OnePass, [](const OnePass&, const StepSite&) { return ReduceCases(); });
LESSONS_STEP_KIND(Cub, [](const Cub&, const StepSite& site) {
    return CubRunner(OnlyKernel<CubSum>(site));
});

}  // namespace lessons::reduce
