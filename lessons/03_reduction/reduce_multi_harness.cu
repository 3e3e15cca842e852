// The harness of lesson 27: the floats cut into one share per GPU (engine/shares.h), each
// copied to its GPU once at set-up; a sample is timed end to end on the host clock (lesson
// 25's kernel on every GPU, then NCCL), with each GPU's kernel and the NCCL all-reduce timed
// by that GPU's events and reported apart ("gpu1 kernel", "gpu1 nccl").
#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "cuda/cuda_util.h"
#include "cuda/nccl_loader.h"
#include "cuda/peers.h"
#include "cuda/scoped_device.h"
#include "device.h"
#include "errors.h"
#include "reduce/reduce_multi.cuh"
#include "reduce_chapter.h"
#include "shares.h"

namespace lessons::reduce {
namespace {

struct GpuSlot {
    explicit GpuSlot(int d) : device(d) {}
    ~GpuSlot() { cudaSetDevice(device); }  // members are freed after this, on their GPU
    int device;
    cuda::Stream stream;
    cuda::DeviceBuffer<float> in, sum, partials;
    cuda::DeviceBuffer<unsigned> counter;
    cuda::Event start, summed, stop;
};

class MultiGpuReduceStep : public ReduceStep {
public:
    MultiGpuReduceStep(const Workload& w, const StepContext& c, int block)
        : ReduceStep(w), m_block(block), m_result(1, "the result") {
        const OnePassKernel& k = kReduce25[0][0];  // lesson 25 as written
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
        LESSONS_CUDA_CHECK(Reduce27SumShares(m_gpus, kReduce25[0][0], m_block));
        nccl::Check(Reduce27Combine(m_gpus, *api, *m_comms), "ncclAllReduce");
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

    // Every float read once, on whichever GPU holds it, against the GPUs' read bandwidths
    // added up; the GPUs' sums cross between GPUs (4 bytes each). End to end.
    Work GetWork() const override {
        Work w = ReduceStep::GetWork();
        w.peer_bytes = 4 * m_gpus.size();
        w.rate_part.clear();
        return w;
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

    int m_block;
    cuda::PinnedBuffer<float> m_result;
    cuda::PeerPath m_path;
    std::vector<ReduceGpu> m_gpus;
    std::vector<std::unique_ptr<GpuSlot>> m_slots;
    std::unique_ptr<nccl::Comms> m_comms;
};

}  // namespace

std::vector<std::pair<std::string, StepRunner>> ReduceMultiGpuRunners() {
    StepRunner r;
    r.make = [](const Workload& w, const StepContext& c) {
        if (!nccl::Load()) throw UnavailableError(nccl::Unavailable());
        const int block = static_cast<int>(c.params.Number("block"));
        const OnePassKernel& k = kReduce25[0][0];
        cuda::CheckBlockAgainstKernel(k.kernel, k.name, block);
        return std::unique_ptr<StepInstance>(std::make_unique<MultiGpuReduceStep>(w, c, block));
    };
    r.attributes = [](const ParamValues& params) {
        const OnePassKernel& k = kReduce25[0][0];
        return cuda::QueryKernelAttributes(k.kernel, k.name,
                                           static_cast<int>(params.Number("block")));
    };
    r.unavailable = [] { return nccl::Unavailable(); };
    return {{"reduce/27-multi-gpu-nccl", r}};
}

}  // namespace lessons::reduce
