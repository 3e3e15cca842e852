// 16-byte loads and a transposed A tile.
// Lesson 5.5 moves its tiles one float at a time and keeps the A tile as A is, [row][k]: a
// thread's TM floats of A for one k lie in TM different rows, so the compiler reads each row
// along k, 16 bytes at a time, and holds four k-steps of A in registers. Here global loads and
// stores are float4 (a quarter of the instructions), and the A tile is stored transposed,
// k-major: a thread's TM floats of A for one k are contiguous, TM/4 16-byte shared loads like
// B's, and only that k-step's are held. The transposed rows are padded by 4 floats, which
// halves the bank conflicts of the transposing stores at BK = 16. Two extra tiles take one
// idea out each (GemmAblation), so that a sweep over the tiles measures each one's share.
#include "gemm_gpu.cuh"
#include "gemm_tile_io.cuh"
#include "gemm_tiles.h"
#include "kernel_table.h"

namespace lessons::gemm {

// kVec: 16-byte global loads and stores (as written; else one float each); kTransposedA: the
// A tile stored k-major (as written; else [row][k] as lesson 5.5 stores it, read one float at a
// time). The two switches are the step's ablations: each takes one of its ideas out.
template <int BM, int BN, int BK, int TM, int TN, bool kVec, bool kTransposedA>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
    gemm_vectorized_transposed_a_kernel(int m, int n, int k, const float* a, const float* b,
                                        float* c) {
    constexpr int kThreads = (BM / TM) * (BN / TN);
    // Transposed: as[kk][row], rows padded by 4 floats; untransposed: as[row][kk].
    constexpr int kRowsA = kTransposedA ? BK : BM, kColsA = kTransposedA ? BM + 4 : BK;
    __shared__ __align__(16) float as[kRowsA][kColsA];
    __shared__ __align__(16) float bs[BK][BN];
    const int tid = threadIdx.x, tx = tid % (BN / TN), ty = tid / (BN / TN);
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float sum[TM][TN] = {};
    float ra[TM], rb[TN];
    for (int k0 = 0; k0 < k; k0 += BK) {
        for (int i = tid; i < BM * BK / 4; i += kThreads) {
            const int r = i / (BK / 4), kc = (i % (BK / 4)) * 4;
            const float4 v = LoadQuad<kVec>(a, m, k, row0 + r, k0 + kc);
            if constexpr (kTransposedA) {
                as[kc + 0][r] = v.x;
                as[kc + 1][r] = v.y;
                as[kc + 2][r] = v.z;
                as[kc + 3][r] = v.w;
            } else {
                *reinterpret_cast<float4*>(&as[r][kc]) = v;
            }
        }
        for (int i = tid; i < BK * BN / 4; i += kThreads) {
            const int r = i / (BN / 4), cc = (i % (BN / 4)) * 4;
            *reinterpret_cast<float4*>(&bs[r][cc]) = LoadQuad<kVec>(b, k, n, k0 + r, col0 + cc);
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            if constexpr (kTransposedA) {
#pragma unroll
                for (int i = 0; i < TM; i += 4)
                    Spread4(ra + i, *reinterpret_cast<const float4*>(&as[kk][ty * TM + i]));
            } else {
#pragma unroll
                for (int i = 0; i < TM; ++i) ra[i] = as[ty * TM + i][kk];
            }
#pragma unroll
            for (int j = 0; j < TN; j += 4)
                Spread4(rb + j, *reinterpret_cast<const float4*>(&bs[kk][tx * TN + j]));
            OuterProduct(sum, ra, rb);
        }
        __syncthreads();
    }
    StoreBlock<kVec>(c, m, n, row0 + ty * TM, col0 + tx * TN, sum);
}

namespace {

LESSONS_KERNEL_TABLE(
    kGemmVectorizedTransposedA, kTilesVectorizedTransposedA,
    [name = "gemm_vectorized_transposed_a_kernel"]<GemmTile T>() {
        static_assert((T.bm / T.tm) * (T.bn / T.tn) == T.threads,
                      "a block has BM/TM × BN/TN threads");
        constexpr bool kVec = T.ablation != GemmAblation::kScalarGlobal;
        constexpr bool kTransposedA = T.ablation != GemmAblation::kUntransposedA;
        return TiledKernel<T, &gemm_vectorized_transposed_a_kernel<T.bm, T.bn, T.bk, T.tm, T.tn,
                                                                   kVec, kTransposedA>>(name);
    });

}  // namespace

}  // namespace lessons::gemm
