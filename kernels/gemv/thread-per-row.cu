// One thread per row, the first program anyone writes.
// Thread i walks row i alone and adds a[i][j] * x[j] in a register. Simple, but the 32 threads
// of a warp read 32 different rows, n floats apart: every load instruction touches 32 separate
// memory sectors, and only m threads exist, too few to fill the GPU when m is small.
#include "gemv_gpu.cuh"

namespace lessons::gemv {

__global__ void gemv_thread_per_row_kernel(const float* __restrict__ a, const float* __restrict__ x,
                                           float* __restrict__ y, int m, int n) {
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m) return;
    const float* r = a + static_cast<size_t>(row) * n;
    float sum = 0.0f;
    for (int j = 0; j < n; ++j) sum += r[j] * x[j];
    y[row] = sum;
}

namespace {

cudaError_t Launch(const float* a, const float* x, float* y, int m, int n, int block,
                   cudaStream_t s) {
    const unsigned blocks = static_cast<unsigned>((static_cast<long long>(m) + block - 1) / block);
    gemv_thread_per_row_kernel<<<blocks, block, 0, s>>>(a, x, y, m, n);
    return cudaGetLastError();
}

}  // namespace

const GemvKernel kGemvThreadPerRow{"gemv_thread_per_row_kernel",
                                   reinterpret_cast<const void*>(&gemv_thread_per_row_kernel),
                                   &Launch};

LESSONS_KERNELS(kGemvThreadPerRow);

}  // namespace lessons::gemv
