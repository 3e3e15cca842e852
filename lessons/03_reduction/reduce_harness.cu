// The harness of chapter 3's GPU steps. The floats are copied to the GPU once, when the
// step is set up; what is timed (CUDA events) is the reduction itself, all its passes, as a
// program that already holds its data on the GPU would run it.
#include <algorithm>

#include "cuda/cuda_util.h"
#include "device.h"
#include "errors.h"
#include "reduce/reduce_gpu.cuh"
#include "reduce_chapter.h"

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
        sample.total_ms = cuda::ElapsedMs(m_start, m_stop);
        sample.parts = {{"kernel", sample.total_ms}};
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
    MultiPassStep(const Workload& w, int block, const ReducePassKernel& kernel, int max_grid)
        : GpuReduceBase(w),
          m_block(block),
          m_kernel(kernel),
          m_max_grid(max_grid),
          m_a(m_work.count() / 32 + 1, "the partial sums"),
          m_b(m_work.count() / 32 + 1, "the partial sums") {
        if (kernel.in_place)
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
                LESSONS_CUDA_CHECK(m_kernel.pass(src, count, dst, m_block, m_max_grid, s, &count));
                src = dst;
                dst = dst == m_a.get() ? m_b.get() : m_a.get();
            } while (count > 1);
            return src;
        });
    }

private:
    int m_block;
    const ReducePassKernel& m_kernel;
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
            LESSONS_CUDA_CHECK(kReduce25.launch(m_in.get(), m_work.count(), m_sum.get(),
                                                m_partials.get(), m_counter.get(), m_block, m_grid,
                                                s));
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
int FullGrid(const void* kernel, int block, size_t dynamic_smem, int device) {
    int per_sm = 0;
    LESSONS_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, dynamic_smem));
    return std::max(1, per_sm) * GetDevices().devices[size_t(device)].sm_count;
}

int Block(const ParamValues& params) {
    return static_cast<int>(params.Number("block"));
}

StepRunner PassStep(const ReducePassKernel& k) {
    StepRunner r;
    r.make = [&k](const Workload& w, const StepContext& c) {
        const int block = Block(c.params);
        const size_t smem = k.dynamic_smem(block);
        cuda::CheckBlockAgainstKernel(k.kernel, k.name, block, smem);
        return std::unique_ptr<StepInstance>(std::make_unique<MultiPassStep>(
            w, block, k, FullGrid(k.kernel, block, smem, c.devices.front())));
    };
    r.attributes = [&k](const ParamValues& params) {
        const int block = Block(params);
        return cuda::QueryKernelAttributes(k.kernel, k.name, block, k.dynamic_smem(block));
    };
    return r;
}

StepRunner OnePassStepRunner() {
    StepRunner r;
    r.make = [](const Workload& w, const StepContext& c) {
        const int block = Block(c.params);
        cuda::CheckBlockAgainstKernel(kReduce25.kernel, kReduce25.name, block);
        return std::unique_ptr<StepInstance>(std::make_unique<OnePassStep>(
            w, block, FullGrid(kReduce25.kernel, block, 0, c.devices.front())));
    };
    r.attributes = [](const ParamValues& params) {
        return cuda::QueryKernelAttributes(kReduce25.kernel, kReduce25.name, Block(params));
    };
    return r;
}

StepRunner CubStepRunner() {
    StepRunner r;
    r.make = [](const Workload& w, const StepContext&) {
        return std::unique_ptr<StepInstance>(std::make_unique<CubStep>(w));
    };
    return r;
}

}  // namespace

std::vector<std::pair<std::string, StepRunner>> ReduceGpuRunners() {
    return {
        {"reduce/20-v0-interleaved-global", PassStep(kReduce20)},
        {"reduce/21-v1-shared-memory", PassStep(kReduce21)},
        {"reduce/22-v2-add-during-load", PassStep(kReduce22)},
        {"reduce/23-v3-unrolled-last-warp", PassStep(kReduce23)},
        {"reduce/24-v4-warp-shuffle", PassStep(kReduce24)},
        {"reduce/25-v5-vectorized-one-pass", OnePassStepRunner()},
        {"reduce/26-cub", CubStepRunner()},
    };
}

}  // namespace lessons::reduce
