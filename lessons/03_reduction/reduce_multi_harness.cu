// The harness of the multi-GPU step: the floats cut into one share per GPU (engine/shares.h),
// each copied to its GPU once at set-up; a sample is timed end to end on the host clock (the
// one-pass kernel on every GPU, then NCCL), with each GPU's kernel and the NCCL all-reduce
// timed by that GPU's events and reported apart ("gpu1 kernel", "gpu1 nccl").
#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <typeindex>
#include <vector>

#include "cuda/cuda_util.h"
#include "cuda/peers.h"
#include "cuda/scoped_device.h"
#include "device.h"
#include "errors.h"
#include "kernels_of.h"
#include "nccl/nccl_loader.h"
#include "nccl_probe.h"
#include "reduce/reduce_multi.cuh"
#include "reduce_chapter.h"
#include "reduce_steps.h"
#include "shares.h"

namespace lessons::reduce {
namespace {

struct SumBuffers {
    cuda::DeviceBuffer<float> in, sum, partials;
    cuda::DeviceBuffer<unsigned> counter;
    cuda::Event start, summed, stop;
};
using GpuSlot = cuda::OnGpu<SumBuffers>;

class MultiGpuReduceStep : public ReduceStep {
public:
    MultiGpuReduceStep(const Workload& w, const StepContext& c, const MultiGpuSum& calls,
                       const OnePassKernel& k, int block)
        : ReduceStep(w), m_calls(calls), m_kernel(k), m_block(block), m_result(1, "the result") {
        cuda::ScopedDevice keep(c.devices.front());
        m_path = cuda::EnablePeerAccess(c.devices);
        const int count = static_cast<int>(c.devices.size());
        for (int i = 0; i < count; ++i) {
            const int d = c.devices[size_t(i)];
            const Share share = ShareOf(m_work.count(), count, i, 1024);  // 4 KiB of floats
            LESSONS_CUDA_CHECK(cudaSetDevice(d));
            auto s = std::make_unique<GpuSlot>(d);
            int per_sm = 0;
            LESSONS_CUDA_CHECK(
                cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k.kernel, block, 0));
            const int grid = std::max(1, per_sm) * GetDevices().devices[size_t(d)].sm_count;
            s->in = cuda::DeviceBuffer<float>(std::max<uint64_t>(share.size(), 1), "the input");
            s->sum = cuda::DeviceBuffer<float>(1, "the sum");
            s->partials = cuda::DeviceBuffer<float>(size_t(grid), "the block sums");
            s->counter = cuda::DeviceBuffer<unsigned>(1, "the block counter");
            if (!share.empty())
                LESSONS_CUDA_CHECK(cudaMemcpyAsync(s->in.get(), m_work.data() + share.begin,
                                                   share.size() * sizeof(float),
                                                   cudaMemcpyHostToDevice, s->stream.get()));
            LESSONS_CUDA_CHECK(
                cudaMemsetAsync(s->counter.get(), 0, sizeof(unsigned), s->stream.get()));
            s->stream.Synchronize();
            ReduceGpu g;
            g.device = d;
            g.stream = s->stream.get();
            g.in = s->in.get();
            g.count = share.size();
            g.sum = s->sum.get();
            g.partials = s->partials.get();
            g.counter = s->counter.get();
            g.grid = grid;
            g.start = s->start.get();
            g.summed = s->summed.get();
            g.stop = s->stop.get();
            m_gpus.push_back(g);
            m_slots.push_back(std::move(s));
        }
        m_comms = std::make_unique<nccl::Comms>(c.devices);
    }

    ~MultiGpuReduceStep() override {
        int previous = 0;
        cudaGetDevice(&previous);
        m_comms.reset();
        m_slots.clear();
        cudaSetDevice(previous);
    }

    Sample Run() override {
        cuda::ScopedDevice keep(m_gpus.front().device);
        const nccl::Api* api = nccl::Load();
        if (!api) throw UnavailableError(nccl::Unavailable());
        const auto t0 = std::chrono::steady_clock::now();
        LESSONS_CUDA_CHECK(m_calls.sum_shares(m_gpus, m_kernel, m_block));
        nccl::Check(m_calls.combine(m_gpus, *api, *m_comms), "ncclAllReduce");
        for (const ReduceGpu& g : m_gpus) {
            LESSONS_CUDA_CHECK(cudaSetDevice(g.device));
            LESSONS_CUDA_CHECK(cudaStreamSynchronize(g.stream));
        }
        Sample sample;
        sample.total_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
        LESSONS_CUDA_CHECK(cudaSetDevice(m_gpus.front().device));
        LESSONS_CUDA_CHECK(
            cudaMemcpy(m_result.get(), m_gpus.front().sum, sizeof(float), cudaMemcpyDeviceToHost));
        m_value = *m_result.get();
        double kernel = 0, combine = 0;
        for (const GpuSlot* s : Slots()) {
            const std::string gpu = "gpu" + std::to_string(s->device) + " ";
            const double k = cuda::ElapsedMs(s->start, s->summed);
            const double n = cuda::ElapsedMs(s->summed, s->stop);
            sample.parts.push_back({gpu + "kernel", k});
            sample.parts.push_back({gpu + "nccl", n});
            kernel = std::max(kernel, k);
            combine = std::max(combine, n);
        }
        sample.parts.push_back({"kernel", kernel});
        sample.parts.push_back({"nccl", combine});
        return sample;
    }

    std::vector<NamedValue> Extras() const override {
        return {{"gpus", double(m_gpus.size())}, {"peer_access", m_path.direct ? 1.0 : 0.0}};
    }

private:
    std::vector<const GpuSlot*> Slots() const {
        std::vector<const GpuSlot*> out;
        for (const auto& s : m_slots) out.push_back(s.get());
        return out;
    }

    const MultiGpuSum& m_calls;
    const OnePassKernel& m_kernel;
    int m_block;
    cuda::PinnedBuffer<float> m_result;
    cuda::PeerPath m_path;
    std::vector<ReduceGpu> m_gpus;
    std::vector<std::unique_ptr<GpuSlot>> m_slots;
    std::unique_ptr<nccl::Comms> m_comms;
};

// The one-pass kernel as written (every toggle at the lesson's first choice), from the one
// source that registers one-pass kernels.
const OnePassKernel& OnePassAsWritten() {
    const ToggleValue as_written[] = {ValueOf(kLoadsToggle, Loads::kFloat4),
                                      ValueOf(kPassesToggle, Passes::kOne)};
    const auto implements = [&](const OnePassKernel& k) {
        for (const ToggleValue& t : k.toggles) {
            if (!t.name) continue;
            bool found = false;
            for (const ToggleValue& w : as_written)
                found = found || (!std::strcmp(t.name, w.name) && !std::strcmp(t.value, w.value));
            if (!found) return false;
        }
        return true;
    };
    std::string source;
    const OnePassKernel* kernel = nullptr;
    for (const KernelFamily& f : KernelFamilies()) {
        if (f.type != std::type_index(typeid(OnePassKernel))) continue;
        if (!source.empty() && f.file != source)
            throw std::logic_error("it launches the one-pass kernel, and both '" + source +
                                   "' and '" + f.file + "' register one");
        source = f.file;
        for (size_t i = 0; i < f.count; ++i) {
            const OnePassKernel& k = static_cast<const OnePassKernel*>(f.items)[i];
            if (implements(k)) kernel = &k;
        }
    }
    if (!kernel)
        throw std::logic_error(
            "it launches the one-pass kernel as written, and no source "
            "registers it");
    return *kernel;
}

StepRunner MultiGpuRunner(const MultiGpuSum& calls, const OnePassKernel& k) {
    StepRunner r;
    r.make = [&calls, &k](const Workload& w, const StepContext& c) {
        if (!nccl::Load()) throw UnavailableError(nccl::Unavailable());
        const int block = static_cast<int>(c.params.Number("block"));
        cuda::CheckBlockAgainstKernel(k.kernel, k.name, block);
        return std::unique_ptr<StepInstance>(
            std::make_unique<MultiGpuReduceStep>(w, c, calls, k, block));
    };
    r.attributes = [&k](const ParamValues& params) {
        return cuda::QueryKernelAttributes(k.kernel, k.name,
                                           static_cast<int>(params.Number("block")));
    };
    r.unavailable = [] { return NcclUnavailable(); };  // found, not loaded (nccl_probe.h)
    return r;
}

}  // namespace

LESSONS_STEP_KIND(MultiGpuNccl, [](const MultiGpuNccl&, const StepSite& site) {
    return MultiGpuRunner(OnlyKernel<MultiGpuSum>(site), OnePassAsWritten());
});

}  // namespace lessons::reduce
