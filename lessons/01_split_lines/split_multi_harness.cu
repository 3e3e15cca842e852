// The harness of chapter 1's multi-GPU steps (MultiGpu): the text in page-locked host
// memory, one share per GPU (engine/shares.h), per-GPU buffers, streams and timing marks.
// A sample is timed end to end on the host clock (the GPUs' events cannot be compared with
// each other); each GPU's copy in, peer copy, scan and copy out are timed with its own
// events and reported apart ("gpu1 h2d", ...), with the slowest GPU's as "h2d", "peer",
// "kernel" and "d2h".
#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/cuda_util.h"
#include "cuda/peers.h"
#include "cuda/scoped_device.h"
#include "errors.h"
#include "kernel_family.h"
#include "shares.h"
#include "split/split_cpu.h"
#include "split/split_multi.cuh"
#include "split_chapter.h"
#include "split_launch.cuh"
#include "split_steps.h"

namespace lessons::split {
namespace {

using Clock = std::chrono::steady_clock;

// One GPU's buffers, stream and marks, made and freed with that GPU current.
struct ScanBuffers {
    cuda::DeviceBuffer<char> buf;
    cuda::DeviceBuffer<unsigned long long> out, count;
    cuda::PinnedBuffer<unsigned long long> host_count{1, "the counter"};
    cuda::Event start, copied, moved, scanned, done;
};

struct GpuSlot : cuda::OnGpu<ScanBuffers> {
    using OnGpu::OnGpu;

    // What the step's calls (split_multi.cuh) see of it, with its share of the text.
    SplitGpu View(const Share& share) const {
        return {.device = device,
                .stream = stream.get(),
                .begin = share.begin,
                .end = share.end,
                .buf = buf.get(),
                .out = out.get(),
                .count = count.get(),
                .host_count = host_count.get(),
                .start = start.get(),
                .copied = copied.get(),
                .moved = moved.get(),
                .scanned = scanned.get(),
                .done = done.get()};
    }
};

class MultiGpuSplitStep : public SplitStep {
public:
    MultiGpuSplitStep(const Workload& w, const StepContext& c, Plan plan, const SplitKernel& kernel,
                      int block)
        : SplitStep(w, true),
          m_plan(plan),
          m_pinned(std::max<uint64_t>(w.SizeBytes(), 1), "the page-locked text") {
        const uint64_t n = m_work.SizeBytes();
        if (n) std::memcpy(m_pinned.get(), m_work.data(), n);
        const int count = static_cast<int>(c.devices.size());
        cuda::ScopedDevice keep(c.devices.front());
        m_path = cuda::EnablePeerAccess(c.devices);
        m_multi.host = m_pinned.get();
        m_multi.n = n;
        m_multi.scan = kernel.launch_range;
        m_multi.block = block;
        m_multi.result = reinterpret_cast<unsigned long long*>(m_out.get());
        for (int i = 0; i < count; ++i) {
            const Share share = ShareOf(n, count, i, kSplitShareAlign);
            LESSONS_CUDA_CHECK(cudaSetDevice(c.devices[size_t(i)]));
            auto slot = std::make_unique<GpuSlot>(c.devices[size_t(i)]);
            // What this GPU holds: the whole text (GPU 0 where the shares are gathered), its
            // share alone (the others), or its share and the byte after it, padded (where each
            // GPU scans its own).
            const bool whole = plan != Plan::kEachScans && i == 0;
            const bool scans = plan == Plan::kEachScans || i == 0;
            const uint64_t held = whole ? n : share.size();
            const uint64_t bytes = scans ? kernel.padded(held, block) + 16 : held;
            slot->buf = cuda::DeviceBuffer<char>(std::max<uint64_t>(bytes, 1), "the text");
            if (scans) {
                LESSONS_CUDA_CHECK(cudaMemsetAsync(slot->buf.get(), 0, bytes, slot->stream.get()));
                const uint64_t scanned = whole ? n : share.size();
                slot->out =
                    cuda::DeviceBuffer<unsigned long long>(SplitCapacity(scanned), "the offsets");
                slot->count = cuda::DeviceBuffer<unsigned long long>(1, "the counter");
            }
            slot->stream.Synchronize();
            m_multi.gpus.push_back(slot->View(share));
            m_slots.push_back(std::move(slot));
        }
    }

    ~MultiGpuSplitStep() override {
        int previous = 0;
        cudaGetDevice(&previous);
        m_slots.clear();
        cudaSetDevice(previous);
    }

    Sample Run() override {
        cuda::ScopedDevice keep(m_multi.gpus.front().device);
        uint64_t found = 0;
        const auto t0 = Clock::now();
        switch (m_plan) {
            case Plan::kGatherToFirst:
                LESSONS_CUDA_CHECK(SplitScatterGather(m_multi, &found));
                break;
            case Plan::kOpenMPGather:
                LESSONS_CUDA_CHECK(SplitOpenMPPerGpu(m_multi, &found));
                break;
            case Plan::kEachScans:
                LESSONS_CUDA_CHECK(SplitEachScansItsShare(m_multi, &found));
                break;
        }
        Sample sample;
        sample.total_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        m_found = found;
        double h2d = 0, peer = 0, kernel = 0, d2h = 0;
        for (size_t i = 0; i < m_slots.size(); ++i) {
            const GpuSlot& s = *m_slots[i];
            const std::string gpu = "gpu" + std::to_string(s.device) + " ";
            const double in = cuda::ElapsedMs(s.start, s.copied);
            sample.parts.push_back({gpu + "h2d", in});
            h2d = std::max(h2d, in);
            if (m_plan != Plan::kEachScans && i > 0) {
                const double p = cuda::ElapsedMs(s.copied, s.moved);
                sample.parts.push_back({gpu + "peer", p});
                peer = std::max(peer, p);
            }
            if (m_plan == Plan::kEachScans || i == 0) {
                const double k =
                    cuda::ElapsedMs(m_plan == Plan::kEachScans ? s.copied : s.moved, s.scanned);
                const double out = cuda::ElapsedMs(s.scanned, s.done);
                sample.parts.push_back({gpu + "kernel", k});
                sample.parts.push_back({gpu + "d2h", out});
                kernel = std::max(kernel, k);
                d2h = std::max(d2h, out);
            }
        }
        sample.parts.push_back({"h2d", h2d});
        if (m_plan != Plan::kEachScans) sample.parts.push_back({"peer", peer});
        sample.parts.push_back({"kernel", kernel});
        sample.parts.push_back({"d2h", d2h});
        return sample;
    }

    std::vector<NamedValue> Extras() const override {
        return {{"gpus", double(m_slots.size())}, {"peer_access", m_path.direct ? 1.0 : 0.0}};
    }

private:
    Plan m_plan;
    cuda::PinnedBuffer<char> m_pinned;
    cuda::PeerPath m_path;
    SplitMulti m_multi;
    std::vector<std::unique_ptr<GpuSlot>> m_slots;
};

}  // namespace

LESSONS_STEP_KIND(MultiGpu, [](const MultiGpu& k, const StepSite&) {
    const std::vector<const SplitKernel*> kernels = FindKernels<SplitKernel>(k.kernels);
    if (kernels.empty())
        throw std::logic_error(std::string("'") + k.kernels +
                               "', the file of the kernel its GPUs launch, registers none");
    const SplitKernel& kernel = RangeKernelAsWritten(kernels);
    return LaunchRunner([&kernel](const ParamValues&) -> const SplitKernel& { return kernel; },
                        [plan = k.plan](const Workload& w, const StepContext& c,
                                        const SplitKernel& launched, int block) {
                            return std::unique_ptr<StepInstance>(
                                std::make_unique<MultiGpuSplitStep>(w, c, plan, launched, block));
                        });
});

}  // namespace lessons::split
