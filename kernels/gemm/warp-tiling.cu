// Warp tiling.
// With 16-byte loads, a thread's 8 × 8 outputs are one contiguous block, so the 32 threads of
// a warp read float4s of the B tile 32 bytes apart and collide in shared-memory banks. Here
// each warp owns a WM × WN sub-tile of the block tile, and each thread owns four 4 × 4 pieces
// of it, WM/2 rows and WN/2 columns apart: a warp's float4 reads of A and of B then cover 128
// and 64 consecutive bytes, conflict-free, and the warp, the unit the scheduler issues, works
// on one compact region (a level of tiling between the block and the thread).
#include "gemm_gpu.cuh"
#include "gemm_tile_io.cuh"
#include "gemm_tiles.h"
#include "kernel_table.h"

namespace lessons::gemm {

template <int BM, int BN, int BK, int WM, int WN, int THREADS>
__global__ void __launch_bounds__(THREADS)
    gemm_warp_tiling_kernel(int m, int n, int k, const float* a, const float* b, float* c) {
    static_assert((BM / WM) * (BN / WN) * 32 == THREADS, "one warp per warp tile");
    static_assert((WM / 8) * (WN / 8) == 32, "a thread computes 8 x 8 of its warp's tile");
    static_assert((BM * BK / 4) % THREADS == 0 && (BK * BN / 4) % THREADS == 0, "even loads");
    __shared__ __align__(16) float as[BK][BM + 4];  // transposed, padded: as[kk][row]
    __shared__ __align__(16) float bs[BK][BN];
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int wr = (warp / (BN / WN)) * WM, wc = (warp % (BN / WN)) * WN;  // the warp's tile
    const int lr = lane / (WN / 8), lc = lane % (WN / 8);  // the thread's place in it
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float sum[8][8] = {};
    float ra[8], rb[8];
    for (int k0 = 0; k0 < k; k0 += BK) {
#pragma unroll
        for (int i = tid; i < BM * BK / 4; i += THREADS) {
            const int r = i / (BK / 4), kc = (i % (BK / 4)) * 4;
            const float4 v = Load4(a, m, k, row0 + r, k0 + kc);
            as[kc + 0][r] = v.x;
            as[kc + 1][r] = v.y;
            as[kc + 2][r] = v.z;
            as[kc + 3][r] = v.w;
        }
#pragma unroll
        for (int i = tid; i < BK * BN / 4; i += THREADS) {
            const int r = i / (BN / 4), cc = (i % (BN / 4)) * 4;
            *reinterpret_cast<float4*>(&bs[r][cc]) = Load4(b, k, n, k0 + r, col0 + cc);
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                Spread4(ra + h * 4,
                        *reinterpret_cast<const float4*>(&as[kk][wr + h * (WM / 2) + lr * 4]));
                Spread4(rb + h * 4,
                        *reinterpret_cast<const float4*>(&bs[kk][wc + h * (WN / 2) + lc * 4]));
            }
            OuterProduct(sum, ra, rb);
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int row = row0 + wr + (i / 4) * (WM / 2) + lr * 4 + i % 4;
#pragma unroll
        for (int h = 0; h < 2; ++h)
            Store4(c, m, n, row, col0 + wc + h * (WN / 2) + lc * 4,
                   make_float4(sum[i][h * 4], sum[i][h * 4 + 1], sum[i][h * 4 + 2],
                               sum[i][h * 4 + 3]));
    }
}

namespace {

// Every thread computes 8 × 8 of its warp's WM × WN tile.
LESSONS_KERNEL_TABLE(
    kGemmWarpTiling, kTilesWarpTiling, [name = "gemm_warp_tiling_kernel"]<GemmTile T>() {
        static_assert((T.bm / T.wm) * (T.bn / T.wn) * 32 == T.threads, "one warp per warp tile");
        return TiledKernel<T, &gemm_warp_tiling_kernel<T.bm, T.bn, T.bk, T.wm, T.wn, T.threads>>(
            name);
    });

}  // namespace

}  // namespace lessons::gemm
