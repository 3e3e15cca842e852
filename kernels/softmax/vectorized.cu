// 16-byte loads and stores: each thread moves a chunk of 4 floats or 8 bf16 values per
// instruction, so a warp's load is 512 bytes and fewer instructions keep more bytes in flight.
// bf16 is only the storage: values are widened to float on load and rounded once on store. The
// row stays in registers as in lesson 9.4 (a warp per row while it has at most 32 × 8 chunks, else
// a block per row, up to K chunks per thread, else re-read in three passes). A row whose length
// is not a multiple of the chunk is not 16-byte aligned: its chunks are loaded element by element.
#include "softmax_gpu.cuh"

namespace lessons::softmax {

template <typename T, bool kWarp, int K>
__global__ void softmax_vectorized_kernel(const T* __restrict__ x, T* __restrict__ y, int m,
                                          int n) {
    constexpr int V = ChunkCount<T>();
    __shared__ float scratch[32];
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

    if (chunks <= K * lanes) {
        float v[K][V];
        float max = -Infinity();
#pragma unroll
        for (int k = 0; k < K; ++k) {
            const int c = k * lanes + lane;
            if (c < chunks) {
                LoadChunk(r, c, n, aligned, v[k], -Infinity());
            } else {
#pragma unroll
                for (int i = 0; i < V; ++i) v[k][i] = -Infinity();
            }
#pragma unroll
            for (int i = 0; i < V; ++i) max = fmaxf(max, v[k][i]);
        }
        max = GroupMax<kWarp>(max, scratch);
        float sum = 0.0f;
#pragma unroll
        for (int k = 0; k < K; ++k) {
#pragma unroll
            for (int i = 0; i < V; ++i) {
                // Padding is -inf, and exp(-inf) is 0: it adds nothing.
                v[k][i] = FastExp(v[k][i] - max);
                sum += v[k][i];
            }
        }
        const float inv = 1.0f / GroupSum<kWarp>(sum, scratch);
#pragma unroll
        for (int k = 0; k < K; ++k) {
            const int c = k * lanes + lane;
            if (c < chunks) {
#pragma unroll
                for (int i = 0; i < V; ++i) v[k][i] *= inv;
                StoreChunk(o, c, n, aligned, v[k]);
            }
        }
    } else {  // too long for registers: three passes, each reading the row in chunks
        float v[V];
        float max = -Infinity();
        for (int c = lane; c < chunks; c += lanes) {
            LoadChunk(r, c, n, aligned, v, -Infinity());
#pragma unroll
            for (int i = 0; i < V; ++i) max = fmaxf(max, v[i]);
        }
        max = GroupMax<kWarp>(max, scratch);
        float sum = 0.0f;
        for (int c = lane; c < chunks; c += lanes) {
            LoadChunk(r, c, n, aligned, v, -Infinity());
#pragma unroll
            for (int i = 0; i < V; ++i) sum += FastExp(v[i] - max);
        }
        const float inv = 1.0f / GroupSum<kWarp>(sum, scratch);
        for (int c = lane; c < chunks; c += lanes) {
            LoadChunk(r, c, n, aligned, v, -Infinity());
#pragma unroll
            for (int i = 0; i < V; ++i) v[i] = FastExp(v[i] - max) * inv;
            StoreChunk(o, c, n, aligned, v);
        }
    }
}

namespace {

// Chunks a thread may hold in registers.
constexpr int kMaxChunks = 8;

template <typename T, bool kWarp, int K>
const void* Address() {
    return reinterpret_cast<const void*>(&softmax_vectorized_kernel<T, kWarp, K>);
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
cudaError_t Launch(const void* x, void* y, const void*, int m, int n, int block, cudaStream_t s) {
    const long long rows_per_block = Chunks<T>(n) <= 32 * kMaxChunks ? block / 32 : 1;
    const unsigned blocks = static_cast<unsigned>((m + rows_per_block - 1) / rows_per_block);
    const T* xt = static_cast<const T*>(x);
    T* yt = static_cast<T*>(y);
    void* args[] = {&xt, &yt, &m, &n};
    return cudaLaunchKernel(Pick<T>(n, block), dim3(blocks), dim3(block), args, 0, s);
}

}  // namespace

const SoftmaxKernel kSoftmaxVectorized[] = {
    {"softmax_vectorized_kernel", false, &Pick<float>, &Launch<float>},
    {"softmax_vectorized_kernel", true, &Pick<__nv_bfloat16>, &Launch<__nv_bfloat16>},
};

LESSONS_KERNELS(kSoftmaxVectorized);

}  // namespace lessons::softmax
