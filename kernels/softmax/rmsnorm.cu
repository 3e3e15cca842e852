// RMSNorm with the ladder's final kernel: y = x / sqrt(mean(x²) + eps) · w. The same shape as
// softmax (a reduction along the row, then an elementwise pass) with one reduction instead of
// two: 16-byte loads, the row in registers, a warp per short row and a block per long one. The
// grid is only as large as the GPU holds at once, and each warp (or block) loops over rows: its
// lanes always cover the same columns, so the weights they need are loaded into registers once
// per block, not once per row. Rows too long for registers are read twice (and w with them).
#include "softmax_gpu.cuh"

namespace lessons::softmax {

template <typename T, bool kWarp, int K>
__global__ void rmsnorm_kernel(const T* __restrict__ x, T* __restrict__ y, const T* __restrict__ w,
                               int m, int n) {
    constexpr int V = ChunkCount<T>();
    __shared__ float scratch[32];
    const int lanes = kWarp ? 32 : blockDim.x;
    const int lane = kWarp ? threadIdx.x % 32 : threadIdx.x;
    const long long first =
        kWarp ? static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32
              : blockIdx.x;
    const long long stride =
        kWarp ? static_cast<long long>(gridDim.x) * (blockDim.x / 32) : gridDim.x;
    const int chunks = (n + V - 1) / V;
    const bool aligned = n % V == 0;

    if (chunks <= K * lanes) {
        float weight[K][V];  // this thread's columns of w, loaded once
#pragma unroll
        for (int k = 0; k < K; ++k)
            if (k * lanes + lane < chunks)
                LoadChunk(w, k * lanes + lane, n, aligned, weight[k], 0.0f);
        for (long long row = first; row < m; row += stride) {
            const T* r = x + static_cast<size_t>(row) * n;
            T* o = y + static_cast<size_t>(row) * n;
            float v[K][V];
            float squares = 0.0f;
#pragma unroll
            for (int k = 0; k < K; ++k) {
                if (k * lanes + lane < chunks) {
                    LoadChunk(r, k * lanes + lane, n, aligned, v[k], 0.0f);
#pragma unroll
                    for (int i = 0; i < V; ++i) squares += v[k][i] * v[k][i];
                }
            }
            const float scale = rsqrtf(GroupSum<kWarp>(squares, scratch) / n + 1e-6f);
#pragma unroll
            for (int k = 0; k < K; ++k) {
                if (k * lanes + lane < chunks) {
#pragma unroll
                    for (int i = 0; i < V; ++i) v[k][i] *= scale * weight[k][i];
                    StoreChunk(o, k * lanes + lane, n, aligned, v[k]);
                }
            }
        }
    } else {  // too long for registers: read the row twice, and w each time
        for (long long row = first; row < m; row += stride) {
            const T* r = x + static_cast<size_t>(row) * n;
            T* o = y + static_cast<size_t>(row) * n;
            float v[V], wv[V];
            float squares = 0.0f;
            for (int c = lane; c < chunks; c += lanes) {
                LoadChunk(r, c, n, aligned, v, 0.0f);
#pragma unroll
                for (int i = 0; i < V; ++i) squares += v[i] * v[i];
            }
            const float scale = rsqrtf(GroupSum<kWarp>(squares, scratch) / n + 1e-6f);
            for (int c = lane; c < chunks; c += lanes) {
                LoadChunk(r, c, n, aligned, v, 0.0f);
                LoadChunk(w, c, n, aligned, wv, 0.0f);
#pragma unroll
                for (int i = 0; i < V; ++i) v[i] *= scale * wv[i];
                StoreChunk(o, c, n, aligned, v);
            }
        }
    }
}

namespace {

constexpr int kMaxChunks = 8;

template <typename T, bool kWarp, int K>
const void* Address() {
    return reinterpret_cast<const void*>(&rmsnorm_kernel<T, kWarp, K>);
}

template <typename T>
long long Chunks(int n) {
    return (static_cast<long long>(n) + ChunkCount<T>() - 1) / ChunkCount<T>();
}

template <typename T, bool kWarp>
const void* Instance(int k) {
    switch (k) {
        case 1:
            return Address<T, kWarp, 1>();
        case 2:
            return Address<T, kWarp, 2>();
        case 4:
            return Address<T, kWarp, 4>();
        default:
            return Address<T, kWarp, 8>();
    }
}

// A warp per row while the row has at most 32 × 8 chunks, else a block; K the smallest power of
// two that covers the row (at most 8), smaller where the registers leave no room for `block`.
template <typename T>
const void* Pick(int n, int block) {
    const long long chunks = Chunks<T>(n);
    if (chunks <= 32 * kMaxChunks)
        return ChooseK((chunks + 31) / 32, kMaxChunks, block, &Instance<T, true>);
    return ChooseK((chunks + block - 1) / block, kMaxChunks, block, &Instance<T, false>);
}

template <typename T>
cudaError_t Launch(const void* x, void* y, const void* w, int m, int n, int block, cudaStream_t s) {
    const void* kernel = Pick<T>(n, block);
    const long long rows_per_block = Chunks<T>(n) <= 32 * kMaxChunks ? block / 32 : 1;
    const long long needed = (m + rows_per_block - 1) / rows_per_block;
    // As many blocks as the GPU runs at once, no more: each then loops over its rows.
    const LaunchFacts facts = FactsOf(kernel, block);
    const long long resident = static_cast<long long>(facts.sms > 0 ? facts.sms : 1) *
                               (facts.blocks_per_sm > 0 ? facts.blocks_per_sm : 1);
    const unsigned blocks = static_cast<unsigned>(needed < resident ? needed : resident);
    const T* xt = static_cast<const T*>(x);
    T* yt = static_cast<T*>(y);
    const T* wt = static_cast<const T*>(w);
    void* args[] = {&xt, &yt, &wt, &m, &n};
    return cudaLaunchKernel(kernel, dim3(blocks), dim3(block), args, 0, s);
}

}  // namespace

const SoftmaxKernel kSoftmaxRmsNorm[] = {
    {"rmsnorm_kernel", false, &Pick<float>, &Launch<float>},
    {"rmsnorm_kernel", true, &Pick<__nv_bfloat16>, &Launch<__nv_bfloat16>},
};

LESSONS_KERNELS(kSoftmaxRmsNorm);

}  // namespace lessons::softmax
