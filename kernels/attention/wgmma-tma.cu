// Hopper (sm_90a): the two products by wgmma, the tiles by TMA. A block of two warpgroups owns
// 128 query rows, 64 per warpgroup, which is the M of one wgmma. Q·Kᵀ reads both operands from
// shared memory through descriptors (Q and K are both K-major: d is contiguous in each row), the
// scores land in the warpgroup's accumulator registers, the online softmax works on them there
// (in the log2 domain, the scale folded into one multiply), and P·V takes P from those registers
// (wgmma's A-from-registers form: the accumulator layout of S is the register layout of A) and V
// from shared memory as it lies, keys as rows: for B = V that is the MN-major ("transposed")
// operand, which wgmma allows for 16-bit types. One thread issues the TMA copies (Q once, then K
// and V `stages` tiles ahead), each completing its bytes on an mbarrier; K and V have barriers
// of their own, so Q·Kᵀ starts before V has landed. A tile is refilled after a __syncthreads
// (the next step gives that job to a producer warp).
// Shared memory: every tile is stored in panels of 64 columns (128 bytes a row, the widest box
// TMA swizzles), 128-byte swizzled as chapter 8's Hopper steps store theirs; d = 128 is two
// panels. The whole problem is one [B·H·N] × d matrix for TMA: a tile that reaches past its
// head's N reads the next head's rows (masked below, as scores of keys that do not exist) or,
// past the last head, zeros.
#include <cstdint>

#include "attention_device.cuh"
#include "attention_gpu.cuh"
#include "attention_hopper.cuh"
#include "attention_tma_launch.cuh"

namespace lessons::attention {

template <int D, int BC, int STAGES>
__global__ void __launch_bounds__(256, 1)
    attention_wgmma_tma_kernel(const __grid_constant__ CUtensorMap map_q,
                               const __grid_constant__ CUtensorMap map_k,
                               const __grid_constant__ CUtensorMap map_v,
                               const AttentionProblem p) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    using namespace tc;
    constexpr int BR = kHopperRows, kPanels = D / 64;
    constexpr int kQBytes = TileBytes(BR, D), kKvBytes = TileBytes(BC, D);
    constexpr int kQPanel = PanelBytes(BR), kKvPanel = PanelBytes(BC);
    extern __shared__ uint8_t attention_wgmma_smem[];
    uint8_t* const smem = AlignedDynamicSmem(attention_wgmma_smem);
    uint8_t* const qs = smem;                    // [panel][BR rows][128 bytes]
    uint8_t* const ks = qs + kQBytes;            // [stage][panel][BC rows][128 bytes]
    uint8_t* const vs = ks + STAGES * kKvBytes;  // the same for V
    uint64_t* const q_full = reinterpret_cast<uint64_t*>(vs + STAGES * kKvBytes);
    uint64_t* const k_full = q_full + 1;       // [STAGES]
    uint64_t* const v_full = k_full + STAGES;  // [STAGES]

    const int tid = threadIdx.x, wg = tid / 128, warp = (tid % 128) / 32, lane = tid % 32;
    const int q0 = blockIdx.x * BR;
    const int head_row = blockIdx.y * p.n;  // the head's first row in the [B·H·N] × d matrix
    const int end = p.causal ? min(p.n, q0 + BR) : p.n;
    const int tiles = (end + BC - 1) / BC;

    if (tid == 0) {
        TmaPrefetchMap(&map_q);
        TmaPrefetchMap(&map_k);
        TmaPrefetchMap(&map_v);
        BarrierInit(q_full, 1);
#pragma unroll
        for (int s = 0; s < STAGES; ++s) {
            BarrierInit(&k_full[s], 1);
            BarrierInit(&v_full[s], 1);
        }
        BarrierInitFence();
    }
    __syncthreads();  // the barriers are initialised before anyone waits on them

    // Key tile kt into stage s: K's panels on one barrier, V's on the other. A box's bytes count
    // in full even where it reaches past the matrix (TMA writes the zeros).
    auto issue = [&](int kt, int s) {
        BarrierExpectBytes(&k_full[s], kKvBytes);
#pragma unroll
        for (int c = 0; c < kPanels; ++c)
            TmaLoad(ks + s * kKvBytes + c * kKvPanel, &map_k, c * 64, head_row + kt * BC,
                    &k_full[s]);
        BarrierExpectBytes(&v_full[s], kKvBytes);
#pragma unroll
        for (int c = 0; c < kPanels; ++c)
            TmaLoad(vs + s * kKvBytes + c * kKvPanel, &map_v, c * 64, head_row + kt * BC,
                    &v_full[s]);
    };
    if (tid == 0) {
        BarrierExpectBytes(q_full, kQBytes);
#pragma unroll
        for (int c = 0; c < kPanels; ++c)
            TmaLoad(qs + c * kQPanel, &map_q, c * 64, head_row + q0, q_full);
        for (int s = 0; s < STAGES && s < tiles; ++s) issue(s, s);
    }

    // This thread's rows (of the accumulators' layout, tc::Wgmma): g and g + 8 of its warp's 16.
    const int rows[2] = {q0 + wg * 64 + warp * 16 + lane / 4,
                         q0 + wg * 64 + warp * 16 + lane / 4 + 8};
    const int quad = lane % 4;
    const float scale_log2 = p.scale * 1.4426950408889634f;  // 1/√d · log2(e)
    float o[D / 2], m[2] = {NegInfinity(), NegInfinity()}, l[2] = {0.0f, 0.0f};
#pragma unroll
    for (int i = 0; i < D / 2; ++i) o[i] = 0.0f;
    const uint8_t* const q_wg = qs + wg * 64 * 128;  // this warpgroup's 64 rows of each panel

    BarrierWait(q_full, 0);
    for (int kt = 0; kt < tiles; ++kt) {
        const int s = kt % STAGES, k0 = kt * BC;
        const uint32_t parity = (kt / STAGES) & 1;  // the stage's (kt / STAGES)-th phase
        const uint8_t* const k_s = ks + s * kKvBytes;
        const uint8_t* const v_s = vs + s * kKvBytes;

        // S = Q·Kᵀ: 64 × BC for this warpgroup, d / 16 steps of k16 (4 per panel of 64).
        float sc[BC / 2];
#pragma unroll
        for (int i = 0; i < BC / 2; ++i) sc[i] = 0.0f;
        PinAccumulators(sc);
        BarrierWait(&k_full[s], parity);
        WgmmaFence();
#pragma unroll
        for (int kk = 0; kk < D / 16; ++kk)
            Wgmma<BC>::Run(sc, SwizzledDescriptor(q_wg + (kk / 4) * kQPanel + (kk % 4) * 32),
                           SwizzledDescriptor(k_s + (kk / 4) * kKvPanel + (kk % 4) * 32));
        WgmmaCommit();
        WgmmaWait<0>();
        PinAccumulators(sc);

        // The online softmax in the log2 domain: x = s · scale · log2(e), p = 2^(x - m). A key
        // past N, or past the row under the causal mask, scores -inf; only the tiles at the
        // edges test for it.
        const bool edge = k0 + BC > p.n || (p.causal && k0 + BC - 1 > q0 + wg * 64);
        float base[2];
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            float mx = NegInfinity();
#pragma unroll
            for (int j = 0; j < BC / 8; ++j)
#pragma unroll
                for (int e = 0; e < 2; ++e) {
                    float& x = sc[4 * j + 2 * h + e];
                    const int key = k0 + 8 * j + 2 * quad + e;
                    x = edge && (key >= p.n || (p.causal && key > rows[h])) ? NegInfinity()
                                                                            : x * scale_log2;
                    mx = fmaxf(mx, x);
                }
            mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
            mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
            const float m_new = fmaxf(m[h], mx);
            base[h] = m_new == NegInfinity() ? 0.0f : m_new;
            const float rescale = Exp2(m[h] - base[h]);
            m[h] = m_new;
            l[h] *= rescale;
#pragma unroll
            for (int j = 0; j < D / 8; ++j) {
                o[4 * j + 2 * h] *= rescale;
                o[4 * j + 2 * h + 1] *= rescale;
            }
        }
#pragma unroll
        for (int i = 0; i < BC / 2; ++i) {
            sc[i] = Exp2(sc[i] - base[(i / 2) % 2]);
            l[(i / 2) % 2] += sc[i];
        }

        // P as A from registers: columns 16kk..16kk+15 of S are accumulators 8kk..8kk+7.
        unsigned pf[BC / 16][4];
#pragma unroll
        for (int kk = 0; kk < BC / 16; ++kk) {
            pf[kk][0] = PackBf16(sc[8 * kk], sc[8 * kk + 1]);
            pf[kk][1] = PackBf16(sc[8 * kk + 2], sc[8 * kk + 3]);
            pf[kk][2] = PackBf16(sc[8 * kk + 4], sc[8 * kk + 5]);
            pf[kk][3] = PackBf16(sc[8 * kk + 6], sc[8 * kk + 7]);
        }
        PinOperands(pf);
        PinAccumulators(o);

        // O += P·V: BC / 16 steps of k16 over the keys, V MN-major (2048 bytes a step).
        BarrierWait(&v_full[s], parity);
        WgmmaFence();
#pragma unroll
        for (int kk = 0; kk < BC / 16; ++kk)
            WgmmaRegA<D>::Run(o, pf[kk], MnMajorDescriptor(v_s + kk * 16 * 128, kKvPanel));
        WgmmaCommit();
        WgmmaWait<0>();
        PinAccumulators(o);

        // Both warpgroups are done with stage s: it may be refilled, STAGES tiles on.
        __syncthreads();
        if (tid == 0 && kt + STAGES < tiles) issue(kt + STAGES, s);
    }

    // O / l, rounded to bf16 once; rows past N are not stored.
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        float sum = l[h];
        sum += __shfl_xor_sync(0xffffffffu, sum, 1);
        sum += __shfl_xor_sync(0xffffffffu, sum, 2);
        const float inv = 1.0f / sum;
#pragma unroll
        for (int j = 0; j < D / 8; ++j) {
            o[4 * j + 2 * h] *= inv;
            o[4 * j + 2 * h + 1] *= inv;
        }
    }
    StoreAccumulators<D>(o, p.o + size_t(blockIdx.y) * p.n * D, D, p.n, D, q0 + wg * 64, 0);
#else
    (void)map_q, (void)map_k, (void)map_v, (void)p;
    __trap();  // needs sm_90a: the host runs it only on compute capability 9.0
#endif
}

namespace {

// Two mbarriers a stage: K's and V's.
template <int D, int BC, int STAGES>
AttentionKernel Config(const char* tile) {
    return TmaAttentionKernel<&attention_wgmma_tma_kernel<D, BC, STAGES>, D, BC, 256,
                              HopperTilesBytes(D, BC, STAGES, 2)>(tile,
                                                                  "attention_wgmma_tma_kernel");
}

}  // namespace

const AttentionKernel kWgmmaTma[] = {
    Config<128, 128, 2>("128x128"),
    Config<64, 128, 2>("128x128"),
    Config<128, 64, 3>("128x64"),
    Config<64, 64, 3>("128x64"),
};

LESSONS_KERNELS(kWgmmaTma);

}  // namespace lessons::attention
