// The harness of chapter 3's GPU steps. The floats are copied to the GPU once, when the
// step is set up; what is timed (CUDA events) is the reduction itself, all its passes, as a
// program that already holds its data on the GPU would run it.
#include <algorithm>

#include "cuda/cuda_util.h"
#include "device.h"
#include "errors.h"
#include "reduce/reduce_gpu.cuh"
#include "reduce_chapter.h"
#include "reduce_gpu_steps.h"

namespace lessons::reduce {
namespace {

// Device copy of the input and a readback of the one-float result.
class GpuReduceBase : public ReduceStep {
public:
    explicit GpuReduceBase(const Workload& w)
        : ReduceStep(w),
          m_in(std::max<uint64_t>(m_work.count(), 1), "the input"),
          m_result(1, "the result") {
        // On the step's own stream: it is non-blocking, so it would not wait for a copy on
        // the legacy stream, and a pageable cudaMemcpy may return before its DMA is done.
        if (m_work.count())
            LESSONS_CUDA_CHECK(cudaMemcpyAsync(m_in.get(), m_work.data(), m_work.SizeBytes(),
                                               cudaMemcpyHostToDevice, m_stream.get()));
        m_stream.Synchronize();
    }

protected:
    // Times `body` (which leaves the sum in device memory at `sum`) and reads the sum back.
    template <typename Body>
    Sample Timed(Body&& body) {
        cudaStream_t s = m_stream.get();
        m_start.Record(s);
        const float* sum = body(s);
        m_stop.Record(s);
        if (sum)
            LESSONS_CUDA_CHECK(
                cudaMemcpyAsync(m_result.get(), sum, sizeof(float), cudaMemcpyDeviceToHost, s));
        else
            *m_result.get() = 0.0f;  // the empty sum
        m_stream.Synchronize();
        m_value = *m_result.get();
        Sample sample;
        sample.kernel_ms = cuda::ElapsedMs(m_start, m_stop);
        sample.total_ms = *sample.kernel_ms;
        return sample;
    }

    cuda::DeviceBuffer<float> m_in;
    cuda::PinnedBuffer<float> m_result;
    cuda::Stream m_stream;
    cuda::Event m_start, m_stop;
};

// Lessons 20-24: repeat a pass on the partial sums until one value is left.
class MultiPassStep : public GpuReduceBase {
public:
    MultiPassStep(const Workload& w, int block, ReducePass pass, int max_grid, bool in_place)
        : GpuReduceBase(w),
          m_block(block),
          m_pass(pass),
          m_max_grid(max_grid),
          m_a(m_work.count() / 32 + 1, "the partial sums"),
          m_b(m_work.count() / 32 + 1, "the partial sums") {
        if (in_place)
            m_scratch = cuda::DeviceBuffer<float>(std::max<uint64_t>(m_work.count(), 1),
                                                  "a copy of the input");
    }

    Sample Run() override {
        // Lesson 20 adds in place: give it a fresh copy of the input, outside the timing.
        if (m_scratch.get() && m_work.count())
            LESSONS_CUDA_CHECK(cudaMemcpyAsync(m_scratch.get(), m_in.get(), m_work.SizeBytes(),
                                               cudaMemcpyDeviceToDevice, m_stream.get()));
        return Timed([this](cudaStream_t s) -> const float* {
            uint64_t count = m_work.count();
            if (count == 0) return nullptr;
            float* src = m_scratch.get() ? m_scratch.get() : m_in.get();
            float* dst = m_a.get();
            do {
                count = m_pass(src, count, dst, m_block, m_max_grid, s);
                LESSONS_CUDA_CHECK_LAUNCH("reduction pass");
                src = dst;
                dst = dst == m_a.get() ? m_b.get() : m_a.get();
            } while (count > 1);
            return src;
        });
    }

private:
    int m_block;
    ReducePass m_pass;
    int m_max_grid;
    cuda::DeviceBuffer<float> m_a, m_b, m_scratch;
};

class OnePassStep : public GpuReduceBase {
public:
    OnePassStep(const Workload& w, int block, int grid)
        : GpuReduceBase(w),
          m_block(block),
          m_grid(grid),
          m_partials(grid, "the block sums"),
          m_counter(1, "the block counter"),
          m_sum(1, "the sum") {
        LESSONS_CUDA_CHECK(cudaMemsetAsync(m_counter.get(), 0, sizeof(unsigned), m_stream.get()));
        m_stream.Synchronize();
    }

    Sample Run() override {
        return Timed([this](cudaStream_t s) -> const float* {
            Reduce25(m_in.get(), m_work.count(), m_sum.get(), m_partials.get(), m_counter.get(),
                     m_block, m_grid, s);
            LESSONS_CUDA_CHECK_LAUNCH("reduce_25_vectorized_one_pass_kernel");
            return m_sum.get();
        });
    }

private:
    int m_block, m_grid;
    cuda::DeviceBuffer<float> m_partials;
    cuda::DeviceBuffer<unsigned> m_counter;
    cuda::DeviceBuffer<float> m_sum;
};

class CubStep : public GpuReduceBase {
public:
    explicit CubStep(const Workload& w) : GpuReduceBase(w), m_sum(1, "the sum") {
        LESSONS_CUDA_CHECK(Reduce26Cub(nullptr, m_temp_bytes, m_in.get(), m_sum.get(),
                                       m_work.count(), m_stream.get()));
        m_temp =
            cuda::DeviceBuffer<char>(std::max<size_t>(m_temp_bytes, 1), "CUB's temporary storage");
    }

    Sample Run() override {
        return Timed([this](cudaStream_t s) -> const float* {
            LESSONS_CUDA_CHECK(Reduce26Cub(m_temp.get(), m_temp_bytes, m_in.get(), m_sum.get(),
                                           m_work.count(), s));
            return m_sum.get();
        });
    }

private:
    cuda::DeviceBuffer<float> m_sum;
    cuda::DeviceBuffer<char> m_temp;
    size_t m_temp_bytes = 0;
};

// The grid that fills the GPU: every SM with as many resident blocks as fit.
int FullGrid(const void* kernel, int block, size_t dynamic_smem) {
    int per_sm = 0;
    LESSONS_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, dynamic_smem));
    return std::max(1, per_sm) * GetDeviceInfo().sm_count;
}

struct PassKernel {
    ReducePass pass;
    const void* (*kernel)();
    const char* name;
    bool dynamic_smem;  // block * sizeof(float) of shared memory
    bool in_place;
};

std::unique_ptr<StepInstance> MakePassStep(const Workload& w, const StepConfig& c,
                                           const PassKernel& k) {
    const void* kernel = k.kernel();
    cuda::CheckBlockAgainstKernel(kernel, k.name, c.block);
    const size_t smem = k.dynamic_smem ? c.block * sizeof(float) : 0;
    return std::make_unique<MultiPassStep>(w, c.block, k.pass, FullGrid(kernel, c.block, smem),
                                           k.in_place);
}

const PassKernel kInterleavedGlobal{&Reduce20Pass, &Reduce20Kernel,
                                    "reduce_20_interleaved_global_kernel", false, true};
const PassKernel kSharedMemory{&Reduce21Pass, &Reduce21Kernel, "reduce_21_shared_memory_kernel",
                               true, false};
const PassKernel kAddDuringLoad{&Reduce22Pass, &Reduce22Kernel, "reduce_22_add_during_load_kernel",
                                true, false};
const PassKernel kSequentialUnrolledWarp{&Reduce23Pass, &Reduce23Kernel,
                                         "reduce_23_sequential_unrolled_warp_kernel", true, false};
const PassKernel kWarpShuffle{&Reduce24Pass, &Reduce24Kernel, "reduce_24_warp_shuffle_kernel",
                              false, false};

KernelAttributes PassAttributes(const PassKernel& k, int block) {
    return cuda::QueryKernelAttributes(k.kernel(), k.name, block,
                                       k.dynamic_smem ? block * sizeof(float) : 0);
}

}  // namespace

std::unique_ptr<StepInstance> MakeInterleavedGlobal(const Workload& w, const StepConfig& c) {
    return MakePassStep(w, c, kInterleavedGlobal);
}
std::unique_ptr<StepInstance> MakeSharedMemory(const Workload& w, const StepConfig& c) {
    return MakePassStep(w, c, kSharedMemory);
}
std::unique_ptr<StepInstance> MakeAddDuringLoad(const Workload& w, const StepConfig& c) {
    return MakePassStep(w, c, kAddDuringLoad);
}
std::unique_ptr<StepInstance> MakeSequentialUnrolledWarp(const Workload& w, const StepConfig& c) {
    return MakePassStep(w, c, kSequentialUnrolledWarp);
}
std::unique_ptr<StepInstance> MakeWarpShuffle(const Workload& w, const StepConfig& c) {
    return MakePassStep(w, c, kWarpShuffle);
}

std::unique_ptr<StepInstance> MakeVectorizedOnePass(const Workload& w, const StepConfig& c) {
    cuda::CheckBlockAgainstKernel(Reduce25Kernel(), "reduce_25_vectorized_one_pass_kernel",
                                  c.block);
    return std::make_unique<OnePassStep>(w, c.block, FullGrid(Reduce25Kernel(), c.block, 0));
}

std::unique_ptr<StepInstance> MakeCub(const Workload& w, const StepConfig&) {
    return std::make_unique<CubStep>(w);
}

KernelAttributes InterleavedGlobalAttributes(int block) {
    return PassAttributes(kInterleavedGlobal, block);
}
KernelAttributes SharedMemoryAttributes(int block) {
    return PassAttributes(kSharedMemory, block);
}
KernelAttributes AddDuringLoadAttributes(int block) {
    return PassAttributes(kAddDuringLoad, block);
}
KernelAttributes SequentialUnrolledWarpAttributes(int block) {
    return PassAttributes(kSequentialUnrolledWarp, block);
}
KernelAttributes WarpShuffleAttributes(int block) {
    return PassAttributes(kWarpShuffle, block);
}
KernelAttributes VectorizedOnePassAttributes(int block) {
    return cuda::QueryKernelAttributes(Reduce25Kernel(), "reduce_25_vectorized_one_pass_kernel",
                                       block);
}

}  // namespace lessons::reduce
