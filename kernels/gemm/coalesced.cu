// Coalesced GEMM: the naive step's arithmetic with the thread indices swapped.
// Now the 32 threads of a warp take 32 neighbouring COLUMNS of one row: their loads of B and
// their stores of C are 32 consecutive floats (one 128-byte transaction instead of 32), and
// they all read the same element of A, which the hardware broadcasts. Nothing else changes.
#include "gemm_gpu.cuh"

namespace lessons::gemm {

__global__ void gemm_coalesced_kernel(int m, int n, int k, const float* a, const float* b,
                                      float* c) {
    const int col = blockIdx.x * 32 + threadIdx.x;  // x walks along a row of C
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n) return;
    float sum = 0.0f;
    for (int i = 0; i < k; ++i) sum += a[size_t(row) * k + i] * b[size_t(i) * n + col];
    c[size_t(row) * n + col] = sum;
}

namespace {

// Launched with the `block` parameter's threads, not a tile; x walks the columns of C.
const GemmKernel kGemmCoalesced =
    BlockKernel<&gemm_coalesced_kernel, false>("gemm_coalesced_kernel");

}  // namespace

LESSONS_KERNELS(kGemmCoalesced);

}  // namespace lessons::gemm
