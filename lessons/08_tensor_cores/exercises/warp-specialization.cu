// Exercise 8.5: warp specialisation (sm_90a). The same product and tensor maps as 8.4 (A read in
// boxes of 64 k × BM rows, Bᵀ in boxes of 64 k × BN rows), for the tile below. The harness
// launches ceil(n / BN) × ceil(m / BM) blocks of 128 · (CONSUMERS + 1) = 384 threads, each with
// STAGES · (BM + BN) · 128 + 1024 + 16 · STAGES bytes of dynamic shared memory. Besides 8.4's
// helpers: BarrierArrive, ProducerRegisters and ConsumerRegisters (setmaxnreg: 40 and 232
// registers, for one producer and two consumer warpgroups).
// As it stands this is 8.4's kernel with warpgroup 0 only copying and warpgroups 1 and 2
// computing BM / 2 rows each; a __syncthreads after every k-tile still decides when a stage may
// be refilled, so every warp waits for the slowest. Right, and slower than it could be: let the
// producer refill a stage as soon as every consumer warp has said it is done with it.
constexpr int BM = 256, BN = 128, STAGES = 4, CONSUMERS = 2;

__global__ void __launch_bounds__(128 * (CONSUMERS + 1), 1)
    tc_warp_specialization_kernel(const __grid_constant__ CUtensorMap map_a,
                                  const __grid_constant__ CUtensorMap map_b, __nv_bfloat16* c,
                                  int m, int n, int k, int ldc) {
    constexpr int kRows = BM / CONSUMERS, kMi = kRows / 64;
    constexpr int kBytesA = HopperTileBytes(BM), kBytesB = HopperTileBytes(BN);
    constexpr int kStageBytes = kBytesA + kBytesB;
    static_assert(kRows % 64 == 0 && STAGES >= 1, "64-row slices");
    extern __shared__ uint8_t raw[];
    uint8_t* const smem = AlignedDynamicSmem(raw);
    uint64_t* const full = reinterpret_cast<uint64_t*>(smem + STAGES * kStageBytes);
    const int tid = threadIdx.x, wg = tid / 128;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    const int ktiles = (k + kHopperBk - 1) / kHopperBk;

    if (tid == 0) {
        TmaPrefetchMap(&map_a);
        TmaPrefetchMap(&map_b);
        for (int s = 0; s < STAGES; ++s) BarrierInit(&full[s], 1);
        BarrierInitFence();
    }
    __syncthreads();

    auto issue = [&](int kt, int s) {
        uint8_t* const a_s = smem + s * kStageBytes;
        BarrierExpectBytes(&full[s], kStageBytes);
        TmaLoad(a_s, &map_a, kt * kHopperBk, row0, &full[s]);
        TmaLoad(a_s + kBytesA, &map_b, kt * kHopperBk, col0, &full[s]);
    };
    if (tid == 0)
        for (int s = 0; s < STAGES && s < ktiles; ++s) issue(s, s);

    float acc[kMi][BN / 2];
#pragma unroll
    for (int i = 0; i < kMi; ++i)
#pragma unroll
        for (int j = 0; j < BN / 2; ++j) acc[i][j] = 0.0f;

    for (int kt = 0; kt < ktiles; ++kt) {
        const int s = kt % STAGES;
        if (wg > 0) {  // the consumers
            BarrierWait(&full[s], (kt / STAGES) & 1);
            const uint8_t* const a_s = smem + s * kStageBytes + (wg - 1) * kRows * 128;
            const uint8_t* const b_s = smem + s * kStageBytes + kBytesA;
            WgmmaKTile<BN, kMi>(acc, a_s, b_s);
            WgmmaWait<0>();
#pragma unroll
            for (int i = 0; i < kMi; ++i) PinAccumulators(acc[i]);
        }
        __syncthreads();  // every consumer is done with stage s: it may be refilled
        if (tid == 0 && kt + STAGES < ktiles) issue(kt + STAGES, s);
    }

    if (wg > 0)
#pragma unroll
        for (int i = 0; i < kMi; ++i)
            StoreAccumulators<BN>(acc[i], c, ldc, m, n, row0 + (wg - 1) * kRows + i * 64, col0);
}
