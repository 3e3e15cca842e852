// The harness of chapter 6's GPU step. The floats are copied to the GPU once, at set-up; what
// is timed (CUDA events) is the kernel alone. The checked elements are read back for Verify.
#include <algorithm>
#include <memory>
#include <vector>

#include "cuda/cuda_util.h"
#include "device.h"
#include "kernel_timer.cuh"
#include "kernels_of.h"
#include "roofline/roofline_gpu.cuh"
#include "roofline_chapter.h"
#include "roofline_steps.h"

namespace lessons::roofline {
namespace {

class IntensityStep : public StepInstance {
public:
    IntensityStep(const Workload& w, const IntensityKernel& kernel, int fmas, int block, int grid)
        : m_work(static_cast<const RooflineWorkload&>(w)),
          m_kernel(kernel),
          m_fmas(fmas),
          m_block(block),
          m_grid(grid),
          m_x(std::max<uint64_t>(m_work.count(), 1), "the input"),
          m_y(std::max<uint64_t>(m_work.count(), 1), "the output") {
        if (m_work.count())
            LESSONS_CUDA_CHECK(cudaMemcpyAsync(m_x.get(), m_work.data(), m_work.SizeBytes(),
                                               cudaMemcpyHostToDevice, m_stream.get()));
        m_stream.Synchronize();
    }

    Sample Run() override {
        return m_timer.Time(m_stream.get(), [this](cudaStream_t s) {
            if (m_work.count())
                LESSONS_CUDA_CHECK(m_kernel.launch(m_x.get(), m_y.get(), m_work.count(), m_fmas,
                                                   m_block, m_grid, s));
        });
    }

    Check Verify() const override {
        const std::vector<uint64_t> indices = CheckedIndices(m_work.count());
        std::vector<float> all(m_work.count());
        if (!all.empty())
            LESSONS_CUDA_CHECK(
                cudaMemcpy(all.data(), m_y.get(), m_work.SizeBytes(), cudaMemcpyDeviceToHost));
        std::vector<float> out;
        out.reserve(indices.size());
        for (uint64_t i : indices) out.push_back(all[i]);
        return CheckOutputs(m_work, m_fmas, indices, out);
    }

    Work GetWork() const override { return IntensityWork(m_work.count(), m_fmas); }

private:
    const RooflineWorkload& m_work;
    const IntensityKernel& m_kernel;
    int m_fmas, m_block, m_grid;
    cuda::DeviceBuffer<float> m_x, m_y;
    cuda::Stream m_stream;
    KernelTimer m_timer{KernelTimer::Batching::kShortKernelsBatched};
};

StepRunner IntensityRunner(const IntensityKernel& k) {
    StepRunner r;
    r.make = [&k](const Workload& w, const StepContext& c) {
        const int block = static_cast<int>(c.params.Number("block"));
        const int fmas = static_cast<int>(c.params.Number("fmas"));
        cuda::CheckBlockAgainstKernel(k.kernel, k.name, block);
        int per_sm = 0;
        LESSONS_CUDA_CHECK(
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k.kernel, block, 0));
        const int grid =
            std::max(1, per_sm) * GetDevices().devices[size_t(c.devices.front())].sm_count;
        return std::unique_ptr<StepInstance>(
            std::make_unique<IntensityStep>(w, k, fmas, block, grid));
    };
    r.attributes = [&k](const ParamValues& params) {
        return cuda::QueryKernelAttributes(k.kernel, k.name,
                                           static_cast<int>(params.Number("block")));
    };
    return r;
}

}  // namespace

LESSONS_STEP_KIND(Intensity, [](const Intensity&, const StepSite& site) {
    return IntensityRunner(OnlyKernel<IntensityKernel>(site));
});

}  // namespace lessons::roofline
