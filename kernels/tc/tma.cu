// wgmma fed by TMA (cp.async.bulk.tensor), completing on mbarriers.
// With cp.async every thread computes addresses and issues a 16-byte copy per chunk: for a
// 128 × 256 × 64 stage that is 3072 copies, 12 per thread, and the swizzle arithmetic beside
// them. The Tensor Memory Accelerator copies a whole box of a matrix with one instruction from
// one thread: the matrix's shape, strides, box and swizzle are in a tensor map made on the host
// (cuTensorMapEncodeTiled) and passed to the kernel as a __grid_constant__ parameter. It clips
// boxes at the matrix's edges and writes zeros there, so no thread checks bounds, and it counts
// the bytes it delivered on an mbarrier: a consumer waits on the barrier of its stage, not on a
// block-wide __syncthreads, to know that the data is there.
// Here one thread issues the copies `stages` k-tiles ahead; every warpgroup computes. A stage is
// refilled only after all warpgroups are done with it: a __syncthreads after each k-tile (the
// warp-specialised step replaces that by a second set of barriers).
#include "kernel_table.h"
#include "tc_hopper.cuh"

namespace lessons::tc {

template <int BM, int BN, int STAGES, int WARPGROUPS>
__global__ void __launch_bounds__(128 * WARPGROUPS, 1)
    tc_tma_kernel(const __grid_constant__ CUtensorMap map_a,
                  const __grid_constant__ CUtensorMap map_b, __nv_bfloat16* c, int m, int n, int k,
                  int ldc) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    constexpr int kRows = BM / WARPGROUPS, kMi = kRows / 64;
    constexpr int kBytesA = HopperTileBytes(BM), kBytesB = HopperTileBytes(BN);
    constexpr int kStageBytes = kBytesA + kBytesB;
    extern __shared__ uint8_t tc_tma_smem[];
    uint8_t* const smem = AlignedDynamicSmem(tc_tma_smem);
    // full[s]: stage s holds its k-tile (one arrival, by the issuing thread, plus the bytes).
    uint64_t* const full = reinterpret_cast<uint64_t*>(smem + STAGES * kStageBytes);
    const int tid = threadIdx.x, wg = tid / 128;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    const int ktiles = (k + kHopperBk - 1) / kHopperBk;

    if (tid == 0) {
        TmaPrefetchMap(&map_a);
        TmaPrefetchMap(&map_b);
#pragma unroll
        for (int s = 0; s < STAGES; ++s) BarrierInit(&full[s], 1);
        BarrierInitFence();
    }
    __syncthreads();  // the barriers are initialised before anyone waits on them

    // k-tile kt into stage s: announce the bytes, then the two boxes. A box's bytes count in
    // full even where it reached past the matrix (the zeros are written too).
    auto issue = [&](int kt, int s) {
        uint8_t* const a_s = smem + s * kStageBytes;
        BarrierExpectBytes(&full[s], kStageBytes);
        TmaLoad(a_s, &map_a, kt * kHopperBk, row0, &full[s]);
        TmaLoad(a_s + kBytesA, &map_b, kt * kHopperBk, col0, &full[s]);
    };
    if (tid == 0)
        for (int s = 0; s < STAGES && s < ktiles; ++s) issue(s, s);

    float acc[kMi][BN / 2];
    ZeroAccumulators<BN>(acc);

    for (int kt = 0; kt < ktiles; ++kt) {
        const int s = kt % STAGES;
        // The stage's barrier completes its phase once per use: the (kt / STAGES)-th time.
        BarrierWait(&full[s], (kt / STAGES) & 1);
        const uint8_t* const a_s = smem + s * kStageBytes + wg * kRows * 128;
        const uint8_t* const b_s = smem + s * kStageBytes + kBytesA;
        WgmmaKTile<BN>(acc, a_s, b_s);
        WgmmaWait<0>();
#pragma unroll
        for (int i = 0; i < kMi; ++i) PinAccumulators(acc[i]);
        // Every warpgroup has finished reading stage s: it may be refilled, STAGES k-tiles on.
        __syncthreads();
        if (tid == 0 && kt + STAGES < ktiles) issue(kt + STAGES, s);
    }

    StoreAccumulators<BN>(acc, c, ldc, m, n, row0 + wg * kRows, col0);
#else
    (void)map_a, (void)map_b, (void)c, (void)m, (void)n, (void)k, (void)ldc;
    __trap();  // needs sm_90a: the host runs it only on compute capability 9.0
#endif
}

namespace {

// The stages, and their barriers.
template <TcTile T>
constexpr size_t SmemWgmmaTma() {
    return HopperStageSmem<T>(T.stages * sizeof(uint64_t));
}

// Registers per thread for sm_90a (ptxas, nvcc 13.0, no spills), in the order of
// kTilesWgmmaTma: 154, 154, 90 and 90.
LESSONS_KERNEL_TABLE(kTcWgmmaTma, kTilesWgmmaTma, [name = "tc_tma_kernel"]<TcTile T>() {
    static_assert(
        WarpgroupTileThreads(T) == T.threads && T.consumers == 0 && T.cluster == 1 && !T.persistent,
        "every warpgroup computes");
    return TmaKernel<T, &tc_tma_kernel<T.bm, T.bn, T.stages, T.threads / 128>, SmemWgmmaTma<T>()>(
        name);
});

}  // namespace

}  // namespace lessons::tc
