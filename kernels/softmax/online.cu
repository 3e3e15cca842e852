// Online softmax (Milakov and Gimelshein, 2018): the max and the sum in one pass. Each thread
// keeps a running pair (max, sum of exp(x - max)); when a larger value arrives, the sum so far is
// rescaled by exp(old max - new max). Pairs merge the same way across lanes and warps. So the row
// is read twice (once for the pair, once to write) whatever its length, where lesson 9.5 reads
// it once while it fits in registers and three times when it does not.
#include "softmax_gpu.cuh"

namespace lessons::softmax {

template <typename T, bool kWarp>
__global__ void softmax_online_kernel(const T* __restrict__ x, T* __restrict__ y, int m, int n) {
    constexpr int V = ChunkCount<T>();
    __shared__ float scratch_max[32], scratch_sum[32];
    const int lanes = kWarp ? 32 : blockDim.x;
    const int lane = kWarp ? threadIdx.x % 32 : threadIdx.x;
    const long long row =
        kWarp ? static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32
              : blockIdx.x;
    if (row >= m) return;
    const T* r = x + static_cast<size_t>(row) * n;
    T* o = y + static_cast<size_t>(row) * n;
    const int chunks = (n + V - 1) / V;
    const bool aligned = n % V == 0;

    // Pass 1: the running pair, one rescale per chunk (padding is -inf: exp gives 0).
    MaxSum pair{-Infinity(), 0.0f};
    float v[V];
    for (int c = lane; c < chunks; c += lanes) {
        LoadChunk(r, c, n, aligned, v, -Infinity());
        float local = v[0];
#pragma unroll
        for (int i = 1; i < V; ++i) local = fmaxf(local, v[i]);
        const float max = fmaxf(pair.max, local);
        float sum = pair.sum * FastExp(pair.max - max);  // 0 while pair.max is -inf
#pragma unroll
        for (int i = 0; i < V; ++i) sum += FastExp(v[i] - max);
        pair = {max, sum};
    }
    pair = WarpMerge(pair);
    if constexpr (!kWarp) {
        const int warp = threadIdx.x / 32, warps = blockDim.x / 32, l = threadIdx.x % 32;
        if (l == 0) {
            scratch_max[warp] = pair.max;
            scratch_sum[warp] = pair.sum;
        }
        __syncthreads();
        pair = l < warps ? MaxSum{scratch_max[l], scratch_sum[l]} : MaxSum{-Infinity(), 0.0f};
        pair = WarpMerge(pair);
    }
    const float inv = 1.0f / pair.sum;

    // Pass 2: read again, write exp(x - max) / sum.
    for (int c = lane; c < chunks; c += lanes) {
        LoadChunk(r, c, n, aligned, v, -Infinity());
#pragma unroll
        for (int i = 0; i < V; ++i) v[i] = FastExp(v[i] - pair.max) * inv;
        StoreChunk(o, c, n, aligned, v);
    }
}

namespace {

// A warp per row while the row has at most 32 × 8 chunks (as in lesson 9.5), else a block.
template <typename T>
bool WarpPerRow(int n) {
    return (static_cast<long long>(n) + ChunkCount<T>() - 1) / ChunkCount<T>() <= 32 * 8;
}

template <typename T>
const void* Pick(int n, int, int) {
    return WarpPerRow<T>(n) ? reinterpret_cast<const void*>(&softmax_online_kernel<T, true>)
                            : reinterpret_cast<const void*>(&softmax_online_kernel<T, false>);
}

template <typename T>
cudaError_t Launch(const void* x, void* y, const void*, int m, int n, int block, int,
                   cudaStream_t s) {
    const long long rows_per_block = WarpPerRow<T>(n) ? block / 32 : 1;
    const unsigned blocks = static_cast<unsigned>((m + rows_per_block - 1) / rows_per_block);
    const T* xt = static_cast<const T*>(x);
    T* yt = static_cast<T*>(y);
    void* args[] = {&xt, &yt, &m, &n};
    return cudaLaunchKernel(Pick<T>(n, block, 0), dim3(blocks), dim3(block), args, 0, s);
}

}  // namespace

const SoftmaxKernel kSoftmaxOnline[] = {
    {"softmax_online_kernel", false, &Pick<float>, &Launch<float>},
    {"softmax_online_kernel", true, &Pick<__nv_bfloat16>, &Launch<__nv_bfloat16>},
};

LESSONS_KERNELS(kSoftmaxOnline);

}  // namespace lessons::softmax
