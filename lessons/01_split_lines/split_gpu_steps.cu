// The harness of chapter 1's GPU steps: copy the text to the device, scan it, copy the
// offsets back, each part timed with CUDA events on the step's own stream.
#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

#include "cuda/cuda_util.h"
#include "errors.h"
#include "split/split_cpu.h"
#include "split/split_gpu.cuh"
#include "split_chapter.h"
#include "split_gpu_steps.h"

namespace lessons::split {
namespace {

using Clock = std::chrono::steady_clock;
double MsSince(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// How a step scans: launches on `stream` and returns the count when it already has it on
// the host (Thrust), or leaves it in `count` on the device.
using ScanFn = std::optional<uint64_t> (*)(const char* buf, uint64_t n, unsigned long long* out,
                                           unsigned long long* count, int block,
                                           cudaStream_t stream);
using LaunchFn = void (*)(const char*, uint64_t, unsigned long long*, unsigned long long*, int,
                          cudaStream_t);

template <LaunchFn launch>
std::optional<uint64_t> Kernel(const char* buf, uint64_t n, unsigned long long* out,
                               unsigned long long* count, int block, cudaStream_t stream) {
    launch(buf, n, out, count, block, stream);
    LESSONS_CUDA_CHECK_LAUNCH("split kernel launch");
    return std::nullopt;
}

std::optional<uint64_t> Thrust(const char* buf, uint64_t n, unsigned long long* out,
                               unsigned long long*, int, cudaStream_t stream) {
    unsigned long long found = 0;
    LESSONS_CUDA_CHECK(Split09ThrustCopyIf(buf, n, out, &found, stream));
    return found;
}

struct StepSpec {
    ScanFn scan;
    bool pinned = false;                          // host text in page-locked memory
    uint64_t (*padded)(uint64_t, int) = nullptr;  // zero-padded device size; null: n
    bool measure_allocation = false;              // report pinned vs pageable allocation cost
};

StepSpec Spec(ScanFn scan, bool pinned, uint64_t (*padded)(uint64_t, int) = nullptr,
              bool measure = false) {
    StepSpec spec;
    spec.scan = scan;
    spec.pinned = pinned;
    spec.padded = padded;
    spec.measure_allocation = measure;
    return spec;
}

// Page-locked copy of the text, timed; and, for comparison, a pageable one (malloc + first
// touch, which is where the operating system really hands out the pages).
class PinnedText {
public:
    PinnedText(const char* text, uint64_t n, bool measure) {
        const auto t0 = Clock::now();
        LESSONS_CUDA_CHECK(AllocPinned(&m_ptr, n));
        m_alloc_pinned_ms = MsSince(t0);
        if (n) std::memcpy(m_ptr, text, n);
        if (measure) {
            const auto t1 = Clock::now();
            char* pageable = static_cast<char*>(std::malloc(n ? n : 1));
            if (!pageable)
                throw UsageError("out of host memory for the pageable comparison buffer");
            for (uint64_t i = 0; i < n; i += 4096) pageable[i] = 0;  // fault every page in
            m_alloc_pageable_ms = MsSince(t1);
            std::free(pageable);
        }
    }
    ~PinnedText() { FreePinned(m_ptr); }
    PinnedText(const PinnedText&) = delete;
    PinnedText& operator=(const PinnedText&) = delete;
    const char* get() const { return m_ptr; }
    double alloc_pinned_ms() const { return m_alloc_pinned_ms; }
    double alloc_pageable_ms() const { return m_alloc_pageable_ms; }

private:
    char* m_ptr = nullptr;
    double m_alloc_pinned_ms = 0, m_alloc_pageable_ms = 0;
};

// Device buffer of the text, zero from n to its end (the padding some kernels read).
cuda::DeviceBuffer<char> PaddedDeviceText(uint64_t n, uint64_t padded, cudaStream_t stream) {
    cuda::DeviceBuffer<char> buf(padded + 16, "the text");
    LESSONS_CUDA_CHECK(cudaMemsetAsync(buf.get() + n, 0, padded + 16 - n, stream));
    return buf;
}

// The offsets on the device, their counter, and their way back to the host.
class GpuSplitBase : public SplitStep {
protected:
    explicit GpuSplitBase(const Workload& w)
        : SplitStep(w),
          m_dev_out(SplitCapacity(m_work.SizeBytes()), "the offsets"),
          m_count(1, "the counter"),
          m_host_count(1, "the counter") {}

    uint64_t ReadCount(cuda::Stream& stream) {
        LESSONS_CUDA_CHECK(cudaMemcpyAsync(m_host_count.get(), m_count.get(),
                                           sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                           stream.get()));
        stream.Synchronize();
        return *m_host_count.get();
    }

    // Queues the copy of m_found offsets to the host (none when a broken kernel reported more
    // than can exist; Verify() reports that).
    void ReadOffsets(cudaStream_t stream) {
        const uint64_t capacity = SplitCapacity(m_work.SizeBytes());
        if (m_found > capacity)
            m_found = capacity + 1;
        else if (m_found)
            LESSONS_CUDA_CHECK(cudaMemcpyAsync(m_out.get(), m_dev_out.get(), m_found * 8,
                                               cudaMemcpyDeviceToHost, stream));
    }

    cuda::DeviceBuffer<unsigned long long> m_dev_out;
    cuda::DeviceBuffer<unsigned long long> m_count;
    cuda::PinnedBuffer<unsigned long long> m_host_count;
};

// H2D, scan, D2H of the count (unless the scan returned it) and of the offsets.
class GpuSplitStep : public GpuSplitBase {
public:
    GpuSplitStep(const Workload& w, int block, const StepSpec& spec)
        : GpuSplitBase(w), m_block(block), m_spec(spec) {
        const uint64_t n = m_work.SizeBytes();
        m_buf = PaddedDeviceText(n, spec.padded ? spec.padded(n, block) : n, m_stream.get());
        if (spec.pinned) m_pinned.emplace(m_work.data(), n, spec.measure_allocation);
        m_stream.Synchronize();
    }

    Sample Run() override {
        const uint64_t n = m_work.SizeBytes();
        cudaStream_t s = m_stream.get();
        m_start.Record(s);
        if (n)
            LESSONS_CUDA_CHECK(
                CopyToDevice(m_buf.get(), m_pinned ? m_pinned->get() : m_work.data(), n, s));
        LESSONS_CUDA_CHECK(cudaMemsetAsync(m_count.get(), 0, sizeof(unsigned long long), s));
        m_copied.Record(s);
        const std::optional<uint64_t> known =
            m_spec.scan(m_buf.get(), n, m_dev_out.get(), m_count.get(), m_block, s);
        m_scanned.Record(s);
        m_found = known ? *known : ReadCount(m_stream);
        ReadOffsets(s);
        m_stop.Record(s);
        m_stream.Synchronize();
        Sample sample;
        sample.h2d_ms = cuda::ElapsedMs(m_start, m_copied);
        sample.kernel_ms = cuda::ElapsedMs(m_copied, m_scanned);
        sample.d2h_ms = cuda::ElapsedMs(m_scanned, m_stop);
        sample.total_ms = cuda::ElapsedMs(m_start, m_stop);
        return sample;
    }

    std::vector<std::pair<std::string, double>> Extras() const override {
        if (!m_pinned || !m_spec.measure_allocation) return {};
        return {{"alloc_pinned_ms", m_pinned->alloc_pinned_ms()},
                {"alloc_pageable_ms", m_pinned->alloc_pageable_ms()}};
    }

private:
    int m_block;
    StepSpec m_spec;
    cuda::Stream m_stream;
    cuda::DeviceBuffer<char> m_buf;
    std::optional<PinnedText> m_pinned;
    cuda::Event m_start, m_copied, m_scanned, m_stop;
};

// Lesson 11: the copy and the scan overlap, so only the whole is timed; the copy alone is
// measured once at set-up for comparison.
class OverlappedStep : public GpuSplitBase {
public:
    static constexpr int kStreams = 4;

    OverlappedStep(const Workload& w, int block)
        : GpuSplitBase(w),
          m_block(block),
          m_pinned(m_work.data(), m_work.SizeBytes(), false),
          m_chunk(Split11Chunk(m_work.SizeBytes(), block)) {
        const uint64_t n = m_work.SizeBytes();
        m_buf = PaddedDeviceText(n, Split10Padded(n, block), m_main.get());
        for (int i = 0; i < kStreams; ++i) {
            m_raw_streams[i] = m_streams[i].get();
            m_raw_events[i] = m_events[i].get();
        }
        // The copy alone, for the comparison the lesson is about (median of three).
        std::vector<double> copies;
        for (int rep = 0; rep < 3 && n; ++rep) {
            m_start.Record(m_main.get());
            LESSONS_CUDA_CHECK(CopyToDevice(m_buf.get(), m_pinned.get(), n, m_main.get()));
            m_stop.Record(m_main.get());
            copies.push_back(cuda::ElapsedMs(m_start, m_stop));
        }
        std::sort(copies.begin(), copies.end());
        m_copy_alone_ms = copies.empty() ? 0 : copies[copies.size() / 2];
        m_main.Synchronize();
    }

    Sample Run() override {
        const uint64_t n = m_work.SizeBytes();
        cudaStream_t s = m_main.get();
        m_start.Record(s);
        LESSONS_CUDA_CHECK(cudaMemsetAsync(m_count.get(), 0, sizeof(unsigned long long), s));
        if (n)
            LESSONS_CUDA_CHECK(Split11Overlapped(m_pinned.get(), m_buf.get(), n, m_dev_out.get(),
                                                 m_count.get(), m_block, m_chunk, s, m_raw_streams,
                                                 m_raw_events, kStreams));
        m_found = ReadCount(m_main);
        ReadOffsets(s);
        m_stop.Record(s);
        m_main.Synchronize();
        Sample sample;
        sample.total_ms = cuda::ElapsedMs(m_start, m_stop);
        return sample;
    }

    std::vector<std::pair<std::string, double>> Extras() const override {
        return {{"h2d_alone_ms", m_copy_alone_ms},
                {"chunk_bytes", double(m_chunk)},
                {"streams", double(kStreams)}};
    }

private:
    int m_block;
    PinnedText m_pinned;
    cuda::Stream m_main;
    cuda::Stream m_streams[kStreams];
    cuda::Event m_events[kStreams];
    cudaStream_t m_raw_streams[kStreams];
    cudaEvent_t m_raw_events[kStreams];
    cuda::DeviceBuffer<char> m_buf;
    uint64_t m_chunk;
    double m_copy_alone_ms = 0;
    cuda::Event m_start, m_stop;
};

void CheckGrid(uint64_t blocks, int block) {
    if (blocks > static_cast<uint64_t>(INT_MAX))
        throw UsageError(
            "this size needs " + std::to_string(blocks) + " blocks of " + std::to_string(block) +
            " threads, more than the grid limit of 2^31 - 1; use a larger block or a smaller size");
}

struct KernelInfo {
    const void* (*func)();
    const char* name;
    size_t (*dynamic_smem)(int block);
};
size_t NoSmem(int) {
    return 0;
}
size_t PairsSmem(int block) {
    return size_t(block) * 2;
}
size_t WordsSmem(int block) {
    return size_t(block) * 4 + 4;
}

const KernelInfo k04{&Split04Kernel, "split_04_one_thread_per_pair_kernel", &NoSmem};
const KernelInfo k06{&Split06Kernel, "split_06_branch_free_padding_kernel", &NoSmem};
const KernelInfo k07{&Split07Kernel, "split_07_shared_memory_kernel", &PairsSmem};
const KernelInfo k08{&Split08Kernel, "split_08_four_bytes_per_thread_kernel", &WordsSmem};
size_t StagedSmem(int block) {
    return Split10SharedBytes(block);
}
const KernelInfo k10{&Split10Kernel, "split_10_vector_loads_block_compaction_kernel", &StagedSmem};

std::unique_ptr<StepInstance> Make(const Workload& w, const StepConfig& c, const KernelInfo& k,
                                   const StepSpec& spec, uint64_t threads_needed) {
    cuda::CheckBlockAgainstKernel(k.func(), k.name, c.block);
    CheckGrid((threads_needed + c.block - 1) / c.block, c.block);
    return std::make_unique<GpuSplitStep>(w, c.block, spec);
}

KernelAttributes Attributes(const KernelInfo& k, int block) {
    return cuda::QueryKernelAttributes(k.func(), k.name, block, k.dynamic_smem(block));
}

}  // namespace

std::unique_ptr<StepInstance> MakeOneThreadPerPair(const Workload& w, const StepConfig& c) {
    return Make(w, c, k04, Spec(&Kernel<&LaunchSplit04>, false), (w.SizeBytes() + 1) / 2);
}

std::unique_ptr<StepInstance> MakePinned(const Workload& w, const StepConfig& c) {
    return Make(w, c, k04, Spec(&Kernel<&LaunchSplit04>, true, nullptr, true),
                (w.SizeBytes() + 1) / 2);
}

std::unique_ptr<StepInstance> MakeBranchFree(const Workload& w, const StepConfig& c) {
    return Make(w, c, k06, Spec(&Kernel<&LaunchSplit06>, true, &Split06Padded),
                w.SizeBytes() / 2 + 1);
}

std::unique_ptr<StepInstance> MakeSharedMemory(const Workload& w, const StepConfig& c) {
    return Make(w, c, k07, Spec(&Kernel<&LaunchSplit07>, true, &Split07Padded),
                w.SizeBytes() / 2 + 1);
}

std::unique_ptr<StepInstance> MakeFourBytes(const Workload& w, const StepConfig& c) {
    return Make(w, c, k08, Spec(&Kernel<&LaunchSplit08>, true, &Split08Padded),
                w.SizeBytes() / 4 + 1);
}

std::unique_ptr<StepInstance> MakeThrust(const Workload& w, const StepConfig&) {
    return std::make_unique<GpuSplitStep>(w, 0, Spec(&Thrust, true));
}

std::unique_ptr<StepInstance> MakeVectorWarp(const Workload& w, const StepConfig& c) {
    return Make(w, c, k10, Spec(&Kernel<&LaunchSplit10>, true, &Split10Padded),
                w.SizeBytes() / 32 + 1);
}

std::unique_ptr<StepInstance> MakeOverlapped(const Workload& w, const StepConfig& c) {
    cuda::CheckBlockAgainstKernel(k10.func(), k10.name, c.block);
    return std::make_unique<OverlappedStep>(w, c.block);
}

KernelAttributes OneThreadPerPairAttributes(int block) {
    return Attributes(k04, block);
}
KernelAttributes BranchFreeAttributes(int block) {
    return Attributes(k06, block);
}
KernelAttributes SharedMemoryAttributes(int block) {
    return Attributes(k07, block);
}
KernelAttributes FourBytesAttributes(int block) {
    return Attributes(k08, block);
}
KernelAttributes VectorWarpAttributes(int block) {
    return Attributes(k10, block);
}

}  // namespace lessons::split
