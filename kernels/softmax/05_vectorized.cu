// 16-byte loads and stores: each thread moves 4 floats or 8 bf16 values per instruction, so a
// warp's load is 512 bytes and fewer instructions keep more bytes in flight. bf16 is only the
// storage: values are widened to float on load and rounded once on store. The row stays in
// registers as in lesson 9.4 (a warp per row while n <= 32 × 8 vectors, else a block per row up
// to block × 8 vectors, else re-read in three passes). A row whose length is not a multiple of
// the vector (n % 4 for fp32, n % 8 for bf16) is not 16-byte aligned: it takes the scalar loads.
#include "softmax_gpu.cuh"

namespace lessons::softmax {

// K vectors of kVec ? 16 / sizeof(T) : 1 elements per thread (K = 0: re-read the row).
template <typename T, bool kWarp, int K, bool kVec>
__global__ void softmax_05_vectorized_kernel(const T* __restrict__ x, T* __restrict__ y, int m,
                                             int n) {
    constexpr int V = kVec ? Vec16<T>::kCount : 1;
    using Chunk = Vec16<T>;
    __shared__ float scratch[32];
    const int lanes = kWarp ? 32 : blockDim.x;
    const int lane = kWarp ? threadIdx.x % 32 : threadIdx.x;
    const long long row =
        kWarp ? static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32
              : blockIdx.x;
    if (row >= m) return;
    const T* r = x + static_cast<size_t>(row) * n;
    T* o = y + static_cast<size_t>(row) * n;
    const int chunks = n / V;  // n % V == 0 when kVec

    auto load = [&](int c, float* out) {
        if constexpr (kVec) {
            Chunk ch;
            ch.raw = __ldg(reinterpret_cast<const uint4*>(r) + c);
#pragma unroll
            for (int i = 0; i < V; ++i) out[i] = ToFloat(ch.v()[i]);
        } else {
            out[0] = ToFloat(r[c]);
        }
    };
    auto store = [&](int c, const float* in) {
        if constexpr (kVec) {
            Chunk ch;
#pragma unroll
            for (int i = 0; i < V; ++i) ch.v()[i] = FromFloat<T>(in[i]);
            reinterpret_cast<uint4*>(o)[c] = ch.raw;
        } else {
            o[c] = FromFloat<T>(in[0]);
        }
    };

    if constexpr (K > 0) {
        float v[K][V];
        float max = -INFINITY;
#pragma unroll
        for (int k = 0; k < K; ++k) {
            const int c = k * lanes + lane;
            if (c < chunks) {
                load(c, v[k]);
            } else {
#pragma unroll
                for (int i = 0; i < V; ++i) v[k][i] = -INFINITY;
            }
#pragma unroll
            for (int i = 0; i < V; ++i) max = fmaxf(max, v[k][i]);
        }
        max = GroupMax<kWarp>(max, scratch);
        float sum = 0.0f;
#pragma unroll
        for (int k = 0; k < K; ++k) {
            const bool in_row = k * lanes + lane < chunks;
#pragma unroll
            for (int i = 0; i < V; ++i) {
                v[k][i] = in_row ? FastExp(v[k][i] - max) : 0.0f;
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
                store(c, v[k]);
            }
        }
    } else {  // too long for registers: three passes, each a vectorized read of the row
        float v[V];
        float max = -INFINITY;
        for (int c = lane; c < chunks; c += lanes) {
            load(c, v);
#pragma unroll
            for (int i = 0; i < V; ++i) max = fmaxf(max, v[i]);
        }
        max = GroupMax<kWarp>(max, scratch);
        float sum = 0.0f;
        for (int c = lane; c < chunks; c += lanes) {
            load(c, v);
#pragma unroll
            for (int i = 0; i < V; ++i) sum += FastExp(v[i] - max);
        }
        const float inv = 1.0f / GroupSum<kWarp>(sum, scratch);
        for (int c = lane; c < chunks; c += lanes) {
            load(c, v);
#pragma unroll
            for (int i = 0; i < V; ++i) v[i] = FastExp(v[i] - max) * inv;
            store(c, v);
        }
    }
}

namespace {

// Vectors a thread may hold in registers.
constexpr int kMaxVectors = 8;

template <typename T, bool kVec>
constexpr int Width() {
    return kVec ? Vec16<T>::kCount : 1;
}

template <typename T, bool kWarp, int K, bool kVec>
const void* Address() {
    return reinterpret_cast<const void*>(&softmax_05_vectorized_kernel<T, kWarp, K, kVec>);
}

template <typename T, bool kVec>
const void* PickFor(int n, int block) {
    const long long chunks = n / Width<T, kVec>();
    if (chunks <= 32 * kMaxVectors) {
        const long long per_lane = (chunks + 31) / 32;
        if (per_lane <= 1) return Address<T, true, 1, kVec>();
        if (per_lane <= 2) return Address<T, true, 2, kVec>();
        if (per_lane <= 4) return Address<T, true, 4, kVec>();
        return Address<T, true, 8, kVec>();
    }
    const long long per_thread = (chunks + block - 1) / block;
    if (per_thread <= 1) return Address<T, false, 1, kVec>();
    if (per_thread <= 2) return Address<T, false, 2, kVec>();
    if (per_thread <= 4) return Address<T, false, 4, kVec>();
    if (per_thread <= 8) return Address<T, false, 8, kVec>();
    return Address<T, false, 0, kVec>();
}

template <typename T>
bool Vectorized(int n) {
    return n % Vec16<T>::kCount == 0;  // every row starts 16-byte aligned (cudaMalloc'd base)
}

template <typename T>
const void* Pick(int n, int block) {
    return Vectorized<T>(n) ? PickFor<T, true>(n, block) : PickFor<T, false>(n, block);
}

template <typename T>
cudaError_t Launch(const void* x, void* y, const void*, int m, int n, int block, cudaStream_t s) {
    const int width = Vectorized<T>(n) ? Vec16<T>::kCount : 1;
    const bool warp = n / width <= 32 * kMaxVectors;
    const long long rows_per_block = warp ? block / 32 : 1;
    const unsigned blocks = static_cast<unsigned>((m + rows_per_block - 1) / rows_per_block);
    const T* xt = static_cast<const T*>(x);
    T* yt = static_cast<T*>(y);
    void* args[] = {&xt, &yt, &m, &n};
    return cudaLaunchKernel(Pick<T>(n, block), dim3(blocks), dim3(block), args, 0, s);
}

}  // namespace

const SoftmaxKernel kSoftmax05[] = {
    {"softmax_05_vectorized_kernel", false, &Pick<float>, &Launch<float>},
    {"softmax_05_vectorized_kernel", true, &Pick<__nv_bfloat16>, &Launch<__nv_bfloat16>},
};

LESSONS_KERNELS(kSoftmax05);

}  // namespace lessons::softmax
