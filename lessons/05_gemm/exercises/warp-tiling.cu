// Exercise 5.7: warp tiling. The harness runs the step's tile 256t-128x128x16-w64x32: blocks
// of THREADS = 256 threads in one dimension, ceil(n / BN) × ceil(m / BM) of them. The block's
// BM × BN tile of C is split into (BM / WM) · (BN / WN) = 8 warp tiles of WM × WN, one per warp,
// and each thread still computes 8 × 8 outputs. Load4, Store4 and the
// pieces of step 5.6's kernel it calls (gemm_tile_io.cuh: Spread4, a float4 into four
// registers; OuterProduct; StoreBlock<true>) are declared for you.
// This is step 5.6's kernel at this tile: right, but a thread's 8 × 8 outputs are one
// contiguous block, so the 32 lanes' float4 reads of the B tile are 32 bytes apart and collide
// in shared-memory banks. Give each warp its WM × WN tile, and each lane four 4 × 4 pieces of
// it, WM / 2 rows and WN / 2 columns apart, so that neighbouring lanes read neighbouring float4s.
constexpr int BM = 128, BN = 128, BK = 16, WM = 64, WN = 32, THREADS = 256;

__global__ void __launch_bounds__(THREADS)
    gemm_warp_tiling_kernel(int m, int n, int k, const float* a, const float* b, float* c) {
    static_assert((BM / WM) * (BN / WN) * 32 == THREADS, "one warp per warp tile");
    // Step 5.6's thread tile and thread map.
    constexpr int TM = 8, TN = 8;
    __shared__ __align__(16) float as[BK][BM + 4];  // transposed: as[kk][row]
    __shared__ __align__(16) float bs[BK][BN];
    const int tid = threadIdx.x, tx = tid % (BN / TN), ty = tid / (BN / TN);
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float sum[TM][TN] = {};
    float ra[TM], rb[TN];
    for (int k0 = 0; k0 < k; k0 += BK) {
        for (int i = tid; i < BM * BK / 4; i += THREADS) {
            const int r = i / (BK / 4), kc = (i % (BK / 4)) * 4;
            const float4 v = Load4(a, m, k, row0 + r, k0 + kc);
            as[kc + 0][r] = v.x;
            as[kc + 1][r] = v.y;
            as[kc + 2][r] = v.z;
            as[kc + 3][r] = v.w;
        }
        for (int i = tid; i < BK * BN / 4; i += THREADS) {
            const int r = i / (BN / 4), cc = (i % (BN / 4)) * 4;
            *reinterpret_cast<float4*>(&bs[r][cc]) = Load4(b, k, n, k0 + r, col0 + cc);
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
            for (int i = 0; i < TM; i += 4)
                Spread4(ra + i, *reinterpret_cast<const float4*>(&as[kk][ty * TM + i]));
#pragma unroll
            for (int j = 0; j < TN; j += 4)
                Spread4(rb + j, *reinterpret_cast<const float4*>(&bs[kk][tx * TN + j]));
            OuterProduct(sum, ra, rb);
        }
        __syncthreads();
    }
    StoreBlock<true>(c, m, n, row0 + ty * TM, col0 + tx * TN, sum);
}
