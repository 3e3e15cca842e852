// Tensor cores through mma.sync and ldmatrix (sm_80 and later), bf16 in, fp32 accumulated.
// WMMA hands a warp opaque fragments: which lane holds which element is left unsaid, and the
// compiler picks the loads. Here the warp states it: one PTX instruction,
//   mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32,
// multiplies a 16 × 16 tile of A by a 16 × 8 tile of B into a 16 × 8 tile of C, each of the
// 32 lanes holding a fixed part of each tile in its registers (the layouts are drawn below,
// where the operands are loaded), and ldmatrix fills those registers straight from shared
// memory, eight 16-byte rows per 8 × 8 matrix, four matrices per instruction.
// Each warp keeps a WM × WN tile of C in fp32 registers; the block copies BM × BK of A and
// BN × BK of Bᵀ into plain shared-memory tiles (row by row, no padding), waits, multiplies,
// waits, and copies the next: one tile at a time, nothing overlapped inside the block.
// C is rounded to bf16 once, when it is stored.
#include "kernel_table.h"
#include "tc_gpu.cuh"
#include "tc_mma.cuh"
#include "tc_tiles.h"

namespace lessons::tc {

namespace {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
// Eight bf16 of row `row` of a row-major matrix (rows × cols, row stride ld), from column
// `col` on; zeros outside it. Whole rows of 8 go as one 16-byte load (ld is a multiple of 8).
__device__ __forceinline__ uint4 Load8(const __nv_bfloat16* p, int rows, int cols, int ld, int row,
                                       int col) {
    if (row >= rows) return make_uint4(0, 0, 0, 0);
    const __nv_bfloat16* src = p + size_t(row) * ld + col;
    if (col + 8 <= cols) return *reinterpret_cast<const uint4*>(src);
    __align__(16) __nv_bfloat16 v[8];
#pragma unroll
    for (int e = 0; e < 8; ++e) v[e] = col + e < cols ? src[e] : __float2bfloat16(0.0f);
    return *reinterpret_cast<const uint4*>(v);
}
#endif

}  // namespace

template <int BM, int BN, int BK, int WM, int WN>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32)
    tc_mma_sync_kernel(const TcProblem p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    constexpr int kThreads = (BM / WM) * (BN / WN) * 32;
    constexpr int FM = WM / 16, FN = WN / 8;  // m16 tiles of A, n8 tiles of B in a warp tile
    constexpr int kUnits = BK / 8;            // 16-byte pieces in a row of a tile
    constexpr int kLoadsA = BM * kUnits / kThreads, kLoadsB = BN * kUnits / kThreads;
    static_assert(kLoadsA * kThreads == BM * kUnits && kLoadsB * kThreads == BN * kUnits, "");
    static_assert(FN % 2 == 0 && BK % 16 == 0, "B fragments go in pairs of n8 tiles");
    // The tiles as they lie in memory: A's rows (m) and Bᵀ's rows (n), k along each row.
    __shared__ __align__(16) __nv_bfloat16 as[BM][BK];
    __shared__ __align__(16) __nv_bfloat16 bs[BN][BK];
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int wr = (warp / (BN / WN)) * WM, wc = (warp % (BN / WN)) * WN;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

    float acc[FM][FN][4];
#pragma unroll
    for (int i = 0; i < FM; ++i)
#pragma unroll
        for (int j = 0; j < FN; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.0f;

    // The lane's row addresses for ldmatrix (shared-memory byte addresses, at k = 0).
    // A, 16 × 16 at (r, k): matrix 0 is rows r..r+7, k..k+7; matrix 1 rows r+8..r+15, k..k+7;
    // matrix 2 rows r..r+7, k+8..k+15; matrix 3 rows r+8..r+15, k+8..k+15. So lane L gives row
    // r + L % 16 at k + 8·(L / 16), and receives the four registers of the mma's A operand:
    //   a0 = A[g][2t, 2t+1], a1 = A[g+8][2t, 2t+1], a2 = A[g][2t+8, 2t+9], a3 = A[g+8][2t+8, 2t+9]
    // with g = L / 4 (the lane's group) and t = L % 4 (its place in the group).
    // B, 16 (k) × 8 (n), "col": the mma wants b0 = B[2t, 2t+1][g], b1 = B[2t+8, 2t+9][g], two k
    // values of one column n = g. Bᵀ's rows are B's columns, so an 8 × 8 matrix of Bᵀ (rows n,
    // k along the row) read by a plain ldmatrix gives lane L exactly that: row g, k = 2t, 2t+1.
    // One ldmatrix.x4 takes two n8 tiles: matrices 0, 1 = n..n+7 at k and k+8 (b0, b1 of the
    // first), matrices 2, 3 = n+8..n+15 at k and k+8 (b0, b1 of the second): lane L gives row
    // n + L % 8 + 8·(L / 16) at k + 8·((L / 8) % 2).
    const unsigned a_lane =
        static_cast<unsigned>(__cvta_generic_to_shared(&as[wr + lane % 16][(lane / 16) * 8]));
    const unsigned b_lane = static_cast<unsigned>(
        __cvta_generic_to_shared(&bs[wc + lane % 8 + (lane / 16) * 8][((lane / 8) % 2) * 8]));

    for (int k0 = 0; k0 < p.k; k0 += BK) {
        // The copies: 16 bytes (8 bf16) a thread at a time, through registers.
        uint4 va[kLoadsA], vb[kLoadsB];
#pragma unroll
        for (int l = 0; l < kLoadsA; ++l) {
            const int u = tid + l * kThreads;
            va[l] = Load8(p.a, p.m, p.k, p.lda, row0 + u / kUnits, k0 + (u % kUnits) * 8);
        }
#pragma unroll
        for (int l = 0; l < kLoadsB; ++l) {
            const int u = tid + l * kThreads;
            vb[l] = Load8(p.bt, p.n, p.k, p.ldb, col0 + u / kUnits, k0 + (u % kUnits) * 8);
        }
#pragma unroll
        for (int l = 0; l < kLoadsA; ++l) {
            const int u = tid + l * kThreads;
            *reinterpret_cast<uint4*>(&as[u / kUnits][(u % kUnits) * 8]) = va[l];
        }
#pragma unroll
        for (int l = 0; l < kLoadsB; ++l) {
            const int u = tid + l * kThreads;
            *reinterpret_cast<uint4*>(&bs[u / kUnits][(u % kUnits) * 8]) = vb[l];
        }
        __syncthreads();

        // A row of a tile is BK · 2 = 64 bytes, so the eight rows one 8 × 8 matrix reads lie
        // 64 bytes apart: rows 0, 2, 4, 6 fall in the same four banks, and so do 1, 3, 5, 7.
        // Each ldmatrix phase then takes four passes through the banks instead of one.
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            unsigned fa[FM][4], fb[FN / 2][4];
#pragma unroll
            for (int i = 0; i < FM; ++i) LdMatrixX4(fa[i], a_lane + (i * 16 * BK + kk) * 2);
#pragma unroll
            for (int j = 0; j < FN / 2; ++j) LdMatrixX4(fb[j], b_lane + (j * 16 * BK + kk) * 2);
#pragma unroll
            for (int i = 0; i < FM; ++i)
#pragma unroll
                for (int j = 0; j < FN; ++j)
                    Mma16816(acc[i][j], fa[i], fb[j / 2][(j % 2) * 2], fb[j / 2][(j % 2) * 2 + 1]);
        }
        __syncthreads();
    }

    // C, 16 × 8 per mma: c0, c1 = C[g][2t, 2t+1], c2, c3 = C[g+8][2t, 2t+1]. Each pair is
    // rounded to bf16 and stored as one 4-byte word (ldc and 2t are even).
#pragma unroll
    for (int i = 0; i < FM; ++i)
#pragma unroll
        for (int j = 0; j < FN; ++j)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int row = row0 + wr + i * 16 + lane / 4 + h * 8;
                const int col = col0 + wc + j * 8 + (lane % 4) * 2;
                if (row >= p.m || col >= p.n) continue;
                __nv_bfloat16* dst = p.c + size_t(row) * p.ldc + col;
                if (col + 1 < p.n)
                    *reinterpret_cast<__nv_bfloat162*>(dst) =
                        __floats2bfloat162_rn(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
                else
                    *dst = __float2bfloat16_rn(acc[i][j][2 * h]);
            }
#else
    (void)p;  // needs sm_80: the host refuses
#endif
}

namespace {

template <TcTile T>
cudaError_t LaunchMma(const TcProblem& p, cudaStream_t stream) {
    const dim3 grid(unsigned((p.n + T.bn - 1) / T.bn), unsigned((p.m + T.bm - 1) / T.bm));
    tc_mma_sync_kernel<T.bm, T.bn, T.bk, T.wm, T.wn><<<grid, T.threads, 0, stream>>>(p);
    return cudaGetLastError();
}

// Registers per thread for sm_90 (ptxas, nvcc 13.0, no spills), in the order of kTilesMma:
// 226, 207, 120 and 79.
LESSONS_KERNEL_TABLE(kTcMmaSync, kTilesMma, [name = "tc_mma_sync_kernel"]<TcTile T>() -> TcKernel {
    static_assert(T.stages == 1 && T.threads == WarpTileThreads(T), "one tile, one warp a tile");
    return {T,
            name,
            reinterpret_cast<const void*>(&tc_mma_sync_kernel<T.bm, T.bn, T.bk, T.wm, T.wn>),
            0,
            &LaunchMma<T>,
            80};
});

}  // namespace

}  // namespace lessons::tc
