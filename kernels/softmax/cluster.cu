// Long rows across a cluster of blocks (sm_90): a row of 64K elements and more is more than one
// block can keep, so C blocks (2 to 8, a thread block cluster) share it. Each block loads its
// part of the row once into its own shared memory, and the blocks exchange their partial max and
// sum through distributed shared memory: a block reads another's shared memory directly,
// between cluster barriers. One read and one write per element, at any row length up to C ×
// 64 KiB. Without clusters (a GPU before sm_90, or a longer row) the row is split over two
// kernels: the first writes each part's (max, sum) pair, the second merges a row's pairs and
// writes the part: two reads.
#include <cooperative_groups.h>

#include "softmax_gpu.cuh"

namespace lessons::softmax {

namespace cg = cooperative_groups;

template <typename T>
__global__ void softmax_cluster_kernel(const T* __restrict__ x, T* __restrict__ y, int m, int n,
                                       int part) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    constexpr int V = ChunkCount<T>();
    extern __shared__ uint4 stage[];  // this block's part of the row, as T
    T* s = reinterpret_cast<T*>(stage);
    __shared__ float scratch[32];
    __shared__ float published[2];  // this block's max, then its sum, read by the whole cluster
    cg::cluster_group cluster = cg::this_cluster();
    const unsigned rank = cluster.block_rank(), blocks = cluster.num_blocks();
    const long long row = blockIdx.x / blocks;
    const int begin = static_cast<int>(rank) * part;
    const int count = begin < n ? min(part, n - begin) : 0;
    const T* r = x + static_cast<size_t>(row) * n + begin;
    T* o = y + static_cast<size_t>(row) * n + begin;
    // 16-byte copies when every row and every part start on 16 bytes (part is a multiple of V).
    const bool aligned = n % V == 0;

    float max = -Infinity();
    if (aligned) {
#pragma unroll 4
        for (int c = threadIdx.x; c < count / V; c += blockDim.x) {
            const uint4 raw = __ldg(reinterpret_cast<const uint4*>(r) + c);
            stage[c] = raw;
            const T* v = reinterpret_cast<const T*>(&raw);
#pragma unroll
            for (int i = 0; i < V; ++i) max = fmaxf(max, ToFloat(v[i]));
        }
    } else {
        for (int j = threadIdx.x; j < count; j += blockDim.x) {
            s[j] = r[j];
            max = fmaxf(max, ToFloat(s[j]));
        }
    }
    max = BlockMax(max, scratch);  // its barriers also publish `stage` to the block
    if (threadIdx.x == 0) published[0] = max;
    cluster.sync();
    float row_max = -Infinity();
    for (unsigned b = 0; b < blocks; ++b)
        row_max = fmaxf(row_max, cluster.map_shared_rank(published, b)[0]);

    float sum = 0.0f;
    for (int j = threadIdx.x; j < count; j += blockDim.x) sum += FastExp(ToFloat(s[j]) - row_max);
    sum = BlockSum(sum, scratch);
    if (threadIdx.x == 0) published[1] = sum;
    cluster.sync();
    float row_sum = 0.0f;
    for (unsigned b = 0; b < blocks; ++b) row_sum += cluster.map_shared_rank(published, b)[1];
    cluster.sync();  // no block leaves (its shared memory gone) while another still reads it
    const float inv = 1.0f / row_sum;

    if (aligned) {
        for (int c = threadIdx.x; c < count / V; c += blockDim.x) {
            const uint4 raw = stage[c];
            const T* v = reinterpret_cast<const T*>(&raw);
            float out[V];
#pragma unroll
            for (int i = 0; i < V; ++i) out[i] = FastExp(ToFloat(v[i]) - row_max) * inv;
            StoreChunk(o, c, count, true, out);
        }
    } else {
        for (int j = threadIdx.x; j < count; j += blockDim.x)
            o[j] = FromFloat<T>(FastExp(ToFloat(s[j]) - row_max) * inv);
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
        for (int i = 0; i < V; ++i) sum += FastExp(v[i] - max);
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
        for (int i = 0; i < V; ++i) v[i] = FastExp(v[i] - pair.max) * inv;
        StoreChunk(o, c, count, aligned, v);
    }
}

namespace {

// A part of at most 64 KiB per block, so that three blocks fit an SM's shared memory; at most
// 8 blocks a cluster (the portable size).
constexpr long long kPartBytes = 64 * 1024;
constexpr int kMaxCluster = 8;
// The split's part: 16K elements a block.
constexpr int kSplitPart = 16384;

struct Plan {
    bool cluster = false;
    int blocks_per_row = 1;
    int part = 0;  // elements a block
};

template <typename T>
Plan PlanFor(int n) {
    Plan p;
    int device = 0, major = 0;
    const bool hopper =
        cudaGetDevice(&device) == cudaSuccess &&
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess &&
        major >= 9;
    const long long bytes = static_cast<long long>(n) * sizeof(T);
    int c = 1;
    while (c < kMaxCluster && bytes > c * kPartBytes) c *= 2;
    if (hopper && bytes <= c * kPartBytes) {
        p.cluster = true;
        p.blocks_per_row = c;
        constexpr int V = ChunkCount<T>();
        p.part = static_cast<int>(((n + c - 1) / c + V - 1) / V * V);  // a multiple of V
        return p;
    }
    p.part = kSplitPart;
    p.blocks_per_row = static_cast<int>((static_cast<long long>(n) + kSplitPart - 1) / kSplitPart);
    return p;
}

template <typename T>
const void* Pick(int n, int) {
    return PlanFor<T>(n).cluster
               ? reinterpret_cast<const void*>(&softmax_cluster_kernel<T>)
               : reinterpret_cast<const void*>(&softmax_cluster_split_pairs_kernel<T>);
}

// The split's pairs: 8 bytes for each part of each row.
size_t Workspace(int m, int n) {
    return static_cast<size_t>(m) * ((static_cast<size_t>(n) + kSplitPart - 1) / kSplitPart) *
           sizeof(MaxSum);
}

template <typename T>
cudaError_t Launch(const void* x, void* y, const void* workspace, int m, int n, int block,
                   cudaStream_t s) {
    const Plan plan = PlanFor<T>(n);
    const T* xt = static_cast<const T*>(x);
    T* yt = static_cast<T*>(y);
    const unsigned grid = static_cast<unsigned>(static_cast<long long>(m) * plan.blocks_per_row);
    if (plan.cluster) {
        const size_t smem = static_cast<size_t>(plan.part) * sizeof(T);
        static std::once_flag raised;  // the kernel's limit, raised once to the largest part
        std::call_once(raised, [] {
            cudaFuncSetAttribute(&softmax_cluster_kernel<T>,
                                 cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(kPartBytes));
        });
        cudaLaunchConfig_t config = {};
        config.gridDim = dim3(grid);
        config.blockDim = dim3(block);
        config.dynamicSmemBytes = smem;
        config.stream = s;
        cudaLaunchAttribute attribute[1];
        attribute[0].id = cudaLaunchAttributeClusterDimension;
        attribute[0].val.clusterDim.x = static_cast<unsigned>(plan.blocks_per_row);
        attribute[0].val.clusterDim.y = 1;
        attribute[0].val.clusterDim.z = 1;
        config.attrs = attribute;
        config.numAttrs = 1;
        return cudaLaunchKernelEx(&config, &softmax_cluster_kernel<T>, xt, yt, m, n, plan.part);
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
    {"softmax_cluster_kernel", false, &Pick<float>, &Launch<float>, 0, &Workspace},
    {"softmax_cluster_kernel", true, &Pick<__nv_bfloat16>, &Launch<__nv_bfloat16>, 0, &Workspace},
};

LESSONS_KERNELS(kSoftmaxCluster);

}  // namespace lessons::softmax
