// How a GPU step times its kernels on its own stream: two events around them, with the stream
// held (cuda::StreamHold) so that the events time the GPU's work and not the host's queuing. A
// batched timer launches the work once in its first sample (the one checked), and then as many
// times back to back as cuda::BatchFor asks for a kernel that short; a sample is their mean.
// A library's step (cuBLAS, cuDNN) warms the library first (WarmBeforeFirstSample): a handle's
// first call chooses its kernel and loads its module on the host for longer than the hold waits
// (cuda::StreamHold::kHoldLimitMs), so the checked sample timed that wait, not the kernel, and
// the batch was chosen from it (seen through CUPTI, tests/test_gpu_timed_region.cpp: on the
// H200 one hold in every run of a library step let go by itself, and none once warmed).
#pragma once

#include <cuda_runtime.h>

#include "cuda/cuda_util.h"
#include "lesson.h"

namespace lessons {

class KernelTimer {
public:
    enum class Batching { kOnce, kShortKernelsBatched };
    explicit KernelTimer(Batching batching = Batching::kOnce) : m_batching(batching) {}

    // Before the first sample, `launch` runs once untimed and the host waits for it. Only for
    // work that gives the same output when run again (a library call that overwrites it). Not
    // under a tool (no hold, cuda::HoldWanted): ncu would profile the warm-up's kernels as the
    // step's, and without a hold there is nothing to outlast.
    void WarmBeforeFirstSample() { m_warm = cuda::HoldWanted(); }

    // Times `launch(s)` (the step's kernels, enqueued on `s`); its one part is "kernel".
    template <class Launch>
    Sample Time(cudaStream_t s, const Launch& launch) {
        if (m_warm) {
            m_warm = false;
            launch(s);
            LESSONS_CUDA_CHECK(cudaStreamSynchronize(s));
        }
        const int batch = m_batch > 0 ? m_batch : 1;
        cuda::StreamHold hold(s);
        m_start.Record(s);
        for (int i = 0; i < batch; ++i) launch(s);
        m_stop.Record(s);
        hold.Release();
        Sample sample;
        sample.total_ms = cuda::ElapsedMs(m_start, m_stop) / batch;
        sample.parts = {{"kernel", sample.total_ms}};
        if (m_batch == 0 && m_batching == Batching::kShortKernelsBatched)
            m_batch = cuda::BatchFor(sample.total_ms);
        return sample;
    }

private:
    Batching m_batching;
    bool m_warm = false;  // run once untimed before the first sample
    int m_batch = 0;      // launches per timed sample; 0 until the first run
    cuda::Event m_start, m_stop;
};

// A GPU step (Step, a chapter's step class) whose run is its Launch on its own stream, timed by a
// batched KernelTimer: a short kernel is timed as it runs queued behind itself.
template <class Step>
class LaunchTimedStep : public Step {
public:
    using Step::Step;
    Sample Run() override {
        return m_timer.Time(m_stream.get(), [this](cudaStream_t s) { Launch(s); });
    }

protected:
    virtual void Launch(cudaStream_t s) = 0;
    cuda::Stream m_stream;
    KernelTimer m_timer{KernelTimer::Batching::kShortKernelsBatched};
};

}  // namespace lessons
