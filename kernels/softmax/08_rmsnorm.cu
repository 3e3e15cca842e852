// RMSNorm with the ladder's final kernel: y = x / sqrt(mean(x²) + eps) · w. The same shape as
// softmax (a reduction along the row, then an elementwise pass) with one reduction instead of
// two: 16-byte loads, the row in registers, a warp per short row and a block per long one. The
// grid is only as large as the GPU holds at once, and each warp (or block) loops over rows: its
// lanes always cover the same columns, so the weights they need are loaded into registers once
// per block, not once per row. Rows too long for registers are read twice (and w with them).
#include "softmax_gpu.cuh"

namespace lessons::softmax {

template <typename T, bool kWarp, int K, bool kVec>
__global__ void rmsnorm_08_kernel(const T* __restrict__ x, T* __restrict__ y,
                                  const T* __restrict__ w, int m, int n) {
    constexpr int V = kVec ? Vec16<T>::kCount : 1;
    using Chunk = Vec16<T>;
    __shared__ float scratch[32];
    const int lanes = kWarp ? 32 : blockDim.x;
    const int lane = kWarp ? threadIdx.x % 32 : threadIdx.x;
    const long long first =
        kWarp ? static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32
              : blockIdx.x;
    const long long stride =
        kWarp ? static_cast<long long>(gridDim.x) * (blockDim.x / 32) : gridDim.x;
    const int chunks = n / V;

    auto load = [&](const T* p, int c, float* out) {
        if constexpr (kVec) {
            Chunk ch;
            ch.raw = __ldg(reinterpret_cast<const uint4*>(p) + c);
#pragma unroll
            for (int i = 0; i < V; ++i) out[i] = ToFloat(ch.v()[i]);
        } else {
            out[0] = ToFloat(p[c]);
        }
    };
    auto store = [&](T* p, int c, const float* in) {
        if constexpr (kVec) {
            Chunk ch;
#pragma unroll
            for (int i = 0; i < V; ++i) ch.v()[i] = FromFloat<T>(in[i]);
            reinterpret_cast<uint4*>(p)[c] = ch.raw;
        } else {
            p[c] = FromFloat<T>(in[0]);
        }
    };

    if constexpr (K > 0) {
        float weight[K][V];  // this thread's columns of w, loaded once
#pragma unroll
        for (int k = 0; k < K; ++k)
            if (k * lanes + lane < chunks) load(w, k * lanes + lane, weight[k]);
        for (long long row = first; row < m; row += stride) {
            const T* r = x + static_cast<size_t>(row) * n;
            T* o = y + static_cast<size_t>(row) * n;
            float v[K][V];
            float squares = 0.0f;
#pragma unroll
            for (int k = 0; k < K; ++k) {
                if (k * lanes + lane < chunks) {
                    load(r, k * lanes + lane, v[k]);
#pragma unroll
                    for (int i = 0; i < V; ++i) squares += v[k][i] * v[k][i];
                }
            }
            const float scale = rsqrtf(GroupSum<kWarp>(squares, scratch) / n + float(1e-6));
#pragma unroll
            for (int k = 0; k < K; ++k) {
                if (k * lanes + lane < chunks) {
#pragma unroll
                    for (int i = 0; i < V; ++i) v[k][i] *= scale * weight[k][i];
                    store(o, k * lanes + lane, v[k]);
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
                load(r, c, v);
#pragma unroll
                for (int i = 0; i < V; ++i) squares += v[i] * v[i];
            }
            const float scale = rsqrtf(GroupSum<kWarp>(squares, scratch) / n + float(1e-6));
            for (int c = lane; c < chunks; c += lanes) {
                load(r, c, v);
                load(w, c, wv);
#pragma unroll
                for (int i = 0; i < V; ++i) v[i] *= scale * wv[i];
                store(o, c, v);
            }
        }
    }
}

namespace {

constexpr int kMaxVectors = 8;

template <typename T, bool kWarp, int K, bool kVec>
const void* Address() {
    return reinterpret_cast<const void*>(&rmsnorm_08_kernel<T, kWarp, K, kVec>);
}

template <typename T, bool kVec>
const void* PickFor(int n, int block) {
    const long long chunks = n / (kVec ? Vec16<T>::kCount : 1);
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
    return n % Vec16<T>::kCount == 0;
}

template <typename T>
const void* Pick(int n, int block) {
    return Vectorized<T>(n) ? PickFor<T, true>(n, block) : PickFor<T, false>(n, block);
}

template <typename T>
cudaError_t Launch(const void* x, void* y, const void* w, int m, int n, int block, cudaStream_t s) {
    const void* kernel = Pick<T>(n, block);
    const int width = Vectorized<T>(n) ? Vec16<T>::kCount : 1;
    const bool warp = n / width <= 32 * kMaxVectors;
    const long long rows_per_block = warp ? block / 32 : 1;
    const long long needed = (m + rows_per_block - 1) / rows_per_block;
    // As many blocks as the GPU runs at once, no more: each then loops over its rows.
    int device = 0, sms = 0, per_sm = 0;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (e == cudaSuccess)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0);
    if (e != cudaSuccess) return e;
    const long long resident = static_cast<long long>(sms) * (per_sm > 0 ? per_sm : 1);
    const unsigned blocks = static_cast<unsigned>(needed < resident ? needed : resident);
    const T* xt = static_cast<const T*>(x);
    T* yt = static_cast<T*>(y);
    const T* wt = static_cast<const T*>(w);
    void* args[] = {&xt, &yt, &wt, &m, &n};
    return cudaLaunchKernel(kernel, dim3(blocks), dim3(block), args, 0, s);
}

}  // namespace

const SoftmaxKernel kRmsNorm08[] = {
    {"rmsnorm_08_kernel", false, &Pick<float>, &Launch<float>},
    {"rmsnorm_08_kernel", true, &Pick<__nv_bfloat16>, &Launch<__nv_bfloat16>},
};

LESSONS_KERNELS(kRmsNorm08);

}  // namespace lessons::softmax
