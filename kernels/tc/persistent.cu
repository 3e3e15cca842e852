// Persistent blocks, a tile scheduler, and clusters that share Bᵀ's tiles by TMA multicast.
// The warp-specialised step launches one block per tile of C: each block starts cold (barriers,
// an empty pipeline), and its consumers' epilogue (rounding and storing 64 × 256 results)
// leaves the tensor cores idle. Here one block stays on each multiprocessor and walks a list of
// tiles; the producer runs ahead into the next tile while the consumers are still storing the
// last, so the pipeline never drains between tiles.
// The order of the tiles decides what L2 holds: blocks that run at the same time take tiles
// from a band of kGroupRows rows of tiles, column by column, so the same few row-tiles of A and
// column-tiles of B are read by many blocks while they are in L2.
// With CLUSTER = 2, two blocks on neighbouring multiprocessors (a cluster) take two tiles one
// above the other: the same columns, so the same k-tiles of Bᵀ. Each block's producer copies
// half of that tile and the TMA unit writes it into both blocks' shared memory (multicast):
// Bᵀ is read from L2 once per pair. A stage is then refilled only when the consumers of both
// blocks are done with it, so each consumer warp arrives on the empty barriers of both.
// C leaves through shared memory and TMA stores: the consumers write their results once into a
// swizzled staging area and one thread has the TMA unit store them, so the consumers are
// back at the tensor cores sooner than if each thread stored its scattered pairs itself.
// Each idea has an ablation tile that takes it out, on the default tile (tc_tiles.h,
// TcAblation): WAIT_ONE = false (every k-tile's wgmmas waited for at once), TMA_STORE = false
// (C stored from the registers), BANDS = false (tiles row by row), and one block per tile (the
// same kernel, launched on a grid of one block per tile: PlanTmaLaunch).
#include "kernel_table.h"
#include "tc_hopper.cuh"

namespace lessons::tc {

namespace {

// Rows of tiles in one band of the tile order.
constexpr int kGroupRows = 16;

// The `unit`-th piece of work in the L2-friendly order: a cluster's row of tiles (`um`, in units
// of `cluster` tiles) and column of tiles (`un`), of units_m × tiles_n. Bands of kGroupRows rows
// of tiles, walked column by column; without `bands`, row by row.
__host__ __device__ inline void UnitOf(int unit, int units_m, int tiles_n, int cluster, bool bands,
                                       int& um, int& un) {
    if (!bands) {
        um = unit / tiles_n;
        un = unit % tiles_n;
        return;
    }
    const int group = kGroupRows / cluster;  // in units
    const int band = unit / (group * tiles_n), first = band * group;
    const int rows = min(units_m - first, group), in_band = unit % (group * tiles_n);
    um = first + in_band % rows;
    un = in_band / rows;
}

}  // namespace

template <int BM, int BN, int STAGES, int CONSUMERS, bool WAIT_ONE, bool TMA_STORE, bool BANDS,
          int CLUSTER>
__global__ void __launch_bounds__(128 * (CONSUMERS + 1), 1)
    tc_persistent_kernel(const __grid_constant__ CUtensorMap map_a,
                         const __grid_constant__ CUtensorMap map_b,
                         const __grid_constant__ CUtensorMap map_c, __nv_bfloat16* c, int m, int n,
                         int k, int ldc) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    constexpr int kRows = BM / CONSUMERS, kMi = kRows / 64;
    constexpr int kBytesA = HopperTileBytes(BM), kBytesB = HopperTileBytes(BN);
    constexpr int kStageBytes = kBytesA + kBytesB, kSliceB = BN / CLUSTER;
    extern __shared__ uint8_t tc_persistent_smem[];
    uint8_t* const smem = AlignedDynamicSmem(tc_persistent_smem);
    uint64_t* const full = reinterpret_cast<uint64_t*>(smem + STAGES * kStageBytes);
    uint64_t* const empty = full + STAGES;
    // Each consumer's staging area for C: two 64 × 64 boxes of bf16, 128-byte swizzled.
    constexpr int kStagingBytes = 2 * 64 * 64 * 2;
    uint8_t* const staging = smem + STAGES * kStageBytes + 1024;
    const int tid = threadIdx.x, wg = tid / 128;
    uint32_t rank = 0;  // this block's place in its cluster
    if constexpr (CLUSTER > 1) asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
    const int ktiles = (k + kHopperBk - 1) / kHopperBk;
    const int tiles_m = (m + BM - 1) / BM, tiles_n = (n + BN - 1) / BN;
    const int units_m = (tiles_m + CLUSTER - 1) / CLUSTER, units = units_m * tiles_n;
    const int cluster_id = blockIdx.x / CLUSTER, clusters = gridDim.x / CLUSTER;

    if (tid == 0) {
        TmaPrefetchMap(&map_a);
        TmaPrefetchMap(&map_b);
        TmaPrefetchMap(&map_c);
#pragma unroll
        for (int s = 0; s < STAGES; ++s) {
            BarrierInit(&full[s], 1);
            BarrierInit(&empty[s], 4 * CONSUMERS * CLUSTER);  // every consumer warp of the cluster
        }
        BarrierInitFence();
    }
    // The barriers of every block of the cluster exist before any copy or arrival reaches them.
    if constexpr (CLUSTER > 1) {
        asm volatile("barrier.cluster.arrive.release.aligned;\n" ::: "memory");
        asm volatile("barrier.cluster.wait.acquire.aligned;\n" ::: "memory");
    } else {
        __syncthreads();
    }

    if (wg == 0) {
        ProducerRegisters();
        if (tid == 0) {
            int it = 0;  // k-tiles issued so far, over all tiles: the stage and its phase
            for (int unit = cluster_id; unit < units; unit += clusters) {
                int um, un;
                UnitOf(unit, units_m, tiles_n, CLUSTER, BANDS, um, un);
                const int tile_m = um * CLUSTER + int(rank);
                // A cluster's last row of tiles may have one block below C: it copies no A (its
                // consumers compute on stale data and store nothing) but still its half of Bᵀ,
                // which its partner needs.
                const bool has_a = tile_m < tiles_m;
                const int row0 = tile_m * BM, col0 = un * BN;
                for (int kt = 0; kt < ktiles; ++kt, ++it) {
                    const int s = it % STAGES;
                    if (it >= STAGES) BarrierWait(&empty[s], ((it / STAGES) & 1) ^ 1);
                    uint8_t* const a_s = smem + s * kStageBytes;
                    BarrierExpectBytes(&full[s], (has_a ? kBytesA : 0) + kBytesB);
                    if (has_a) TmaLoad(a_s, &map_a, kt * kHopperBk, row0, &full[s]);
                    uint8_t* const b_slice = a_s + kBytesA + rank * kSliceB * 128;
                    if constexpr (CLUSTER > 1)
                        TmaLoadMulticast(b_slice, &map_b, kt * kHopperBk, col0 + rank * kSliceB,
                                         &full[s], uint16_t((1u << CLUSTER) - 1));
                    else
                        TmaLoad(b_slice, &map_b, kt * kHopperBk, col0, &full[s]);
                }
            }
        }
    } else {
        ConsumerRegisters();
        const int cw = wg - 1, t = tid % 128, lane = tid % 32;
        uint8_t* const my_staging = staging + cw * kStagingBytes;
        float acc[kMi][BN / 2];
        // Frees stage s: one arrival per warp on the empty barrier of every block in the cluster.
        auto release = [&](int s) {
            if (tid % 32 == 0) {
                if constexpr (CLUSTER > 1) {
#pragma unroll
                    for (int r = 0; r < CLUSTER; ++r) {
                        if (r == int(rank))
                            BarrierArrive(&empty[s]);
                        else
                            BarrierArriveCluster(&empty[s], r);
                    }
                } else {
                    BarrierArrive(&empty[s]);
                }
            }
        };
        int it = 0;
        for (int unit = cluster_id; unit < units; unit += clusters) {
            int um, un;
            UnitOf(unit, units_m, tiles_n, CLUSTER, BANDS, um, un);
            const int row0 = (um * CLUSTER + int(rank)) * BM, col0 = un * BN;
            ZeroAccumulators<BN>(acc);
            for (int kt = 0; kt < ktiles; ++kt, ++it) {
                const int s = it % STAGES;
                BarrierWait(&full[s], (it / STAGES) & 1);
                const uint8_t* const a_s = smem + s * kStageBytes + cw * kRows * 128;
                const uint8_t* const b_s = smem + s * kStageBytes + kBytesA;
                WgmmaKTile<BN>(acc, a_s, b_s);
                if constexpr (WAIT_ONE) {
                    // Keep this k-tile's wgmmas running while waiting for the previous k-tile's:
                    // the tensor cores always have the next group queued. Once the previous one
                    // is complete, its stage can be refilled.
                    WgmmaWait<1>();
#pragma unroll
                    for (int i = 0; i < kMi; ++i) PinAccumulators(acc[i]);
                    if (kt > 0) release((it - 1) % STAGES);
                } else {  // the ablation: this k-tile's wgmmas done before the next is issued
                    WgmmaWait<0>();
#pragma unroll
                    for (int i = 0; i < kMi; ++i) PinAccumulators(acc[i]);
                    release(s);
                }
            }
            if constexpr (WAIT_ONE) {
                WgmmaWait<0>();
#pragma unroll
                for (int i = 0; i < kMi; ++i) PinAccumulators(acc[i]);
                release((it - 1) % STAGES);
            }

            // The epilogue, through shared memory: the consumer's kRows × BN results, rounded
            // to bf16, in 64 × 64 boxes, two at a time. Its threads write a box in the swizzled
            // layout (a warp's 32 four-byte writes land in 32 different banks), and one thread
            // has TMA store it, clipped at C's edges. (Stored from registers, each warp store
            // would touch 8 rows of C with 16 bytes each, while the tensor cores wait.)
            // TMA writes whole 16-byte pieces of a row: where C's last column ends inside one
            // (n not a multiple of 8), the tile at the right edge is stored from registers.
            // (The ablation TMA_STORE = false stores every tile so.)
            if (!TMA_STORE || (n % 8 != 0 && col0 + BN > n)) {
#pragma unroll
                for (int i = 0; i < kMi; ++i)
                    StoreAccumulators<BN>(acc[i], c, ldc, m, n, row0 + cw * kRows + i * 64, col0);
                continue;
            }
            constexpr int kBoxes = kMi * BN / 64;
#pragma unroll
            for (int q0 = 0; q0 < kBoxes; q0 += 2) {
                // The area is free once the stores that last read it have read it.
                if (t == 0) TmaStoreWaitRead();
                NamedBarrier(1 + cw, 128);
#pragma unroll
                for (int q = q0; q < q0 + 2; ++q) {
                    const int i = q / (BN / 64), b = q % (BN / 64);
                    uint8_t* const box = my_staging + (q - q0) * 64 * 128;
#pragma unroll
                    for (int jj = 0; jj < 8; ++jj) {
                        const int j = b * 8 + jj;  // the accumulators' 8-column group
#pragma unroll
                        for (int h = 0; h < 2; ++h) {
                            const int r = (t / 32) * 16 + lane / 4 + 8 * h;  // r % 8 = lane / 4
                            *reinterpret_cast<__nv_bfloat162*>(
                                box + r * 128 + ((jj ^ (lane / 4)) << 4) + 4 * (lane % 4)) =
                                __floats2bfloat162_rn(acc[i][4 * j + 2 * h],
                                                      acc[i][4 * j + 2 * h + 1]);
                        }
                    }
                }
                // The writes are handed to the TMA unit (async proxy), then to the thread
                // that issues the stores.
                FenceProxyAsync();
                NamedBarrier(1 + cw, 128);
                if (t == 0 && row0 < m) {
#pragma unroll
                    for (int q = q0; q < q0 + 2; ++q)
                        TmaStore(&map_c, my_staging + (q - q0) * 64 * 128,
                                 col0 + (q % (BN / 64)) * 64,
                                 row0 + cw * kRows + (q / (BN / 64)) * 64);
                    TmaStoreCommit();
                }
            }
        }
        if (t == 0) TmaStoreWait();  // the last stores are complete before the block ends
    }
    // No block of a cluster leaves while a partner may still arrive on its barriers.
    if constexpr (CLUSTER > 1) {
        __syncwarp();
        asm volatile("barrier.cluster.arrive.release.aligned;\n" ::: "memory");
        asm volatile("barrier.cluster.wait.acquire.aligned;\n" ::: "memory");
    }
#else
    (void)map_a, (void)map_b, (void)map_c, (void)c, (void)m, (void)n, (void)k, (void)ldc;
    __trap();  // needs sm_90a: the host runs it only on compute capability 9.0
#endif
}

namespace {

template <TcTile T>
constexpr size_t SmemPersistent() {
    // The stages, their barriers (in 1 KB), and C's staging areas.
    return HopperStageSmem<T>(1024 + T.consumers * 2 * 64 * 64 * 2);
}

// Registers per thread for sm_90a (ptxas, nvcc 13.0, no spills): 168 at launch for each entry
// of kTilesPersistent; setmaxnreg then gives the producer 40 and the consumers 232. Then the
// default tile's four ablations (the one-block-per-tile one is the default's kernel).
LESSONS_KERNEL_TABLE(kTcPersistent, kTilesPersistent, [name = "tc_persistent_kernel"]<TcTile T>() {
    static_assert(WarpgroupTileThreads(T) == T.threads && T.consumers >= 2 && T.persistent &&
                      (T.cluster == 1 || T.cluster == 2) && T.bn % (8 * T.cluster) == 0,
                  "a producer and at least two consumers, clusters of 1 or 2 blocks");
    static_assert(SmemPersistent<T>() <= 227 * 1024, "more shared memory than a block may have");
    constexpr TmaStoreKernelFn kKernel =
        &tc_persistent_kernel<T.bm, T.bn, T.stages, T.consumers, T.ablation != TcAblation::kWaitAll,
                              T.ablation != TcAblation::kRegisterStore,
                              T.ablation != TcAblation::kRowOrder, T.cluster>;
    return TmaKernel<T, kKernel, SmemPersistent<T>()>(name);
});

}  // namespace

}  // namespace lessons::tc
