// Chapter 9's thread block clusters (sm_90), shared by lessons 9.7 (softmax, cluster.cu) and 9.8
// (RMSNorm, rmsnorm.cu): C blocks (1 to 16) share a row, each keeping its part of the row in its
// shared memory, and each block pushes its part's reduction (a value) into the others' shared
// memory. Device side: mbarriers, the bulk copy (TMA) and st.async in PTX, a block's part loaded,
// a block's value exchanged with the cluster. Host side: the permissions and the shared memory a
// part may have, the automatic number of blocks, how many clusters fit, the launch.
#pragma once

#include <algorithm>
#include <initializer_list>

#include "softmax_gpu.cuh"

namespace lessons::softmax {

// ---- sm_90's asynchronous copies and barriers, in PTX ----
// An mbarrier (a 64-bit word in shared memory) completes its phase when its expected arrivals
// have arrived and the bytes announced with them (expect-tx) have landed; a waiter spins on the
// phase's parity. Addresses are 32-bit shared-memory addresses (this block's, or another block's
// of the cluster through mapa).
__device__ __forceinline__ unsigned SharedAddress(const void* p) {
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void BarrierInit(unsigned bar, unsigned arrivals) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(arrivals) : "memory");
}
// One arrival that also announces `bytes` still to land.
__device__ __forceinline__ void BarrierArriveExpect(unsigned bar, unsigned bytes) {
    asm volatile(
        "{ .reg .b64 state; mbarrier.arrive.expect_tx.shared::cta.b64 state, [%0], %1; }" ::"r"(
            bar),
        "r"(bytes)
        : "memory");
}
// Waits for phase 0 (each barrier here completes once); acquire at cluster scope: another
// block's st.async into this block's shared memory is visible after it.
__device__ __forceinline__ void BarrierWait(unsigned bar) {
    unsigned done = 0;
    while (!done)
        asm volatile(
            "{ .reg .pred p; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], 0; "
            "selp.u32 %0, 1, 0, p; }"
            : "=r"(done)
            : "r"(bar)
            : "memory");
}
// `bytes` (a multiple of 16) from global `src` (16-byte aligned) into shared `dst`, counted on
// `bar` as they land.
__device__ __forceinline__ void BulkLoad(unsigned dst, const void* src, unsigned bytes,
                                         unsigned bar) {
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::
            "r"(dst),
        "l"(src), "r"(bytes), "r"(bar)
        : "memory");
}
// This block's shared address `addr` as block `rank` of the cluster sees its own.
__device__ __forceinline__ unsigned InBlock(unsigned addr, unsigned rank) {
    unsigned out;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(out) : "r"(addr), "r"(rank));
    return out;
}
// A value into another block's `slot`, its bytes counted on that block's barrier `bar`: a float
// (RMSNorm's sum of squares), or a (max, sum) pair (softmax).
__device__ __forceinline__ void PushAsync(unsigned slot, float v, unsigned bar) {
    asm volatile(
        "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];" ::"r"(slot),
        "r"(__float_as_uint(v)), "r"(bar)
        : "memory");
}
__device__ __forceinline__ void PushAsync(unsigned slot, MaxSum p, unsigned bar) {
    asm volatile(
        "st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.f32 [%0], {%1, %2}, [%3];" ::"r"(
            slot),
        "f"(p.max), "f"(p.sum), "r"(bar)
        : "memory");
}

// ---- A block's part of the row, and its value for the cluster ----
// Block `rank` of a cluster of C (gridDim.x = m × C) takes chunks [rank × part, + part) of its
// row (`part` chunks of 16 bytes; dynamic shared memory of part × 16 bytes). Each block sends
// one Value (a float, or a MaxSum) to each of the others, into their `slots[its rank]`.
//
// The order that keeps it safe:
//  - thread 0 initialises the load barrier (1 arrival, expect-tx = the part's bytes) and the
//    values' barrier (1 arrival, expect-tx = (C - 1) values), makes the inits visible to the
//    cluster (fence.mbarrier_init), then issues the bulk copies (pieces of 32 KiB);
//  - __syncthreads: no thread waits on a barrier before it is initialised (a thread would see
//    the previous block's barrier in the same shared memory, already complete, and read the part
//    before it landed);
//  - each thread arrives at the cluster barrier (relaxed: it orders nothing else) at once and
//    waits on it only before pushing: no block pushes into a barrier not yet initialised, and
//    the wait is hidden behind the load and the block's own reduction;
//  - a block pushes its value only to the others (its own stays in registers) and leaves only
//    after its own barrier has received C - 1 values: nothing is written into its shared memory
//    after that, and the values it sent land in blocks still waiting for them. No final cluster
//    barrier.
struct ClusterPart {
    unsigned rank, blocks;  // this block's place in the cluster, and the cluster's blocks
    long long row;          // the cluster's row
    int first, count;       // this block's chunks of the row: [first, first + count)
    bool aligned;           // n a multiple of the chunk (16-byte rows)
    unsigned received;      // the barrier the other blocks' values complete
};

// Loads this block's part of its row of x into `chunk` (every thread of the block calls it; on
// return the part is there): one bulk copy for 16-byte rows, else each thread loads the chunks it
// alone reads later (j = threadIdx.x, + blockDim.x, ...), `pad` past the row's end. `barriers`:
// two in the block's shared memory, the part's and the values'.
template <typename Value, typename T>
__device__ __forceinline__ ClusterPart LoadPart(uint4* chunk, const T* x, int n, int part, T pad,
                                                unsigned long long* barriers) {
    constexpr int V = ChunkCount<T>();
    ClusterPart p;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(p.rank));
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(p.blocks));
    p.row = blockIdx.x / p.blocks;
    const int chunks = (n + V - 1) / V;
    p.first = min(static_cast<int>(p.rank) * part, chunks);
    p.count = min(p.first + part, chunks) - p.first;
    p.aligned = n % V == 0;
    const bool bulk = p.aligned && p.count > 0;  // 16-byte rows: the part is one bulk copy
    const T* r = x + static_cast<size_t>(p.row) * n;
    const unsigned loaded = SharedAddress(&barriers[0]);
    p.received = SharedAddress(&barriers[1]);
    if (threadIdx.x == 0) {
        if (p.blocks > 1) {
            BarrierInit(p.received, 1);
            BarrierArriveExpect(p.received, (p.blocks - 1) * static_cast<unsigned>(sizeof(Value)));
        }
        if (bulk) BarrierInit(loaded, 1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        if (bulk) {
            const unsigned bytes = static_cast<unsigned>(p.count) * 16u;
            BarrierArriveExpect(loaded, bytes);
            constexpr unsigned kPiece = 32768;
            const char* from = reinterpret_cast<const char*>(r) + static_cast<size_t>(p.first) * 16;
            for (unsigned at = 0; at < bytes; at += kPiece)
                BulkLoad(SharedAddress(chunk) + at, from + at, min(kPiece, bytes - at), loaded);
        }
    }
    if (!p.aligned)  // no bulk copy: each thread loads the chunks it alone reads
        for (int j = threadIdx.x; j < p.count; j += blockDim.x)
            chunk[j] = LoadRaw(r, p.first + j, n, false, pad);
    __syncthreads();  // the barriers are initialised before any thread of the block waits on them
    if (p.blocks > 1) asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
    if (bulk) BarrierWait(loaded);
    return p;
}

// Sends the block's value `own` into every other block's slots[this rank] and waits for theirs
// (every thread of the block calls it, with the same `own`; only where the cluster has more than
// one block). After it, slots[b] holds block b's value for every b but this block's.
template <typename Value>
__device__ __forceinline__ void ExchangeValues(Value* slots, Value own, const ClusterPart& p) {
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");  // all barriers initialised
    const int lane = threadIdx.x % 32;
    if (threadIdx.x < 32 && lane < static_cast<int>(p.blocks) && lane != static_cast<int>(p.rank))
        PushAsync(InBlock(SharedAddress(&slots[p.rank]), lane), own, InBlock(p.received, lane));
    BarrierWait(p.received);  // the other C - 1 values are here
}

// ---- host side ----

// The automatic choice's aim: at most 32 KiB of the row a block (the fewest blocks, a power of
// two, that leave each that much). The most blocks a cluster: 8 is the portable size; sm_90
// allows 16 where the kernel says it accepts more.
constexpr long long kClusterAimPartBytes = 32 * 1024;
constexpr int kClusterMaxBlocks = 16;
// What a cluster kernel's own shared arrays (scratch, slots, barriers) are counted as, at least:
// the CPU mirror's figure (softmax_chapter.h), so that both find the same limit.
constexpr long long kClusterOwnBytes = 512;

// The shared memory a block of `kernels` may have for its part (the most a block may opt in to,
// less the kernel's own arrays), after giving each kernel the permissions it needs (clusters of
// 16 blocks, dynamic shared memory above 48 KiB); 0 before sm_90 or when the GPU refuses. Call it
// once per process (a function-local static).
inline long long AllowClusterParts(std::initializer_list<const void*> kernels) {
    int device = 0, major = 0, optin = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) !=
            cudaSuccess ||
        major < 9) {
        cudaGetLastError();
        return 0;
    }
    long long most = optin;
    for (const void* f : kernels) {
        cudaFuncAttributes a{};
        if (cudaFuncGetAttributes(&a, f) != cudaSuccess) {
            cudaGetLastError();
            return 0;
        }
        most = std::min(most,
                        static_cast<long long>(optin) -
                            std::max(static_cast<long long>(a.sharedSizeBytes), kClusterOwnBytes));
    }
    for (const void* f : kernels)
        if (cudaFuncSetAttribute(f, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) !=
                cudaSuccess ||
            cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(most)) != cudaSuccess) {
            cudaGetLastError();
            return 0;
        }
    return most;
}

// The launch attributes of clusters of `c` blocks in x.
struct ClusterLaunch {
    cudaLaunchConfig_t config = {};
    cudaLaunchAttribute attribute[1];  // config points at it: never copied
    ClusterLaunch(const ClusterLaunch&) = delete;
    ClusterLaunch(unsigned grid, int block, int c, size_t smem, cudaStream_t s) {
        config.gridDim = dim3(grid);
        config.blockDim = dim3(static_cast<unsigned>(block));
        config.dynamicSmemBytes = smem;
        config.stream = s;
        attribute[0].id = cudaLaunchAttributeClusterDimension;
        attribute[0].val.clusterDim.x = static_cast<unsigned>(c);
        attribute[0].val.clusterDim.y = 1;
        attribute[0].val.clusterDim.z = 1;
        config.attrs = attribute;
        config.numAttrs = 1;
    }
};

// How many clusters of `c` blocks of `block` threads with `smem` bytes each the GPU holds at once
// (0: none fits), asked once per kernel and launch shape.
inline int ResidentClusters(const void* kernel, int block, int c, size_t smem) {
    static std::mutex mutex;
    static std::map<std::tuple<const void*, int, int, size_t>, int> known;
    const std::lock_guard<std::mutex> lock(mutex);
    const auto key = std::make_tuple(kernel, block, c, smem);
    if (auto it = known.find(key); it != known.end()) return it->second;
    ClusterLaunch launch(static_cast<unsigned>(c), block, c, smem, nullptr);
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, kernel, &launch.config) != cudaSuccess) {
        cudaGetLastError();
        clusters = 0;
    }
    known[key] = clusters;
    return clusters;
}

// A row of `chunks` chunks on clusters of `kernel`: C blocks as asked (`asked`), or, for 0, the
// fewest (a power of two, up to 16) that leave each block at most 32 KiB of the row, else 16.
// A block keeps its part (ceil(chunks / C) chunks of 16 bytes) in shared memory: the part must
// fit the shared memory a block may have (`limit`, AllowClusterParts; 0 before sm_90), with room
// for `block` threads and one cluster at least. blocks 0: no cluster fits.
struct ClusterShape {
    int blocks = 0;
    int part = 0;  // chunks a block
};
inline ClusterShape ClusterShapeFor(const void* kernel, long long limit, long long chunks,
                                    int block, int asked) {
    const auto part_of = [&](long long c) { return (chunks + c - 1) / c; };
    long long c = asked;
    if (c <= 0) {
        c = 1;
        while (c < kClusterMaxBlocks && part_of(c) * 16 > kClusterAimPartBytes) c *= 2;
    }
    const long long smem = part_of(c) * 16;
    if (c > kClusterMaxBlocks || smem > limit || FactsOf(kernel, block).max_threads < block ||
        ResidentClusters(kernel, block, static_cast<int>(c), static_cast<size_t>(smem)) == 0)
        return {};
    return {static_cast<int>(c), static_cast<int>(part_of(c))};
}

// Launches `kernel` on m rows of clusters as `shape` says, `args` its arguments.
inline cudaError_t LaunchClusters(const void* kernel, long long m, ClusterShape shape, int block,
                                  cudaStream_t s, void** args) {
    ClusterLaunch launch(static_cast<unsigned>(m * shape.blocks), block, shape.blocks,
                         static_cast<size_t>(shape.part) * 16, s);
    return cudaLaunchKernelExC(&launch.config, kernel, args);
}

}  // namespace lessons::softmax
