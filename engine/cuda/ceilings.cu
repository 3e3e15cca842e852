// What one GPU can reach, measured: read-only streaming, device copy, FP32 FMA peak, pinned
// PCIe each way and copies to every other GPU. Each figure is the median of several timed runs
// (CUDA events on a stream of its own) after warm-up; the whole set takes a few hundred ms.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "../device_facts.h"
#include "../errors.h"
#include "../host.h"
#include "ceilings.h"
#include "cuda_util.h"
#include "scoped_device.h"

namespace lessons::cuda {

namespace {

constexpr size_t kMiB = size_t(1) << 20;
constexpr int kBlock = 256;
constexpr int kFmaChains = 8;
constexpr int kFmaIterations = 32768;  // about 2 ms per launch at full rate on any GPU

// Read-only streaming, two ways (the ceiling is the faster; which one wins depends on the GPU):
// a grid that fills the GPU once walks the buffer with a grid stride, each thread issuing four
// independent 16-byte loads per iteration; or one thread per few 16-byte words, each block
// reading one contiguous tile, the grid as large as the buffer (the shape of split/vector-
// loads-block-compaction and reduce/v5-vectorized-one-pass). The words are folded into one value,
// stored only when it equals a key chosen at run time, so no load is dead code. Indices are checked
// against `count`: any size is in bounds.
__global__ void ceiling_read_kernel(const uint4* __restrict__ in, size_t count, unsigned int* out,
                                    unsigned int key) {
    const size_t stride = size_t(gridDim.x) * blockDim.x;
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    unsigned int acc = 0;
    for (; i + 3 * stride < count; i += 4 * stride) {
        const uint4 a = in[i];
        const uint4 b = in[i + stride];
        const uint4 c = in[i + 2 * stride];
        const uint4 d = in[i + 3 * stride];
        acc += (a.x ^ a.y ^ a.z ^ a.w) + (b.x ^ b.y ^ b.z ^ b.w) + (c.x ^ c.y ^ c.z ^ c.w) +
               (d.x ^ d.y ^ d.z ^ d.w);
    }
    for (; i < count; i += stride) {
        const uint4 a = in[i];
        acc += a.x ^ a.y ^ a.z ^ a.w;
    }
    if (acc == key) out[0] = acc;
}

template <int kLoads>
__global__ void ceiling_read_tiles_kernel(const uint4* __restrict__ in, size_t count,
                                          unsigned int* out, unsigned int key) {
    const size_t first = size_t(blockIdx.x) * blockDim.x * kLoads + threadIdx.x;
    uint4 v[kLoads];
#pragma unroll
    for (int j = 0; j < kLoads; ++j) {  // every load issued before any is used
        const size_t i = first + size_t(j) * blockDim.x;
        v[j] = i < count ? in[i] : make_uint4(0, 0, 0, 0);
    }
    unsigned int acc = 0;
#pragma unroll
    for (int j = 0; j < kLoads; ++j) acc += v[j].x ^ v[j].y ^ v[j].z ^ v[j].w;
    if (acc == key) out[0] = acc;
}

// FP32 peak: each thread runs eight independent FMA chains (a few warps per scheduler then
// hide the FMA latency) in a loop unrolled so that nearly every issued instruction is an FMA.
// Multiplier, addend and trip count are arguments and the sum is stored when it equals a run-
// time key, so the compiler can neither fold nor drop the work. 2 flops per FMA.
__global__ void ceiling_fma_kernel(float* out, float mul, float add, int iterations, float key) {
    float a[kFmaChains];
#pragma unroll
    for (int c = 0; c < kFmaChains; ++c) a[c] = float(threadIdx.x + c);
#pragma unroll 16
    for (int it = 0; it < iterations; ++it) {
#pragma unroll
        for (int c = 0; c < kFmaChains; ++c) a[c] = fmaf(a[c], mul, add);
    }
    float sum = 0;
#pragma unroll
    for (int c = 0; c < kFmaChains; ++c) sum += a[c];
    if (sum == key) out[0] = sum;
}

// The block-launch floor: blocks that do nothing, so their time is starting and retiring them.
__global__ void ceiling_empty_kernel() {}

// Median milliseconds of `reps` timed runs of `enqueue` on `stream`, after `warmups`; with
// `fastest`, the fastest run (a bound the GPU reached, for the read ceiling that the best
// kernels of the lessons are compared with). Each run is held until queued (StreamHold), as
// the steps' are, so a ceiling and a step are timed alike; `hold` false for a copy the host
// may wait on (a peer copy staged through the host).
template <typename Enqueue>
double MedianMs(cudaStream_t stream, int warmups, int reps, Enqueue enqueue, bool fastest = false,
                bool hold = true) {
    Event start, stop;
    for (int w = 0; w < warmups; ++w) enqueue();
    std::vector<double> samples;
    for (int r = 0; r < reps; ++r) {
        std::optional<StreamHold> held;
        if (hold) held.emplace(stream);
        start.Record(stream);
        enqueue();
        stop.Record(stream);
        if (held) held->Release();
        samples.push_back(ElapsedMs(start, stop));
    }
    std::sort(samples.begin(), samples.end());
    return fastest ? samples.front() : samples[samples.size() / 2];
}

double Rate(double units, double ms) {
    return ms > 0 ? units / (ms * 1e6) : 0;  // units per ns = G units per s
}

// Blocks of kBlock threads that fill every SM of the current device once.
int FullGrid(const void* kernel, const DeviceInfo& device) {
    int per_sm = 0;
    LESSONS_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kBlock, 0));
    return std::max(1, per_sm) * std::max(1, device.sm_count);
}

struct MemoryRates {
    double read_gbps = 0, copy_gbps = 0;
};

// The read ceiling (the fastest run of the fastest of five kernels: a bound this GPU reached,
// not a typical time) and the device copy (as cudaMemcpy does it: bytes read + bytes written),
// over all of `src` (initialised) into `dst` (as large).
MemoryRates ReadAndCopy(const DeviceInfo& device, const DeviceBuffer<uint4>& src,
                        const DeviceBuffer<uint4>& dst, const DeviceBuffer<unsigned int>& sink,
                        cudaStream_t s) {
    MemoryRates out;
    const size_t bytes = src.bytes();
    auto fastest = [&](auto enqueue) { return MedianMs(s, 2, 9, enqueue, true); };
    const int read_grid = FullGrid(reinterpret_cast<const void*>(ceiling_read_kernel), device);
    double best_read_ms = fastest([&] {
        ceiling_read_kernel<<<read_grid, kBlock, 0, s>>>(src.get(), src.size(), sink.get(), 1u);
        LESSONS_CUDA_CHECK_LAUNCH("ceiling_read_kernel");
    });
    const size_t words = src.size();
    for (const int block : {256, 512}) {
        const unsigned tiles2 = static_cast<unsigned>((words + 2 * block - 1) / (2 * block));
        const unsigned tiles4 = static_cast<unsigned>((words + 4 * block - 1) / (4 * block));
        best_read_ms = std::min(best_read_ms, fastest([&] {
                                    ceiling_read_tiles_kernel<2>
                                        <<<tiles2, block, 0, s>>>(src.get(), words, sink.get(), 1u);
                                    LESSONS_CUDA_CHECK_LAUNCH("ceiling_read_tiles_kernel<2>");
                                }));
        best_read_ms = std::min(best_read_ms, fastest([&] {
                                    ceiling_read_tiles_kernel<4>
                                        <<<tiles4, block, 0, s>>>(src.get(), words, sink.get(), 1u);
                                    LESSONS_CUDA_CHECK_LAUNCH("ceiling_read_tiles_kernel<4>");
                                }));
    }
    out.read_gbps = Rate(double(bytes), best_read_ms);
    const double copy_ms = MedianMs(s, 3, 10, [&] {
        LESSONS_CUDA_CHECK(
            cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, s));
    });
    out.copy_gbps = Rate(2.0 * double(bytes), copy_ms);
    return out;
}

// Copy from this device (current) to device `to`: direct over NVLink or PCIe where peer access
// is allowed (and enabled here), otherwise cudaMemcpyPeerAsync stages it through the host.
// Bytes copied / time. Up to 256 MiB, as device `to` has room.
double MeasurePeer(const DeviceInfo& from, const DeviceInfo& to, const char* src, size_t bytes,
                   cudaStream_t stream) {
    bool direct = from.peer_access.size() > size_t(to.ordinal) && from.peer_access[to.ordinal];
    if (direct) {
        // Already enabled is fine; any other refusal (too many peers, ...) leaves the staged copy.
        const cudaError_t err = cudaDeviceEnablePeerAccess(to.ordinal, 0);
        if (err != cudaSuccess) cudaGetLastError();
        direct = err == cudaSuccess || err == cudaErrorPeerAccessAlreadyEnabled;
    }
    DeviceBuffer<char> dst;
    {
        ScopedDevice on_to(to.ordinal);
        size_t free_bytes = 0, total_bytes = 0;
        LESSONS_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
        while (bytes > 16 * kMiB && bytes + 256 * kMiB > free_bytes) bytes /= 2;
        dst = DeviceBuffer<char>(bytes, "the peer-copy ceiling");
    }
    const double ms = MedianMs(
        stream, 1, direct ? 5 : 3,
        [&] {
            LESSONS_CUDA_CHECK(
                cudaMemcpyPeerAsync(dst.get(), to.ordinal, src, from.ordinal, bytes, stream));
        },
        false, direct);
    return Rate(double(bytes), ms);
}

}  // namespace

Ceilings MeasureCeilings(const DeviceList& list, int ordinal) {
    const DeviceInfo& device = list.devices.at(ordinal);
    Ceilings c = DatasheetCeilings(device);
    c.peer_gbps.assign(list.devices.size(), 0.0);

    ScopedDevice on(ordinal);  // declared first: everything below is freed on this device
    size_t free_bytes = 0, total_bytes = 0;
    LESSONS_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    // 1 GiB each for source and destination where memory allows, never less than 64 MiB.
    size_t bytes = size_t(1) << 30;
    while (bytes > 64 * kMiB && 2 * bytes + 256 * kMiB > free_bytes) bytes /= 2;
    DeviceBuffer<uint4> src(bytes / sizeof(uint4), "the bandwidth ceilings");
    DeviceBuffer<uint4> dst(bytes / sizeof(uint4), "the bandwidth ceilings");
    DeviceBuffer<unsigned int> sink(1, "the ceilings' result word");
    Stream stream;
    const cudaStream_t s = stream.get();
    // Written once, so every later read (the kernel, the copies) sees initialised memory.
    LESSONS_CUDA_CHECK(cudaMemsetAsync(src.get(), 0x5a, bytes, s));

    const MemoryRates rates = ReadAndCopy(device, src, dst, sink, s);
    c.read_gbps = rates.read_gbps;
    c.copy_gbps = rates.copy_gbps;
    c.memory_bytes = bytes;

    const int fma_grid = FullGrid(reinterpret_cast<const void*>(ceiling_fma_kernel), device);
    const double fma_ms = MedianMs(s, 2, 7, [&] {
        ceiling_fma_kernel<<<fma_grid, kBlock, 0, s>>>(reinterpret_cast<float*>(sink.get()),
                                                       0.9999f, 0.001f, kFmaIterations, -1.0f);
        LESSONS_CUDA_CHECK_LAUNCH("ceiling_fma_kernel");
    });
    const double flops = 2.0 * kFmaChains * double(kFmaIterations) * fma_grid * kBlock;
    c.fp32_gflops = Rate(flops, fma_ms);

    // The block-launch floor, at the block sizes chapter 2 sweeps from and to.
    for (const int block : {32, 256}) {
        const double empty_ms = MedianMs(s, 2, 9, [&] {
            ceiling_empty_kernel<<<kFloorBlocks, block, 0, s>>>();
            LESSONS_CUDA_CHECK_LAUNCH("ceiling_empty_kernel");
        });
        (block == 32 ? c.block_floor_ns : c.block_floor_256_ns) = empty_ms * 1e6 / kFloorBlocks;
    }

    // Pinned host memory each way, up to 256 MiB (a transfer's ~10 us start-up is then under
    // 0.1%): device to host first, so the host buffer is initialised before it is sent back.
    // The fastest of 7: a ceiling is what the link can give, and one H100 process measured a
    // median of 24 GB/s host-to-device (54-55 in every other) while its runs then moved 54.
    // Without enough page-locked memory these two stay 0.
    size_t host_bytes = std::min(bytes, 256 * kMiB);
    while (host_bytes > 16 * kMiB && 4 * host_bytes > HostAvailableMemory()) host_bytes /= 2;
    try {
        PinnedBuffer<char> host(host_bytes, "the PCIe ceilings");
        // The fastest of seven copies of host_bytes, after two warm-ups.
        auto copy_ms = [&](void* to, const void* from, cudaMemcpyKind kind) {
            return MedianMs(
                s, 2, 7,
                [&] { LESSONS_CUDA_CHECK(cudaMemcpyAsync(to, from, host_bytes, kind, s)); }, true);
        };
        const double d2h_ms = copy_ms(host.get(), src.get(), cudaMemcpyDeviceToHost);
        const double h2d_ms = copy_ms(dst.get(), host.get(), cudaMemcpyHostToDevice);
        c.d2h_gbps = Rate(double(host_bytes), d2h_ms);
        c.h2d_gbps = Rate(double(host_bytes), h2d_ms);
    } catch (const UsageError&) {
        // not enough page-locked memory: unknown
    }

    for (const DeviceInfo& to : list.devices) {
        if (to.ordinal == ordinal) continue;
        try {
            c.peer_gbps[to.ordinal] =
                MeasurePeer(device, to, reinterpret_cast<const char*>(src.get()),
                            std::min(bytes, 256 * kMiB), s);
        } catch (const UsageError&) {
            // device `to` has no room for the destination: unknown
        }
    }
    stream.Synchronize();
    return c;
}

MemoryCeilingsAt MeasureMemoryCeilings(const DeviceList& list, int ordinal, uint64_t bytes) {
    const DeviceInfo& device = list.devices.at(ordinal);
    ScopedDevice on(ordinal);  // declared first: everything below is freed on this device
    bytes = std::max<uint64_t>(bytes / sizeof(uint4) * sizeof(uint4), sizeof(uint4));
    DeviceBuffer<uint4> src(bytes / sizeof(uint4), "the bandwidth ceilings at a step's size");
    DeviceBuffer<uint4> dst(bytes / sizeof(uint4), "the bandwidth ceilings at a step's size");
    DeviceBuffer<unsigned int> sink(1, "the ceilings' result word");
    Stream stream;
    LESSONS_CUDA_CHECK(cudaMemsetAsync(src.get(), 0x5a, bytes, stream.get()));
    const MemoryRates rates = ReadAndCopy(device, src, dst, sink, stream.get());
    stream.Synchronize();
    MemoryCeilingsAt out;
    out.read_gbps = rates.read_gbps;
    out.copy_gbps = rates.copy_gbps;
    out.bytes = bytes;
    return out;
}

}  // namespace lessons::cuda
