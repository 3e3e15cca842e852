// Exercise 8.6: persistent blocks (sm_90a). The same product as 8.5 for the tile below, and the
// same tensor maps of A (boxes of 64 k × BM rows) and Bᵀ (64 k × BN rows), plus one of C: boxes
// of 64 × 64 elements, read from shared memory 128-byte swizzled, clipped at C's edges. The
// harness launches one block per multiprocessor or fewer, in ONE dimension (not one per tile: as
// many as leave no block with less work than the others), of 384 threads, each with
// STAGES · (BM + BN) · 128 + 1024 + CONSUMERS · 16384 + 1024 bytes of dynamic shared memory (the
// stages, their barriers in 1 KB, a staging area of two 64 × 64 bf16 boxes per consumer
// warpgroup for C, and 1 KB for the alignment). Besides 8.5's helpers: TmaStore, TmaStoreCommit,
// TmaStoreWaitRead, TmaStoreWait, NamedBarrier.
// As it stands this is 8.5's kernel walking the tiles of C in row order (tile blockIdx.x, then
// every gridDim.x-th), its barriers' phases counted across tiles, C stored from registers: right,
// and slower than it could be.
constexpr int BM = 128, BN = 256, STAGES = 4, CONSUMERS = 2, CLUSTER = 1;

__global__ void __launch_bounds__(128 * (CONSUMERS + 1), 1)
    tc_persistent_kernel(const __grid_constant__ CUtensorMap map_a,
                         const __grid_constant__ CUtensorMap map_b,
                         const __grid_constant__ CUtensorMap map_c, __nv_bfloat16* c, int m, int n,
                         int k, int ldc) {
    constexpr int kRows = BM / CONSUMERS, kMi = kRows / 64;
    constexpr int kBytesA = HopperTileBytes(BM), kBytesB = HopperTileBytes(BN);
    constexpr int kStageBytes = kBytesA + kBytesB;
    static_assert(CONSUMERS == 2 && CLUSTER == 1 && kRows % 64 == 0, "two consumers, no cluster");
    extern __shared__ uint8_t raw[];
    uint8_t* const smem = AlignedDynamicSmem(raw);
    uint64_t* const full = reinterpret_cast<uint64_t*>(smem + STAGES * kStageBytes);
    uint64_t* const empty = full + STAGES;
    const int tid = threadIdx.x, wg = tid / 128;
    const int ktiles = (k + kHopperBk - 1) / kHopperBk;
    const int tiles_n = (n + BN - 1) / BN, tiles = (m + BM - 1) / BM * tiles_n;
    (void)map_c;

    if (tid == 0) {
        TmaPrefetchMap(&map_a);
        TmaPrefetchMap(&map_b);
        for (int s = 0; s < STAGES; ++s) {
            BarrierInit(&full[s], 1);
            BarrierInit(&empty[s], 4 * CONSUMERS);
        }
        BarrierInitFence();
    }
    __syncthreads();

    if (wg == 0) {
        ProducerRegisters();
        if (tid == 0) {
            int it = 0;  // k-tiles issued so far, over all tiles: the stage and its phase
            for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
                const int row0 = tile / tiles_n * BM, col0 = tile % tiles_n * BN;
                for (int kt = 0; kt < ktiles; ++kt, ++it) {
                    const int s = it % STAGES;
                    if (it >= STAGES) BarrierWait(&empty[s], ((it / STAGES) & 1) ^ 1);
                    uint8_t* const a_s = smem + s * kStageBytes;
                    BarrierExpectBytes(&full[s], kStageBytes);
                    TmaLoad(a_s, &map_a, kt * kHopperBk, row0, &full[s]);
                    TmaLoad(a_s + kBytesA, &map_b, kt * kHopperBk, col0, &full[s]);
                }
            }
        }
    } else {
        ConsumerRegisters();
        const int cw = wg - 1;
        float acc[kMi][BN / 2];
        int it = 0;
        for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
            const int row0 = tile / tiles_n * BM, col0 = tile % tiles_n * BN;
#pragma unroll
            for (int i = 0; i < kMi; ++i)
#pragma unroll
                for (int j = 0; j < BN / 2; ++j) acc[i][j] = 0.0f;
            for (int kt = 0; kt < ktiles; ++kt, ++it) {
                const int s = it % STAGES;
                BarrierWait(&full[s], (it / STAGES) & 1);
                const uint8_t* const a_s = smem + s * kStageBytes + cw * kRows * 128;
                const uint8_t* const b_s = smem + s * kStageBytes + kBytesA;
                WgmmaKTile<BN, kMi>(acc, a_s, b_s);
                WgmmaWait<0>();
#pragma unroll
                for (int i = 0; i < kMi; ++i) PinAccumulators(acc[i]);
                if (tid % 32 == 0) BarrierArrive(&empty[s]);
            }
#pragma unroll
            for (int i = 0; i < kMi; ++i)
                StoreAccumulators<BN>(acc[i], c, ldc, m, n, row0 + cw * kRows + i * 64, col0);
        }
    }
}
