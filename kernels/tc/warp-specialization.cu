// Warp specialisation: a producer warpgroup copies, consumer warpgroups compute.
// In the TMA step every warpgroup both waits for data and computes, and a __syncthreads after
// each k-tile lets the copying thread refill a stage: all warps stop there together, the slowest
// one sets the pace, and the tensor cores idle while the next wgmmas are being issued. Here the
// roles are split. Warpgroup 0 is the producer: one of its threads issues the TMA copies as soon
// as a stage is free. Warpgroups 1..CONSUMERS compute, each on BM / CONSUMERS rows of the tile.
// Two sets of mbarriers hand the stages back and forth: full[s] (the TMA copy's bytes have
// landed; consumers wait on it) and empty[s] (every consumer warp is done reading; the producer
// waits on it). Nobody waits for anybody else at a block-wide barrier.
// The producer needs few registers, the consumers many (128 accumulators each): setmaxnreg
// gives the producer's back to the register file and lets the consumers take them.
#include "kernel_table.h"
#include "tc_hopper.cuh"

namespace lessons::tc {

template <int BM, int BN, int STAGES, int CONSUMERS>
__global__ void __launch_bounds__(128 * (CONSUMERS + 1), 1)
    tc_warp_specialization_kernel(const __grid_constant__ CUtensorMap map_a,
                                  const __grid_constant__ CUtensorMap map_b, __nv_bfloat16* c,
                                  int m, int n, int k, int ldc) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    constexpr int kRows = BM / CONSUMERS, kMi = kRows / 64;
    constexpr int kBytesA = HopperTileBytes(BM), kBytesB = HopperTileBytes(BN);
    constexpr int kStageBytes = kBytesA + kBytesB;
    extern __shared__ uint8_t tc_warp_specialization_smem[];
    uint8_t* const smem = AlignedDynamicSmem(tc_warp_specialization_smem);
    uint64_t* const full = reinterpret_cast<uint64_t*>(smem + STAGES * kStageBytes);
    uint64_t* const empty = full + STAGES;
    const int tid = threadIdx.x, wg = tid / 128;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    const int ktiles = (k + kHopperBk - 1) / kHopperBk;

    if (tid == 0) {
        TmaPrefetchMap(&map_a);
        TmaPrefetchMap(&map_b);
#pragma unroll
        for (int s = 0; s < STAGES; ++s) {
            BarrierInit(&full[s], 1);               // the producer's arrival (+ the bytes)
            BarrierInit(&empty[s], 4 * CONSUMERS);  // one arrival per consumer warp
        }
        BarrierInitFence();
    }
    __syncthreads();  // the only block-wide barrier: the mbarriers exist before anyone uses them

    if (wg == 0) {
        // Producer. Its registers go back first (every warp of the warpgroup executes it).
        if constexpr (CONSUMERS == 2) ProducerRegisters();
        if (tid == 0) {
            for (int kt = 0; kt < ktiles; ++kt) {
                const int s = kt % STAGES;
                // The stage's previous k-tile (kt - STAGES) has been read by every consumer
                // warp: that was the empty barrier's (kt / STAGES - 1)-th phase.
                if (kt >= STAGES) BarrierWait(&empty[s], ((kt / STAGES) & 1) ^ 1);
                uint8_t* const a_s = smem + s * kStageBytes;
                BarrierExpectBytes(&full[s], kStageBytes);
                TmaLoad(a_s, &map_a, kt * kHopperBk, row0, &full[s]);
                TmaLoad(a_s + kBytesA, &map_b, kt * kHopperBk, col0, &full[s]);
            }
        }
    } else {
        // Consumers: more registers for the accumulators.
        if constexpr (CONSUMERS == 2) ConsumerRegisters();
        const int cw = wg - 1;
        float acc[kMi][BN / 2];
        ZeroAccumulators<BN>(acc);

        for (int kt = 0; kt < ktiles; ++kt) {
            const int s = kt % STAGES;
            BarrierWait(&full[s], (kt / STAGES) & 1);
            const uint8_t* const a_s = smem + s * kStageBytes + cw * kRows * 128;
            const uint8_t* const b_s = smem + s * kStageBytes + kBytesA;
            WgmmaKTile<BN>(acc, a_s, b_s);
            WgmmaWait<0>();
#pragma unroll
            for (int i = 0; i < kMi; ++i) PinAccumulators(acc[i]);
            // This warp's share of the wgmmas is complete, so it no longer reads stage s.
            if (tid % 32 == 0) BarrierArrive(&empty[s]);
        }

        StoreAccumulators<BN>(acc, c, ldc, m, n, row0 + cw * kRows, col0);
    }
#else
    (void)map_a, (void)map_b, (void)c, (void)m, (void)n, (void)k, (void)ldc;
    __trap();  // needs sm_90a: the host runs it only on compute capability 9.0
#endif
}

namespace {

// The stages, and their two barriers each (full and empty).
template <TcTile T>
constexpr size_t SmemWarpSpecialized() {
    return HopperStageSmem<T>(2 * T.stages * sizeof(uint64_t));
}

// Registers per thread for sm_90a (ptxas, nvcc 13.0, no spills), in the order of
// kTilesWarpSpecialized: 168 at launch for the three with two consumers (setmaxnreg then gives
// the producer 40 and the consumers 232), 154 for the one with one consumer.
LESSONS_KERNEL_TABLE(
    kTcWarpSpecialized, kTilesWarpSpecialized,
    [name = "tc_warp_specialization_kernel"]<TcTile T>() {
        static_assert(WarpgroupTileThreads(T) == T.threads && T.consumers >= 1 && T.cluster == 1 &&
                          !T.persistent,
                      "one producer warpgroup beside the consumers");
        return TmaKernel<T, &tc_warp_specialization_kernel<T.bm, T.bn, T.stages, T.consumers>,
                         SmemWarpSpecialized<T>()>(name);
    });

}  // namespace

}  // namespace lessons::tc
