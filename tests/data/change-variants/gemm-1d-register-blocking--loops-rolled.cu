// lesson: gemm/1d-register-blocking
// FOUND: the change without #pragma unroll (the compiler unrolls the k loop only partly)
constexpr int BM = 128, BN = 64, BK = 8, TM = 16;
__global__ void __launch_bounds__(BM* BN / TM)
    gemm_1d_register_blocking_kernel(int m, int n, int k, const float* a, const float* b,
                                     float* c) {
    __shared__ float as[BM][BK];
    __shared__ float bs[BK][BN];
    const int tid = threadIdx.x, tx = tid % BN, ty = tid / BN;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[TM];
    for (int i = 0; i < TM; ++i) acc[i] = 0.0f;
    for (int k0 = 0; k0 < k; k0 += BK) {
        for (int i = tid; i < BM * BK; i += 512)
            as[i / BK][i % BK] = Load1(a, m, k, row0 + i / BK, k0 + i % BK);
        for (int i = tid; i < BK * BN; i += 512)
            bs[i / BN][i % BN] = Load1(b, k, n, k0 + i / BN, col0 + i % BN);
        __syncthreads();
        for (int kk = 0; kk < BK; ++kk) {
            float bv = bs[kk][tx];
            for (int i = 0; i < TM; ++i) acc[i] = fmaf(as[ty * TM + i][kk], bv, acc[i]);
        }
        __syncthreads();
    }
    for (int i = 0; i < TM; ++i) {
        const int row = row0 + ty * TM + i;
        if (row < m && tx + col0 < n) c[size_t(row) * n + col0 + tx] = acc[i];
    }
}
