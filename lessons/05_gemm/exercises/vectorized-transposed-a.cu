// Exercise 5.6: 16-byte loads and a transposed A tile. The harness runs the step's tile
// 256t-128x128x16-8x8: blocks of (BM / TM) · (BN / TN) = 256 threads in one dimension,
// ceil(n / BN) × ceil(m / BM) of them, each thread computing the TM × TN block of step 5.5
// (rows ty * TM .., columns tx * TN .. of the block's tile, tx = tid % (BN / TN),
// ty = tid / (BN / TN)). Load4(p, rows, cols, row, col) and Store4(p, rows, cols, row, col, v)
// are declared for you (gemm_tile_io.cuh): elements col .. col + 3 of a row, one 16-byte access
// where the row is 16-byte aligned and all four are inside, single floats otherwise (zero
// outside the matrix; only the elements inside are stored). So are the pieces of step 5.5's
// kernel it calls: LoadTiles1 (its tile copy, one float at a time), OuterProduct (its
// TM · TN multiply-adds) and StoreBlock<kVec> (a thread's block of C, kVec: with Store4).
// This is step 5.5's kernel at this tile: right, but it moves the tiles and C one float per
// instruction, and a thread's TM values of A at one k lie in TM rows of the A tile. Load and
// store 16 bytes at a time, and store the A tile transposed (k-major) so those TM values are
// contiguous.
constexpr int BM = 128, BN = 128, BK = 16, TM = 8, TN = 8;

__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    gemm_vectorized_transposed_a_kernel(int m, int n, int k, const float* a, const float* b,
                                        float* c) {
    constexpr int kThreads = (BM / TM) * (BN / TN);
    __shared__ float as[BM][BK];
    __shared__ float bs[BK][BN];
    const int tid = threadIdx.x, tx = tid % (BN / TN), ty = tid / (BN / TN);
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float sum[TM][TN] = {};
    float ra[TM], rb[TN];
    for (int k0 = 0; k0 < k; k0 += BK) {
        LoadTiles1<BM, BN, BK, kThreads>(as, bs, a, b, m, n, k, row0, col0, k0, tid);
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
            for (int i = 0; i < TM; ++i) ra[i] = as[ty * TM + i][kk];
#pragma unroll
            for (int j = 0; j < TN; ++j) rb[j] = bs[kk][tx * TN + j];
            OuterProduct(sum, ra, rb);
        }
        __syncthreads();
    }
    StoreBlock<false>(c, m, n, row0 + ty * TM, col0 + tx * TN, sum);
}
