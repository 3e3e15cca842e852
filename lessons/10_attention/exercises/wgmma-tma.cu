// Exercise 10.7: wgmma on the scores, TMA for K and V (Hopper, sm_90a). The harness launches
// ceil(N / 128) × B·H blocks of 256 threads, two warpgroups of 64 query rows each, with
// (128 + 2 · STAGES · BC) · D · 2 + 1024 + 8 · (1 + 2 · STAGES) bytes of dynamic shared memory,
// and passes the tensor maps of Q, K and V: the whole problem as one [B·H·N] × D bf16 matrix,
// in boxes of 64 columns × 128 rows (Q) or × BC rows (K, V), 128-byte swizzled as chapter 8's.
// The prelude has chapter 8's Hopper helpers (SwizzledDescriptor, Wgmma<N>, WgmmaFence,
// WgmmaCommit, WgmmaWait, PinAccumulators, the mbarriers, TmaLoad, StoreAccumulators) and this
// chapter's: MnMajorDescriptor, WgmmaRegA<N> (A from registers), PinOperands, PackBf16, Exp2.
// As it stands, the copies are done (one thread issues the TMA loads of Q once and of K and V
// STAGES tiles ahead, each on its mbarrier) and so is lesson 10.6's log2-domain softmax, here on
// the accumulator layout of a warpgroup's wgmma; the two products are missing, so every score is
// 0 and O stays 0: the check fails. Your part: S = Q·Kᵀ and O += P·V with wgmma.
constexpr int D = 128, BC = 128, STAGES = 2;

__global__ void __launch_bounds__(256, 1)
    attention_wgmma_tma_kernel(const __grid_constant__ CUtensorMap map_q,
                               const __grid_constant__ CUtensorMap map_k,
                               const __grid_constant__ CUtensorMap map_v,
                               const AttentionProblem p) {
    using namespace tc;
    constexpr int BR = kHopperRows, kPanels = D / 64;
    constexpr int kQBytes = TileBytes(BR, D), kKvBytes = TileBytes(BC, D);
    constexpr int kQPanel = PanelBytes(BR), kKvPanel = PanelBytes(BC);
    extern __shared__ uint8_t attention_wgmma_smem[];
    uint8_t* const smem = AlignedDynamicSmem(attention_wgmma_smem);
    // Every tile in panels of 64 columns: [panel][rows][128 bytes], 128-byte swizzled.
    uint8_t* const qs = smem;                    // [panel][BR rows][128 bytes]
    uint8_t* const ks = qs + kQBytes;            // [stage][panel][BC rows][128 bytes]
    uint8_t* const vs = ks + STAGES * kKvBytes;  // the same for V
    uint64_t* const q_full = reinterpret_cast<uint64_t*>(vs + STAGES * kKvBytes);
    uint64_t* const k_full = q_full + 1;       // [STAGES]
    uint64_t* const v_full = k_full + STAGES;  // [STAGES]

    const int tid = threadIdx.x, wg = tid / 128, warp = (tid % 128) / 32, lane = tid % 32;
    const int q0 = blockIdx.x * BR;
    const int head_row = blockIdx.y * p.n;  // the head's first row in the [B·H·N] × D matrix
    const int end = p.causal ? min(p.n, q0 + BR) : p.n;
    const int tiles = (end + BC - 1) / BC;

    if (tid == 0) {
        TmaPrefetchMap(&map_q);
        TmaPrefetchMap(&map_k);
        TmaPrefetchMap(&map_v);
        BarrierInit(q_full, 1);
        for (int s = 0; s < STAGES; ++s) {
            BarrierInit(&k_full[s], 1);
            BarrierInit(&v_full[s], 1);
        }
        BarrierInitFence();
    }
    __syncthreads();

    // Key tile kt into stage s: K's panels on one barrier, V's on the other.
    auto issue = [&](int kt, int s) {
        BarrierExpectBytes(&k_full[s], kKvBytes);
        for (int c = 0; c < kPanels; ++c)
            TmaLoad(ks + s * kKvBytes + c * kKvPanel, &map_k, c * 64, head_row + kt * BC,
                    &k_full[s]);
        BarrierExpectBytes(&v_full[s], kKvBytes);
        for (int c = 0; c < kPanels; ++c)
            TmaLoad(vs + s * kKvBytes + c * kKvPanel, &map_v, c * 64, head_row + kt * BC,
                    &v_full[s]);
    };
    if (tid == 0) {
        BarrierExpectBytes(q_full, kQBytes);
        for (int c = 0; c < kPanels; ++c)
            TmaLoad(qs + c * kQPanel, &map_q, c * 64, head_row + q0, q_full);
        for (int s = 0; s < STAGES && s < tiles; ++s) issue(s, s);
    }

    // This thread's rows in a wgmma accumulator: g and g + 8 of its warp's 16 (g = lane / 4);
    // accumulator 4j + 2h + e is row h's column 8j + 2 · (lane % 4) + e.
    const int rows[2] = {q0 + wg * 64 + warp * 16 + lane / 4,
                         q0 + wg * 64 + warp * 16 + lane / 4 + 8};
    const int quad = lane % 4;
    const float scale_log2 = p.scale * 1.4426950408889634f;  // 1/√D · log2(e)
    float o[D / 2], m[2] = {NegInfinity(), NegInfinity()}, l[2] = {0.0f, 0.0f};
#pragma unroll
    for (int i = 0; i < D / 2; ++i) o[i] = 0.0f;

    BarrierWait(q_full, 0);
    for (int kt = 0; kt < tiles; ++kt) {
        const int s = kt % STAGES, k0 = kt * BC;
        const uint32_t parity = (kt / STAGES) & 1;  // the stage's (kt / STAGES)-th phase

        // S = Q·Kᵀ: this warpgroup's 64 rows of Q (qs, 64 · 128 bytes in each panel) times the
        // BC keys of stage s (ks + s · kKvBytes), both K-major in swizzled panels.
        float sc[BC / 2];
#pragma unroll
        for (int i = 0; i < BC / 2; ++i) sc[i] = 0.0f;
        BarrierWait(&k_full[s], parity);
        // Your part: S = Q·Kᵀ into sc.

        // The online softmax in the log2 domain (lesson 10.6), masked only at the edges.
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

        // O += P·V: P (sc, rounded to bf16) from registers, V of stage s (vs + s · kKvBytes)
        // from shared memory as it lies, a key a row.
        BarrierWait(&v_full[s], parity);
        // Your part: O += P·V into o.

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
}
