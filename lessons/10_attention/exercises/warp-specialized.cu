// Exercise 10.8: warp specialisation, and two consumer warpgroups taking turns (Hopper, sm_90a).
// The harness launches ceil(N / 128) × B·H blocks of 384 threads (a producer warpgroup and two
// consumer warpgroups of 64 query rows), with (128 + 2 · STAGES · BC) · D · 2 + 1024 +
// 8 · (1 + 4 · STAGES) bytes of dynamic shared memory, and passes the tensor maps of Q, K and V
// as in exercise 10.7. The prelude has chapter 8's Hopper helpers (ProducerRegisters and
// ConsumerRegisters among them) and this chapter's: HopperTiles (the shared memory's tiles and
// mbarriers, and their TMA copies), IssueQk and IssuePv (exercise 10.7's products), OnlineSoftmax,
// RescaleRows, PackP, StoreRows, MnMajorDescriptor, Exp2.
// As it stands the producer is done: warpgroup 0 gives back its registers and one of its threads
// issues every TMA copy as soon as a stage is free (full and empty mbarriers for K and V), and
// the consumers compute. Right, and no faster than it could be: both consumers issue their
// wgmmas whenever they are ready, so their products and their softmaxes collide instead of
// alternating. Your part: the ping-pong. A consumer warpgroup issues its products only in its
// turn, which the other warpgroup hands over; warpgroup 0 takes the first.
// Until the turns are written this file does not compile (the #error below): without them it
// would compute the right O, only a little slower, and the check could not tell.
constexpr int D = 128, BC = 128, STAGES = 2;

// Threads a block: the producer warpgroup and two consumer warpgroups.
constexpr int kWsThreads = 3 * 128;

// Your part: TurnWait(w), which waits for consumer warpgroup w's turn, and TurnGive(w), which
// hands warpgroup w its turn without waiting, each on a named barrier of its own (bar.sync waits,
// bar.arrive hands over); then call them in the consumers' loop, around issue_qk (the task says
// where), and delete the #error line.
#error "exercise 10.8: write TurnWait and TurnGive, call them in the loop, then delete this line"

__global__ void __launch_bounds__(kWsThreads, 1)
    attention_warp_specialized_kernel(const __grid_constant__ CUtensorMap map_q,
                                      const __grid_constant__ CUtensorMap map_k,
                                      const __grid_constant__ CUtensorMap map_v,
                                      const AttentionProblem p) {
    using namespace tc;
    constexpr int BR = kHopperRows;
    extern __shared__ uint8_t attention_ws_smem[];
    const HopperTiles<D, BC, STAGES> t(AlignedDynamicSmem(attention_ws_smem));
    const int tid = threadIdx.x, wg = tid / 128;
    const int q0 = blockIdx.x * BR;
    const int head_row = blockIdx.y * p.n;  // the head's first row in the [B·H·N] × d matrix
    const int end = p.causal ? min(p.n, q0 + BR) : p.n;
    const int tiles = (end + BC - 1) / BC;

    // The empty barriers wait for one arrival per consumer warp.
    if (tid == 0) t.Init(&map_q, &map_k, &map_v, 8);
    __syncthreads();  // the only block-wide barrier: the mbarriers exist before anyone uses them

    if (wg == 0) {
        // The producer: its registers go back (every warp of the warpgroup executes it), and one
        // thread copies. Stage s of tile kt was last used by tile kt − STAGES: the empty
        // barrier's (kt / STAGES − 1)-th phase.
        ProducerRegisters();
        if (tid == 0) {
            t.LoadQ(&map_q, head_row + q0);
            for (int kt = 0; kt < tiles; ++kt) {
                const int s = kt % STAGES;
                const uint32_t parity = ((kt / STAGES) & 1) ^ 1;
                if (kt >= STAGES) BarrierWait(&t.k_empty[s], parity);
                t.LoadK(&map_k, head_row + kt * BC, s);
                if (kt >= STAGES) BarrierWait(&t.v_empty[s], parity);
                t.LoadV(&map_v, head_row + kt * BC, s);
            }
        }
        return;
    }

    ConsumerRegisters();
    const int cw = wg - 1, warp = (tid % 128) / 32, lane = tid % 32, quad = lane % 4;
    const int first_row = q0 + cw * 64;  // this warpgroup's first query row
    // This thread's rows (of the accumulators' layout, tc::Wgmma): g and g + 8 of its warp's 16.
    const int rows[2] = {first_row + warp * 16 + lane / 4, first_row + warp * 16 + lane / 4 + 8};
    const float scale_log2 = p.scale * 1.4426950408889634f;  // 1/√d · log2(e)
    float o[D / 2], sc[BC / 2], m[2] = {NegInfinity(), NegInfinity()}, l[2] = {0.0f, 0.0f};
    float c[2];
    unsigned pf[BC / 16][4];
#pragma unroll
    for (int i = 0; i < D / 2; ++i) o[i] = 0.0f;
#pragma unroll
    for (int i = 0; i < BC / 2; ++i) sc[i] = 0.0f;  // defined once; each Q·Kᵀ overwrites it
    const bool lane0 = lane == 0;

    // The products of tile kt (the prelude's IssueQk and IssuePv), from its stage.
    auto issue_qk = [&](int kt) { IssueQk(t, sc, cw, kt % STAGES); };
    auto issue_pv = [&](int kt) { IssuePv(t, o, pf, kt % STAGES); };
    auto softmax = [&](int kt) {
        const int k0 = kt * BC;
        const bool edge = k0 + BC > p.n || (p.causal && k0 + BC - 1 > first_row);
        OnlineSoftmax<BC>(sc, m, l, c, edge, k0, quad, rows, p.n, p.causal, scale_log2);
    };
    auto parity = [](int kt) { return uint32_t((kt / STAGES) & 1); };
    // Your part: the turns. Warpgroup 0 must be given the first one.
    BarrierWait(t.q_full, 0);
    for (int kt = 0; kt < tiles; ++kt) {
        const int s = kt % STAGES;
        BarrierWait(&t.k_full[s], parity(kt));
        // Your part: wait for this warpgroup's turn before issuing Q·Kᵀ, and hand the turn to
        // the other warpgroup once it is issued.
        issue_qk(kt);
        WgmmaWait<0>();
        PinAccumulators(sc);
        if (lane0) BarrierArrive(&t.k_empty[s]);
        softmax(kt);
        RescaleRows<D>(o, c);
        PackP<BC>(pf, sc);
        BarrierWait(&t.v_full[s], parity(kt));
        issue_pv(kt);
        WgmmaWait<0>();
        PinAccumulators(o);
        PinOperands(pf);
        if (lane0) BarrierArrive(&t.v_empty[s]);
    }

    StoreRows<D>(o, l, p, first_row);
}
