// Exercise 5.8: double buffering with cp.async. The harness runs the step's tile
// 256t-128x256x8-w64x64-s3: blocks of THREADS = 256 threads in one dimension,
// ceil(n / BN) × ceil(m / BM) of them, no dynamic shared memory (STAGES copies of both tiles,
// 37,248 bytes at three stages, fit in static shared memory). Each of the 8 warps owns a
// WM × WN = 64 × 64 tile of the block's BM × BN = 128 × 256. Load4, Store4, step 5.7's
// pieces (LoadTiles4TransposedA, Spread4, OuterProduct) and the step's cp.async helpers Copy4,
// Copy16, CommitCopies and WaitCopies (gemm_tile_io.cuh) are declared for you.
// This is step 5.7's kernel grown to this tile: a thread computes TM × TN = 16 × 8 outputs of
// its warp's tile, in 4 × 4 pieces 16 rows and 32 columns apart, the lanes sitting 4 × 8 in
// the warp tile (this step's lane map, given). As it stands it is right, but every tile goes
// load, __syncthreads, compute, __syncthreads: while a tile comes from global memory nobody
// computes. Keep STAGES copies of the tiles in shared memory and copy the next ones with
// cp.async while the current one is computed on, one __syncthreads per tile.
// The step's own kernel also reads the next k-slice's A and B values into a second set of
// registers while this slice's FMAs run, takes the partial tile of k first (no bounds test on k
// in its main loop) and runs the FMAs in a serpentine order; none of that is needed here.
constexpr int BM = 128, BN = 256, BK = 8, WM = 64, WN = 64, THREADS = 256, STAGES = 3,
              MIN_BLOCKS = 1;

__global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
    gemm_double_buffering_kernel(int m, int n, int k, const float* __restrict__ a,
                                 const float* __restrict__ b, float* __restrict__ c) {
    constexpr int TM = WM / 4, TN = WN / 8;
    static_assert((BM / WM) * (BN / WN) * 32 == THREADS, "one warp per warp tile");
    static_assert(TM % 4 == 0 && TN % 4 == 0 && STAGES >= 2, "thread tile in groups of 4");
    __shared__ __align__(16) float as[BK][BM + 4];  // transposed, padded: as[kk][row]
    __shared__ __align__(16) float bs[BK][BN];
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int ty = (lane / 16) * 2 + lane % 2, tx = (lane / 2) % 8;  // the lane's place, 4 × 8
    const int wm = (warp / (BN / WN)) * WM, wn = (warp % (BN / WN)) * WN;  // the warp's tile
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float sum[TM][TN] = {};
    float fa[TM], fb[TN];
    for (int k0 = 0; k0 < k; k0 += BK) {
        LoadTiles4TransposedA<BM, BN, BK, THREADS>(as, bs, a, b, m, n, k, row0, col0, k0, tid);
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
            for (int g = 0; g < TM / 4; ++g)  // rows wm + g * 16 + ty * 4 .. + 3
                Spread4(fa + g * 4,
                        *reinterpret_cast<const float4*>(&as[kk][wm + g * 16 + ty * 4]));
#pragma unroll
            for (int h = 0; h < TN / 4; ++h)  // columns wn + h * 32 + tx * 4 .. + 3
                Spread4(fb + h * 4,
                        *reinterpret_cast<const float4*>(&bs[kk][wn + h * 32 + tx * 4]));
            OuterProduct(sum, fa, fb);
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int h = 0; h < TN / 4; ++h)
            Store4(c, m, n, row0 + wm + (i / 4) * 16 + ty * 4 + i % 4, col0 + wn + h * 32 + tx * 4,
                   make_float4(sum[i][h * 4], sum[i][h * 4 + 1], sum[i][h * 4 + 2],
                               sum[i][h * 4 + 3]));
}
