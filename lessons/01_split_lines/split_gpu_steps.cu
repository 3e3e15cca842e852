// The harness of chapter 1's GPU steps: copy the text to the device, scan it, copy the
// offsets back, each part timed with CUDA events on the step's own stream.
#include <climits>

#include "cuda/cuda_util.h"
#include "errors.h"
#include "split/split_cpu.h"
#include "split/split_gpu.cuh"
#include "split_chapter.h"
#include "split_gpu_steps.h"

namespace lessons::split {
namespace {

using LaunchFn = void (*)(const char*, uint64_t, unsigned long long*, unsigned long long*, int,
                          cudaStream_t);

// H2D (pageable), kernel, D2H of the count and then of the offsets found.
class GpuSplitStep : public SplitStep {
public:
    GpuSplitStep(const Workload& w, int block, LaunchFn launch)
        : SplitStep(w),
          m_block(block),
          m_launch(launch),
          m_buf(m_work.SizeBytes(), "the text"),
          m_dev_out(SplitCapacity(m_work.SizeBytes()), "the offsets"),
          m_count(1, "the counter"),
          m_host_count(1, "the counter") {}

    Sample Run() override {
        const uint64_t n = m_work.SizeBytes();
        cudaStream_t s = m_stream.get();
        m_start.Record(s);
        if (n) LESSONS_CUDA_CHECK(cudaMemcpyAsync(m_buf.get(), m_work.data(), n,
                                                  cudaMemcpyHostToDevice, s));
        LESSONS_CUDA_CHECK(cudaMemsetAsync(m_count.get(), 0, sizeof(unsigned long long), s));
        m_copied.Record(s);
        m_launch(m_buf.get(), n, m_dev_out.get(), m_count.get(), m_block, s);
        LESSONS_CUDA_CHECK_LAUNCH("split kernel launch");
        m_scanned.Record(s);
        LESSONS_CUDA_CHECK(cudaMemcpyAsync(m_host_count.get(), m_count.get(),
                                           sizeof(unsigned long long), cudaMemcpyDeviceToHost, s));
        m_stream.Synchronize();
        m_found = *m_host_count.get();
        if (m_found > SplitCapacity(n))  // a broken kernel; Verify() reports it
            m_found = SplitCapacity(n) + 1;
        else if (m_found)
            LESSONS_CUDA_CHECK(cudaMemcpyAsync(m_out.get(), m_dev_out.get(), m_found * 8,
                                               cudaMemcpyDeviceToHost, s));
        m_stop.Record(s);
        m_stream.Synchronize();
        Sample sample;
        sample.h2d_ms = cuda::ElapsedMs(m_start, m_copied);
        sample.kernel_ms = cuda::ElapsedMs(m_copied, m_scanned);
        sample.d2h_ms = cuda::ElapsedMs(m_scanned, m_stop);
        sample.total_ms = cuda::ElapsedMs(m_start, m_stop);
        return sample;
    }

private:
    int m_block;
    LaunchFn m_launch;
    cuda::DeviceBuffer<char> m_buf;
    cuda::DeviceBuffer<unsigned long long> m_dev_out;
    cuda::DeviceBuffer<unsigned long long> m_count;
    cuda::PinnedBuffer<unsigned long long> m_host_count;
    cuda::Stream m_stream;
    cuda::Event m_start, m_copied, m_scanned, m_stop;
};

void CheckGrid(uint64_t blocks, int block) {
    if (blocks > static_cast<uint64_t>(INT_MAX))
        throw UsageError("this size needs " + std::to_string(blocks) + " blocks of " +
                         std::to_string(block) +
                         " threads, more than the grid limit of 2^31 - 1; use a larger block or "
                         "a smaller size");
}

}  // namespace

std::unique_ptr<StepInstance> MakeOneThreadPerPair(const Workload& w, const StepConfig& c) {
    cuda::CheckBlockAgainstKernel(Split04Kernel(), "split_04_one_thread_per_pair_kernel", c.block);
    CheckGrid(Split04Blocks(w.SizeBytes(), c.block), c.block);
    return std::make_unique<GpuSplitStep>(w, c.block, &LaunchSplit04);
}

KernelAttributes OneThreadPerPairAttributes(int block) {
    return cuda::QueryKernelAttributes(Split04Kernel(), "split_04_one_thread_per_pair_kernel",
                                       block);
}

}  // namespace lessons::split
