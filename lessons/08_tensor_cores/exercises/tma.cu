// Exercise 8.4: TMA copies completing on an mbarrier (sm_90a). The same product as 8.3 (A and Bᵀ
// in bf16, C in bf16, fp32 sums), for the tile below; A and Bᵀ now reach the kernel only as
// tensor maps, which the harness makes as the step does: A read in boxes of 64 k × BM rows, Bᵀ
// in boxes of 64 k × BN rows, written 128-byte swizzled into shared memory, zeros past the
// matrices' edges. The harness launches ceil(n / BN) × ceil(m / BM) blocks of 128 · WARPGROUPS
// = 256 threads, each with STAGES · (BM + BN) · 128 + 1024 + 8 · STAGES bytes of dynamic shared
// memory. Besides 8.3's helpers, kernels/tc/tc_hopper.cuh's TMA and mbarrier helpers are declared
// for you: TmaLoad, TmaPrefetchMap, BarrierInit, BarrierInitFence, BarrierExpectBytes,
// BarrierWait.
// As it stands one thread copies one k-tile at a time into stage 0 and every warpgroup waits for
// it before multiplying: right, and slow (the TMA unit and the tensor cores take turns). Keep
// STAGES k-tiles in flight, one mbarrier per stage.
constexpr int BM = 128, BN = 256, STAGES = 4, WARPGROUPS = 2;

__global__ void __launch_bounds__(128 * WARPGROUPS, 1)
    tc_tma_kernel(const __grid_constant__ CUtensorMap map_a,
                  const __grid_constant__ CUtensorMap map_b, __nv_bfloat16* c, int m, int n, int k,
                  int ldc) {
    constexpr int kRows = BM / WARPGROUPS, kMi = kRows / 64;
    constexpr int kBytesA = HopperTileBytes(BM), kBytesB = HopperTileBytes(BN);
    static_assert(kRows % 64 == 0 && STAGES >= 1, "64-row slices");
    extern __shared__ uint8_t raw[];
    uint8_t* const smem = AlignedDynamicSmem(raw);
    uint8_t* const a_s = smem;  // stage 0 only
    uint8_t* const b_s = smem + kBytesA;
    uint64_t* const full = reinterpret_cast<uint64_t*>(smem + STAGES * (kBytesA + kBytesB));
    const int tid = threadIdx.x, wg = tid / 128;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    const int ktiles = (k + kHopperBk - 1) / kHopperBk;

    if (tid == 0) {
        BarrierInit(&full[0], 1);
        BarrierInitFence();
    }
    __syncthreads();

    float acc[kMi][BN / 2];
#pragma unroll
    for (int i = 0; i < kMi; ++i)
#pragma unroll
        for (int j = 0; j < BN / 2; ++j) acc[i][j] = 0.0f;

    for (int kt = 0; kt < ktiles; ++kt) {
        if (tid == 0) {
            BarrierExpectBytes(&full[0], kBytesA + kBytesB);
            TmaLoad(a_s, &map_a, kt * kHopperBk, row0, &full[0]);
            TmaLoad(b_s, &map_b, kt * kHopperBk, col0, &full[0]);
        }
        BarrierWait(&full[0], kt & 1);  // the barrier's kt-th phase: this k-tile has landed
        WgmmaFence();
#pragma unroll
        for (int kk = 0; kk < kHopperBk / 16; ++kk)
#pragma unroll
            for (int i = 0; i < kMi; ++i)
                Wgmma<BN>::Run(acc[i],
                               SwizzledDescriptor(a_s + (wg * kRows + i * 64) * 128 + kk * 32),
                               SwizzledDescriptor(b_s + kk * 32));
        WgmmaCommit();
        WgmmaWait<0>();
#pragma unroll
        for (int i = 0; i < kMi; ++i) PinAccumulators(acc[i]);
        __syncthreads();  // every warpgroup is done with stage 0 before it is copied into again
    }

#pragma unroll
    for (int i = 0; i < kMi; ++i)
        StoreAccumulators<BN>(acc[i], c, ldc, m, n, row0 + wg * kRows + i * 64, col0);
}
