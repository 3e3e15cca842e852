// The pipelined step's kernel with a leaner softmax, the same tiles and products. Each score
// took a multiply by 1/√d, a subtract, a multiply by log2(e) and a range-checked exp; now the
// softmax works in the log2 domain: the max is taken on the raw scores, and
// 2^(s·c − m·c), c = log2(e)/√d, is one FFMA and one ex2.approx. The mask is applied only on
// the tiles that cross the end of the keys or a warp's diagonal. The row's max and partial sum
// stay in registers, as before. Causal, a head's longest query tiles start first and a warp skips
// the tiles past its last row. Beside the pipelined step's tiles (a warp per 16 query rows) are
// tiles whose warps own 32 rows (WM = 2), which halve the shared-memory reads per product.
#include "attention_device.cuh"
#include "attention_gpu.cuh"
#include "attention_launch.cuh"
#include "attention_pipeline.cuh"

namespace lessons::attention {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
namespace {

// Issues the copies of the K and V tile of 64 keys from key k0 into the stage at ks and vs
// (shared addresses, swizzled like the swizzled step's tiles); keys past n get zeros.
template <int D, int THREADS>
__device__ __forceinline__ void IssueTile(const __nv_bfloat16* k, const __nv_bfloat16* v, int n,
                                          int k0, unsigned ks, unsigned vs) {
    constexpr int BC = 64, kChunks = D / 8, kRows = THREADS / kChunks;
    static_assert(THREADS % kChunks == 0 && kRows % 8 == 0 && BC % kRows == 0,
                  "a thread copies the same chunk of rows 8 apart: one swizzle for all");
    const int r0 = threadIdx.x / kChunks, chunk = threadIdx.x % kChunks;
    const unsigned to = static_cast<unsigned>(Swizzled<D>(r0, chunk) * 2);
    const size_t at = static_cast<size_t>(k0 + r0) * D + chunk * 8;
#pragma unroll
    for (int i = 0; i < BC / kRows; ++i) {
        const bool in = k0 + r0 + i * kRows < n;
        const size_t from = in ? at + size_t(i) * kRows * D : 0;
        CpAsync16(ks + to + i * kRows * D * 2, k + from, in ? 16 : 0);
        CpAsync16(vs + to + i * kRows * D * 2, v + from, in ? 16 : 0);
    }
}

}  // namespace
#endif

// WM: the 16-row slices of Q a warp owns (its rows are 16·WM). With WM = 2 each K and V fragment
// a warp reads from shared memory feeds twice as many products, so the tile's shared-memory
// reads per multiply-add halve; Q's fragments are then read from shared memory at each k-step
// where keeping them all would take more than 32 registers a thread (WM·D > 128), which the
// accumulators need.
template <int D, int BR, int STAGES, int WM>
__global__ void __launch_bounds__(BR * 2 / WM)
    attention_log2_softmax_kernel(const AttentionProblem p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    static_assert(STAGES >= 2, "a pipeline holds at least the tile in use and the next");
    constexpr int BC = 64, kThreads = BR * 2 / WM, kChunks = D / 8, WR = 16 * WM;
    constexpr int NT = BC / 8, DT = D / 8, KQ = D / 16, KP = BC / 16;
    constexpr bool kQInRegisters = WM * D <= 128;
    constexpr unsigned kTileBytes = BC * D * 2;  // one K or V tile, bf16
    // 256-byte aligned: every tile then starts on a multiple of 256 bytes, which the fragment
    // addresses below rely on.
    extern __shared__ __align__(256) unsigned char smem[];
    __nv_bfloat16* qs = reinterpret_cast<__nv_bfloat16*>(smem);  // [BR][D], swizzled
    // Then STAGES stages, each a K tile and a V tile of [BC][D], swizzled.
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
    const size_t head = static_cast<size_t>(blockIdx.y) * p.n * D;
    const __nv_bfloat16 *q = p.q + head, *k = p.k + head, *v = p.v + head;
    // Causal: the blocks of a head start with its last query tile, the one with the most keys,
    // so that the short ones fill the end of the run.
    const int q0 = (p.causal ? gridDim.x - 1 - blockIdx.x : blockIdx.x) * BR;
    const int w0 = q0 + warp * WR;  // the warp's first row
    const unsigned qs_base = static_cast<unsigned>(__cvta_generic_to_shared(qs));
    const unsigned kv_base = qs_base + BR * D * 2;
    const int end = p.causal ? min(p.n, q0 + BR) : p.n;
    const int tiles = (end + BC - 1) / BC;

    // The first STAGES − 1 tiles start on their way before Q is read. Every stage commits a
    // group, empty past the last tile, so that "at most STAGES − 2 in flight" always means
    // "this tile has landed".
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < tiles)
            IssueTile<D, kThreads>(k, v, p.n, s * BC, kv_base + s * 2 * kTileBytes,
                                   kv_base + s * 2 * kTileBytes + kTileBytes);
        CpAsyncCommit();
    }

    for (int c = tid; c < BR * kChunks; c += kThreads)
        *reinterpret_cast<uint4*>(qs + Swizzled<D>(c / kChunks, c % kChunks)) =
            LoadRow8(q, p.n, D, q0 + c / kChunks, (c % kChunks) * 8);
    __syncthreads();
    unsigned qf[WM][kQInRegisters ? KQ : 1][4];
    if constexpr (kQInRegisters) {
#pragma unroll
        for (int mi = 0; mi < WM; ++mi)
#pragma unroll
            for (int kk = 0; kk < KQ; ++kk)
                LdMatrixX4(
                    qf[mi][kk],
                    qs_base + Swizzled<D>(warp * WR + mi * 16 + lane % 16, kk * 2 + lane / 16) * 2);
    }

    float o[WM][DT][4], m[WM][2], l[WM][2];
    int rows[WM][2];
#pragma unroll
    for (int mi = 0; mi < WM; ++mi) {
#pragma unroll
        for (int j = 0; j < DT; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) o[mi][j][e] = 0.0f;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            m[mi][h] = NegInfinity();
            l[mi][h] = 0.0f;
            rows[mi][h] = w0 + mi * 16 + g + h * 8;
        }
    }
    const float scale_log2 = p.scale * 1.4426950408889634f;  // log2(e)/√d
    // A thread's ldmatrix addresses at k-step 0; at k-step kk (chunk 2·kk on) the swizzled
    // chunk is (2·kk + c) ^ (row % 8) = (c ^ (row % 8)) ^ 2·kk, so the address is the step-0
    // one XOR 32·kk (the tiles are 256-byte aligned, rows D·2 bytes long): one LOP3 a load, and
    // no register held for each k-step's offset.
    const unsigned q_off = Swizzled<D>(warp * WR + lane % 16, lane / 16) * 2;
    const unsigned k_off = Swizzled<D>(lane % 8 + (lane / 16) * 8, (lane / 8) % 2) * 2;
    const unsigned v_off = Swizzled<D>(lane % 8 + ((lane / 8) % 2) * 8, lane / 16) * 2;

    int stage = 0;  // tile % STAGES
    for (int tile = 0; tile < tiles; ++tile) {
        // Tile `tile` has landed for this thread; the barrier makes it every thread's, and
        // tells that every warp is done with the stage the tile before used, which the copies
        // of tile + STAGES − 1 now overwrite.
        CpAsyncWait<STAGES - 2>();
        __syncthreads();
        {
            const int next = tile + STAGES - 1;
            const int into = stage == 0 ? STAGES - 1 : stage - 1;
            if (next < tiles)
                IssueTile<D, kThreads>(k, v, p.n, next * BC, kv_base + into * 2 * kTileBytes,
                                       kv_base + into * 2 * kTileBytes + kTileBytes);
            CpAsyncCommit();
        }
        const int k0 = tile * BC;
        const unsigned ks_base = kv_base + stage * 2 * kTileBytes, vs_base = ks_base + kTileBytes;
        stage = stage == STAGES - 1 ? 0 : stage + 1;
        // Causal: a tile whose first key is past the warp's last row is masked for all of its
        // rows; the warp skips it (it took part in the barrier and the copies above).
        if (p.causal && k0 > w0 + WR - 1) continue;

        float s[WM][NT][4];
#pragma unroll
        for (int mi = 0; mi < WM; ++mi)
#pragma unroll
            for (int j = 0; j < NT; ++j)
#pragma unroll
                for (int e = 0; e < 4; ++e) s[mi][j][e] = 0.0f;
#pragma unroll
        for (int kk = 0; kk < KQ; ++kk) {
            unsigned a[WM][4];
#pragma unroll
            for (int mi = 0; mi < WM; ++mi) {
                if constexpr (kQInRegisters) {
#pragma unroll
                    for (int e = 0; e < 4; ++e) a[mi][e] = qf[mi][kk][e];
                } else {
                    LdMatrixX4(a[mi], ((qs_base + q_off) ^ (kk * 32)) + mi * 16 * D * 2);
                }
            }
#pragma unroll
            for (int jp = 0; jp < NT / 2; ++jp) {
                unsigned kf[4];
                LdMatrixX4(kf, ((ks_base + k_off) ^ (kk * 32)) + jp * 16 * D * 2);
#pragma unroll
                for (int mi = 0; mi < WM; ++mi) {
                    Mma16816(s[mi][2 * jp], a[mi], kf[0], kf[1]);
                    Mma16816(s[mi][2 * jp + 1], a[mi], kf[2], kf[3]);
                }
            }
        }

        // The mask, where a tile needs it: keys past n, or (causal) keys past the warp's first
        // row. Elsewhere every key of the tile is seen by all the rows of the warp.
        if (k0 + BC > p.n || (p.causal && k0 + BC - 1 > w0)) {
#pragma unroll
            for (int mi = 0; mi < WM; ++mi)
#pragma unroll
                for (int j = 0; j < NT; ++j)
#pragma unroll
                    for (int e = 0; e < 4; ++e) {
                        const int key = k0 + j * 8 + 2 * t + e % 2;
                        if (key >= p.n || (p.causal && key > rows[mi][e / 2]))
                            s[mi][j][e] = NegInfinity();
                    }
        }
        // m is the max of the raw scores (the scale is positive: the same key wins); base is
        // m·c, the exponent's offset, 0 while a row has seen no key (its scores are all −inf).
        float base[WM][2];
#pragma unroll
        for (int mi = 0; mi < WM; ++mi)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                float mx = m[mi][h];
#pragma unroll
                for (int j = 0; j < NT; ++j)
                    mx = fmaxf(mx, fmaxf(s[mi][j][2 * h], s[mi][j][2 * h + 1]));
                mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
                mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
                base[mi][h] = mx == NegInfinity() ? 0.0f : mx * scale_log2;
                const float rescale = Exp2(fmaf(m[mi][h], scale_log2, -base[mi][h]));
                m[mi][h] = mx;
                l[mi][h] *= rescale;
#pragma unroll
                for (int j = 0; j < DT; ++j) {
                    o[mi][j][2 * h] *= rescale;
                    o[mi][j][2 * h + 1] *= rescale;
                }
            }
        // The weights, rounded to bf16 at once: they are the A operand of P·V, and their fp32
        // values need no register past the sum.
        unsigned pf[WM][KP][4];
#pragma unroll
        for (int mi = 0; mi < WM; ++mi)
#pragma unroll
            for (int j = 0; j < NT; ++j) {
                float w[4];
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    w[e] = Exp2(fmaf(s[mi][j][e], scale_log2, -base[mi][e / 2]));
                    l[mi][e / 2] += w[e];
                }
                pf[mi][j / 2][(j % 2) * 2] = PackBf16(w[0], w[1]);
                pf[mi][j / 2][(j % 2) * 2 + 1] = PackBf16(w[2], w[3]);
            }

#pragma unroll
        for (int kk = 0; kk < KP; ++kk)
#pragma unroll
            for (int dp = 0; dp < DT / 2; ++dp) {
                unsigned vf[4];
                LdMatrixX4Trans(vf, ((vs_base + v_off) ^ (dp * 32)) + kk * 16 * D * 2);
#pragma unroll
                for (int mi = 0; mi < WM; ++mi) {
                    Mma16816(o[mi][2 * dp], pf[mi][kk], vf[0], vf[1]);
                    Mma16816(o[mi][2 * dp + 1], pf[mi][kk], vf[2], vf[3]);
                }
            }
    }
    CpAsyncWait<0>();  // nothing is left in flight when the block ends (only empty groups)

    __nv_bfloat16* out = p.o + head;
#pragma unroll
    for (int mi = 0; mi < WM; ++mi)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            float sum = l[mi][h];
            sum += __shfl_xor_sync(0xffffffffu, sum, 1);
            sum += __shfl_xor_sync(0xffffffffu, sum, 2);
            const float inv = 1.0f / sum;
            if (rows[mi][h] >= p.n) continue;
#pragma unroll
            for (int j = 0; j < DT; ++j)
                *reinterpret_cast<__nv_bfloat162*>(out + size_t(rows[mi][h]) * D + j * 8 + 2 * t) =
                    __floats2bfloat162_rn(o[mi][j][2 * h] * inv, o[mi][j][2 * h + 1] * inv);
        }
#else
    (void)p;  // needs sm_80: the host refuses
#endif
}

namespace {

// Q's tile, then STAGES stages of a K and a V tile of 64 keys.
template <int D, int BR, int STAGES>
constexpr size_t kSmem = size_t(BR* D + STAGES * 2 * 64 * D) * sizeof(__nv_bfloat16);

template <int D, int BR, int STAGES, int WM = 1>
AttentionKernel Config(const char* tile) {
    return RowsKernel<&attention_log2_softmax_kernel<D, BR, STAGES, WM>, D, BR * 2 / WM, BR,
                      kSmem<D, BR, STAGES>, 80>(tile, "attention_log2_softmax_kernel");
}

}  // namespace

// The tiles of the pipelined step (a warp per 16 query rows), then those whose warps own 32 rows
// (the "-w32" ones).
const AttentionKernel kLog2Softmax[] = {
    Config<128, 128, 2>("128x64-s2"),        Config<64, 128, 2>("128x64-s2"),
    Config<128, 128, 3>("128x64-s3"),        Config<64, 128, 3>("128x64-s3"),
    Config<128, 64, 2>("64x64-s2"),          Config<64, 64, 2>("64x64-s2"),
    Config<128, 64, 3>("64x64-s3"),          Config<64, 64, 3>("64x64-s3"),
    Config<128, 128, 2, 2>("128x64-s2-w32"), Config<64, 128, 2, 2>("128x64-s2-w32"),
    Config<128, 128, 3, 2>("128x64-s3-w32"), Config<64, 128, 3, 2>("128x64-s3-w32"),
    Config<128, 256, 2, 2>("256x64-s2-w32"), Config<64, 256, 2, 2>("256x64-s2-w32"),
};

LESSONS_KERNELS(kLog2Softmax);

}  // namespace lessons::attention
