// Long rows across a cluster of blocks (sm_90): a row of 64K elements and more is more than one
// block can keep, so C blocks (2 to 16, a thread block cluster) share it, each keeping its part
// of the row in its threads' registers (K chunks of 16 bytes a thread, as they were loaded). Each
// block finds its part's (max, sum) pair, as the online softmax merges them, and publishes it in
// its shared memory; after one cluster barrier every block reads the C pairs through distributed
// shared memory (another block's shared memory, read directly), merges them into the row's, and
// writes its part. One read and one write per element, at any row length up to C blocks × K
// chunks a thread. Each exponential is computed once: a thread's pair is the max of its own
// values (comparisons only) and the sum of exp(x - that max), each exponential kept in place of
// its value (rounded to T); once the row's pair (M, S) is known, every value a thread holds needs
// one multiply by exp(its max - M) / S. Pairs are merged max first: the largest max, then each
// sum rescaled to it by one exponential. (The special-function unit's exponentials, 16 a clock
// per SM, computed twice per value and twice per merge step, took as long as a bf16 row's
// memory traffic.) A longer row, or a GPU before sm_90, takes a split over two kernels: the first
// writes each part's (max, sum) pair, the second merges a row's pairs and writes the part: two
// reads.
#include <cooperative_groups.h>

#include "softmax_gpu.cuh"

namespace lessons::softmax {

namespace cg = cooperative_groups;

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

// A thread's part of the row as exponentials, in place: each value v of the raw chunks, with max
// their max (-inf when the thread holds nothing), becomes exp(v - max), rounded to T where it
// stood (bf16: one rounding more before the output's, within the one unit in the last place the
// check allows; the registers stay 4 a chunk). Returns their sum, taken before the rounding.
template <typename T, int K>
__device__ __forceinline__ float ExpInPlace(uint4 (&raw)[K], float max) {
    const float base = max == -Infinity() ? 0.0f : max;
    float sum[2] = {0.0f, 0.0f};  // two chains of adds, not one
#pragma unroll
    for (int k = 0; k < K; ++k) {
        float e[ChunkCount<T>()];
#pragma unroll
        for (int i = 0; i < ChunkCount<T>(); ++i) {
            e[i] = SfuExp(Element<T>(raw[k], i) - base);
            sum[i % 2] += e[i];
        }
        raw[k] = PackRaw<T>(e);
    }
    return sum[0] + sum[1];
}

// Chunk k of a thread's exponentials times its factor, packed as T.
template <typename T, int K>
__device__ __forceinline__ uint4 ScaledChunk(const uint4 (&raw)[K], int k, float factor) {
    float out[ChunkCount<T>()];
#pragma unroll
    for (int i = 0; i < ChunkCount<T>(); ++i) out[i] = Element<T>(raw[k], i) * factor;
    return PackRaw<T>(out);
}

// The pairs of a warp's 32 lanes as one, every lane gets it: the largest max first (shuffles),
// then each lane's sum rescaled to it by one exponential, then the sums added (shuffles). Merging
// pair by pair (Merge) would take two exponentials at each of the 5 steps.
__device__ __forceinline__ MaxSum WarpPair(MaxSum p) {
    const float max = WarpMax(p.max);
    return {max, WarpSum(p.max == -Infinity() ? 0.0f : p.sum * SfuExp(p.max - max))};
}

template <typename T, int K>
__global__ void softmax_cluster_kernel(const T* __restrict__ x, T* __restrict__ y, int m, int n,
                                       int part) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    constexpr int V = ChunkCount<T>();
    __shared__ float scratch_max[32], scratch_sum[32];
    __shared__ MaxSum published;  // this block's pair, read by the whole cluster
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned rank = cluster.block_rank(), blocks = cluster.num_blocks();
    const long long row = blockIdx.x / blocks;
    // This block's chunks of the row: [first, last); part is in chunks.
    const int chunks = (n + V - 1) / V;
    const int first = min(static_cast<int>(rank) * part, chunks);
    const int last = min(first + part, chunks);
    const T* r = x + static_cast<size_t>(row) * n;
    T* o = y + static_cast<size_t>(row) * n;
    const bool aligned = n % V == 0;
    const T pad = NegativeInfinity<T>();

    uint4 raw[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {  // every load issued before any value is used
        const int c = first + k * blockDim.x + threadIdx.x;
        raw[k] = c < last ? LoadRaw(r, c, n, aligned, pad) : FilledRaw(pad);
    }
    // This thread's pair: its max (comparisons only), and the sum of exp(x - that max), each
    // exponential kept in place of its value for the output (sum 0 when it holds nothing).
    float max = -Infinity();
#pragma unroll
    for (int k = 0; k < K; ++k) max = fmaxf(max, ChunkMax<T>(raw[k]));
    const float sum = ExpInPlace<T>(raw, max);
    // The block's pair: the warps' pairs merged through shared memory.
    MaxSum pair = WarpPair({max, sum});
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
    if (lane == 0) {
        scratch_max[warp] = pair.max;
        scratch_sum[warp] = pair.sum;
    }
    __syncthreads();
    if (warp == 0) {
        pair =
            lane < warps ? MaxSum{scratch_max[lane], scratch_sum[lane]} : MaxSum{-Infinity(), 0.0f};
        pair = WarpPair(pair);
        if (lane == 0) published = pair;
    }
    cluster.sync();  // every block's pair is published
    // The row's pair: each warp merges the C blocks' pairs, a lane a block.
    pair = lane < static_cast<int>(blocks) ? *cluster.map_shared_rank(&published, lane)
                                           : MaxSum{-Infinity(), 0.0f};
    pair = WarpPair(pair);
    // Arrive now, wait at the end: no block leaves (its shared memory gone) while another may
    // still read its pair, and the writes need not wait for the slowest block's reads.
    cluster.barrier_arrive();
    // exp(x - M) / S = exp(x - max) · exp(max - M) / S: one factor for all of this thread's values.
    const float factor = max == -Infinity() ? 0.0f : SfuExp(max - pair.max) / pair.sum;
#pragma unroll
    for (int k = 0; k < K; ++k) {
        const int c = first + k * blockDim.x + threadIdx.x;
        if (c < last) StoreRaw(o, c, n, aligned, ScaledChunk<T>(raw, k, factor));
    }
    cluster.barrier_wait();
#else
    __trap();  // launched only on sm_90 and later (Launch checks)
#endif
}

// The same cluster, pipelined (rows of 16-byte multiples): a grid of only as many clusters as
// the GPU holds at once, each looping over rows. While a cluster works on one row, its blocks'
// parts of the next row are already on their way into shared memory (cp.async, 16 bytes a
// thread, each thread into slots only it reads), so that row's load overlaps this row's
// reductions, exchange and stores. A block's pair slot is written again only after every block
// of the cluster has read it (the arrive after the reads, the wait before the next write).
template <typename T, int K>
__global__ void softmax_cluster_pipelined_kernel(const T* __restrict__ x, T* __restrict__ y, int m,
                                                 int n, int part) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    constexpr int V = ChunkCount<T>();
    extern __shared__ uint4 stage[];  // K × blockDim.x chunks: this block's part of the next row
    __shared__ float scratch_max[32], scratch_sum[32];
    __shared__ MaxSum published;
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned rank = cluster.block_rank(), blocks = cluster.num_blocks();
    const long long first_row = blockIdx.x / blocks, stride = gridDim.x / blocks;
    const int chunks = n / V;  // n is a multiple of V
    const int first = min(static_cast<int>(rank) * part, chunks);
    const int last = min(first + part, chunks);
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = blockDim.x / 32;
    const T pad = NegativeInfinity<T>();
    // This thread's chunks of `row` into its stage slots, as one group of asynchronous copies.
    const auto fetch = [&](long long row) {
        const uint4* r = reinterpret_cast<const uint4*>(x + static_cast<size_t>(row) * n);
#pragma unroll
        for (int k = 0; k < K; ++k) {
            const int c = first + k * blockDim.x + threadIdx.x;
            if (c < last) {
                const unsigned slot = static_cast<unsigned>(
                    __cvta_generic_to_shared(stage + k * blockDim.x + threadIdx.x));
                asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(slot), "l"(r + c));
            }
        }
        asm volatile("cp.async.commit_group;");
    };
    if (first_row < m) fetch(first_row);
    for (long long row = first_row; row < m; row += stride) {
        asm volatile("cp.async.wait_group 0;" ::: "memory");
        uint4 raw[K];
#pragma unroll
        for (int k = 0; k < K; ++k) {
            const int c = first + k * blockDim.x + threadIdx.x;
            raw[k] = c < last ? stage[k * blockDim.x + threadIdx.x] : FilledRaw(pad);
        }
        if (row + stride < m) fetch(row + stride);  // the next row's part, while this one runs
        float max = -Infinity();
#pragma unroll
        for (int k = 0; k < K; ++k) max = fmaxf(max, ChunkMax<T>(raw[k]));
        const float sum = ExpInPlace<T>(raw, max);
        MaxSum pair = WarpPair({max, sum});
        if (lane == 0) {
            scratch_max[warp] = pair.max;
            scratch_sum[warp] = pair.sum;
        }
        __syncthreads();
        if (row != first_row) cluster.barrier_wait();  // the previous row's pairs are read
        if (warp == 0) {
            pair = lane < warps ? MaxSum{scratch_max[lane], scratch_sum[lane]}
                                : MaxSum{-Infinity(), 0.0f};
            pair = WarpPair(pair);
            if (lane == 0) published = pair;
        }
        cluster.sync();  // every block's pair is published (and scratch is free again)
        pair = lane < static_cast<int>(blocks) ? *cluster.map_shared_rank(&published, lane)
                                               : MaxSum{-Infinity(), 0.0f};
        pair = WarpPair(pair);
        cluster.barrier_arrive();
        const float factor = max == -Infinity() ? 0.0f : SfuExp(max - pair.max) / pair.sum;
        T* o = y + static_cast<size_t>(row) * n;
#pragma unroll
        for (int k = 0; k < K; ++k) {
            const int c = first + k * blockDim.x + threadIdx.x;
            if (c < last) reinterpret_cast<uint4*>(o)[c] = ScaledChunk<T>(raw, k, factor);
        }
    }
    if (first_row < m) cluster.barrier_wait();  // no block leaves while its pair may be read
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

// Chunks a thread may keep, the number the automatic choice aims at, and the most blocks a
// cluster (8 is the portable size; sm_90 allows 16 where the kernel says it accepts more).
constexpr int kMaxChunks = 16;
constexpr int kAimChunks = 8;
constexpr int kMaxCluster = 16;
// The pipelined kernel's stage: at most this many bytes a block (K × block × 16).
constexpr long long kMaxStageBytes = 128 * 1024;
// The split's part: 16K elements a block.
constexpr int kSplitPart = 16384;

template <typename T, int K>
const void* Address() {
    return reinterpret_cast<const void*>(&softmax_cluster_kernel<T, K>);
}

template <typename T, int K>
const void* PipelinedAddress() {
    return reinterpret_cast<const void*>(&softmax_cluster_pipelined_kernel<T, K>);
}

template <typename T>
const void* Instance(int k, bool pipelined = false) {
    switch (k) {
        case 1:
            return pipelined ? PipelinedAddress<T, 1>() : Address<T, 1>();
        case 2:
            return pipelined ? PipelinedAddress<T, 2>() : Address<T, 2>();
        case 4:
            return pipelined ? PipelinedAddress<T, 4>() : Address<T, 4>();
        case 8:
            return pipelined ? PipelinedAddress<T, 8>() : Address<T, 8>();
        default:
            return pipelined ? PipelinedAddress<T, 16>() : Address<T, 16>();
    }
}

long long Cover(long long need, long long cap) {
    long long k = 1;
    while (k < need && k < cap) k *= 2;
    return k;
}

struct Plan {
    bool cluster = false;
    bool pipelined = false;  // the cluster's pipelined kernel (rows of 16-byte multiples)
    int blocks_per_row = 1;
    int k = 1;     // chunks a thread (the cluster)
    int part = 0;  // chunks a block (the cluster); elements a block (the split)
};

// The cluster: C blocks a row as asked (`variant`), or, for 0, the fewest (a power of two, up to
// 8) that leave each thread at most 8 chunks, else up to 16 chunks on 8 blocks, else 16 blocks;
// K the smallest power of two that covers a thread's chunks. The row must fit C blocks × K
// chunks a thread with K at most 16 and room in the registers for `block` threads, on sm_90;
// else the split.
template <typename T>
Plan PlanFor(int n, int block, int variant) {
    Plan p;
    int device = 0, major = 0;
    const bool hopper =
        cudaGetDevice(&device) == cudaSuccess &&
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess &&
        major >= 9;
    const long long chunks = (static_cast<long long>(n) + ChunkCount<T>() - 1) / ChunkCount<T>();
    const auto per_thread = [&](long long c) { return (chunks + c * block - 1) / (c * block); };
    // Variants: 0 auto, C, or 100 + C pipelined (rows of 16-byte multiples). Auto is not
    // pipelined: on the H200 the pipelined kernel's registers cost more than its overlap gained.
    p.pipelined = variant > 100 && n % ChunkCount<T>() == 0;
    long long c = variant > 100 ? variant - 100 : variant;
    if (c <= 0) {
        c = 1;
        while (c < 8 && per_thread(c) > kAimChunks) c *= 2;
        if (per_thread(c) > kMaxChunks) c = kMaxCluster;
    }
    const long long k = Cover(per_thread(c), kMaxChunks);
    if (k * block * 16 > kMaxStageBytes ||
        FactsOf(Instance<T>(static_cast<int>(k), true), block).max_threads < block)
        p.pipelined = false;  // its stage or its registers leave no room: the plain cluster
    if (hopper && c <= kMaxCluster && per_thread(c) <= kMaxChunks &&
        FactsOf(Instance<T>(static_cast<int>(k), p.pipelined), block).max_threads >= block) {
        p.cluster = true;
        p.blocks_per_row = static_cast<int>(c);
        p.k = static_cast<int>(k);
        p.part = static_cast<int>((chunks + c - 1) / c);
        return p;
    }
    p.pipelined = false;
    p.part = kSplitPart;
    p.blocks_per_row = static_cast<int>((static_cast<long long>(n) + kSplitPart - 1) / kSplitPart);
    return p;
}

template <typename T>
const void* Pick(int n, int block, int variant) {
    const Plan plan = PlanFor<T>(n, block, variant);
    return plan.cluster ? Instance<T>(plan.k, plan.pipelined)
                        : reinterpret_cast<const void*>(&softmax_cluster_split_pairs_kernel<T>);
}

// The split's pairs: 8 bytes for each part of each row.
size_t Workspace(int m, int n) {
    return static_cast<size_t>(m) * ((static_cast<size_t>(n) + kSplitPart - 1) / kSplitPart) *
           sizeof(MaxSum);
}

// How many clusters of `config` the GPU holds at once, asked once per kernel and launch shape.
int ResidentClusters(const void* kernel, const cudaLaunchConfig_t& config) {
    static std::mutex mutex;
    static std::map<std::tuple<const void*, unsigned, unsigned, size_t>, int> known;
    const std::lock_guard<std::mutex> lock(mutex);
    const auto key = std::make_tuple(kernel, config.blockDim.x, config.attrs[0].val.clusterDim.x,
                                     config.dynamicSmemBytes);
    if (auto it = known.find(key); it != known.end()) return it->second;
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, kernel, &config) != cudaSuccess) {
        cudaGetLastError();
        clusters = 0;
    }
    known[key] = clusters;
    return clusters;
}

template <typename T>
cudaError_t Launch(const void* x, void* y, const void* workspace, int m, int n, int block,
                   int variant, cudaStream_t s) {
    const Plan plan = PlanFor<T>(n, block, variant);
    const T* xt = static_cast<const T*>(x);
    T* yt = static_cast<T*>(y);
    const unsigned grid = static_cast<unsigned>(static_cast<long long>(m) * plan.blocks_per_row);
    if (plan.cluster) {
        const void* kernel = Instance<T>(plan.k, plan.pipelined);
        // Clusters of 16 blocks, and the pipelined kernel's stage above 48 KiB: allowed once.
        static std::once_flag allowed;
        static cudaError_t allowing = cudaSuccess;
        std::call_once(allowed, [] {
            for (int k = 1; k <= kMaxChunks; k *= 2)
                for (const bool pipelined : {false, true}) {
                    const void* f = Instance<T>(k, pipelined);
                    cudaError_t e =
                        cudaFuncSetAttribute(f, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
                    if (e == cudaSuccess && pipelined)
                        e = cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                 static_cast<int>(kMaxStageBytes));
                    if (e != cudaSuccess) allowing = e;
                }
        });
        if (allowing != cudaSuccess && (plan.blocks_per_row > 8 || plan.pipelined)) return allowing;
        cudaLaunchConfig_t config = {};
        config.gridDim = dim3(grid);
        config.blockDim = dim3(block);
        config.dynamicSmemBytes = plan.pipelined ? static_cast<size_t>(plan.k) * block * 16 : 0;
        config.stream = s;
        cudaLaunchAttribute attribute[1];
        attribute[0].id = cudaLaunchAttributeClusterDimension;
        attribute[0].val.clusterDim.x = static_cast<unsigned>(plan.blocks_per_row);
        attribute[0].val.clusterDim.y = 1;
        attribute[0].val.clusterDim.z = 1;
        config.attrs = attribute;
        config.numAttrs = 1;
        if (plan.pipelined) {
            // As many clusters as the GPU holds at once (asked once per kernel, block and size).
            const int clusters = ResidentClusters(kernel, config);
            const long long most = static_cast<long long>(clusters > 0 ? clusters : 1);
            config.gridDim =
                dim3(static_cast<unsigned>((m < most ? m : most) * plan.blocks_per_row));
        }
        int part = plan.part;
        void* args[] = {&xt, &yt, &m, &n, &part};
        return cudaLaunchKernelExC(&config, kernel, args);
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
