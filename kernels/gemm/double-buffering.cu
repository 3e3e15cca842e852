// Double (and triple) buffering.
// With warp tiling every tile goes load, __syncthreads, compute, __syncthreads: while a tile
// is fetched nobody computes, and while it is used nobody fetches. Here shared memory holds
// STAGES copies of the tiles: the copies of tile t + STAGES - 1 are issued before the
// arithmetic on tile t and land while it runs, and one __syncthreads per tile is enough.
// STAGES = 2 is double buffering; a third stage gives each copy two tiles' worth of arithmetic.
// The step changes more than the pipeline (a larger thread tile, a new lane map, registers
// double-buffered, one block per SM); the last three tiles of its table take the pipeline, the
// lane map and the thread tile out one at a time, and the lesson's text has the measurements.
#include "gemm_gpu.cuh"
#include "gemm_tile_io.cuh"
#include "gemm_tiles.h"
#include "kernel_table.h"

namespace lessons::gemm {

// A larger thread tile: at the default 128 × 256 block a warp owns 64 × 64 of C and a thread
// 16 × 8, so each float read from shared memory feeds more FMAs. It is paid for in registers
// (about 250 a thread, one block per SM), not by the copies: a copy through registers would
// hold them only between its load and its store. The next k-slice's A and B values are read
// into a second set of registers while the FMAs of this one run.
// A warp's 32 lanes sit 4 (rows, ty) × 8 (columns, tx) in its WM × WN tile; a thread owns
// TM = WM / 4 rows (groups of 4, 16 apart) and TN = WN / 8 columns (groups of 4, 32 apart), so
// a warp's float4 reads of a k-slice touch 4 different A addresses and 8 consecutive B ones.
// kPairLanes (as written): lanes l and l xor 1 share a column, l and l xor 2 a row, so every
// 16-byte shared load has its lanes in pairs on one address; else (an ablation) lanes sit in
// rows of 8, lesson 5.7's map.
template <int BM, int BN, int BK, int WM, int WN, int THREADS, int STAGES, int MIN_BLOCKS,
          bool kPairLanes>
__global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
    gemm_double_buffering_kernel(int m, int n, int k, const float* __restrict__ a,
                                 const float* __restrict__ b, float* __restrict__ c) {
    constexpr int TM = WM / 4, TN = WN / 8, PA = BM + 4;  // PA: padded row of the A tile
    constexpr int LA = BM * BK / THREADS;                 // 4-byte copies of A per thread
    constexpr int LB = BK * BN / 4 / THREADS;             // 16-byte copies of B per thread
    constexpr int RA = THREADS / BK, RB = THREADS / (BN / 4);
    static_assert((BM / WM) * (BN / WN) * 32 == THREADS, "one warp per warp tile");
    static_assert(TM % 4 == 0 && TN % 4 == 0 && STAGES >= 1, "thread tile in groups of 4");
    static_assert(LA * THREADS == BM * BK && LB * THREADS * 4 == BK * BN, "even copies");
    static_assert(THREADS % BK == 0 && THREADS % (BN / 4) == 0 && LA <= 32, "copy maps");
    __shared__ __align__(16) float smem[STAGES * BK * (PA + BN)];
    float* const as = smem;                     // [STAGES][BK][PA], transposed: [kk][row]
    float* const bs = smem + STAGES * BK * PA;  // [STAGES][BK][BN]
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int ty = kPairLanes ? (lane / 16) * 2 + lane % 2 : lane / 8;
    const int tx = kPairLanes ? (lane / 2) % 8 : lane % 8;
    const int wm = (warp / (BN / WN)) * WM, wn = (warp % (BN / WN)) * WN;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

    // This thread's copies. A: rows ra0 + l·RA of the tile, column kc. B: rows kr0 + l·RB,
    // columns cc..cc+3. Which of them lie inside the matrices does not change along k.
    const int ra0 = tid / BK, kc = tid % BK;
    const int kr0 = tid / (BN / 4), cc = (tid % (BN / 4)) * 4;
    unsigned rows_in = 0;
#pragma unroll
    for (int l = 0; l < LA; ++l) rows_in |= row0 + ra0 + l * RA < m ? 1u << l : 0u;
    const bool vec = (n & 3) == 0;  // rows of B 16-byte aligned: whole float4 copies
    const bool cols_in = vec && col0 + cc + 3 < n;
    const float* const pa = a + size_t(row0 + ra0) * k + kc;
    const size_t stride_a = size_t(RA) * k;
    const float* const pb = b + size_t(kr0) * n + col0 + cc;
    const size_t stride_b = size_t(RB) * n;
    const unsigned sa = static_cast<unsigned>(__cvta_generic_to_shared(as + kc * PA + ra0));
    const unsigned sb = static_cast<unsigned>(__cvta_generic_to_shared(bs + kr0 * BN + cc));
    constexpr unsigned kStageA = BK * PA * 4, kStageB = BK * BN * 4;

    // Tile 0 covers k in [0, first), tile t ≥ 1 covers [first + (t−1)·BK, first + t·BK): the
    // first tile is the partial one (k is rarely a multiple of BK), so the main loop has no k
    // check; which rows of A and columns of B lie inside was worked out once, above.
    const int tiles = (k + BK - 1) / BK;
    const int first = k - (tiles - 1) * BK;
    auto issue = [&](int t, int stage) {
        if (t < tiles) {
            const int kb = t == 0 ? 0 : first + (t - 1) * BK;
#pragma unroll
            for (int l = 0; l < LA; ++l) {
                const bool in = (rows_in >> l & 1u) && (t > 0 || kc < first);
                Copy4(sa + stage * kStageA + l * RA * 4, in ? pa + kb + l * stride_a : a, in);
            }
#pragma unroll
            for (int l = 0; l < LB; ++l) {
                const int kr = kr0 + l * RB;
                const bool row_in = t > 0 || kr < first;
                const float* const src = pb + size_t(kb) * n + l * stride_b;
                const unsigned dst = sb + stage * kStageB + l * RB * BN * 4;
                if (vec) {
                    const bool in = cols_in && row_in;
                    Copy16(dst, in ? src : b, in);
                } else {  // rows not 16-byte aligned: float by float
#pragma unroll
                    for (int j = 0; j < 4; ++j) {
                        const bool in = row_in && col0 + cc + j < n;
                        Copy4(dst + 4 * j, in ? src + j : b, in);
                    }
                }
            }
        }
        CommitCopies();  // an empty group past the last tile keeps the count simple
    };

    float sum[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) sum[i][j] = 0.0f;
    float fa[2][TM], fb[2][TN];  // this k-slice's A and B values, and the next one's
    auto read = [&](int stage, int kk, int set) {
        const float* const A = as + stage * BK * PA + kk * PA + wm + ty * 4;
        const float* const B = bs + stage * BK * BN + kk * BN + wn + tx * 4;
#pragma unroll
        for (int g = 0; g < TM / 4; ++g)
            Spread4(fa[set] + g * 4, *reinterpret_cast<const float4*>(A + g * 16));
#pragma unroll
        for (int h = 0; h < TN / 4; ++h)
            Spread4(fb[set] + h * 4, *reinterpret_cast<const float4*>(B + h * 32));
    };

    // The FMAs of one k-slice, with this slice's values (set kk % 2).
    auto fmas = [&](int set) {
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
            for (int jj = 0; jj < TN; ++jj) {
                // Row by row in a serpentine (left to right, then right to left): each row
                // starts with the B value the row before ended with. No toggle measures this
                // order against plain rows, so the lesson claims nothing for it.
                const int j = (i & 1) ? TN - 1 - jj : jj;
                sum[i][j] += fa[set][i] * fb[set][j];
            }
    };

    if constexpr (STAGES == 1) {
        // No overlap (an ablation): each tile is copied, waited for, then used, and everyone
        // leaves it before the next copy overwrites it.
        for (int t = 0; t < tiles; ++t) {
            issue(t, 0);
            WaitCopies<0>();
            __syncthreads();
            read(0, 0, 0);
#pragma unroll
            for (int kk = 0; kk < BK; ++kk) {
                if (kk + 1 < BK) read(0, kk + 1, (kk + 1) % 2);
                fmas(kk % 2);
            }
            __syncthreads();
        }
    } else {
#pragma unroll
        for (int s = 0; s < STAGES - 1; ++s) issue(s, s);
        WaitCopies<STAGES - 2>();
        __syncthreads();
        read(0, 0, 0);
        int stage = 0;
        for (int t = 0; t < tiles; ++t) {
            // Everyone passed the barrier after reading tile t − 1: its stage takes tile
            // t + S − 1.
            issue(t + STAGES - 1, (stage + STAGES - 1) % STAGES);
#pragma unroll
            for (int kk = 0; kk < BK; ++kk) {
                if (kk == BK - 1) {  // the last slice: wait for tile t + 1, read its first slice
                    WaitCopies<STAGES - 2>();
                    __syncthreads();
                    stage = (stage + 1) % STAGES;
                    if (t + 1 < tiles) read(stage, 0, (kk + 1) % 2);
                } else {
                    read(stage, kk + 1, (kk + 1) % 2);
                }
                fmas(kk % 2);
            }
        }
    }
    WaitCopies<0>();  // only empty groups are left; no copy outlives the block
    // C is stored here by the kernel's own loop rather than the chapter's Store4 helper (the
    // tuning copy chose it; no toggle of this step measures the two against each other).
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int row = row0 + wm + (i / 4) * 16 + ty * 4 + i % 4;
        if (row >= m) continue;
#pragma unroll
        for (int h = 0; h < TN / 4; ++h) {
            const int col = col0 + wn + h * 32 + tx * 4;
            float* const q = c + size_t(row) * n + col;
            if (vec && col + 3 < n) {
                *reinterpret_cast<float4*>(q) = make_float4(sum[i][h * 4], sum[i][h * 4 + 1],
                                                            sum[i][h * 4 + 2], sum[i][h * 4 + 3]);
            } else {
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    if (col + j < n) q[j] = sum[i][h * 4 + j];
            }
        }
    }
}

namespace {

// The default, 128 × 256 in three stages, needs about 250 registers a thread (ptxas, sm_90):
// one block fits on an SM.
LESSONS_KERNEL_TABLE(
    kGemmDoubleBuffering, kTilesDoubleBuffering,
    [name = "gemm_double_buffering_kernel"]<GemmTile T>() {
        static_assert((T.bm / T.wm) * (T.bn / T.wn) * 32 == T.threads, "one warp per warp tile");
        constexpr bool kPairLanes = T.ablation != GemmAblation::kRowLanes;
        return TiledKernel<T, &gemm_double_buffering_kernel<T.bm, T.bn, T.bk, T.wm, T.wn, T.threads,
                                                            T.stages, T.min_blocks, kPairLanes>>(
            name);
    });

}  // namespace

}  // namespace lessons::gemm
