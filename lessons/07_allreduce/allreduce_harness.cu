// The harness of chapter 7's steps: every GPU gets its input vector once, at set-up, and an
// output vector; a sample is timed end to end on the host clock (the GPUs' events cannot be
// compared with each other), and each GPU's phases with its own events, reported apart
// ("gpu1 d2h", "gpu0 peer", ...) with the slowest GPU's as the chapter's parts.
#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "allreduce/allreduce_gpu.cuh"
#include "allreduce_chapter.h"
#include "allreduce_steps.h"
#include "cuda/cuda_util.h"
#include "cuda/peers.h"
#include "cuda/scoped_device.h"
#include "errors.h"
#include "kernels_of.h"
#include "nccl/nccl_loader.h"
#include "nccl_probe.h"

namespace lessons::allreduce {
namespace {

enum class Plan { kThroughHost, kReduceBroadcast, kRing, kNccl };

// What a plan calls: the call its source registers (one of the first four), and the add
// kernel (peer copies and the ring).
struct Calls {
    const ThroughHostCall* through_host = nullptr;
    const PeerCopiesCall* peer_copies = nullptr;
    const RingCall* ring = nullptr;
    const NcclCall* nccl = nullptr;
    const AddKernel* add = nullptr;
};

// Each GPU's chunk of the ring is cut into pieces of about this many bytes (at most 16).
constexpr uint64_t kRingPieceBytes = uint64_t(32) << 20;

struct RankBuffers {
    cuda::DeviceBuffer<float> in, out, scratch;
    cuda::Event start, first, second, stop;
};
using GpuSlot = cuda::OnGpu<RankBuffers>;

// The names of a plan's two phases, as parts of the breakdown.
struct Phases {
    const char* first;
    const char* second;
};

Phases PhasesOf(Plan plan) {
    switch (plan) {
        case Plan::kThroughHost:
            return {"d2h", "h2d"};
        case Plan::kReduceBroadcast:
            return {"peer", "kernel"};  // and "broadcast", below
        case Plan::kRing:
            return {"reduce-scatter", "all-gather"};
        case Plan::kNccl:
            return {"nccl", nullptr};
    }
    return {nullptr, nullptr};
}

class AllreduceStep : public StepInstance {
public:
    AllreduceStep(const Workload& w, const StepContext& c, Plan plan, const Calls& calls)
        : m_work(static_cast<const AllreduceWorkload&>(w)), m_plan(plan), m_calls(calls) {
        const uint64_t n = m_work.count();
        const int count = static_cast<int>(c.devices.size());
        if (count != m_work.gpus())
            throw UsageError("the data was made for " + std::to_string(m_work.gpus()) +
                             " GPUs but the run uses " + std::to_string(count));
        if (count > kMaxInputs)
            throw UsageError("gpus " + std::to_string(count) + " is more than this chapter's " +
                             std::to_string(kMaxInputs));
        if (plan == Plan::kThroughHost)
            m_threads = static_cast<int>(c.params.Number("threads"));
        else if (plan != Plan::kNccl)
            m_block = static_cast<int>(c.params.Number("block"));
        m_ring.block = m_block;
        m_ring.add = calls.add;
        cuda::ScopedDevice keep(c.devices.front());
        m_path = cuda::EnablePeerAccess(c.devices);
        m_ring.pieces =
            std::clamp<uint64_t>(m_work.SizeBytes() / uint64_t(count) / kRingPieceBytes, 1, 16);
        m_ring.direct = m_path.direct;
        const uint64_t piece =
            (n + uint64_t(count) * m_ring.pieces - 1) / (uint64_t(count) * m_ring.pieces) + 8;
        for (int i = 0; i < count; ++i) {
            const int d = c.devices[size_t(i)];
            LESSONS_CUDA_CHECK(cudaSetDevice(d));
            auto s = std::make_unique<GpuSlot>(d);
            s->in = cuda::DeviceBuffer<float>(std::max<uint64_t>(n, 1), "the input");
            s->out = cuda::DeviceBuffer<float>(std::max<uint64_t>(n, 1), "the output");
            if (plan == Plan::kReduceBroadcast && i == 0 && count > 1)
                s->scratch = cuda::DeviceBuffer<float>(std::max<uint64_t>(n, 1) * (count - 1),
                                                       "the other GPUs' vectors");
            if (plan == Plan::kRing && !m_ring.direct)
                s->scratch = cuda::DeviceBuffer<float>(piece, "a piece from the neighbour");
            if (n)
                LESSONS_CUDA_CHECK(cudaMemcpyAsync(s->in.get(), m_work.input(i), n * sizeof(float),
                                                   cudaMemcpyHostToDevice, s->stream.get()));
            s->stream.Synchronize();
            AllreduceGpu g;
            g.device = d;
            g.stream = s->stream.get();
            g.in = s->in.get();
            g.out = s->out.get();
            g.scratch = s->scratch.get();
            g.start = s->start.get();
            g.first = s->first.get();
            g.second = s->second.get();
            g.stop = s->stop.get();
            m_gpus.push_back(g);
            m_slots.push_back(std::move(s));
        }
        if (plan == Plan::kRing) {
            const size_t events = size_t(count) * size_t(2 * (count - 1)) * m_ring.pieces;
            for (size_t e = 0; e < events; ++e) {
                const int owner = int(e / (events / size_t(count)));
                LESSONS_CUDA_CHECK(cudaSetDevice(m_gpus[size_t(owner)].device));
                cudaEvent_t ev = nullptr;
                LESSONS_CUDA_CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
                m_ring.events.push_back(ev);
                m_event_owner.push_back(m_gpus[size_t(owner)].device);
            }
        }
        if (plan == Plan::kThroughHost)
            for (int i = 0; i <= count; ++i) {
                m_host.emplace_back(std::max<uint64_t>(n, 1), "a page-locked vector");
                m_host_ptrs.push_back(m_host.back().get());
            }
        if (plan == Plan::kNccl) m_comms = std::make_unique<nccl::Comms>(c.devices);
    }

    ~AllreduceStep() override {
        int previous = 0;
        cudaGetDevice(&previous);
        for (size_t e = 0; e < m_ring.events.size(); ++e) {
            cudaSetDevice(m_event_owner[e]);
            cudaEventDestroy(m_ring.events[e]);
        }
        m_comms.reset();
        m_slots.clear();
        cudaSetDevice(previous);
    }

    Sample Run() override {
        cuda::ScopedDevice keep(m_gpus.front().device);
        const uint64_t n = m_work.count();
        double host_add_ms = 0;
        const auto t0 = std::chrono::steady_clock::now();
        switch (m_plan) {
            case Plan::kThroughHost:
                LESSONS_CUDA_CHECK(
                    m_calls.through_host->run(m_gpus, n, m_host_ptrs, m_threads, &host_add_ms));
                break;
            case Plan::kReduceBroadcast:
                LESSONS_CUDA_CHECK(m_calls.peer_copies->run(m_gpus, n, m_block));
                break;
            case Plan::kRing:
                LESSONS_CUDA_CHECK(m_calls.ring->run(m_gpus, n, m_ring));
                break;
            case Plan::kNccl: {
                const nccl::Api* api = nccl::Load();
                if (!api) throw UnavailableError(nccl::Unavailable());
                nccl::Check(m_calls.nccl->run(m_gpus, n, *api, *m_comms), "ncclAllReduce");
                for (const AllreduceGpu& g : m_gpus) {
                    LESSONS_CUDA_CHECK(cudaSetDevice(g.device));
                    LESSONS_CUDA_CHECK(cudaStreamSynchronize(g.stream));
                }
                break;
            }
        }
        Sample sample;
        sample.total_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                .count();
        const Phases phases = PhasesOf(m_plan);
        double a = 0, b = 0, c = 0;
        for (size_t i = 0; i < m_slots.size(); ++i) {
            const GpuSlot& s = *m_slots[i];
            const std::string gpu = "gpu" + std::to_string(s.device) + " ";
            if (m_plan == Plan::kNccl) {
                a = std::max(a, Part(sample, gpu + phases.first, s.start, s.stop));
            } else if (m_plan == Plan::kReduceBroadcast) {
                if (i != 0) continue;  // GPU 0 does it all
                a = Part(sample, gpu + "peer", s.start, s.first);
                b = Part(sample, gpu + "kernel", s.first, s.second);
                c = Part(sample, gpu + "broadcast", s.second, s.stop);
            } else {
                a = std::max(a, Part(sample, gpu + phases.first, s.start, s.first));
                b = std::max(b, Part(sample, gpu + phases.second,
                                     m_plan == Plan::kThroughHost ? s.second : s.first, s.stop));
            }
        }
        sample.parts.push_back({phases.first, a});
        if (m_plan == Plan::kThroughHost) sample.parts.push_back({"host add", host_add_ms});
        if (phases.second) sample.parts.push_back({phases.second, b});
        if (m_plan == Plan::kReduceBroadcast) sample.parts.push_back({"broadcast", c});
        return sample;
    }

    Check Verify() const override {
        cuda::ScopedDevice keep(m_gpus.front().device);
        std::vector<std::vector<float>> results;
        for (const AllreduceGpu& g : m_gpus) {
            results.emplace_back(m_work.count());
            LESSONS_CUDA_CHECK(cudaSetDevice(g.device));
            if (m_work.count())
                LESSONS_CUDA_CHECK(cudaMemcpy(results.back().data(), g.out, m_work.SizeBytes(),
                                              cudaMemcpyDeviceToHost));
        }
        return CheckAllreduce(m_work, results);
    }

    Work GetWork() const override {
        Work w = AllreduceWork(m_work);
        if (m_plan == Plan::kThroughHost) {
            w.d2h_bytes = w.h2d_bytes = m_work.SizeBytes() * m_gpus.size();
        }
        return w;
    }

    std::vector<NamedValue> Extras() const override {
        std::vector<NamedValue> out = {{"peer_access", m_path.direct ? 1.0 : 0.0}};
        if (m_plan == Plan::kRing) out.push_back({"pieces", double(m_ring.pieces)});
        return out;
    }

private:
    static double Part(Sample& sample, const std::string& name, const cuda::Event& from,
                       const cuda::Event& to) {
        const double ms = cuda::ElapsedMs(from, to);
        sample.parts.push_back({name, ms});
        return ms;
    }

    const AllreduceWorkload& m_work;
    Plan m_plan;
    Calls m_calls;
    int m_threads = 1;
    int m_block = 256;
    cuda::PeerPath m_path;
    RingPlan m_ring;
    std::vector<int> m_event_owner;
    std::vector<AllreduceGpu> m_gpus;
    std::vector<std::unique_ptr<GpuSlot>> m_slots;
    std::vector<cuda::PinnedBuffer<float>> m_host;
    std::vector<float*> m_host_ptrs;
    std::unique_ptr<nccl::Comms> m_comms;
};

StepRunner Step(Plan plan, const Calls& calls) {
    StepRunner r;
    r.make = [plan, calls](const Workload& w, const StepContext& c) {
        if (plan == Plan::kNccl && !nccl::Load()) throw UnavailableError(nccl::Unavailable());
        if (calls.add)
            cuda::CheckBlockAgainstKernel(calls.add->kernel, calls.add->name,
                                          static_cast<int>(c.params.Number("block")));
        return std::unique_ptr<StepInstance>(std::make_unique<AllreduceStep>(w, c, plan, calls));
    };
    if (calls.add)
        r.attributes = [add = calls.add](const ParamValues& params) {
            return cuda::QueryKernelAttributes(add->kernel, add->name,
                                               static_cast<int>(params.Number("block")));
        };
    if (plan == Plan::kNccl)
        r.unavailable = [] { return NcclUnavailable(); };  // found, not loaded (nccl_probe.h)
    return r;
}

}  // namespace

LESSONS_STEP_KIND(ThroughHost, [](const ThroughHost&, const StepSite& site) {
    return Step(Plan::kThroughHost, {.through_host = &OnlyKernel<ThroughHostCall>(site)});
});
LESSONS_STEP_KIND(PeerCopies, [](const PeerCopies&, const StepSite& site) {
    return Step(Plan::kReduceBroadcast, {.peer_copies = &OnlyKernel<PeerCopiesCall>(site),
                                         .add = &OnlyKernel<AddKernel>(site)});
});
LESSONS_STEP_KIND(Ring, [](const Ring&, const StepSite& site) {
    return Step(Plan::kRing, {.ring = &OnlyKernel<RingCall>(site),
                              .add = &OnlyKernel<AddKernel>(site, KernelsFrom::kPreviousLesson)});
});
LESSONS_STEP_KIND(Nccl, [](const Nccl&, const StepSite& site) {
    return Step(Plan::kNccl, {.nccl = &OnlyKernel<NcclCall>(site)});
});

}  // namespace lessons::allreduce
