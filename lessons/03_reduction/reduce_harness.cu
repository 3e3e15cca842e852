// The harness of chapter 3's GPU steps. The floats are copied to the GPU once, when the
// step is set up; what is timed (CUDA events) is the reduction itself, all its passes, as a
// program that already holds its data on the GPU would run it.
#include <algorithm>
#include <array>
#include <functional>
#include <stdexcept>
#include <string>

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
    OnePassStep(const Workload& w, const OnePassKernel& kernel, int block, int grid)
        : GpuReduceBase(w),
          m_kernel(kernel),
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
            LESSONS_CUDA_CHECK(m_kernel.launch(m_in.get(), m_work.count(), m_sum.get(),
                                               m_partials.get(), m_counter.get(), m_block, m_grid,
                                               s));
            return m_sum.get();
        });
    }

private:
    const OnePassKernel& m_kernel;
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

// The position of a toggle's value among its names, which index the kernel tables. The value
// was checked against the lesson's choices, declared from the same names.
template <size_t N>
size_t Toggle(const ParamValues& params, const char* name,
              const std::array<const char*, N>& names) {
    const std::string& value = params.Choice(name);
    for (size_t i = 0; i < N; ++i)
        if (value == names[i]) return i;
    throw std::logic_error(std::string("no kernel for ") + name + "=" + value);
}

// The kernel of a multi-pass lesson at a parameter set: one, or one per toggle combination.
using PickPass = std::function<const ReducePassKernel&(const ParamValues&)>;

PickPass Only(const ReducePassKernel& k) {
    return [&k](const ParamValues&) -> const ReducePassKernel& { return k; };
}

StepRunner PassStep(PickPass pick) {
    StepRunner r;
    r.make = [pick](const Workload& w, const StepContext& c) {
        const ReducePassKernel& k = pick(c.params);
        const int block = Block(c.params);
        const size_t smem = k.dynamic_smem(block);
        cuda::CheckBlockAgainstKernel(k.kernel, k.name, block, smem);
        return std::unique_ptr<StepInstance>(std::make_unique<MultiPassStep>(
            w, block, k, FullGrid(k.kernel, block, smem, c.devices.front())));
    };
    r.attributes = [pick](const ParamValues& params) {
        const ReducePassKernel& k = pick(params);
        const int block = Block(params);
        return cuda::QueryKernelAttributes(k.kernel, k.name, block, k.dynamic_smem(block));
    };
    return r;
}

const ReducePassKernel& Reduce21(const ParamValues& p) {
    return kReduce21[Toggle(p, "addressing", kAddressingNames)];
}

const ReducePassKernel& Reduce23(const ParamValues& p) {
    return kReduce23[Toggle(p, "accumulate", kAccumulateNames)]
                    [Toggle(p, "last_warp", kLastWarpNames)];
}

const OnePassKernel& Reduce25(const ParamValues& p) {
    return kReduce25[Toggle(p, "loads", kLoadsNames)][Toggle(p, "passes", kPassesNames)];
}

StepRunner OnePassStepRunner() {
    StepRunner r;
    r.make = [](const Workload& w, const StepContext& c) {
        const OnePassKernel& k = Reduce25(c.params);
        const int block = Block(c.params);
        cuda::CheckBlockAgainstKernel(k.kernel, k.name, block);
        return std::unique_ptr<StepInstance>(std::make_unique<OnePassStep>(
            w, k, block, FullGrid(k.kernel, block, 0, c.devices.front())));
    };
    r.attributes = [](const ParamValues& params) {
        const OnePassKernel& k = Reduce25(params);
        return cuda::QueryKernelAttributes(k.kernel, k.name, Block(params));
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
        {"reduce/20-v0-interleaved-global", PassStep(Only(kReduce20))},
        {"reduce/21-v1-shared-memory", PassStep(&Reduce21)},
        {"reduce/22-v2-add-during-load", PassStep(Only(kReduce22))},
        {"reduce/23-v3-unrolled-last-warp", PassStep(&Reduce23)},
        {"reduce/24-v4-warp-shuffle", PassStep(Only(kReduce24))},
        {"reduce/25-v5-vectorized-one-pass", OnePassStepRunner()},
        {"reduce/26-cub", CubStepRunner()},
    };
}

}  // namespace lessons::reduce
