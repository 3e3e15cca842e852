// RMSNorm with the ladder's final kernels: y = x / sqrt(mean(x²) + eps) · w. The same shape as
// softmax (a reduction along the row, then an elementwise pass) with one reduction instead of
// two. Rows that fit the registers of a group of threads at 8 chunks a thread take lesson 9.5's
// kernel: 16-byte chunks kept as loaded, `lanes` threads a row. The grid is only as large as the
// GPU holds at once, and each group loops over rows; each block copies w into its shared memory
// once, so w is read from global memory once per block, not once per row. Longer rows take
// lesson 9.7's cluster (sm_90): C blocks share a row, each keeping its part in shared memory (one
// bulk copy), and push their sums of squares into each other's shared memory (st.async); each
// block reads its part of w (from the L2 cache, where every row's blocks find it), a thread's
// first chunks of it before the sum, so that their latency passes behind the sum. Without
// clusters, the first kernel keeps up to 16 chunks a thread, and reads longer rows twice.
#include "softmax_cluster.cuh"

namespace lessons::softmax {

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

// Long rows: C blocks a row (a cluster), each with its part in shared memory (LoadPart,
// softmax_cluster_device.cuh); each block's sum of squares goes to the others. Each thread loads
// its first kAhead chunks of w at once, before the sum: 8 in blocks of up to 256 threads, 4 in
// larger ones, where 8 would take the registers of a third block an SM.
template <typename T, int kAhead>
__global__ void rmsnorm_cluster_kernel(const T* __restrict__ x, T* __restrict__ y,
                                       const T* __restrict__ w, int m, int n) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    constexpr int V = ChunkCount<T>();
    extern __shared__ __align__(128) uint4 chunk[];  // this block's part of the row
    __shared__ float scratch[32];
    __shared__ float slots[16];                              // the other blocks' sums, by rank
    __shared__ __align__(8) unsigned long long barriers[2];  // the part, the sums
    const T zero = FromFloat<T>(0.0f);
    const ClusterPart p = LoadPart<float>(chunk, x, n, zero, barriers);
    // This thread's first kAhead chunks of w, loaded now (from L2, where every row's blocks find
    // w): their latency passes while the block sums its squares and the cluster exchanges them.
    uint4 ahead[kAhead];
#pragma unroll
    for (int k = 0; k < kAhead; ++k) {
        const int j = threadIdx.x + k * static_cast<int>(blockDim.x);
        ahead[k] = j < p.count ? LoadRaw(w, p.first + j, n, p.aligned, zero) : uint4{};
    }
    float squares[2] = {0.0f, 0.0f};  // two chains of adds, not one
#pragma unroll 2
    for (int j = threadIdx.x; j < p.count; j += blockDim.x) {
        const uint4 v = chunk[j];
#pragma unroll
        for (int i = 0; i < V; ++i) squares[i % 2] += Element<T>(v, i) * Element<T>(v, i);
    }
    const float own = BlockSum(squares[0] + squares[1], scratch);
    float total = own;
    if (p.blocks > 1) {
        ExchangeValues(slots, own, p);
        // The row's sum: each warp adds the C blocks' sums, a lane a block (the same order in
        // every block, so every block finds the same scale).
        const int lane = threadIdx.x % 32;
        total = WarpSum(lane == static_cast<int>(p.rank)    ? own
                        : lane < static_cast<int>(p.blocks) ? slots[lane]
                                                            : 0.0f);
    }
    const float scale = rsqrtf(total / n + 1e-6f);
    T* o = y + static_cast<size_t>(p.row) * n;
    const auto write = [&](int j, const uint4& wraw) {
        const uint4 v = chunk[j];
        float out[V];
#pragma unroll
        for (int i = 0; i < V; ++i) out[i] = Element<T>(v, i) * scale * Element<T>(wraw, i);
        StoreRaw(o, p.first + j, n, p.aligned, PackRaw<T>(out));
    };
#pragma unroll
    for (int k = 0; k < kAhead; ++k) {
        const int j = threadIdx.x + k * static_cast<int>(blockDim.x);
        if (j < p.count) write(j, ahead[k]);
    }
#pragma unroll 2
    for (int j = threadIdx.x + kAhead * blockDim.x; j < p.count; j += blockDim.x)
        write(j, LoadRaw(w, p.first + j, n, p.aligned, zero));
#else
    __trap();  // launched only on sm_90 and later (Launch checks)
#endif
}

namespace {

constexpr int kMaxChunks = 16;
constexpr int kAimChunks = 8;
// w in shared memory up to this many bytes (the default limit, no opt-in).
constexpr long long kSharedWeightBytes = 48 * 1024;

template <typename T, int K>
const void* RowAddress() {
    return reinterpret_cast<const void*>(&rmsnorm_kernel<T, K>);
}

template <typename T>
const void* Instance(int k) {
    switch (k) {
        case 1:
            return RowAddress<T, 1>();
        case 2:
            return RowAddress<T, 2>();
        case 4:
            return RowAddress<T, 4>();
        case 8:
            return RowAddress<T, 8>();
        default:
            return RowAddress<T, 16>();
    }
}

// The cluster kernel's instance for blocks of `block` threads: w loaded 8 chunks ahead up to 256
// threads, 4 above.
constexpr int kAheadBlockLimit = 256;
const void* ClusterKernel(bool bf16, int block) {
    const bool eight = block <= kAheadBlockLimit;
    if (bf16)
        return eight ? reinterpret_cast<const void*>(&rmsnorm_cluster_kernel<__nv_bfloat16, 8>)
                     : reinterpret_cast<const void*>(&rmsnorm_cluster_kernel<__nv_bfloat16, 4>);
    return eight ? reinterpret_cast<const void*>(&rmsnorm_cluster_kernel<float, 8>)
                 : reinterpret_cast<const void*>(&rmsnorm_cluster_kernel<float, 4>);
}

// The shared memory a block may have for its part, once the permissions are given (once per
// process); 0 before sm_90.
long long PartLimit() {
    static const long long limit = AllowClusterParts(
        {ClusterKernel(false, kAheadBlockLimit), ClusterKernel(true, kAheadBlockLimit),
         ClusterKernel(false, 2 * kAheadBlockLimit), ClusterKernel(true, 2 * kAheadBlockLimit)});
    return limit;
}

long long Cover(long long need, long long cap) {
    long long k = 1;
    while (k < need && k < cap) k *= 2;
    return k;
}

struct Plan {
    ClusterShape cluster;  // blocks 0: the resident grid's kernel
    int lanes = 32;        // threads a row (the resident grid's kernel)
    int k = 1;
};

// The resident grid's kernel while the row fits a group's registers at 8 chunks a thread at most
// (lanes as asked by `variant`, or the fewest leaving each thread 8 chunks, at most the block);
// else lesson 9.7's cluster on sm_90 as its automatic choice picks it (the fewest blocks, up to
// 16, that leave each at most 32 KiB of the row, else 16), where the part fits a block's shared
// memory; else the resident grid's kernel with up to 16 chunks a thread, reading longer rows
// twice.
template <typename T>
Plan PlanFor(int n, int block, int variant) {
    const long long chunks = (static_cast<long long>(n) + ChunkCount<T>() - 1) / ChunkCount<T>();
    Plan p;
    p.lanes = variant > 0 ? variant
                          : static_cast<int>(Cover((chunks + kAimChunks - 1) / kAimChunks, block));
    if (p.lanes > block) p.lanes = block;
    p.k = static_cast<int>(Cover((chunks + p.lanes - 1) / p.lanes, kMaxChunks));
    while (p.k > 1 && FactsOf(Instance<T>(p.k), block).max_threads < block) p.k /= 2;
    if (chunks <= static_cast<long long>(p.k) * p.lanes && p.k <= kAimChunks) return p;
    p.cluster =
        ClusterShapeFor(ClusterKernel(sizeof(T) == 2, block), PartLimit(), chunks, block, 0);
    return p;
}

template <typename T>
const void* Pick(int n, int block, int variant) {
    const Plan plan = PlanFor<T>(n, block, variant);
    return plan.cluster.blocks > 0 ? ClusterKernel(sizeof(T) == 2, block) : Instance<T>(plan.k);
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

// w staged in a block's shared memory (whole chunks) where it fits kSharedWeightBytes: the
// resident grid's kernel's dynamic shared memory.
template <typename T>
size_t StagedWeightBytes(int n) {
    const long long chunks = (static_cast<long long>(n) + ChunkCount<T>() - 1) / ChunkCount<T>();
    return chunks * 16 <= kSharedWeightBytes ? static_cast<size_t>(chunks) * 16 : 0;
}

// The dynamic shared memory of a block of the launch at (n, block, variant): its part of the row
// in the cluster, else the staged w.
template <typename T>
size_t DynamicSmem(int n, int block, int variant) {
    const Plan plan = PlanFor<T>(n, block, variant);
    return plan.cluster.blocks > 0 ? static_cast<size_t>(plan.cluster.part) * 16
                                   : StagedWeightBytes<T>(n);
}

template <typename T>
cudaError_t Launch(const void* x, void* y, const void* w, int m, int n, int block, int variant,
                   cudaStream_t s) {
    const Plan plan = PlanFor<T>(n, block, variant);
    const T* xt = static_cast<const T*>(x);
    T* yt = static_cast<T*>(y);
    const T* wt = static_cast<const T*>(w);
    if (plan.cluster.blocks > 0) {
        void* args[] = {&xt, &yt, &wt, &m, &n};
        return LaunchClusters(ClusterKernel(sizeof(T) == 2, block), m, plan.cluster, block, s,
                              args);
    }
    const void* kernel = Instance<T>(plan.k);
    const size_t smem = StagedWeightBytes<T>(n);
    bool wshared = smem > 0;
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
    {"rmsnorm_kernel", false, &Pick<float>, &Launch<float>, 0, nullptr, "lanes",
     &DynamicSmem<float>},
    {"rmsnorm_kernel", true, &Pick<__nv_bfloat16>, &Launch<__nv_bfloat16>, 0, nullptr, "lanes",
     &DynamicSmem<__nv_bfloat16>},
};

LESSONS_KERNELS(kSoftmaxRmsNorm);

}  // namespace lessons::softmax
