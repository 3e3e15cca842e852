// The harness of chapter 3's GPU steps. The floats are copied to the GPU once, when the
// step is set up; what is timed (CUDA events) is the reduction itself, all its passes, as a
// program that already holds its data on the GPU would run it.
#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/cuda_util.h"
#include "device.h"
#include "kernels_of.h"
#include "reduce/reduce_gpu.cuh"
#include "reduce_chapter.h"
#include "reduce_steps.h"

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

// A multi-pass step: repeat a pass on the partial sums until one value is left.
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
    CubStep(const Workload& w, const CubSum& cub)
        : GpuReduceBase(w), m_cub(cub), m_sum(1, "the sum") {
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

int Block(const ParamValues& params) {
    return static_cast<int>(params.Number("block"));
}

// Whether a kernel variant implements the toggle values in `params` (a kernel without toggles
// implements every set).
template <class K>
bool Implements(const K& k, const ParamValues& params) {
    for (const ToggleValue& t : k.toggles)
        if (t.name && params.Choice(t.name) != t.value) return false;
    return true;
}

template <class K>
const K& VariantAt(const std::vector<const K*>& variants, const ParamValues& params) {
    for (const K* k : variants)
        if (Implements(*k, params)) return *k;
    throw std::logic_error("no kernel variant for these toggle values");
}

// The kernel variants the lesson's source registers, checked at start: each combination of
// the toggles they name (among the lesson's choices) is implemented by exactly one of them.
template <class K>
std::vector<const K*> Variants(const StepSite& site) {
    const std::vector<const K*> variants = KernelsOf<K>(site);
    std::vector<const ParamSpec*> toggles;
    for (const K* k : variants)
        for (const ToggleValue& t : k->toggles) {
            if (!t.name) continue;
            const ParamSpec* p = site.lesson.FindParam(t.name);
            if (!p)
                throw std::logic_error(std::string(k->name) + " is a variant by '" + t.name +
                                       "', a parameter the lesson does not declare");
            if (std::find(toggles.begin(), toggles.end(), p) == toggles.end()) toggles.push_back(p);
        }
    size_t combinations = 1;
    for (const ParamSpec* p : toggles) combinations *= p->choices.size();
    for (size_t c = 0; c < combinations; ++c) {
        ParamValues values;
        std::string named;
        size_t rest = c;
        for (const ParamSpec* p : toggles) {
            const std::string& choice = p->choices[rest % p->choices.size()];
            rest /= p->choices.size();
            values.Set(p->name, ParamValue::Choice(choice));
            named += " " + p->name + "=" + choice;
        }
        const auto count = std::count_if(variants.begin(), variants.end(),
                                         [&](const K* k) { return Implements(*k, values); });
        if (count != 1)
            throw std::logic_error(std::to_string(count) + " kernel variants implement" + named);
    }
    if (variants.size() != combinations)
        throw std::logic_error("its source registers " + std::to_string(variants.size()) +
                               " kernel variants for " + std::to_string(combinations) +
                               " combinations of its toggles' choices");
    return variants;
}

StepRunner PassRunner(std::vector<const ReducePassKernel*> variants) {
    StepRunner r;
    r.make = [variants](const Workload& w, const StepContext& c) {
        const ReducePassKernel& k = VariantAt(variants, c.params);
        const int block = Block(c.params);
        const size_t smem = k.dynamic_smem(block);
        cuda::CheckBlockAgainstKernel(k.kernel, k.name, block, smem);
        return std::unique_ptr<StepInstance>(std::make_unique<MultiPassStep>(
            w, block, k, FullGrid(k.kernel, block, smem, c.devices.front())));
    };
    r.attributes = [variants](const ParamValues& params) {
        const ReducePassKernel& k = VariantAt(variants, params);
        const int block = Block(params);
        return cuda::QueryKernelAttributes(k.kernel, k.name, block, k.dynamic_smem(block));
    };
    return r;
}

StepRunner OnePassRunner(std::vector<const OnePassKernel*> variants) {
    StepRunner r;
    r.make = [variants](const Workload& w, const StepContext& c) {
        const OnePassKernel& k = VariantAt(variants, c.params);
        const int block = Block(c.params);
        cuda::CheckBlockAgainstKernel(k.kernel, k.name, block);
        return std::unique_ptr<StepInstance>(std::make_unique<OnePassStep>(
            w, k, block, FullGrid(k.kernel, block, 0, c.devices.front())));
    };
    r.attributes = [variants](const ParamValues& params) {
        const OnePassKernel& k = VariantAt(variants, params);
        return cuda::QueryKernelAttributes(k.kernel, k.name, Block(params));
    };
    return r;
}

StepRunner CubRunner(const CubSum& cub) {
    StepRunner r;
    r.make = [&cub](const Workload& w, const StepContext&) {
        return std::unique_ptr<StepInstance>(std::make_unique<CubStep>(w, cub));
    };
    return r;
}

}  // namespace

LESSONS_STEP_KIND(Pass, [](const Pass&, const StepSite& site) {
    return PassRunner(Variants<ReducePassKernel>(site));
});
LESSONS_STEP_KIND(OnePass, [](const OnePass&, const StepSite& site) {
    return OnePassRunner(Variants<OnePassKernel>(site));
});
LESSONS_STEP_KIND(Cub, [](const Cub&, const StepSite& site) {
    return CubRunner(OnlyKernel<CubSum>(site));
});

}  // namespace lessons::reduce
