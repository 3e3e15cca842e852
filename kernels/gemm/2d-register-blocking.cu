// 2D register blocking: each thread computes a TM × TN block of C.
// A thread now loads TM floats of the A tile and TN of the B tile per step of k and does
// TM·TN multiply-adds with them (an outer product in registers): 16 loads for 64 FMAs at
// 8 × 8, against 1 + TM loads for TM FMAs with 1D blocking. In the 8 × 8 configurations the
// block tile grows to 128 × 128, so each float brought from global memory serves 128 outputs;
// the default, 4 × 4 on 64 × 64 tiles, needs fewer registers and fits more blocks on an SM.
#include "gemm_gpu.cuh"
#include "gemm_tile_io.cuh"
#include "gemm_tiles.h"
#include "kernel_table.h"

namespace lessons::gemm {

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    gemm_2d_register_blocking_kernel(int m, int n, int k, const float* a, const float* b,
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

namespace {

LESSONS_KERNEL_TABLE(
    kGemm2dRegisterBlocking, kTiles2dRegisterBlocking,
    [name = "gemm_2d_register_blocking_kernel"]<GemmTile T>() {
        static_assert((T.bm / T.tm) * (T.bn / T.tn) == T.threads,
                      "a block has BM/TM × BN/TN threads");
        return TiledKernel<T, &gemm_2d_register_blocking_kernel<T.bm, T.bn, T.bk, T.tm, T.tn>>(
            name);
    });

}  // namespace

}  // namespace lessons::gemm
