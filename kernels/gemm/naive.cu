// Naive GEMM, one thread per element of C.
// Each thread walks a row of A and a column of B and writes one C[row][col]. Threads next to
// each other in a warp take neighbouring ROWS, so a warp's 32 loads of A (and its 32 stores of
// C) land in 32 different rows: nothing coalesces, and every load is a separate transaction.
// This is the baseline the chapter climbs from.
#include "gemm_gpu.cuh"

namespace lessons::gemm {

__global__ void gemm_naive_kernel(int m, int n, int k, const float* a, const float* b, float* c) {
    const int row = blockIdx.x * 32 + threadIdx.x;  // x, the fastest index, walks down a column
    const int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n) return;
    float sum = 0.0f;
    for (int i = 0; i < k; ++i) sum += a[size_t(row) * k + i] * b[size_t(i) * n + col];
    c[size_t(row) * n + col] = sum;
}

namespace {

// Launched with the `block` parameter's threads, not a tile; x walks the rows of C.
const GemmKernel kGemmNaive = BlockKernel<&gemm_naive_kernel, true>("gemm_naive_kernel");

}  // namespace

LESSONS_KERNELS(kGemmNaive);

}  // namespace lessons::gemm
