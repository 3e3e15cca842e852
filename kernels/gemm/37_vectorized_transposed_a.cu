// 16-byte loads and a transposed A tile.
// 2D register blocking moves tiles one float at a time and reads a thread's TM floats of A
// from TM rows of the A tile, TM separate shared-memory loads. Here global loads and stores
// are float4 (16 bytes, a quarter of the instructions), and the A tile is stored transposed,
// k-major, so a thread's TM floats of A are contiguous and come in TM/4 16-byte shared loads,
// like B's. The transposed tile's rows are padded by 4 floats so the transposing stores do
// not collide in the same shared-memory bank.
#include "gemm_gpu.cuh"
#include "gemm_tile_io.cuh"
#include "gemm_tiles.h"

namespace lessons::gemm {

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    gemm_37_vectorized_kernel(int m, int n, int k, const float* a, const float* b, float* c) {
    constexpr int kThreads = (BM / TM) * (BN / TN);
    __shared__ __align__(16) float as[BK][BM + 4];  // transposed: as[kk][row]
    __shared__ __align__(16) float bs[BK][BN];
    const int tid = threadIdx.x, tx = tid % (BN / TN), ty = tid / (BN / TN);
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float sum[TM][TN] = {};
    float ra[TM], rb[TN];
    for (int k0 = 0; k0 < k; k0 += BK) {
        for (int i = tid; i < BM * BK / 4; i += kThreads) {
            const int r = i / (BK / 4), kc = (i % (BK / 4)) * 4;
            const float4 v = Load4(a, m, k, row0 + r, k0 + kc);
            as[kc + 0][r] = v.x;
            as[kc + 1][r] = v.y;
            as[kc + 2][r] = v.z;
            as[kc + 3][r] = v.w;
        }
        for (int i = tid; i < BK * BN / 4; i += kThreads) {
            const int r = i / (BN / 4), cc = (i % (BN / 4)) * 4;
            *reinterpret_cast<float4*>(&bs[r][cc]) = Load4(b, k, n, k0 + r, col0 + cc);
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
            for (int i = 0; i < TM; i += 4) {
                const float4 v = *reinterpret_cast<const float4*>(&as[kk][ty * TM + i]);
                ra[i] = v.x, ra[i + 1] = v.y, ra[i + 2] = v.z, ra[i + 3] = v.w;
            }
#pragma unroll
            for (int j = 0; j < TN; j += 4) {
                const float4 v = *reinterpret_cast<const float4*>(&bs[kk][tx * TN + j]);
                rb[j] = v.x, rb[j + 1] = v.y, rb[j + 2] = v.z, rb[j + 3] = v.w;
            }
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) sum[i][j] += ra[i] * rb[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; j += 4)
            Store4(c, m, n, row0 + ty * TM + i, col0 + tx * TN + j,
                   make_float4(sum[i][j], sum[i][j + 1], sum[i][j + 2], sum[i][j + 3]));
}

namespace {

template <GemmTile T>
GemmKernel Config() {
    static_assert((T.bm / T.tm) * (T.bn / T.tn) == T.threads, "a block has BM/TM × BN/TN threads");
    return TiledKernel<T, &gemm_37_vectorized_kernel<T.bm, T.bn, T.bk, T.tm, T.tn>>(
        "gemm_37_vectorized_kernel");
}

}  // namespace

const GemmKernel kGemm37[] = {
    Config<kTiles37[0]>(),
    Config<kTiles37[1]>(),
    Config<kTiles37[2]>(),
    Config<kTiles37[3]>(),
};

LESSONS_KERNELS(kGemm37);

}  // namespace lessons::gemm
