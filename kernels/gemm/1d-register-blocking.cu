// 1D register blocking: each thread computes TM outputs of one column of C.
// With shared-memory tiles every multiply-add needs two shared-memory loads. Here a thread
// keeps TM sums in registers and reuses one element of the B tile for all of them: per step of
// k it loads 1 + TM floats from shared memory for TM multiply-adds instead of 2·TM. Fewer,
// larger blocks of threads also move each tile from global memory once for BM × BN outputs.
#include "gemm_gpu.cuh"
#include "gemm_tile_io.cuh"
#include "gemm_tiles.h"
#include "kernel_table.h"

namespace lessons::gemm {

template <int BM, int BN, int BK, int TM>
__global__ void __launch_bounds__(BM* BN / TM)
    gemm_1d_register_blocking_kernel(int m, int n, int k, const float* a, const float* b,
                                     float* c) {
    constexpr int kThreads = BM * BN / TM;
    __shared__ float as[BM][BK];
    __shared__ float bs[BK][BN];
    const int tid = threadIdx.x, tx = tid % BN, ty = tid / BN;  // rows ty*TM .. ty*TM + TM - 1
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float sum[TM] = {};
    for (int k0 = 0; k0 < k; k0 += BK) {
        LoadTiles1<BM, BN, BK, kThreads>(as, bs, a, b, m, n, k, row0, col0, k0, tid);
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            const float bv = bs[kk][tx];  // one load, reused TM times
#pragma unroll
            for (int i = 0; i < TM; ++i) sum[i] += as[ty * TM + i][kk] * bv;
        }
        __syncthreads();
    }
    const int col = col0 + tx;
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int row = row0 + ty * TM + i;
        if (row < m && col < n) c[size_t(row) * n + col] = sum[i];
    }
}

namespace {

LESSONS_KERNEL_TABLE(
    kGemm1dRegisterBlocking, kTiles1dRegisterBlocking,
    [name = "gemm_1d_register_blocking_kernel"]<GemmTile T>() {
        static_assert(T.tn == 1 && T.bm * T.bn / T.tm == T.threads, "a block has BM·BN/TM threads");
        return TiledKernel<T, &gemm_1d_register_blocking_kernel<T.bm, T.bn, T.bk, T.tm>>(name);
    });

}  // namespace

}  // namespace lessons::gemm
