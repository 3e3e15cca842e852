// The warpgroup multiply (wgmma, sm_90a), fed by cp.async.
// mma.sync is a warp's instruction: 32 threads multiply a 16 × 8 × 16 tile whose operands they
// first load into registers with ldmatrix. Hopper's wgmma is a warpgroup's (4 consecutive warps,
// 128 threads): one instruction multiplies 64 × N × 16 (N up to 256), reads both operands
// straight from shared memory through 64-bit descriptors that say where a tile lies and how it
// is laid out, and runs asynchronously: the threads issue it, may do other work, and wait for
// it only when they need its accumulators or the shared memory it reads.
// Here every thread still copies tiles with cp.async, several k-tiles ahead (`stages`), into
// the 128-byte-swizzled layout that the descriptors name; each warpgroup owns BM / warpgroups
// rows of the block's tile and, per k-tile of 64, issues 4 k16 steps of wgmma per 64 rows.
#include "kernel_table.h"
#include "tc_hopper.cuh"

namespace lessons::tc {

template <int BM, int BN, int STAGES, int WARPGROUPS>
__global__ void __launch_bounds__(128 * WARPGROUPS, 1) tc_wgmma_kernel(TcProblem p) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    constexpr int kThreads = 128 * WARPGROUPS, kRows = BM / WARPGROUPS, kMi = kRows / 64;
    constexpr int kBytesA = HopperTileBytes(BM), kBytesB = HopperTileBytes(BN);
    constexpr int kStageBytes = kBytesA + kBytesB;
    static_assert(kRows % 64 == 0 && (BM * 8) % kThreads == 0 && (BN * 8) % kThreads == 0, "");
    extern __shared__ uint8_t tc_wgmma_smem[];
    uint8_t* const smem = AlignedDynamicSmem(tc_wgmma_smem);
    const int tid = threadIdx.x, wg = tid / 128;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    const int ktiles = (p.k + kHopperBk - 1) / kHopperBk;

    // One k-tile of A (BM rows) and Bᵀ (BN rows) into stage `s`: each row of 64 elements is 8
    // chunks of 16 bytes, chunk `ch` of row `r` stored at chunk position ch ^ (r % 8). Chunks
    // past the matrix's edge are copied short (the rest zero-filled) or not read at all.
    auto load = [&](int kt, int s) {
        uint8_t* const a_s = smem + s * kStageBytes;
        uint8_t* const b_s = a_s + kBytesA;
        const int k0 = kt * kHopperBk;
        auto copy_rows = [&](uint8_t* dst, const __nv_bfloat16* src, int ld, int rows, int first,
                             int count) {
            for (int i = tid; i < count * 8; i += kThreads) {
                const int r = i / 8, ch = i % 8, gr = first + r, gk = k0 + ch * 8;
                const int bytes = gr < rows ? min(max((p.k - gk) * 2, 0), 16) : 0;
                const __nv_bfloat16* from = bytes ? src + size_t(gr) * ld + gk : src;
                CpAsync16(dst + r * 128 + ((ch ^ (r & 7)) << 4), from, bytes);
            }
        };
        copy_rows(a_s, p.a, p.lda, p.m, row0, BM);
        copy_rows(b_s, p.bt, p.ldb, p.n, col0, BN);
    };

    // The first STAGES - 1 k-tiles in flight (a commit per stage, even an empty one, so that
    // "all but the newest STAGES - 2 groups" always means "k-tile kt").
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < ktiles) load(s, s);
        CpAsyncCommit();
    }

    float acc[kMi][BN / 2];
    ZeroAccumulators<BN>(acc);

    for (int kt = 0; kt < ktiles; ++kt) {
        // This thread's copies of k-tile kt have landed; the proxy fence hands them to the
        // tensor cores (which read shared memory through the async proxy, not the generic one
        // that cp.async wrote through); the barrier makes it every thread's copies, and tells
        // every thread that all warpgroups are done with k-tile kt - 1 (each waited for its
        // wgmmas below), whose stage the next load overwrites.
        CpAsyncWait<STAGES - 2>();
        FenceProxyAsync();
        __syncthreads();
        if (kt + STAGES - 1 < ktiles) load(kt + STAGES - 1, (kt + STAGES - 1) % STAGES);
        CpAsyncCommit();

        const uint8_t* const a_s = smem + (kt % STAGES) * kStageBytes + wg * kRows * 128;
        const uint8_t* const b_s = smem + (kt % STAGES) * kStageBytes + kBytesA;
        WgmmaKTile<BN>(acc, a_s, b_s);
        // Wait at once: the next iteration's barrier is what lets a stage be refilled.
        WgmmaWait<0>();
#pragma unroll
        for (int i = 0; i < kMi; ++i) PinAccumulators(acc[i]);
    }

    StoreAccumulators<BN>(acc, p.c, p.ldc, p.m, p.n, row0 + wg * kRows, col0);
#else
    (void)p;
    __trap();  // needs sm_90a: the host runs it only on compute capability 9.0
#endif
}

namespace {

template <TcTile T>
constexpr size_t SmemWgmma() {
    return HopperStageSmem<T>(0);
}

template <TcTile T>
cudaError_t LaunchWgmma(const TcProblem& p, cudaStream_t stream) {
    constexpr auto kKernel = &tc_wgmma_kernel<T.bm, T.bn, T.stages, T.threads / 128>;
    const cudaError_t e = cudaFuncSetAttribute(kKernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               int(SmemWgmma<T>()));
    if (e != cudaSuccess) return e;
    const dim3 grid(unsigned((p.n + T.bn - 1) / T.bn), unsigned((p.m + T.bm - 1) / T.bm));
    kKernel<<<grid, T.threads, SmemWgmma<T>(), stream>>>(p);
    return cudaGetLastError();
}

// Registers per thread for sm_90a (ptxas, nvcc 13.0, no spills), in the order of kTilesWgmma:
// 175, 146, 174 and 146.
LESSONS_KERNEL_TABLE(kTcWgmma, kTilesWgmma, [name = "tc_wgmma_kernel"]<TcTile T>() -> TcKernel {
    static_assert(WarpgroupTileThreads(T) == T.threads && T.consumers == 0 && T.stages >= 2 &&
                      T.cluster == 1 && !T.persistent,
                  "every warpgroup computes; a pipeline of at least 2 stages");
    constexpr auto kKernel = &tc_wgmma_kernel<T.bm, T.bn, T.stages, T.threads / 128>;
    return {T, name, reinterpret_cast<const void*>(kKernel), SmemWgmma<T>(), &LaunchWgmma<T>, 90};
});

}  // namespace

}  // namespace lessons::tc
