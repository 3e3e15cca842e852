// The row is kept in registers: each thread loads its K elements once, finds their max, turns
// them into exponentials in place, and writes them scaled: one read and one write per element,
// where lesson 9.3 read three times. The group is a warp for rows up to 1024 elements (several
// rows per block, shuffles only, no __syncthreads) and the whole block for longer rows (shuffles,
// then 32 floats of shared memory). A row longer than K elements per thread does not fit: it is
// re-read from global memory in each of the three passes, as in lesson 9.3.
#include "softmax_gpu.cuh"

namespace lessons::softmax {

template <typename T, bool kWarp, int K>
__global__ void softmax_row_in_registers_kernel(const T* __restrict__ x, T* __restrict__ y, int m,
                                                int n) {
    __shared__ float scratch[32];
    const int lanes = kWarp ? 32 : blockDim.x;
    const int lane = kWarp ? threadIdx.x % 32 : threadIdx.x;
    const long long row =
        kWarp ? static_cast<long long>(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32
              : blockIdx.x;
    if (row >= m) return;  // the whole warp (or block) alike
    const T* r = x + static_cast<size_t>(row) * n;
    T* o = y + static_cast<size_t>(row) * n;
    if (n <= K * lanes) {
        float v[K];
        float max = -Infinity();
#pragma unroll
        for (int k = 0; k < K; ++k) {
            const int j = k * lanes + lane;
            v[k] = j < n ? ToFloat(r[j]) : -Infinity();
            max = fmaxf(max, v[k]);
        }
        max = GroupMax<kWarp>(max, scratch);
        float sum = 0.0f;
#pragma unroll
        for (int k = 0; k < K; ++k) {
            v[k] = k * lanes + lane < n ? FastExp(v[k] - max) : 0.0f;
            sum += v[k];
        }
        const float inv = 1.0f / GroupSum<kWarp>(sum, scratch);
#pragma unroll
        for (int k = 0; k < K; ++k) {
            const int j = k * lanes + lane;
            if (j < n) o[j] = FromFloat<T>(v[k] * inv);
        }
    } else {  // too long for registers: three passes over global memory
        float max = -Infinity();
        for (int j = lane; j < n; j += lanes) max = fmaxf(max, ToFloat(r[j]));
        max = GroupMax<kWarp>(max, scratch);
        float sum = 0.0f;
        for (int j = lane; j < n; j += lanes) sum += FastExp(ToFloat(r[j]) - max);
        const float inv = 1.0f / GroupSum<kWarp>(sum, scratch);
        for (int j = lane; j < n; j += lanes)
            o[j] = FromFloat<T>(FastExp(ToFloat(r[j]) - max) * inv);
    }
}

namespace {

template <typename T, bool kWarp, int K>
const void* Address() {
    return reinterpret_cast<const void*>(&softmax_row_in_registers_kernel<T, kWarp, K>);
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
        case 8:
            return Address<T, kWarp, 8>();
        case 16:
            return Address<T, kWarp, 16>();
        default:
            return Address<T, true, 32>();  // the warp's alone
    }
}

// The instance for (n, block): a warp per row while n <= 32 × 32, K the smallest power of two
// that covers the row; else a block per row with K up to 16 (longer rows are re-read); a smaller
// K where the registers would not leave room for `block` threads.
template <typename T>
const void* Pick(int n, int block, int) {
    if (n <= 1024) return ChooseK((n + 31) / 32, 32, block, &Instance<T, true>);
    return ChooseK((static_cast<long long>(n) + block - 1) / block, 16, block, &Instance<T, false>);
}

template <typename T>
cudaError_t Launch(const void* x, void* y, const void*, int m, int n, int block, int,
                   cudaStream_t s) {
    const long long rows_per_block = n <= 1024 ? block / 32 : 1;
    const unsigned blocks = static_cast<unsigned>((m + rows_per_block - 1) / rows_per_block);
    const T* xt = static_cast<const T*>(x);
    T* yt = static_cast<T*>(y);
    void* args[] = {&xt, &yt, &m, &n};
    return cudaLaunchKernel(Pick<T>(n, block, 0), dim3(blocks), dim3(block), args, 0, s);
}

}  // namespace

const SoftmaxKernel kSoftmaxRowInRegisters[] = {
    {"softmax_row_in_registers_kernel", false, &Pick<float>, &Launch<float>},
    {"softmax_row_in_registers_kernel", true, &Pick<__nv_bfloat16>, &Launch<__nv_bfloat16>},
};

LESSONS_KERNELS(kSoftmaxRowInRegisters);

}  // namespace lessons::softmax
