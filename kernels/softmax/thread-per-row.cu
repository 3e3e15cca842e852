// The first GPU step: one thread per row, the CPU's three passes unchanged. Thread i walks row i
// alone, so at each load the 32 threads of a warp touch 32 different rows, n elements apart: 32
// sectors for 32 useful values, and the row is read three times. Only many rows hide that.
#include "softmax_gpu.cuh"

namespace lessons::softmax {

template <typename T>
__global__ void softmax_thread_per_row_kernel(const T* __restrict__ x, T* __restrict__ y, int m,
                                              int n) {
    const long long row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (row >= m) return;
    const T* r = x + static_cast<size_t>(row) * n;
    T* o = y + static_cast<size_t>(row) * n;
    float max = -Infinity();
    for (int j = 0; j < n; ++j) max = fmaxf(max, ToFloat(r[j]));
    float sum = 0.0f;
    for (int j = 0; j < n; ++j) sum += FastExp(ToFloat(r[j]) - max);
    const float inv = 1.0f / sum;
    for (int j = 0; j < n; ++j) o[j] = FromFloat<T>(FastExp(ToFloat(r[j]) - max) * inv);
}

namespace {

template <typename T>
const void* Pick(int, int, int) {
    return reinterpret_cast<const void*>(&softmax_thread_per_row_kernel<T>);
}

template <typename T>
cudaError_t Launch(const void* x, void* y, const void*, int m, int n, int block, int,
                   cudaStream_t s) {
    const unsigned blocks = static_cast<unsigned>((static_cast<long long>(m) + block - 1) / block);
    softmax_thread_per_row_kernel<T>
        <<<blocks, block, 0, s>>>(static_cast<const T*>(x), static_cast<T*>(y), m, n);
    return cudaGetLastError();
}

}  // namespace

const SoftmaxKernel kSoftmaxThreadPerRow[] = {
    {"softmax_thread_per_row_kernel", false, &Pick<float>, &Launch<float>},
    {"softmax_thread_per_row_kernel", true, &Pick<__nv_bfloat16>, &Launch<__nv_bfloat16>},
};

LESSONS_KERNELS(kSoftmaxThreadPerRow);

}  // namespace lessons::softmax
