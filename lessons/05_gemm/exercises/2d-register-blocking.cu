// Exercise 5.5: 2D register blocking. The harness runs the step's tile 256t-64x64x16-4x4:
// blocks of (BM / TM) · (BN / TN) = 256 threads in one dimension, ceil(n / BN) × ceil(m / BM)
// of them. Thread tid computes a TM × TN block of the block's BM × BN tile of C: rows
// ty * TM .. ty * TM + TM - 1 and columns tx * TN .. tx * TN + TN - 1, with
// tx = tid % (BN / TN) and ty = tid / (BN / TN). Load1 and LoadTiles1
// (step 5.3's tile copy) are declared for you (gemm_tile_io.cuh).
// This is step 5.4's kernel run once for each of the thread's TN columns: right, but it walks
// k TN times, loading every tile TN times, and each value of A it reads serves one
// multiply-add. Walk k once: at each step of k load TM values of A and TN of B into registers
// and do all TM · TN multiply-adds between them.
constexpr int BM = 64, BN = 64, BK = 16, TM = 4, TN = 4;

__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    gemm_2d_register_blocking_kernel(int m, int n, int k, const float* a, const float* b,
                                     float* c) {
    constexpr int kThreads = (BM / TM) * (BN / TN);
    __shared__ float as[BM][BK];
    __shared__ float bs[BK][BN];
    const int tid = threadIdx.x, tx = tid % (BN / TN), ty = tid / (BN / TN);
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    for (int j = 0; j < TN; ++j) {  // one column at a time: a whole pass over k for each
        const int col = col0 + tx * TN + j;
        float sum[TM] = {};
        for (int k0 = 0; k0 < k; k0 += BK) {
            LoadTiles1<BM, BN, BK, kThreads>(as, bs, a, b, m, n, k, row0, col0, k0, tid);
            __syncthreads();
#pragma unroll
            for (int kk = 0; kk < BK; ++kk) {
                const float bv = bs[kk][tx * TN + j];  // one load, reused TM times
#pragma unroll
                for (int i = 0; i < TM; ++i) sum[i] += as[ty * TM + i][kk] * bv;
            }
            __syncthreads();
        }
#pragma unroll
        for (int i = 0; i < TM; ++i) {
            const int row = row0 + ty * TM + i;
            if (row < m && col < n) c[size_t(row) * n + col] = sum[i];
        }
    }
}
