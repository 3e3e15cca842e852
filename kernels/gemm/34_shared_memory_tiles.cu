// Lesson 34: shared-memory tiles.
// Lesson 33 reads every element of A and B from global memory (or L2) once per output that
// uses it: BN and BM times per tile of C. Here a block first copies a BM × BK tile of A and a
// BK × BN tile of B into shared memory, then every thread reads its row and column from there:
// global traffic drops by the tile size, and the arithmetic runs from on-chip memory.
#include "gemm_gpu.cuh"
#include "gemm_tile_io.cuh"
#include "gemm_tiles.h"

namespace lessons::gemm {

template <int BM, int BN, int BK>
__global__ void __launch_bounds__(BM* BN)
    gemm_34_shared_memory_kernel(int m, int n, int k, const float* a, const float* b, float* c) {
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

template <int BM, int BN, int BK>
cudaError_t Launch(int m, int n, int k, const float* a, const float* b, float* c, int,
                   cudaStream_t s) {
    const dim3 grid(unsigned((n + BN - 1) / BN), unsigned((m + BM - 1) / BM));
    gemm_34_shared_memory_kernel<BM, BN, BK><<<grid, BM * BN, 0, s>>>(m, n, k, a, b, c);
    return cudaGetLastError();
}

template <int BM, int BN, int BK>
GemmKernel Config(const char* config) {
    return {config,
            "gemm_34_shared_memory_kernel",
            reinterpret_cast<const void*>(&gemm_34_shared_memory_kernel<BM, BN, BK>),
            BM * BN,
            0,
            &Launch<BM, BN, BK>,
            0};
}

}  // namespace

const GemmKernel kGemm34[kGemmConfigs] = {
    Config<16, 16, 64>(kTiles34[0]),
    Config<32, 32, 32>(kTiles34[1]),
    Config<16, 16, 16>(kTiles34[2]),
    Config<8, 8, 8>(kTiles34[3]),
};

}  // namespace lessons::gemm
