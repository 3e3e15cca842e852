// Long rows across a cluster of blocks (sm_90): a row of 64K elements and more is more than one
// block can keep, so C blocks (1 to 16, a thread block cluster) share it, each keeping its part of
// the row in its shared memory. One bulk copy (TMA: cp.async.bulk, completing on an mbarrier)
// brings a block's part in while its threads do nothing but wait (rows whose length is not a
// multiple of 16 bytes: the threads load the part themselves, each chunk by the thread that later
// reads it). Each block finds its part's (max, sum) pair, as the online softmax merges them, and
// pushes it into every other block's shared memory (st.async, distributed shared memory: a store
// into another block's shared memory that completes on that block's mbarrier); a block waits only
// for the C - 1 pairs it receives, merges them with its own into the row's, and writes its part.
// One read and one write per element, at any row length up to C blocks' shared memory. The
// registers hold no part of the row (about 40 a thread), so several blocks share an SM and one's
// loads overlap another's exponentials and stores. Each exponential is computed once: a thread's
// pair is the max of its values (comparisons only) and the sum of exp(x - that max), each
// exponential stored in place of its value (rounded to T); once the row's pair (M, S) is known,
// every value a thread holds needs one multiply by exp(its max - M) / S. Pairs are merged max
// first: the largest max, then each sum rescaled to it by one exponential. A longer row, or a GPU
// before sm_90, takes a split over two kernels: the first writes each part's (max, sum) pair, the
// second merges a row's pairs and writes the part: two reads.
#include <algorithm>

#include "softmax_gpu.cuh"

namespace lessons::softmax {

// exp(v) for v <= 0 (or -inf) on the special-function unit: one FMUL by log2(e) and one
// ex2.approx.ftz (MUFU.EX2). FastExp (__expf: ex2.approx.f32 without .ftz) adds a compare and
// two multiplies to keep results below 2^-126, which the check's absolute 2^-100 does not need.
// (The same as vectorized.cu's: that kernel, an exercise's solution, is compiled with the
// exercises' prelude alone, so it keeps its helper beside it.)
__device__ __forceinline__ float SfuExp(float v) {
    float e;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(v * 1.4426950408889634f));
    return e;
}

// The pairs of a warp's 32 lanes as one, every lane gets it: the largest max first (shuffles),
// then each lane's sum rescaled to it by one exponential, then the sums added (shuffles). Merging
// pair by pair (Merge) would take two exponentials at each of the 5 steps.
__device__ __forceinline__ MaxSum WarpPair(MaxSum p) {
    const float max = WarpMax(p.max);
    return {max, WarpSum(p.max == -Infinity() ? 0.0f : p.sum * SfuExp(p.max - max))};
}

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
// The pair into another block's `slot`, its 8 bytes counted on that block's barrier `bar`.
__device__ __forceinline__ void PushPair(unsigned slot, MaxSum p, unsigned bar) {
    asm volatile(
        "st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.f32 [%0], {%1, %2}, [%3];" ::"r"(
            slot),
        "f"(p.max), "f"(p.sum), "r"(bar)
        : "memory");
}

// Block `rank` of a cluster of C (gridDim.x = m × C) takes chunks [rank × part, + part) of its
// row (`part` chunks of 16 bytes; dynamic shared memory of part × 16 bytes).
//
// The order that keeps it safe:
//  - thread 0 initialises the load barrier (1 arrival, expect-tx = the part's bytes) and the pair
//    barrier (1 arrival, expect-tx = (C - 1) × 8 bytes), makes the inits visible to the cluster
//    (fence.mbarrier_init), then issues the bulk copies (pieces of 32 KiB);
//  - __syncthreads: no thread waits on a barrier before it is initialised (a thread would see
//    the previous block's barrier in the same shared memory, already complete, and read the part
//    before it landed);
//  - each thread arrives at the cluster barrier (relaxed: it orders nothing else) at once and
//    waits on it only before pushing: no block pushes into a barrier not yet initialised, and
//    the wait is hidden behind the load and the exponentials;
//  - a block pushes its pair only to the others (its own stays in registers) and leaves only
//    after its own barrier has received C - 1 pairs: nothing is written into its shared memory
//    after that, and the pairs it sent land in blocks still waiting for them. No final cluster
//    barrier.
template <typename T>
__global__ void softmax_cluster_kernel(const T* __restrict__ x, T* __restrict__ y, int m, int n,
                                       int part) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    constexpr int V = ChunkCount<T>();
    extern __shared__ __align__(128) uint4 chunk[];  // this block's part of the row
    __shared__ float scratch_max[32], scratch_sum[32];
    __shared__ __align__(8) MaxSum slots[16];                // the other blocks' pairs, by rank
    __shared__ __align__(8) unsigned long long barriers[2];  // the part, the pairs
    unsigned rank, blocks;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(blocks));
    const long long row = blockIdx.x / blocks;
    // This block's chunks of the row: [first, first + count); part is in chunks.
    const int chunks = (n + V - 1) / V;
    const int first = min(static_cast<int>(rank) * part, chunks);
    const int count = min(first + part, chunks) - first;
    const bool aligned = n % V == 0;  // 16-byte rows: the part is one bulk copy
    const bool bulk = aligned && count > 0;
    const T* r = x + static_cast<size_t>(row) * n;
    T* o = y + static_cast<size_t>(row) * n;
    const unsigned loaded = SharedAddress(&barriers[0]), received = SharedAddress(&barriers[1]);
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, warps = blockDim.x / 32;
    if (tid == 0) {
        if (blocks > 1) {
            BarrierInit(received, 1);
            BarrierArriveExpect(received, (blocks - 1) * static_cast<unsigned>(sizeof(MaxSum)));
        }
        if (bulk) BarrierInit(loaded, 1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        if (bulk) {
            const unsigned bytes = static_cast<unsigned>(count) * 16u;
            BarrierArriveExpect(loaded, bytes);
            constexpr unsigned kPiece = 32768;
            const char* from = reinterpret_cast<const char*>(r) + static_cast<size_t>(first) * 16;
            for (unsigned at = 0; at < bytes; at += kPiece)
                BulkLoad(SharedAddress(chunk) + at, from + at, min(kPiece, bytes - at), loaded);
        }
    }
    if (!aligned)  // no bulk copy: each thread loads the chunks it alone reads
        for (int j = tid; j < count; j += blockDim.x)
            chunk[j] = LoadRaw(r, first + j, n, false, NegativeInfinity<T>());
    __syncthreads();  // the barriers are initialised before any thread of the block waits on them
    if (blocks > 1) asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
    if (bulk) BarrierWait(loaded);
    // This thread's pair: its max (comparisons only), and the sum of exp(x - that max), each
    // exponential stored in place of its value for the output (sum 0 when it holds nothing).
    float max = -Infinity();
#pragma unroll 2
    for (int j = tid; j < count; j += blockDim.x) max = fmaxf(max, ChunkMax<T>(chunk[j]));
    const float base = max == -Infinity() ? 0.0f : max;
    float sum[2] = {0.0f, 0.0f};  // two chains of adds, not one
#pragma unroll 2
    for (int j = tid; j < count; j += blockDim.x) {
        const uint4 v = chunk[j];
        float e[V];
#pragma unroll
        for (int i = 0; i < V; ++i) {
            e[i] = SfuExp(Element<T>(v, i) - base);
            sum[i % 2] += e[i];
        }
        chunk[j] = PackRaw<T>(e);  // bf16: one rounding more, within the check's ulp
    }
    // The block's pair: the warps' pairs through shared memory, merged again by every warp (a few
    // shuffles, no second __syncthreads).
    MaxSum pair = WarpPair({max, sum[0] + sum[1]});
    if (lane == 0) {
        scratch_max[warp] = pair.max;
        scratch_sum[warp] = pair.sum;
    }
    __syncthreads();
    const MaxSum own = WarpPair(lane < warps ? MaxSum{scratch_max[lane], scratch_sum[lane]}
                                             : MaxSum{-Infinity(), 0.0f});
    pair = own;
    if (blocks > 1) {
        asm volatile("barrier.cluster.wait.aligned;" ::: "memory");  // all barriers initialised
        if (warp == 0 && lane < static_cast<int>(blocks) && lane != static_cast<int>(rank))
            PushPair(InBlock(SharedAddress(&slots[rank]), lane), own, InBlock(received, lane));
        BarrierWait(received);  // the other C - 1 pairs are here
        // The row's pair: each warp merges the C blocks' pairs, a lane a block.
        pair = lane == static_cast<int>(rank)    ? own
               : lane < static_cast<int>(blocks) ? slots[lane]
                                                 : MaxSum{-Infinity(), 0.0f};
        pair = WarpPair(pair);
    }
    // exp(x - M) / S = exp(x - max) · exp(max - M) / S: one factor for all of this thread's values.
    const float factor = max == -Infinity() ? 0.0f : SfuExp(max - pair.max) / pair.sum;
#pragma unroll 2
    for (int j = tid; j < count; j += blockDim.x) {
        const uint4 v = chunk[j];
        float out[V];
#pragma unroll
        for (int i = 0; i < V; ++i) out[i] = Element<T>(v, i) * factor;
        StoreRaw(o, first + j, n, aligned, PackRaw<T>(out));
    }
#else
    __trap();  // launched only on sm_90 and later (Launch checks)
#endif
}

// The split without clusters, first kernel: block p of row i writes its part's (max, sum) pair.
template <typename T>
__global__ void softmax_cluster_split_pairs_kernel(const T* __restrict__ x,
                                                   MaxSum* __restrict__ pairs, int m, int n,
                                                   int part, int parts) {
    constexpr int V = ChunkCount<T>();
    __shared__ float scratch_max[32], scratch_sum[32];
    const long long row = blockIdx.x / parts;
    const int p = blockIdx.x % parts, begin = p * part;
    const int count = begin < n ? min(part, n - begin) : 0;
    const T* r = x + static_cast<size_t>(row) * n + begin;
    const bool aligned = n % V == 0;  // part is a multiple of V
    MaxSum pair{-Infinity(), 0.0f};
    float v[V];
    for (int c = threadIdx.x; c < (count + V - 1) / V; c += blockDim.x) {
        LoadChunk(r, c, count, aligned, v, -Infinity());
        float local = v[0];
#pragma unroll
        for (int i = 1; i < V; ++i) local = fmaxf(local, v[i]);
        const float max = fmaxf(pair.max, local);
        float sum = pair.sum * FastExp(pair.max - max);
#pragma unroll
        for (int i = 0; i < V; ++i) sum += SfuExp(v[i] - max);
        pair = {max, sum};
    }
    pair = WarpMerge(pair);
    const int warp = threadIdx.x / 32, l = threadIdx.x % 32, warps = blockDim.x / 32;
    if (l == 0) {
        scratch_max[warp] = pair.max;
        scratch_sum[warp] = pair.sum;
    }
    __syncthreads();
    if (warp == 0) {
        pair = l < warps ? MaxSum{scratch_max[l], scratch_sum[l]} : MaxSum{-Infinity(), 0.0f};
        pair = WarpMerge(pair);
        if (l == 0) pairs[row * parts + p] = pair;
    }
}

// Second kernel: block p of row i merges the row's pairs and writes its part.
template <typename T>
__global__ void softmax_cluster_split_write_kernel(const T* __restrict__ x, T* __restrict__ y,
                                                   const MaxSum* __restrict__ pairs, int m, int n,
                                                   int part, int parts) {
    constexpr int V = ChunkCount<T>();
    __shared__ float scratch_max[32], scratch_sum[32];
    const long long row = blockIdx.x / parts;
    const int p = blockIdx.x % parts, begin = p * part;
    const int count = begin < n ? min(part, n - begin) : 0;
    MaxSum pair{-Infinity(), 0.0f};
    for (int q = threadIdx.x; q < parts; q += blockDim.x)
        pair = Merge(pair, pairs[row * parts + q]);
    pair = WarpMerge(pair);
    const int warp = threadIdx.x / 32, l = threadIdx.x % 32, warps = blockDim.x / 32;
    if (l == 0) {
        scratch_max[warp] = pair.max;
        scratch_sum[warp] = pair.sum;
    }
    __syncthreads();
    pair = l < warps ? MaxSum{scratch_max[l], scratch_sum[l]} : MaxSum{-Infinity(), 0.0f};
    pair = WarpMerge(pair);
    const float inv = 1.0f / pair.sum;
    const T* r = x + static_cast<size_t>(row) * n + begin;
    T* o = y + static_cast<size_t>(row) * n + begin;
    const bool aligned = n % V == 0;
    float v[V];
    for (int c = threadIdx.x; c < (count + V - 1) / V; c += blockDim.x) {
        LoadChunk(r, c, count, aligned, v, -Infinity());
#pragma unroll
        for (int i = 0; i < V; ++i) v[i] = SfuExp(v[i] - pair.max) * inv;
        StoreChunk(o, c, count, aligned, v);
    }
}

namespace {

// The automatic choice's aim: at most 32 KiB of the row a block (the fewest blocks, a power of
// two, that leave each that much). The most blocks a cluster: 8 is the portable size; sm_90
// allows 16 where the kernel says it accepts more.
constexpr long long kAimPartBytes = 32 * 1024;
constexpr int kMaxCluster = 16;
// The split's part: 16K elements a block.
constexpr int kSplitPart = 16384;

const void* ClusterKernel(bool bf16) {
    return bf16 ? reinterpret_cast<const void*>(&softmax_cluster_kernel<__nv_bfloat16>)
                : reinterpret_cast<const void*>(&softmax_cluster_kernel<float>);
}

// Shared memory a block may have beyond the kernel's own arrays, and the permissions the cluster
// kernels need (clusters of 16 blocks, dynamic shared memory above 48 KiB), given once per
// process; 0 before sm_90 or when the GPU refuses.
long long PartLimit() {
    static std::once_flag once;
    static long long limit = 0;
    std::call_once(once, [] {
        int device = 0, major = 0, optin = 0;
        if (cudaGetDevice(&device) != cudaSuccess ||
            cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) !=
                cudaSuccess ||
            cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) !=
                cudaSuccess ||
            major < 9) {
            cudaGetLastError();
            return;
        }
        long long most = optin;
        for (const bool bf16 : {false, true}) {
            const void* f = ClusterKernel(bf16);
            cudaFuncAttributes a{};
            if (cudaFuncGetAttributes(&a, f) != cudaSuccess) {
                cudaGetLastError();
                return;
            }
            most = std::min(
                most, static_cast<long long>(optin) - static_cast<long long>(a.sharedSizeBytes));
        }
        for (const bool bf16 : {false, true}) {
            const void* f = ClusterKernel(bf16);
            if (cudaFuncSetAttribute(f, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) !=
                    cudaSuccess ||
                cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(most)) != cudaSuccess) {
                cudaGetLastError();
                return;
            }
        }
        limit = most;
    });
    return limit;
}

struct Plan {
    bool cluster = false;
    int blocks_per_row = 1;
    int part = 0;  // chunks a block (the cluster); elements a block (the split)
};

// How many clusters of C blocks of `block` threads with `smem` bytes each the GPU holds at once
// (0: none fits), asked once per launch shape.
int ResidentClusters(bool bf16, int block, int c, size_t smem) {
    static std::mutex mutex;
    static std::map<std::tuple<bool, int, int, size_t>, int> known;
    const std::lock_guard<std::mutex> lock(mutex);
    const auto key = std::make_tuple(bf16, block, c, smem);
    if (auto it = known.find(key); it != known.end()) return it->second;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(static_cast<unsigned>(c));
    config.blockDim = dim3(static_cast<unsigned>(block));
    config.dynamicSmemBytes = smem;
    cudaLaunchAttribute attribute[1];
    attribute[0].id = cudaLaunchAttributeClusterDimension;
    attribute[0].val.clusterDim.x = static_cast<unsigned>(c);
    attribute[0].val.clusterDim.y = 1;
    attribute[0].val.clusterDim.z = 1;
    config.attrs = attribute;
    config.numAttrs = 1;
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, ClusterKernel(bf16), &config) != cudaSuccess) {
        cudaGetLastError();
        clusters = 0;
    }
    known[key] = clusters;
    return clusters;
}

// The cluster: C blocks a row as asked (`variant`), or, for 0, the fewest (a power of two, up to
// 16) that leave each block at most 32 KiB of the row, else 16. A block keeps its part
// (ceil(chunks / C) chunks of 16 bytes) in shared memory: the part must fit the shared memory a
// block may have, on sm_90, with room for `block` threads and one cluster at least; else the
// split.
template <typename T>
Plan PlanFor(int n, int block, int variant) {
    Plan p;
    constexpr bool bf16 = sizeof(T) == 2;
    const long long chunks = (static_cast<long long>(n) + ChunkCount<T>() - 1) / ChunkCount<T>();
    const auto part_of = [&](long long c) { return (chunks + c - 1) / c; };
    long long c = variant;
    if (c <= 0) {
        c = 1;
        while (c < kMaxCluster && part_of(c) * 16 > kAimPartBytes) c *= 2;
    }
    const long long limit = PartLimit();
    const long long smem = part_of(c) * 16;
    if (c <= kMaxCluster && smem <= limit &&
        FactsOf(ClusterKernel(bf16), block).max_threads >= block &&
        ResidentClusters(bf16, block, static_cast<int>(c), static_cast<size_t>(smem)) > 0) {
        p.cluster = true;
        p.blocks_per_row = static_cast<int>(c);
        p.part = static_cast<int>(part_of(c));
        return p;
    }
    p.part = kSplitPart;
    p.blocks_per_row = static_cast<int>((static_cast<long long>(n) + kSplitPart - 1) / kSplitPart);
    return p;
}

template <typename T>
const void* Pick(int n, int block, int variant) {
    return PlanFor<T>(n, block, variant).cluster
               ? ClusterKernel(sizeof(T) == 2)
               : reinterpret_cast<const void*>(&softmax_cluster_split_pairs_kernel<T>);
}

// The split's pairs: 8 bytes for each part of each row.
size_t Workspace(int m, int n) {
    return static_cast<size_t>(m) * ((static_cast<size_t>(n) + kSplitPart - 1) / kSplitPart) *
           sizeof(MaxSum);
}

template <typename T>
cudaError_t Launch(const void* x, void* y, const void* workspace, int m, int n, int block,
                   int variant, cudaStream_t s) {
    const Plan plan = PlanFor<T>(n, block, variant);
    const T* xt = static_cast<const T*>(x);
    T* yt = static_cast<T*>(y);
    const unsigned grid = static_cast<unsigned>(static_cast<long long>(m) * plan.blocks_per_row);
    if (plan.cluster) {
        cudaLaunchConfig_t config = {};
        config.gridDim = dim3(grid);
        config.blockDim = dim3(block);
        config.dynamicSmemBytes = static_cast<size_t>(plan.part) * 16;
        config.stream = s;
        cudaLaunchAttribute attribute[1];
        attribute[0].id = cudaLaunchAttributeClusterDimension;
        attribute[0].val.clusterDim.x = static_cast<unsigned>(plan.blocks_per_row);
        attribute[0].val.clusterDim.y = 1;
        attribute[0].val.clusterDim.z = 1;
        config.attrs = attribute;
        config.numAttrs = 1;
        int part = plan.part;
        void* args[] = {&xt, &yt, &m, &n, &part};
        return cudaLaunchKernelExC(&config, ClusterKernel(sizeof(T) == 2), args);
    }
    auto* pairs = static_cast<MaxSum*>(const_cast<void*>(workspace));
    softmax_cluster_split_pairs_kernel<T>
        <<<grid, block, 0, s>>>(xt, pairs, m, n, plan.part, plan.blocks_per_row);
    softmax_cluster_split_write_kernel<T>
        <<<grid, block, 0, s>>>(xt, yt, pairs, m, n, plan.part, plan.blocks_per_row);
    return cudaGetLastError();
}

}  // namespace

const SoftmaxKernel kSoftmaxCluster[] = {
    {"softmax_cluster_kernel", false, &Pick<float>, &Launch<float>, 0, &Workspace, "cluster"},
    {"softmax_cluster_kernel", true, &Pick<__nv_bfloat16>, &Launch<__nv_bfloat16>, 0, &Workspace,
     "cluster"},
};

LESSONS_KERNELS(kSoftmaxCluster);

}  // namespace lessons::softmax
