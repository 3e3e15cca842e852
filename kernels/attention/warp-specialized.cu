// Hopper (sm_90a), FlashAttention-3's schedule: warp specialisation and ping-pong. The products
// and the softmax are those of wgmma-tma.cu (the same 128 query rows a block, 64 per consumer
// warpgroup, the same swizzled panels, descriptors and log2-domain softmax); what changes is who
// waits for whom.
// - A third warpgroup, the producer, only copies: one of its threads issues the TMA loads of Q,
//   then of K and V as soon as a stage is free. Each stage has a `full` barrier (the bytes have
//   landed) and an `empty` one (every consumer warp is done reading it) for K and for V apart,
//   so no block-wide barrier remains in the loop. setmaxnreg gives the producer's registers to
//   the consumers (chapter 8's 40 and 232).
// - The two consumer warpgroups take turns at the tensor cores (ping-pong): a warpgroup issues
//   its wgmmas only between bar.sync on its own named barrier and bar.arrive on the other's, so
//   the products of one are queued behind those of the other while the first does its softmax.
//   Warpgroup 0 is given the first turn by an arrival of its own.
// - OVERLAP (tile 128x128, FA3's intra-warpgroup overlap): within a turn a warpgroup issues
//   Q·Kᵀ of tile j and then P·V of tile j − 1 (P kept in registers as bf16), waits for the first
//   alone (wgmma.wait_group 1) and does the softmax of tile j while its P·V still runs. O is
//   rescaled by tile j − 1's factor before that P·V is issued. Without it (tile
//   128x128-no-overlap), each tile is Q·Kᵀ, wait, softmax, P·V, wait, as in wgmma-tma.
// - Tile 128x128-no-pingpong takes the turns out too: the producer and its mbarriers alone, as
//   chapter 8's warp-specialised GEMM (each warpgroup issues as soon as it is ready).
// Every key tile a block reads is read by both consumer warpgroups (under the causal mask, the
// lower one may find a tile fully masked: its scores are -inf, and nothing changes), so both
// take the same number of turns: the last turn of warpgroup 1 gives none back, and every named
// barrier's arrivals are matched by its waits.
#include <cstdint>

#include "attention_device.cuh"
#include "attention_gpu.cuh"
#include "attention_hopper.cuh"
#include "attention_products.cuh"
#include "attention_tma_launch.cuh"

namespace lessons::attention {

#if defined(__CUDA_ARCH__)

// The ping-pong's named barriers: id 1 + w is consumer warpgroup w's turn (0 is __syncthreads'),
// 256 threads: the 128 of the warpgroup that waits and the 128 of the one that hands it over.
__device__ __forceinline__ void TurnWait(int w) {
    asm volatile("bar.sync %0, 256;\n" ::"r"(1 + w) : "memory");
}
__device__ __forceinline__ void TurnGive(int w) {
    asm volatile("bar.arrive %0, 256;\n" ::"r"(1 + w) : "memory");
}

#endif  // __CUDA_ARCH__

// Threads a block: the producer warpgroup and two consumer warpgroups.
constexpr int kWsThreads = 3 * 128;

template <int D, int BC, int STAGES, bool PINGPONG, bool OVERLAP>
__global__ void __launch_bounds__(kWsThreads, 1)
    attention_warp_specialized_kernel(const __grid_constant__ CUtensorMap map_q,
                                      const __grid_constant__ CUtensorMap map_k,
                                      const __grid_constant__ CUtensorMap map_v,
                                      const AttentionProblem p) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
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

    // The products of tile kt (attention_products.cuh), from its stage.
    auto issue_qk = [&](int kt) { IssueQk(t, sc, cw, kt % STAGES); };
    auto issue_pv = [&](int kt) { IssuePv(t, o, pf, kt % STAGES); };
    auto softmax = [&](int kt) {
        const int k0 = kt * BC;
        const bool edge = k0 + BC > p.n || (p.causal && k0 + BC - 1 > first_row);
        OnlineSoftmax<BC>(sc, m, l, c, edge, k0, quad, rows, p.n, p.causal, scale_log2);
    };
    auto parity = [](int kt) { return uint32_t((kt / STAGES) & 1); };
    // The turns; without PINGPONG (tile 128x128-no-pingpong) the warpgroups issue when ready.
    auto turn_wait = [](int w) {
        if constexpr (PINGPONG)
            TurnWait(w);
        else
            (void)w;
    };
    auto turn_give = [](int w) {
        if constexpr (PINGPONG)
            TurnGive(w);
        else
            (void)w;
    };
    if (cw == 0) turn_give(0);  // warpgroup 0 takes the first turn
    BarrierWait(t.q_full, 0);
    if constexpr (OVERLAP) {
        // Tile 0: Q·Kᵀ alone, then its softmax; P waits in registers for the next turn.
        BarrierWait(&t.k_full[0], 0);
        turn_wait(cw);
        issue_qk(0);
        if (cw == 0 || tiles > 1) turn_give(1 - cw);
        WgmmaWait<0>();
        PinAccumulators(sc);
        if (lane0) BarrierArrive(&t.k_empty[0]);
        softmax(0);
        PackP<BC>(pf, sc);
        for (int kt = 1; kt < tiles; ++kt) {
            BarrierWait(&t.k_full[kt % STAGES], parity(kt));
            turn_wait(cw);
            issue_qk(kt);
            RescaleRows<D>(o, c);  // tile kt − 1's factor, before its P·V adds to O
            BarrierWait(&t.v_full[(kt - 1) % STAGES], parity(kt - 1));
            issue_pv(kt - 1);
            if (cw == 0 || kt + 1 < tiles) turn_give(1 - cw);
            WgmmaWait<1>();  // Q·Kᵀ of tile kt is done; P·V of tile kt − 1 may still run
            PinAccumulators(sc);
            if (lane0) BarrierArrive(&t.k_empty[kt % STAGES]);
            softmax(kt);
            WgmmaWait<0>();
            PinAccumulators(o);
            PinOperands(pf);  // P's registers stay P's until its wgmmas are complete
            if (lane0) BarrierArrive(&t.v_empty[(kt - 1) % STAGES]);
            PackP<BC>(pf, sc);
        }
        // The last tile's P·V, outside the turns.
        RescaleRows<D>(o, c);
        BarrierWait(&t.v_full[(tiles - 1) % STAGES], parity(tiles - 1));
        issue_pv(tiles - 1);
        WgmmaWait<0>();
        PinAccumulators(o);
        PinOperands(pf);
    } else {
        for (int kt = 0; kt < tiles; ++kt) {
            const int s = kt % STAGES;
            BarrierWait(&t.k_full[s], parity(kt));
            turn_wait(cw);
            issue_qk(kt);
            if (cw == 0 || kt + 1 < tiles) turn_give(1 - cw);
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
    }

    StoreRows<D>(o, l, p, first_row);
#else
    (void)map_q, (void)map_k, (void)map_v, (void)p;
    __trap();  // needs sm_90a: the host runs it only on compute capability 9.0
#endif
}

namespace {

// Four mbarriers a stage: a full and an empty one for K and for V.
template <int D, int BC, int STAGES, bool PINGPONG, bool OVERLAP>
AttentionKernel Config(const char* tile) {
    constexpr size_t kWsSmem = HopperTilesBytes(D, BC, STAGES, 4);
    static_assert(kWsSmem <= 227 * 1024, "more shared memory than a block may have");
    return TmaAttentionKernel<&attention_warp_specialized_kernel<D, BC, STAGES, PINGPONG, OVERLAP>,
                              D, BC, kWsThreads, kWsSmem>(tile,
                                                          "attention_warp_specialized_kernel");
}

}  // namespace

const AttentionKernel kWarpSpecialized[] = {
    Config<128, 128, 2, true, true>("128x128"),
    Config<64, 128, 2, true, true>("128x128"),
    Config<128, 128, 2, true, false>("128x128-no-overlap"),
    Config<64, 128, 2, true, false>("128x128-no-overlap"),
    Config<128, 128, 2, false, false>("128x128-no-pingpong"),
    Config<64, 128, 2, false, false>("128x128-no-pingpong"),
};

LESSONS_KERNELS(kWarpSpecialized);

}  // namespace lessons::attention
