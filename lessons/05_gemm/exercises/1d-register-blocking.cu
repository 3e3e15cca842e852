// Exercise 5.4: 1D register blocking. The harness runs the step's tile 512t-128x64x8-16x1:
// blocks of BM · BN / TM = 512 threads in one dimension, ceil(n / BN) × ceil(m / BM) of them.
// Thread tid computes TM outputs of one column of the block's BM × BN tile of C: column
// tx = tid % BN, rows ty * TM .. ty * TM + TM - 1 with ty = tid / BN. Load1 and LoadTiles1
// (step 5.3's tile copy, one float at a time) are declared for you (gemm_tile_io.cuh).
// This is step 5.3's kernel run once for each of the thread's TM outputs: right, but it walks
// k TM times, loading every tile TM times, and reads two floats of shared memory for each
// multiply-add. Walk k once, keep the TM sums in registers, and load the B tile's element once
// per step of k for all TM of them.
constexpr int BM = 128, BN = 64, BK = 8, TM = 16;

__global__ void __launch_bounds__(BM* BN / TM)
    gemm_1d_register_blocking_kernel(int m, int n, int k, const float* a, const float* b,
                                     float* c) {
    constexpr int kThreads = BM * BN / TM;
    __shared__ float as[BM][BK];
    __shared__ float bs[BK][BN];
    const int tid = threadIdx.x, tx = tid % BN, ty = tid / BN;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    const int col = col0 + tx;
    for (int t = 0; t < TM; ++t) {  // one output at a time: a whole pass over k for each
        const int row = row0 + ty * TM + t;
        float sum = 0.0f;
        for (int k0 = 0; k0 < k; k0 += BK) {
            LoadTiles1<BM, BN, BK, kThreads>(as, bs, a, b, m, n, k, row0, col0, k0, tid);
            __syncthreads();
#pragma unroll
            for (int kk = 0; kk < BK; ++kk) sum += as[ty * TM + t][kk] * bs[kk][tx];
            __syncthreads();
        }
        if (row < m && col < n) c[size_t(row) * n + col] = sum;
    }
}
