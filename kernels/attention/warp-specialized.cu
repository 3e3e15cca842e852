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

// tc::Wgmma with the accumulate flag (wgmma's scale-d) as an argument: 0 writes D = A·B, ignoring
// what the accumulators held, so the scores need no zeroing before each tile.
template <int N>
struct WgmmaSS;

template <>
struct WgmmaSS<128> {
    static __device__ __forceinline__ void Run(float (&d)[64], uint64_t desc_a, uint64_t desc_b,
                                               int accumulate) {
        asm volatile(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
            "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {"
            "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, "
            "%19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, "
            "%36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, "
            "%53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, 0, 0;\n}\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
              "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]),
              "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]),
              "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
              "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]),
              "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]),
              "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]),
              "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
              "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]),
              "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]),
              "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
            : "l"(desc_a), "l"(desc_b), "r"(accumulate));
    }
};

// The online softmax of one tile's scores sc (a warpgroup's 64 × BC accumulators, this thread's
// rows r[0], r[1]) in the log2 domain, as wgmma-tma.cu does it: scores masked to -inf past n or
// above the diagonal (only `edge` tiles test), the running max m (of s · scale · log2(e)) and sum
// l updated, sc replaced by p. Returns in c the factor O's rows must be scaled by.
template <int BC>
__device__ __forceinline__ void OnlineSoftmax(float (&sc)[BC / 2], float (&m)[2], float (&l)[2],
                                              float (&c)[2], bool edge, int k0, int quad,
                                              const int (&r)[2], int n, bool causal,
                                              float scale_log2) {
    // The max is taken on the raw scores (the scale is positive) and the scale applied inside
    // the exponent's one FFMA: p = 2^(s · scale · log2(e) − m).
    float base[2];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        float mx = NegInfinity();
#pragma unroll
        for (int j = 0; j < BC / 8; ++j)
#pragma unroll
            for (int e = 0; e < 2; ++e) {
                float& x = sc[4 * j + 2 * h + e];
                const int key = k0 + 8 * j + 2 * quad + e;
                if (edge && (key >= n || (causal && key > r[h]))) x = NegInfinity();
                mx = fmaxf(mx, x);
            }
        mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
        mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
        const float m_new = fmaxf(m[h], mx * scale_log2);
        base[h] = m_new == NegInfinity() ? 0.0f : m_new;
        c[h] = Exp2(m[h] - base[h]);
        m[h] = m_new;
        l[h] *= c[h];
    }
#pragma unroll
    for (int i = 0; i < BC / 2; ++i) {
        sc[i] = Exp2(fmaf(sc[i], scale_log2, -base[(i / 2) % 2]));
        l[(i / 2) % 2] += sc[i];
    }
}

template <int D>
__device__ __forceinline__ void RescaleRows(float (&o)[D / 2], const float (&c)[2]) {
#pragma unroll
    for (int j = 0; j < D / 8; ++j)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            o[4 * j + 2 * h] *= c[h];
            o[4 * j + 2 * h + 1] *= c[h];
        }
}

// P as wgmma's A from registers: columns 16kk..16kk+15 of S are accumulators 8kk..8kk+7.
template <int BC>
__device__ __forceinline__ void PackP(unsigned (&pf)[BC / 16][4], const float (&sc)[BC / 2]) {
#pragma unroll
    for (int kk = 0; kk < BC / 16; ++kk) {
        pf[kk][0] = PackBf16(sc[8 * kk], sc[8 * kk + 1]);
        pf[kk][1] = PackBf16(sc[8 * kk + 2], sc[8 * kk + 3]);
        pf[kk][2] = PackBf16(sc[8 * kk + 4], sc[8 * kk + 5]);
        pf[kk][3] = PackBf16(sc[8 * kk + 6], sc[8 * kk + 7]);
    }
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
    constexpr int BR = kHopperRows, kPanels = D / 64;
    constexpr int kQBytes = TileBytes(BR, D), kKvBytes = TileBytes(BC, D);
    constexpr int kQPanel = PanelBytes(BR), kKvPanel = PanelBytes(BC);
    extern __shared__ uint8_t attention_ws_smem[];
    uint8_t* const smem = AlignedDynamicSmem(attention_ws_smem);
    uint8_t* const qs = smem;                    // [panel][BR rows][128 bytes]
    uint8_t* const ks = qs + kQBytes;            // [stage][panel][BC rows][128 bytes]
    uint8_t* const vs = ks + STAGES * kKvBytes;  // the same for V
    uint64_t* const q_full = reinterpret_cast<uint64_t*>(vs + STAGES * kKvBytes);
    uint64_t* const k_full = q_full + 1;  // [STAGES] each
    uint64_t* const v_full = k_full + STAGES;
    uint64_t* const k_empty = v_full + STAGES;
    uint64_t* const v_empty = k_empty + STAGES;

    const int tid = threadIdx.x, wg = tid / 128;
    const int q0 = blockIdx.x * BR;
    const int head_row = blockIdx.y * p.n;  // the head's first row in the [B·H·N] × d matrix
    const int end = p.causal ? min(p.n, q0 + BR) : p.n;
    const int tiles = (end + BC - 1) / BC;

    if (tid == 0) {
        TmaPrefetchMap(&map_q);
        TmaPrefetchMap(&map_k);
        TmaPrefetchMap(&map_v);
        BarrierInit(q_full, 1);
#pragma unroll
        for (int s = 0; s < STAGES; ++s) {
            BarrierInit(&k_full[s], 1);  // the producer's arrival (+ the bytes)
            BarrierInit(&v_full[s], 1);
            BarrierInit(&k_empty[s], 8);  // one arrival per consumer warp
            BarrierInit(&v_empty[s], 8);
        }
        BarrierInitFence();
    }
    __syncthreads();  // the only block-wide barrier: the mbarriers exist before anyone uses them

    if (wg == 0) {
        // The producer: its registers go back (every warp of the warpgroup executes it), and one
        // thread copies. Stage s of tile kt was last used by tile kt − STAGES: the empty
        // barrier's (kt / STAGES − 1)-th phase. A box's bytes count in full even where it
        // reaches past the matrix (TMA writes the zeros).
        ProducerRegisters();
        if (tid == 0) {
            BarrierExpectBytes(q_full, kQBytes);
#pragma unroll
            for (int c = 0; c < kPanels; ++c)
                TmaLoad(qs + c * kQPanel, &map_q, c * 64, head_row + q0, q_full);
            for (int kt = 0; kt < tiles; ++kt) {
                const int s = kt % STAGES;
                const uint32_t parity = ((kt / STAGES) & 1) ^ 1;
                if (kt >= STAGES) BarrierWait(&k_empty[s], parity);
                BarrierExpectBytes(&k_full[s], kKvBytes);
#pragma unroll
                for (int c = 0; c < kPanels; ++c)
                    TmaLoad(ks + s * kKvBytes + c * kKvPanel, &map_k, c * 64, head_row + kt * BC,
                            &k_full[s]);
                if (kt >= STAGES) BarrierWait(&v_empty[s], parity);
                BarrierExpectBytes(&v_full[s], kKvBytes);
#pragma unroll
                for (int c = 0; c < kPanels; ++c)
                    TmaLoad(vs + s * kKvBytes + c * kKvPanel, &map_v, c * 64, head_row + kt * BC,
                            &v_full[s]);
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
    const uint8_t* const q_wg = qs + cw * 64 * 128;          // this warpgroup's 64 rows of a panel
    float o[D / 2], sc[BC / 2], m[2] = {NegInfinity(), NegInfinity()}, l[2] = {0.0f, 0.0f};
    float c[2];
    unsigned pf[BC / 16][4];
#pragma unroll
    for (int i = 0; i < D / 2; ++i) o[i] = 0.0f;
#pragma unroll
    for (int i = 0; i < BC / 2; ++i) sc[i] = 0.0f;  // defined once; each Q·Kᵀ overwrites it
    const bool lane0 = lane == 0;

    // Issues S = Q·Kᵀ of tile kt (from stage kt % STAGES) into sc, as one group; the first k16
    // step overwrites what sc held.
    auto issue_qk = [&](int kt) {
        const uint8_t* const k_s = ks + (kt % STAGES) * kKvBytes;
        PinAccumulators(sc);
        WgmmaFence();
#pragma unroll
        for (int kk = 0; kk < D / 16; ++kk)
            WgmmaSS<BC>::Run(sc, SwizzledDescriptor(q_wg + (kk / 4) * kQPanel + (kk % 4) * 32),
                             SwizzledDescriptor(k_s + (kk / 4) * kKvPanel + (kk % 4) * 32), kk > 0);
        WgmmaCommit();
    };
    // Issues O += P·V of tile kt: P from pf, V (stage kt % STAGES) MN-major, as one group.
    auto issue_pv = [&](int kt) {
        const uint8_t* const v_s = vs + (kt % STAGES) * kKvBytes;
        PinOperands(pf);
        PinAccumulators(o);
        WgmmaFence();
#pragma unroll
        for (int kk = 0; kk < BC / 16; ++kk)
            WgmmaRegA<D>::Run(o, pf[kk], MnMajorDescriptor(v_s + kk * 16 * 128, kKvPanel));
        WgmmaCommit();
    };
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
    BarrierWait(q_full, 0);
    if constexpr (OVERLAP) {
        // Tile 0: Q·Kᵀ alone, then its softmax; P waits in registers for the next turn.
        BarrierWait(&k_full[0], 0);
        turn_wait(cw);
        issue_qk(0);
        if (cw == 0 || tiles > 1) turn_give(1 - cw);
        WgmmaWait<0>();
        PinAccumulators(sc);
        if (lane0) BarrierArrive(&k_empty[0]);
        softmax(0);
        PackP<BC>(pf, sc);
        for (int kt = 1; kt < tiles; ++kt) {
            BarrierWait(&k_full[kt % STAGES], parity(kt));
            turn_wait(cw);
            issue_qk(kt);
            RescaleRows<D>(o, c);  // tile kt − 1's factor, before its P·V adds to O
            BarrierWait(&v_full[(kt - 1) % STAGES], parity(kt - 1));
            issue_pv(kt - 1);
            if (cw == 0 || kt + 1 < tiles) turn_give(1 - cw);
            WgmmaWait<1>();  // Q·Kᵀ of tile kt is done; P·V of tile kt − 1 may still run
            PinAccumulators(sc);
            if (lane0) BarrierArrive(&k_empty[kt % STAGES]);
            softmax(kt);
            WgmmaWait<0>();
            PinAccumulators(o);
            PinOperands(pf);  // P's registers stay P's until its wgmmas are complete
            if (lane0) BarrierArrive(&v_empty[(kt - 1) % STAGES]);
            PackP<BC>(pf, sc);
        }
        // The last tile's P·V, outside the turns.
        RescaleRows<D>(o, c);
        BarrierWait(&v_full[(tiles - 1) % STAGES], parity(tiles - 1));
        issue_pv(tiles - 1);
        WgmmaWait<0>();
        PinAccumulators(o);
        PinOperands(pf);
    } else {
        for (int kt = 0; kt < tiles; ++kt) {
            const int s = kt % STAGES;
            BarrierWait(&k_full[s], parity(kt));
            turn_wait(cw);
            issue_qk(kt);
            if (cw == 0 || kt + 1 < tiles) turn_give(1 - cw);
            WgmmaWait<0>();
            PinAccumulators(sc);
            if (lane0) BarrierArrive(&k_empty[s]);
            softmax(kt);
            RescaleRows<D>(o, c);
            PackP<BC>(pf, sc);
            BarrierWait(&v_full[s], parity(kt));
            issue_pv(kt);
            WgmmaWait<0>();
            PinAccumulators(o);
            PinOperands(pf);
            if (lane0) BarrierArrive(&v_empty[s]);
        }
    }

    // O / l, rounded to bf16 once; rows past N are not stored.
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        float sum = l[h];
        sum += __shfl_xor_sync(0xffffffffu, sum, 1);
        sum += __shfl_xor_sync(0xffffffffu, sum, 2);
        c[h] = 1.0f / sum;
    }
    RescaleRows<D>(o, c);
    StoreAccumulators<D>(o, p.o + size_t(blockIdx.y) * p.n * D, D, p.n, D, first_row, 0);
#else
    (void)map_q, (void)map_k, (void)map_v, (void)p;
    __trap();  // needs sm_90a: the host runs it only on compute capability 9.0
#endif
}

namespace {

template <int D, int BC, int STAGES>
constexpr size_t kWsSmem = size_t(TileBytes(kHopperRows, D)) +
                           size_t(STAGES) * 2 * TileBytes(BC, D) + 1024 +
                           (1 + 4 * STAGES) * sizeof(uint64_t);

template <int D, int BC, int STAGES, bool PINGPONG, bool OVERLAP>
cudaError_t Launch(const AttentionProblem& p, cudaStream_t stream) {
    constexpr auto kKernel = &attention_warp_specialized_kernel<D, BC, STAGES, PINGPONG, OVERLAP>;
    // TMA's coordinates are 32-bit: the B·H·N rows must fit (far more than a GPU holds).
    if (p.d != D || int64_t(p.heads) * p.n > INT32_MAX) return cudaErrorInvalidValue;
    const int rows = p.heads * p.n;
    CUtensorMap map_q{}, map_k{}, map_v{};
    cudaError_t e = tc::EncodeMatrixMap(&map_q, p.q, rows, D, D, kHopperRows);
    if (e == cudaSuccess) e = tc::EncodeMatrixMap(&map_k, p.k, rows, D, D, BC);
    if (e == cudaSuccess) e = tc::EncodeMatrixMap(&map_v, p.v, rows, D, D, BC);
    if (e == cudaSuccess)
        e = cudaFuncSetAttribute(kKernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 int(kWsSmem<D, BC, STAGES>));
    if (e != cudaSuccess) return e;
    const dim3 grid(unsigned((p.n + kHopperRows - 1) / kHopperRows), unsigned(p.heads));
    kKernel<<<grid, kWsThreads, kWsSmem<D, BC, STAGES>, stream>>>(map_q, map_k, map_v, p);
    return cudaGetLastError();
}

template <int D, int BC, int STAGES, bool PINGPONG, bool OVERLAP>
AttentionKernel Config(const char* tile) {
    static_assert(kWsSmem<D, BC, STAGES> <= 227 * 1024, "more shared memory than a block may have");
    return {tile,
            D,
            "attention_warp_specialized_kernel",
            reinterpret_cast<const void*>(
                &attention_warp_specialized_kernel<D, BC, STAGES, PINGPONG, OVERLAP>),
            kWsThreads,
            kHopperRows,
            kWsSmem<D, BC, STAGES>,
            &Launch<D, BC, STAGES, PINGPONG, OVERLAP>,
            90};
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
