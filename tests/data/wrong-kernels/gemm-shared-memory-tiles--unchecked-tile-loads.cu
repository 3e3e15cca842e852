// lesson: gemm/shared-memory-tiles
// WRONG: tile loads without edge tests read past the edges of A and B.
constexpr int BM = 16, BN = 16, BK = 64;
__global__ void __launch_bounds__(BM* BN)
    gemm_shared_memory_tiles_kernel(int m, int n, int k, const float* a, const float* b, float* c) {
    __shared__ float as[BM][BK];
    __shared__ float bs[BK][BN];
    const int tid = threadIdx.x, ty = tid / BN, tx = tid % BN;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float sum = 0.0f;
    for (int k0 = 0; k0 < k; k0 += BK) {
        for (int i = tid; i < BM * BK; i += BM * BN)
            as[i / BK][i % BK] = a[size_t(row0 + i / BK) * k + k0 + i % BK];
        for (int i = tid; i < BK * BN; i += BM * BN)
            bs[i / BN][i % BN] = b[size_t(k0 + i / BN) * n + col0 + i % BN];
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) sum += as[ty][kk] * bs[kk][tx];
        __syncthreads();  // the tiles are overwritten next
    }
    if (row0 + ty < m && col0 + tx < n) c[size_t(row0 + ty) * n + col0 + tx] = sum;
}
