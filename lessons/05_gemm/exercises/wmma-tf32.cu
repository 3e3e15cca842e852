// Exercise 5.10: the tensor cores through WMMA, in TF32. The harness runs the tile
// 128t-128x128x16-w64x64: ceil(n / BN) x ceil(m / BM) blocks of 128 threads (four warps, each
// owning a 64 x 64 tile of C), each with 41,984 bytes of dynamic shared memory (two A tiles of
// BM x (16 + 4) floats, two B tiles of 16 x (BN + 8), a 16 x 16 staging tile per warp). The
// check allows TF32's rounding (10 bits of mantissa in A and B).
// As it stands every thread computes BM x BN / 128 elements of C one at a time in fp32 from
// global memory: right, and slow. Use wmma fragments (m16n16k8, precision::tf32) on tiles staged
// in shared memory, two tiles deep so the next k-slice loads while this one multiplies.
#include <mma.h>

constexpr int BM = 128, BN = 128, WARPS_M = 2, WARPS_N = 2, MIN_BLOCKS = 2;

__global__ void __launch_bounds__(32 * WARPS_M * WARPS_N, MIN_BLOCKS)
    gemm_wmma_tf32_kernel(int m, int n, int k, const float* a, const float* b, float* c) {
    constexpr int kThreads = 32 * WARPS_M * WARPS_N;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    for (int e = threadIdx.x; e < BM * BN; e += kThreads) {
        const int row = row0 + e / BN, col = col0 + e % BN;
        if (row >= m || col >= n) continue;
        float sum = 0.0f;
        for (int i = 0; i < k; ++i) sum += a[size_t(row) * k + i] * b[size_t(i) * n + col];
        c[size_t(row) * n + col] = sum;
    }
}
