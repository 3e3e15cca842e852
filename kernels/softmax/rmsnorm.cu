// RMSNorm with the ladder's final kernels: y = x / sqrt(mean(x²) + eps) · w. The same shape as
// softmax (a reduction along the row, then an elementwise pass) with one reduction instead of
// two. Rows that fit the registers of a group of threads take lesson 9.5's kernel: 16-byte
// chunks kept as loaded, `lanes` threads a row (about 8 chunks each). The grid is only as large
// as the GPU holds at once, and each group loops over rows; each block copies w into its shared
// memory once, so w is read from global memory once per block, not once per row. Longer rows take
// lesson 9.7's cluster: C blocks share a row, each keeping its part in registers, and exchange
// their sums of squares through distributed shared memory; each block reads its part of w (from
// the L2 cache, where every row's blocks find it). Rows too long for both are read twice.
#include <cooperative_groups.h>

#include "softmax_gpu.cuh"

namespace lessons::softmax {

namespace cg = cooperative_groups;

// `wshared`: w is in the block's dynamic shared memory (n values, padded to 16 bytes), else
// read from global memory.
template <typename T, int K>
__global__ void __launch_bounds__(K <= 8 ? 1024 : 512)
    rmsnorm_kernel(const T* __restrict__ x, T* __restrict__ y, const T* __restrict__ w, int m,
                   int n, bool wshared) {
    constexpr int V = ChunkCount<T>();
    extern __shared__ uint4 wstage[];
    __shared__ float scratch[32];
    const int lanes = blockDim.x;  // the block is lanes × rows
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x;
    const int chunks = (n + V - 1) / V;
    const bool aligned = n % V == 0;
    const T zero = FromFloat<T>(0.0f);
    if (wshared) {
        for (int c = tid; c < chunks; c += blockDim.x * blockDim.y)
            wstage[c] = LoadRaw(w, c, n, aligned, zero);
        __syncthreads();
    }
    // Chunk c of w: from the staged copy (padded to whole chunks), else from global memory.
    const auto weight = [&](int c) {
        return wshared ? wstage[c] : LoadRaw(w, c, n, aligned, zero);
    };
    const long long groups = static_cast<long long>(gridDim.x) * blockDim.y;
    // Every group runs the same number of iterations (rows past m work on nothing), so that the
    // barriers of groups of more than a warp are met by the whole block.
    const long long iterations = (m + groups - 1) / groups;
    for (long long it = 0; it < iterations; ++it) {
        const long long row =
            it * groups + static_cast<long long>(blockIdx.x) * blockDim.y + threadIdx.y;
        const bool live = row < m;
        const int mine = live ? chunks : 0;
        const T* r = x + static_cast<size_t>(live ? row : 0) * n;
        T* o = y + static_cast<size_t>(live ? row : 0) * n;
        if (chunks <= K * lanes) {
            uint4 raw[K];
#pragma unroll
            for (int k = 0; k < K; ++k) {
                const int c = k * lanes + lane;
                raw[k] = c < mine ? LoadRaw(r, c, n, aligned, zero) : FilledRaw(zero);
            }
            float squares = 0.0f;
#pragma unroll
            for (int k = 0; k < K; ++k)
#pragma unroll
                for (int i = 0; i < V; ++i)
                    squares += Element<T>(raw[k], i) * Element<T>(raw[k], i);
            const float scale = rsqrtf(GroupSumOf(squares, lanes, tid, scratch) / n + 1e-6f);
#pragma unroll
            for (int k = 0; k < K; ++k) {
                const int c = k * lanes + lane;
                if (c < mine) {
                    const uint4 wraw = weight(c);
                    float out[V];
#pragma unroll
                    for (int i = 0; i < V; ++i)
                        out[i] = ElementAgain<T>(raw[k], i) * scale * Element<T>(wraw, i);
                    StoreRaw(o, c, n, aligned, PackRaw<T>(out));
                }
            }
        } else {  // too long for registers: read the row twice
            float squares = 0.0f;
            for (int c = lane; c < mine; c += lanes) {
                const uint4 raw = LoadRaw(r, c, n, aligned, zero);
#pragma unroll
                for (int i = 0; i < V; ++i) squares += Element<T>(raw, i) * Element<T>(raw, i);
            }
            const float scale = rsqrtf(GroupSumOf(squares, lanes, tid, scratch) / n + 1e-6f);
            for (int c = lane; c < mine; c += lanes) {
                const uint4 raw = LoadRaw(r, c, n, aligned, zero);
                const uint4 wraw = weight(c);
                float out[V];
#pragma unroll
                for (int i = 0; i < V; ++i)
                    out[i] = Element<T>(raw, i) * scale * Element<T>(wraw, i);
                StoreRaw(o, c, n, aligned, PackRaw<T>(out));
            }
        }
        if (lanes > 32) __syncthreads();  // scratch is free for the next row
    }
}

// Long rows: C blocks a row (a cluster), `part` chunks each, K chunks a thread in registers.
template <typename T, int K>
__global__ void rmsnorm_cluster_kernel(const T* __restrict__ x, T* __restrict__ y,
                                       const T* __restrict__ w, int m, int n, int part) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    constexpr int V = ChunkCount<T>();
    __shared__ float scratch[32];
    __shared__ float published;  // this block's sum of squares, read by the whole cluster
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned rank = cluster.block_rank(), blocks = cluster.num_blocks();
    const long long row = blockIdx.x / blocks;
    const int chunks = (n + V - 1) / V;
    const int first = min(static_cast<int>(rank) * part, chunks);
    const int last = min(first + part, chunks);
    const T* r = x + static_cast<size_t>(row) * n;
    T* o = y + static_cast<size_t>(row) * n;
    const bool aligned = n % V == 0;
    const T zero = FromFloat<T>(0.0f);

    uint4 raw[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
        const int c = first + k * blockDim.x + threadIdx.x;
        raw[k] = c < last ? LoadRaw(r, c, n, aligned, zero) : FilledRaw(zero);
    }
    float squares = 0.0f;
#pragma unroll
    for (int k = 0; k < K; ++k)
#pragma unroll
        for (int i = 0; i < V; ++i) squares += Element<T>(raw[k], i) * Element<T>(raw[k], i);
    squares = BlockSum(squares, scratch);
    if (threadIdx.x == 0) published = squares;
    cluster.sync();
    const int lane = threadIdx.x % 32;
    float total = lane < static_cast<int>(blocks) ? *cluster.map_shared_rank(&published, lane) : 0;
    total = WarpSum(total);
    cluster.barrier_arrive();  // the reads are done; wait at the end, before leaving
    const float scale = rsqrtf(total / n + 1e-6f);
#pragma unroll
    for (int k = 0; k < K; ++k) {
        const int c = first + k * blockDim.x + threadIdx.x;
        if (c < last) {
            const uint4 wraw = LoadRaw(w, c, n, aligned, zero);
            float out[V];
#pragma unroll
            for (int i = 0; i < V; ++i)
                out[i] = ElementAgain<T>(raw[k], i) * scale * Element<T>(wraw, i);
            StoreRaw(o, c, n, aligned, PackRaw<T>(out));
        }
    }
    cluster.barrier_wait();
#else
    __trap();  // launched only on sm_90 and later (Launch checks)
#endif
}

namespace {

constexpr int kMaxChunks = 16;
constexpr int kAimChunks = 8;
constexpr int kMaxCluster = 16;
// w in shared memory up to this many bytes (the default limit, no opt-in).
constexpr long long kSharedWeightBytes = 48 * 1024;

template <typename T, int K>
const void* RowAddress() {
    return reinterpret_cast<const void*>(&rmsnorm_kernel<T, K>);
}
template <typename T, int K>
const void* ClusterAddress() {
    return reinterpret_cast<const void*>(&rmsnorm_cluster_kernel<T, K>);
}

template <typename T>
const void* Instance(bool cluster, int k) {
    switch (k) {
        case 1:
            return cluster ? ClusterAddress<T, 1>() : RowAddress<T, 1>();
        case 2:
            return cluster ? ClusterAddress<T, 2>() : RowAddress<T, 2>();
        case 4:
            return cluster ? ClusterAddress<T, 4>() : RowAddress<T, 4>();
        case 8:
            return cluster ? ClusterAddress<T, 8>() : RowAddress<T, 8>();
        default:
            return cluster ? ClusterAddress<T, 16>() : RowAddress<T, 16>();
    }
}

long long Cover(long long need, long long cap) {
    long long k = 1;
    while (k < need && k < cap) k *= 2;
    return k;
}

struct Plan {
    bool cluster = false;
    int lanes = 32;  // threads a row (the resident grid's kernel)
    int blocks_per_row = 1;
    int k = 1;
    int part = 0;  // chunks a block (the cluster)
};

// The resident grid's kernel while the row fits a group's registers (lanes as asked by
// `variant`, or the fewest leaving each thread 8 chunks, at most the block; K up to 16); else a
// cluster on sm_90 (the fewest blocks, up to 16, leaving each thread at most 8 chunks, else 16);
// else the resident grid's kernel reading the row twice.
template <typename T>
Plan PlanFor(int n, int block, int variant) {
    const long long chunks = (static_cast<long long>(n) + ChunkCount<T>() - 1) / ChunkCount<T>();
    Plan p;
    p.lanes = variant > 0 ? variant
                          : static_cast<int>(Cover((chunks + kAimChunks - 1) / kAimChunks, block));
    if (p.lanes > block) p.lanes = block;
    p.k = static_cast<int>(Cover((chunks + p.lanes - 1) / p.lanes, kMaxChunks));
    while (p.k > 1 && FactsOf(Instance<T>(false, p.k), block).max_threads < block) p.k /= 2;
    if (chunks <= static_cast<long long>(p.k) * p.lanes) return p;
    int device = 0, major = 0;
    const bool hopper =
        cudaGetDevice(&device) == cudaSuccess &&
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess &&
        major >= 9;
    const auto per_thread = [&](long long c) { return (chunks + c * block - 1) / (c * block); };
    long long c = 1;
    while (c < kMaxCluster && per_thread(c) > kAimChunks) c *= 2;
    const long long k = Cover(per_thread(c), kMaxChunks);
    if (hopper && per_thread(c) <= kMaxChunks &&
        FactsOf(Instance<T>(true, static_cast<int>(k)), block).max_threads >= block) {
        p.cluster = true;
        p.lanes = block;
        p.blocks_per_row = static_cast<int>(c);
        p.k = static_cast<int>(k);
        p.part = static_cast<int>((chunks + c - 1) / c);
    }
    return p;
}

template <typename T>
const void* Pick(int n, int block, int variant) {
    const Plan plan = PlanFor<T>(n, block, variant);
    return Instance<T>(plan.cluster, plan.k);
}

// Blocks of `kernel` an SM holds with `smem` bytes of dynamic shared memory, asked once.
int BlocksPerSm(const void* kernel, int block, size_t smem) {
    static std::mutex mutex;
    static std::map<std::tuple<const void*, int, size_t>, int> known;
    const std::lock_guard<std::mutex> lock(mutex);
    const auto key = std::make_tuple(kernel, block, smem);
    if (auto it = known.find(key); it != known.end()) return it->second;
    int blocks = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block, smem) !=
        cudaSuccess) {
        cudaGetLastError();
        blocks = 0;
    }
    known[key] = blocks;
    return blocks;
}

template <typename T>
cudaError_t Launch(const void* x, void* y, const void* w, int m, int n, int block, int variant,
                   cudaStream_t s) {
    const Plan plan = PlanFor<T>(n, block, variant);
    const void* kernel = Instance<T>(plan.cluster, plan.k);
    const T* xt = static_cast<const T*>(x);
    T* yt = static_cast<T*>(y);
    const T* wt = static_cast<const T*>(w);
    if (plan.cluster) {
        static std::once_flag allowed;  // clusters of 16 blocks, allowed once for every K
        static cudaError_t allowing = cudaSuccess;
        std::call_once(allowed, [] {
            for (int k = 1; k <= kMaxChunks; k *= 2) {
                const cudaError_t e = cudaFuncSetAttribute(
                    Instance<T>(true, k), cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
                if (e != cudaSuccess) allowing = e;
            }
        });
        if (plan.blocks_per_row > 8 && allowing != cudaSuccess) return allowing;
        cudaLaunchConfig_t config = {};
        config.gridDim =
            dim3(static_cast<unsigned>(static_cast<long long>(m) * plan.blocks_per_row));
        config.blockDim = dim3(block);
        config.stream = s;
        cudaLaunchAttribute attribute[1];
        attribute[0].id = cudaLaunchAttributeClusterDimension;
        attribute[0].val.clusterDim.x = static_cast<unsigned>(plan.blocks_per_row);
        attribute[0].val.clusterDim.y = 1;
        attribute[0].val.clusterDim.z = 1;
        config.attrs = attribute;
        config.numAttrs = 1;
        int part = plan.part;
        void* args[] = {&xt, &yt, &wt, &m, &n, &part};
        return cudaLaunchKernelExC(&config, kernel, args);
    }
    const long long chunks = (static_cast<long long>(n) + ChunkCount<T>() - 1) / ChunkCount<T>();
    bool wshared = chunks * 16 <= kSharedWeightBytes;
    const size_t smem = wshared ? static_cast<size_t>(chunks) * 16 : 0;
    const int rows_per_block = block / plan.lanes;
    const long long needed = (m + rows_per_block - 1) / rows_per_block;
    // As many blocks as the GPU runs at once, no more: each group then loops over its rows.
    const LaunchFacts facts = FactsOf(kernel, block);
    const int per_sm = BlocksPerSm(kernel, block, smem);
    const long long resident =
        static_cast<long long>(facts.sms > 0 ? facts.sms : 1) * (per_sm > 0 ? per_sm : 1);
    const unsigned blocks = static_cast<unsigned>(needed < resident ? needed : resident);
    void* args[] = {&xt, &yt, &wt, &m, &n, &wshared};
    return cudaLaunchKernel(kernel, dim3(blocks),
                            dim3(plan.lanes, static_cast<unsigned>(rows_per_block)), args, smem, s);
}

}  // namespace

const SoftmaxKernel kSoftmaxRmsNorm[] = {
    {"rmsnorm_kernel", false, &Pick<float>, &Launch<float>, 0, nullptr, "lanes"},
    {"rmsnorm_kernel", true, &Pick<__nv_bfloat16>, &Launch<__nv_bfloat16>, 0, nullptr, "lanes"},
};

LESSONS_KERNELS(kSoftmaxRmsNorm);

}  // namespace lessons::softmax
