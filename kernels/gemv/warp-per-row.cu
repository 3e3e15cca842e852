// One warp per row, added up with warp shuffles (the seed's GEMV).
// The 32 lanes of a warp read 32 neighbouring floats of the same row, one 128-byte line per
// load instruction instead of 32 scattered sectors, and there are 32 times as many threads to
// hide the latency. Each lane holds a partial sum; five __shfl_down_sync steps add them.
#include "gemv_gpu.cuh"

namespace lessons::gemv {

__global__ void gemv_warp_per_row_kernel(const float* __restrict__ a, const float* __restrict__ x,
                                         float* __restrict__ y, int m, int n) {
    const int lane = threadIdx.x % 32;
    const long long row = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    if (row >= m) return;  // the same for the whole warp: the shuffles below see every lane
    const float* r = a + static_cast<size_t>(row) * n;
    float sum = 0.0f;
    for (int j = lane; j < n; j += 32) sum += r[j] * x[j];
    for (int offset = 16; offset > 0; offset /= 2)
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) y[row] = sum;
}

namespace {

cudaError_t Launch(const float* a, const float* x, float* y, int m, int n, int block,
                   cudaStream_t s) {
    const long long rows_per_block = block / 32;
    const unsigned blocks = static_cast<unsigned>((m + rows_per_block - 1) / rows_per_block);
    gemv_warp_per_row_kernel<<<blocks, block, 0, s>>>(a, x, y, m, n);
    return cudaGetLastError();
}

}  // namespace

const GemvKernel kGemvWarpPerRow{"gemv_warp_per_row_kernel",
                                 reinterpret_cast<const void*>(&gemv_warp_per_row_kernel), &Launch};

LESSONS_KERNELS(kGemvWarpPerRow);

}  // namespace lessons::gemv
