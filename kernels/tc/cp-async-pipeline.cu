// A cp.async pipeline and a swizzled shared-memory layout (sm_80 and later), bf16 in, fp32
// accumulated: the same warp tiles and mma.sync m16n8k16 instructions as the mma.sync step,
// fed differently.
// - The copies: cp.async.cg moves 16 bytes from global to shared memory without passing through
//   registers, and the thread goes on at once. Copies are closed into groups (commit_group), one
//   group per tile, and cp.async.wait_group N waits until at most N groups are in flight. With
//   STAGES tiles of A and Bᵀ in shared memory, the copies of tile t + STAGES − 1 are issued
//   while tile t is multiplied: the memory latency hides behind STAGES − 1 tiles of arithmetic,
//   and one __syncthreads per tile is enough.
// - The layout: in the plain tiles of the mma.sync step the eight rows an ldmatrix reads at once
//   share banks. Here the 16-byte unit u of a tile's row r is stored at u XOR f(r), f(r) taking
//   a different value for each of any eight consecutive rows (of 128-byte rows: r mod 8; of
//   64-byte rows, two to a 128-byte line: (r / 2) mod 4). The eight rows of an 8 × 8 matrix then
//   sit in eight different groups of four banks, and so do the eight 16-byte pieces a quarter
//   warp's cp.async writes: no conflicts on either side, and no padding.
// - Fragments are read one k16 step ahead (two register sets): the ldmatrix of step s + 1 is in
//   flight while the mma.sync of step s run, across tile boundaries too (the wait for the next
//   tile comes just before the last step of the current one).
// Each of the three has an ablation tile that takes it out, on the default tile (tc_tiles.h,
// TcAblation): GROUP_M = 0 (row order), SWIZZLE = false, PREFETCH = false.
// Edges: a copy that reaches past k copies only what lies inside and fills the rest of its 16
// bytes with zeros (cp.async's source size); rows past m or n copy nothing and get zeros.
#include "kernel_table.h"
#include "tc_gpu.cuh"
#include "tc_mma.cuh"
#include "tc_tiles.h"

namespace lessons::tc {

namespace {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
// Copies `bytes` (0..16) from global `src` to shared `dst` and zero-fills the rest of the 16.
__device__ __forceinline__ void Copy16(unsigned dst, const void* src, int bytes) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src),
                 "r"(bytes));
}

__device__ __forceinline__ void CommitCopies() {
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}

template <int kPending>
__device__ __forceinline__ void WaitCopies() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}
#endif

// Where 16-byte unit `u` of row `r` lies in a tile of kUnits units a row (in units). Rows of
// 128 bytes or more: the unit's low three bits XOR r mod 8; rows of 64 bytes, two to a 128-byte
// line: XOR (r / 2) mod 4.
template <int kUnits>
__device__ __forceinline__ int Swizzled(int r, int u) {
    static_assert(kUnits == 4 || kUnits == 8 || kUnits == 16, "rows of 64, 128 or 256 bytes");
    return r * kUnits + (u ^ (kUnits == 4 ? (r / 2) % 4 : r % 8));
}

}  // namespace

// GROUP_M > 0: the blocks walk the tiles of C in column strips GROUP_M tiles tall (one-
// dimensional grid), so blocks running at the same time share rows of A and columns of B in L2;
// 0: a two-dimensional grid, row by row. SWIZZLE: the swizzled layout (false: unit u of row r
// at r · units + u, as in the mma.sync step). PREFETCH: fragments read one k16 step ahead
// (false: each step's read just before its mma.sync).
template <int BM, int BN, int BK, int WM, int WN, int STAGES, int GROUP_M, bool SWIZZLE,
          bool PREFETCH>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32)
    tc_cp_async_pipeline_kernel(const TcProblem p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    constexpr int kThreads = (BM / WM) * (BN / WN) * 32;
    constexpr int FM = WM / 16, FN = WN / 8, KK = BK / 16;
    constexpr int kUnits = BK / 8;
    constexpr int kLoadsA = BM * kUnits / kThreads, kLoadsB = BN * kUnits / kThreads;
    constexpr int kRowStep = kThreads / kUnits;  // rows between one thread's copies
    constexpr unsigned kStageA = BM * BK * 2, kStage = (BM + BN) * BK * 2;
    static_assert(kLoadsA * kThreads == BM * kUnits && kLoadsB * kThreads == BN * kUnits, "");
    static_assert(kRowStep % 8 == 0, "a thread's copies keep their swizzle");
    static_assert(FN % 2 == 0 && KK % 2 == 0 && STAGES >= 2, "");
    extern __shared__ __align__(128) unsigned char tc_pipeline_smem[];
    const unsigned smem = static_cast<unsigned>(__cvta_generic_to_shared(tc_pipeline_smem));
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int wr = (warp / (BN / WN)) * WM, wc = (warp % (BN / WN)) * WN;

    int tile_m = blockIdx.y, tile_n = blockIdx.x;
    if constexpr (GROUP_M > 0) {
        const int tiles_m = (p.m + BM - 1) / BM, tiles_n = (p.n + BN - 1) / BN;
        const int group = blockIdx.x / (GROUP_M * tiles_n), first = group * GROUP_M;
        const int rows = min(tiles_m - first, GROUP_M), in_group = blockIdx.x % (GROUP_M * tiles_n);
        tile_m = first + in_group % rows;
        tile_n = in_group / rows;
    }
    const int row0 = tile_m * BM, col0 = tile_n * BN;

    // This thread's copies: unit cu of rows cr + l·kRowStep of the A tile (kLoadsA of them) and
    // of the Bᵀ tile. Rows past the matrix read row 0 with a source size of 0.
    const int cr = tid / kUnits, cu = tid % kUnits;
    const __nv_bfloat16* src_a[kLoadsA];
    const __nv_bfloat16* src_b[kLoadsB];
    unsigned in_a = 0, in_b = 0;
#pragma unroll
    for (int l = 0; l < kLoadsA; ++l) {
        const int row = row0 + cr + l * kRowStep;
        in_a |= row < p.m ? 1u << l : 0u;
        src_a[l] = p.a + (row < p.m ? size_t(row) * p.lda + cu * 8 : 0);
    }
#pragma unroll
    for (int l = 0; l < kLoadsB; ++l) {
        const int row = col0 + cr + l * kRowStep;
        in_b |= row < p.n ? 1u << l : 0u;
        src_b[l] = p.bt + (row < p.n ? size_t(row) * p.ldb + cu * 8 : 0);
    }
    const auto at = [](int r, int u) { return SWIZZLE ? Swizzled<kUnits>(r, u) : r * kUnits + u; };
    const unsigned dst = smem + at(cr, cu) * 16;

    const int tiles = (p.k + BK - 1) / BK;
    auto issue = [&](int t, int stage) {
        if (t < tiles) {
            const int k0 = t * BK;
            const int bytes = min(max((p.k - k0 - cu * 8) * 2, 0), 16);
            const int off = bytes ? k0 : 0;  // nothing of the row left: stay at its start
            const unsigned sa = dst + stage * kStage, sb = sa + kStageA;
#pragma unroll
            for (int l = 0; l < kLoadsA; ++l)
                Copy16(sa + l * kRowStep * BK * 2, src_a[l] + off, (in_a >> l & 1u) ? bytes : 0);
#pragma unroll
            for (int l = 0; l < kLoadsB; ++l)
                Copy16(sb + l * kRowStep * BK * 2, src_b[l] + off, (in_b >> l & 1u) ? bytes : 0);
        }
        CommitCopies();  // an empty group past the last tile keeps the count simple
    };

    // The lanes' ldmatrix rows, as in the mma.sync step: A row wr + L % 16 (+ 16·i) at unit
    // 2·step + L / 16; Bᵀ row wc + L % 8 + 8·(L / 16) (+ 16·j) at unit 2·step + (L / 8) % 2.
    // Rows 16 apart keep their swizzle, so each lane's units are worked out once per k16 step.
    const int ra = wr + lane % 16, rb = wc + lane % 8 + (lane / 16) * 8;
    unsigned la[KK], lb[KK];
#pragma unroll
    for (int s = 0; s < KK; ++s) {
        la[s] = at(ra, 2 * s + lane / 16) * 16;
        lb[s] = kStageA + at(rb, 2 * s + (lane / 8) % 2) * 16;
    }
    unsigned fa[2][FM][4], fb[2][FN / 2][4];
    auto read = [&](int stage, int s, int set) {
        const unsigned base = smem + stage * kStage;
#pragma unroll
        for (int i = 0; i < FM; ++i) LdMatrixX4(fa[set][i], base + la[s] + i * 16 * BK * 2);
#pragma unroll
        for (int j = 0; j < FN / 2; ++j) LdMatrixX4(fb[set][j], base + lb[s] + j * 16 * BK * 2);
    };

    float acc[FM][FN][4];
#pragma unroll
    for (int i = 0; i < FM; ++i)
#pragma unroll
        for (int j = 0; j < FN; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.0f;

#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) issue(s, s);
    WaitCopies<STAGES - 2>();
    __syncthreads();
    int rstage = 0, wstage = STAGES - 1;
    if constexpr (!PREFETCH) {  // the ablation: read a step's fragments, then multiply them
        for (int t = 0; t < tiles; ++t) {
#pragma unroll
            for (int s = 0; s < KK; ++s) {
                read(rstage, s, 0);
                if (s == 0) {  // everyone passed the barrier after reading tile t − 1
                    issue(t + STAGES - 1, wstage);
                    wstage = wstage + 1 == STAGES ? 0 : wstage + 1;
                }
#pragma unroll
                for (int i = 0; i < FM; ++i)
#pragma unroll
                    for (int j = 0; j < FN; ++j)
                        Mma16816(acc[i][j], fa[0][i], fb[0][j / 2][(j % 2) * 2],
                                 fb[0][j / 2][(j % 2) * 2 + 1]);
            }
            WaitCopies<STAGES - 2>();  // tile t + 1 has landed, and tile t is read by all
            __syncthreads();
            rstage = rstage + 1 == STAGES ? 0 : rstage + 1;
        }
    } else {
        read(0, 0, 0);
        for (int t = 0; t < tiles; ++t) {
#pragma unroll
            for (int s = 0; s < KK; ++s) {
                if (s == KK - 1) {  // the last step: wait for tile t + 1, read its first step
                    WaitCopies<STAGES - 2>();
                    __syncthreads();
                    rstage = rstage + 1 == STAGES ? 0 : rstage + 1;
                    read(rstage, 0, 0);
                } else {
                    read(rstage, s + 1, (s + 1) % 2);
                }
                if (s == 0) {  // everyone passed the barrier after reading tile t − 1: its stage
                    issue(t + STAGES - 1, wstage);  // takes tile t + STAGES − 1
                    wstage = wstage + 1 == STAGES ? 0 : wstage + 1;
                }
#pragma unroll
                for (int i = 0; i < FM; ++i)
#pragma unroll
                    for (int j = 0; j < FN; ++j)
                        Mma16816(acc[i][j], fa[s % 2][i], fb[s % 2][j / 2][(j % 2) * 2],
                                 fb[s % 2][j / 2][(j % 2) * 2 + 1]);
            }
        }
    }
    WaitCopies<0>();  // only empty groups are left; no copy outlives the block

    // C as in the mma.sync step: c0, c1 = C[g][2t, 2t+1], c2, c3 = C[g+8][2t, 2t+1], each pair
    // rounded to bf16 and stored as one 4-byte word.
#pragma unroll
    for (int i = 0; i < FM; ++i)
#pragma unroll
        for (int j = 0; j < FN; ++j)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int row = row0 + wr + i * 16 + lane / 4 + h * 8;
                const int col = col0 + wc + j * 8 + (lane % 4) * 2;
                if (row >= p.m || col >= p.n) continue;
                __nv_bfloat16* out = p.c + size_t(row) * p.ldc + col;
                if (col + 1 < p.n)
                    *reinterpret_cast<__nv_bfloat162*>(out) =
                        __floats2bfloat162_rn(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
                else
                    *out = __float2bfloat16_rn(acc[i][j][2 * h]);
            }
#else
    (void)p;  // needs sm_80: the host refuses
#endif
}

namespace {

constexpr int kGroupM = 8;  // tiles of C in a column strip of the block order

template <TcTile T>
constexpr size_t PipelineSmem() {
    return size_t(T.stages) * (T.bm + T.bn) * T.bk * sizeof(__nv_bfloat16);
}

// The template arguments a tile's ablation gives: GROUP_M 0, no swizzle or no prefetch.
template <TcTile T>
constexpr int kGroupOf = T.ablation == TcAblation::kRowOrder ? 0 : kGroupM;
template <TcTile T>
constexpr bool kSwizzleOf = T.ablation != TcAblation::kUnswizzled;
template <TcTile T>
constexpr bool kPrefetchOf = T.ablation != TcAblation::kNoPrefetch;

template <TcTile T>
cudaError_t LaunchPipeline(const TcProblem& p, cudaStream_t stream) {
    const unsigned tiles_m = unsigned((p.m + T.bm - 1) / T.bm);
    const unsigned tiles_n = unsigned((p.n + T.bn - 1) / T.bn);
    const dim3 grid = kGroupOf<T> > 0 ? dim3(tiles_m * tiles_n) : dim3(tiles_n, tiles_m);
    tc_cp_async_pipeline_kernel<T.bm, T.bn, T.bk, T.wm, T.wn, T.stages, kGroupOf<T>, kSwizzleOf<T>,
                                kPrefetchOf<T>><<<grid, T.threads, PipelineSmem<T>(), stream>>>(p);
    return cudaGetLastError();
}

// The default tile: eight warps of 64 × 64 (a k16 step is 8 ldmatrix.x4 for 32 mma.sync, and
// the 128 fp32 accumulators a thread holds leave room for two sets of fragments), BK = 64 (four
// k16 steps per barrier instead of two), three stages (with two, a tile's copies are not hidden
// behind the arithmetic; a fourth adds nothing). The tiles take up to 192 KiB of dynamic shared
// memory, which a block gets only after cudaFuncSetAttribute raises its limit. Registers per thread
// for sm_90 (ptxas, nvcc 13.0, no spills), in the order of kTilesPipeline: 254, 254, 254, 240, 250,
// 252. Then the default tile's three ablations.
LESSONS_KERNEL_TABLE(
    kTcCpAsyncPipeline, kTilesPipeline,
    [name = "tc_cp_async_pipeline_kernel"]<TcTile T>() -> TcKernel {
        static_assert(T.stages >= 2 && T.threads == WarpTileThreads(T),
                      "a pipeline, one warp a tile");
        return {T,
                name,
                reinterpret_cast<const void*>(
                    &tc_cp_async_pipeline_kernel<T.bm, T.bn, T.bk, T.wm, T.wn, T.stages,
                                                 kGroupOf<T>, kSwizzleOf<T>, kPrefetchOf<T>>),
                PipelineSmem<T>(),
                &LaunchPipeline<T>,
                80};
    });

}  // namespace

}  // namespace lessons::tc
