// Shared-memory tiles.
// The coalesced step reads every element of A and B from global memory (or L2) once per
// output that uses it: BN and BM times per tile of C. Here a block first copies a BM × BK tile
// of A and a BK × BN tile of B into shared memory, then every thread reads its row and column
// from there: global traffic drops by the tile size, and the arithmetic runs from on-chip memory.
#include "gemm_gpu.cuh"
#include "gemm_tile_io.cuh"
#include "gemm_tiles.h"
#include "kernel_table.h"

namespace lessons::gemm {

template <int BM, int BN, int BK>
__global__ void __launch_bounds__(BM* BN)
    gemm_shared_memory_tiles_kernel(int m, int n, int k, const float* a, const float* b, float* c) {
    __shared__ float as[BM][BK];
    __shared__ float bs[BK][BN];
    const int tid = threadIdx.x, ty = tid / BN, tx = tid % BN;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float sum = 0.0f;
    for (int k0 = 0; k0 < k; k0 += BK) {
        for (int i = tid; i < BM * BK; i += BM * BN)
            as[i / BK][i % BK] = Load1(a, m, k, row0 + i / BK, k0 + i % BK);
        for (int i = tid; i < BK * BN; i += BM * BN)
            bs[i / BN][i % BN] = Load1(b, k, n, k0 + i / BN, col0 + i % BN);
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) sum += as[ty][kk] * bs[kk][tx];
        __syncthreads();  // the tiles are overwritten next
    }
    if (row0 + ty < m && col0 + tx < n) c[size_t(row0 + ty) * n + col0 + tx] = sum;
}

namespace {

LESSONS_KERNEL_TABLE(kGemmSharedMemoryTiles, kTilesSharedMemoryTiles,
                     [name = "gemm_shared_memory_tiles_kernel"]<GemmTile T>() {
                         static_assert(T.bm * T.bn == T.threads,
                                       "a block has one thread per output");
                         return TiledKernel<T, &gemm_shared_memory_tiles_kernel<T.bm, T.bn, T.bk>>(
                             name);
                     });

}  // namespace

}  // namespace lessons::gemm
