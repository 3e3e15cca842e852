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
// registers hold no part of the row, so several blocks share an SM and one's loads overlap
// another's exponentials and stores. Each exponential is computed once: a thread's
// pair is the max of its values (comparisons only) and the sum of exp(x - that max), each
// exponential stored in place of its value (rounded to T); once the row's pair (M, S) is known,
// every value a thread holds needs one multiply by exp(its max - M) / S. Pairs are merged max
// first: the largest max, then each sum rescaled to it by one exponential. A longer row, or a GPU
// before sm_90, takes a split over two kernels: the first writes each part's (max, sum) pair, the
// second merges a row's pairs and writes the part: two reads.
#include "softmax_cluster.cuh"

namespace lessons::softmax {

// Block `rank` of a cluster of C takes its part of the row (LoadPart, softmax_cluster_device.cuh,
// where the order that keeps the barriers safe is told) and pushes its (max, sum) pair to the
// others.
template <typename T>
__global__ void softmax_cluster_kernel(const T* __restrict__ x, T* __restrict__ y, int m, int n) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    constexpr int V = ChunkCount<T>();
    extern __shared__ __align__(128) uint4 chunk[];  // this block's part of the row
    __shared__ float scratch_max[32], scratch_sum[32];
    __shared__ __align__(8) MaxSum slots[16];                // the other blocks' pairs, by rank
    __shared__ __align__(8) unsigned long long barriers[2];  // the part, the pairs
    const ClusterPart p = LoadPart<MaxSum>(chunk, x, n, NegativeInfinity<T>(), barriers);
    const int rank = static_cast<int>(p.rank), blocks = static_cast<int>(p.blocks);
    const int first = p.first, count = p.count;
    T* o = y + static_cast<size_t>(p.row) * n;
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, warps = blockDim.x / 32;
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
        ExchangeValues(slots, own, p);
        // The row's pair: each warp merges the C blocks' pairs, a lane a block.
        pair = lane == rank ? own : lane < blocks ? slots[lane] : MaxSum{-Infinity(), 0.0f};
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
        StoreRaw(o, first + j, n, p.aligned, PackRaw<T>(out));
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

// The split's part: 16K elements a block.
constexpr int kSplitPart = 16384;

const void* ClusterKernel(bool bf16) {
    return bf16 ? reinterpret_cast<const void*>(&softmax_cluster_kernel<__nv_bfloat16>)
                : reinterpret_cast<const void*>(&softmax_cluster_kernel<float>);
}

// The shared memory a block may have for its part, once the permissions are given (once per
// process); 0 before sm_90.
long long PartLimit() {
    static const long long limit = AllowClusterParts({ClusterKernel(false), ClusterKernel(true)});
    return limit;
}

struct Plan {
    ClusterShape cluster;  // blocks 0: the split
    int blocks_per_row = 1;
    int part = 0;  // chunks a block (the cluster); elements a block (the split)
};

// The cluster as ClusterShapeFor picks it (C blocks a row as asked by `variant`, or for 0 the
// fewest that leave each block at most 32 KiB of the row, else 16), where its part fits a block's
// shared memory on sm_90; else the split.
template <typename T>
Plan PlanFor(int n, int block, int variant) {
    Plan p;
    const long long chunks = (static_cast<long long>(n) + ChunkCount<T>() - 1) / ChunkCount<T>();
    p.cluster = ClusterShapeFor(ClusterKernel(sizeof(T) == 2), PartLimit(), chunks, block, variant);
    if (p.cluster.blocks > 0) {
        p.blocks_per_row = p.cluster.blocks;
        p.part = p.cluster.part;
        return p;
    }
    p.part = kSplitPart;
    p.blocks_per_row = static_cast<int>((static_cast<long long>(n) + kSplitPart - 1) / kSplitPart);
    return p;
}

template <typename T>
const void* Pick(int n, int block, int variant) {
    return PlanFor<T>(n, block, variant).cluster.blocks > 0
               ? ClusterKernel(sizeof(T) == 2)
               : reinterpret_cast<const void*>(&softmax_cluster_split_pairs_kernel<T>);
}

// The split's pairs: 8 bytes for each part of each row.
size_t Workspace(int m, int n) {
    return static_cast<size_t>(m) * ((static_cast<size_t>(n) + kSplitPart - 1) / kSplitPart) *
           sizeof(MaxSum);
}

// The dynamic shared memory of a block of the launch at (n, block, variant): its part of the row
// in the cluster, none in the split.
template <typename T>
size_t PartBytes(int n, int block, int variant) {
    const Plan plan = PlanFor<T>(n, block, variant);
    return plan.cluster.blocks > 0 ? static_cast<size_t>(plan.cluster.part) * 16 : 0;
}

template <typename T>
cudaError_t Launch(const void* x, void* y, const void* workspace, int m, int n, int block,
                   int variant, cudaStream_t s) {
    const Plan plan = PlanFor<T>(n, block, variant);
    const T* xt = static_cast<const T*>(x);
    T* yt = static_cast<T*>(y);
    const unsigned grid = static_cast<unsigned>(static_cast<long long>(m) * plan.blocks_per_row);
    if (plan.cluster.blocks > 0) {
        void* args[] = {&xt, &yt, &m, &n};
        return LaunchClusters(ClusterKernel(sizeof(T) == 2), m, plan.cluster, block, s, args);
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
    {"softmax_cluster_kernel", false, &Pick<float>, &Launch<float>, 0, &Workspace, "cluster",
     &PartBytes<float>},
    {"softmax_cluster_kernel", true, &Pick<__nv_bfloat16>, &Launch<__nv_bfloat16>, 0, &Workspace,
     "cluster", &PartBytes<__nv_bfloat16>},
};

LESSONS_KERNELS(kSoftmaxCluster);

}  // namespace lessons::softmax
