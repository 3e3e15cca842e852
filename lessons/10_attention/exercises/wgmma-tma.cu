// Exercise 10.7: wgmma on the scores, TMA for K and V (Hopper, sm_90a). The harness launches
// ceil(N / 128) × B·H blocks of 256 threads, two warpgroups of 64 query rows each, with
// (128 + 2 · STAGES · BC) · D · 2 + 1024 + 8 · (1 + 2 · STAGES) bytes of dynamic shared memory,
// and passes the tensor maps of Q, K and V: the whole problem as one [B·H·N] × D bf16 matrix,
// in boxes of 64 columns × 128 rows (Q) or × BC rows (K, V), 128-byte swizzled as chapter 8's.
// The prelude has chapter 8's Hopper helpers (SwizzledDescriptor, Wgmma<N>, WgmmaFence,
// WgmmaCommit, WgmmaWait, PinAccumulators, the mbarriers, TmaLoad, StoreAccumulators) and this
// chapter's: HopperTiles (the shared memory's tiles and mbarriers, and their TMA copies),
// MnMajorDescriptor, WgmmaRegA<N> (A from registers), PinOperands, PackBf16, PackP, Exp2,
// OnlineSoftmax, RescaleRows, StoreRows.
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
    extern __shared__ uint8_t attention_wgmma_smem[];
    // Q's tile, STAGES stages of K and of V, each in panels of 64 columns ([panel][rows][128
    // bytes], 128-byte swizzled), then the mbarriers: t.qs, t.K(s), t.V(s), t.k_full[s], ...
    const HopperTiles<D, BC, STAGES> t(AlignedDynamicSmem(attention_wgmma_smem));
    const int tid = threadIdx.x, wg = tid / 128, warp = (tid % 128) / 32, lane = tid % 32;
    const int q0 = blockIdx.x * kHopperRows, first_row = q0 + wg * 64;
    const int head_row = blockIdx.y * p.n;  // the head's first row in the [B·H·N] × D matrix
    const int end = p.causal ? min(p.n, q0 + kHopperRows) : p.n;
    const int tiles = (end + BC - 1) / BC;

    // One thread copies: Q once, and K and V STAGES tiles ahead, each on its full barrier.
    if (tid == 0) t.Init(&map_q, &map_k, &map_v, 0);
    __syncthreads();
    auto load = [&](int kt) {
        t.LoadK(&map_k, head_row + kt * BC, kt % STAGES);
        t.LoadV(&map_v, head_row + kt * BC, kt % STAGES);
    };
    if (tid == 0) {
        t.LoadQ(&map_q, head_row + q0);
        for (int kt = 0; kt < STAGES && kt < tiles; ++kt) load(kt);
    }

    // This thread's rows in a wgmma accumulator: g and g + 8 of its warp's 16 (g = lane / 4);
    // accumulator 4j + 2h + e is row h's column 8j + 2 · (lane % 4) + e.
    const int rows[2] = {first_row + warp * 16 + lane / 4, first_row + warp * 16 + lane / 4 + 8};
    const float scale_log2 = p.scale * 1.4426950408889634f;  // 1/√D · log2(e)
    float o[D / 2], m[2] = {NegInfinity(), NegInfinity()}, l[2] = {0.0f, 0.0f}, c[2];
#pragma unroll
    for (int i = 0; i < D / 2; ++i) o[i] = 0.0f;

    BarrierWait(t.q_full, 0);
    for (int kt = 0; kt < tiles; ++kt) {
        const int s = kt % STAGES, k0 = kt * BC;
        const uint32_t parity = (kt / STAGES) & 1;  // the stage's (kt / STAGES)-th phase

        // S = Q·Kᵀ: this warpgroup's 64 rows of Q (t.QRows(wg): 64 · 128 bytes in each panel of
        // t.kQPanel bytes) times the BC keys of stage s (t.K(s), panels of t.kKvPanel bytes),
        // both K-major in swizzled panels.
        float sc[BC / 2];
#pragma unroll
        for (int i = 0; i < BC / 2; ++i) sc[i] = 0.0f;
        BarrierWait(&t.k_full[s], parity);
        // Your part: S = Q·Kᵀ into sc.

        // The online softmax in the log2 domain (lesson 10.6), masked only at the edges; O's
        // rows rescaled by the factor a new max brings.
        const bool edge = k0 + BC > p.n || (p.causal && k0 + BC - 1 > first_row);
        OnlineSoftmax<BC>(sc, m, l, c, edge, k0, lane % 4, rows, p.n, p.causal, scale_log2);
        RescaleRows<D>(o, c);

        // O += P·V: P (sc, rounded to bf16: PackP) from registers, V of stage s (t.V(s)) from
        // shared memory as it lies, a key a row.
        BarrierWait(&t.v_full[s], parity);
        // Your part: O += P·V into o.

        // Both warpgroups are done with stage s: it may be refilled, STAGES tiles on.
        __syncthreads();
        if (tid == 0 && kt + STAGES < tiles) load(kt + STAGES);
    }

    StoreRows<D>(o, l, p, first_row);  // O / l, rounded to bf16 once; rows past N not stored
}
