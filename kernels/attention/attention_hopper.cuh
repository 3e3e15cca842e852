// Chapter 10's Hopper helpers (sm_90a), shared by the wgmma steps (wgmma-tma.cu,
// warp-specialized.cu) and their exercises' prelude: the descriptor of an MN-major operand (V),
// wgmma with A from registers (P), 2^x on the special-function unit, the register pin for P, the
// online softmax on a warpgroup's accumulators, P packed as wgmma's A, O's rows rescaled and
// stored, and the tile sizes. Chapter 8's
// helpers (tc/tc_hopper.cuh: K-major descriptors, wgmma from shared memory, mbarriers, TMA,
// setmaxnreg) are included with it.
#pragma once

#include <cstdint>

#include "attention_device.cuh"
#include "attention_gpu.cuh"
#include "tc/tc_hopper.cuh"

namespace lessons::attention {

#if defined(__CUDA_ARCH__)

// The descriptor of an MN-major, 128-byte-swizzled operand (here V: keys are wgmma's K, d its N):
// 64 N-elements a 128-byte row, 8 rows (K) a 1024-byte group. The leading byte offset (bits
// 16-29, /16) is the distance between two 64-column panels along N; the stride byte offset
// (bits 32-45, /16) that between two groups of 8 rows along K.
__device__ __forceinline__ uint64_t MnMajorDescriptor(const void* p, uint32_t panel_bytes) {
    const uint32_t addr = tc::SmemAddress(p);
    return uint64_t((addr & 0x3FFFF) >> 4) | (uint64_t((panel_bytes >> 4) & 0x3FFF) << 16) |
           (uint64_t(1024 >> 4) << 32) | (uint64_t(1) << 62);
}

// D(64 × N, fp32) += A(64 × 16, bf16, registers) · B(16 × N, bf16, shared memory, MN-major).
// A's registers per thread are those of mma.sync's A fragment, one per warp of the warpgroup
// (warp w: rows 16w..16w+15): a[0] = A[g][2t, 2t+1], a[1] = A[g+8][2t, 2t+1],
// a[2] = A[g][2t+8, 2t+9], a[3] = A[g+8][2t+8, 2t+9] (g = lane / 4, t = lane % 4). The last
// immediate, 1, says B is transposed: N-major.
template <int N>
struct WgmmaRegA;

template <>
struct WgmmaRegA<64> {
    static __device__ __forceinline__ void Run(float (&d)[32], const unsigned (&a)[4],
                                               uint64_t desc_b) {
        asm volatile(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
            "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {" LESSONS_WGMMA_R32
            "}, {%32, %33, %34, %35}, %36, p, 1, 1, 1;\n}\n"
            : LESSONS_WGMMA_D32(d)
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(1));
    }
};

template <>
struct WgmmaRegA<128> {
    static __device__ __forceinline__ void Run(float (&d)[64], const unsigned (&a)[4],
                                               uint64_t desc_b) {
        asm volatile(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
            "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {" LESSONS_WGMMA_R64
            "}, {%64, %65, %66, %67}, %68, p, 1, 1, 1;\n}\n"
            : LESSONS_WGMMA_D64(d)
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(1));
    }
};

// 2^x on the special-function unit (MUFU.EX2); 2^-inf = 0.
__device__ __forceinline__ float Exp2(float x) {
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
    return y;
}

// Keeps the compiler from moving the writes of P's registers past a wgmma fence.
template <int R>
__device__ __forceinline__ void PinOperands(unsigned (&a)[R][4]) {
#pragma unroll
    for (int i = 0; i < R; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) asm volatile("" : "+r"(a[i][j])::"memory");
}

// The online softmax of one tile's scores sc (a warpgroup's 64 × BC accumulators, this thread's
// rows r[0], r[1]) in the log2 domain: scores masked to -inf past n or above the diagonal (only
// `edge` tiles test), the running max m (of s · scale · log2(e)) and sum l updated, sc replaced
// by p. Returns in c the factor O's rows must be scaled by.
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

// O's accumulators (a warpgroup's 64 × D) scaled by row: this thread's first row by c[0], its
// second by c[1].
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

// O / l from a warpgroup's accumulators (this thread's partial row sums l, summed over the four
// threads of each row), rounded to bf16 once and stored: the warpgroup's 64 rows from first_row
// of head blockIdx.y; rows past N are not stored.
template <int D>
__device__ __forceinline__ void StoreRows(float (&o)[D / 2], const float (&l)[2],
                                          const AttentionProblem& p, int first_row) {
    float inv[2];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        float sum = l[h];
        sum += __shfl_xor_sync(0xffffffffu, sum, 1);
        sum += __shfl_xor_sync(0xffffffffu, sum, 2);
        inv[h] = 1.0f / sum;
    }
    RescaleRows<D>(o, inv);
    tc::StoreAccumulators<D>(o, p.o + size_t(blockIdx.y) * p.n * D, D, p.n, D, first_row, 0);
}

#endif  // __CUDA_ARCH__

// Bytes of one tile of `rows` rows of d bf16, and of one of its 64-column panels.
__host__ __device__ constexpr int TileBytes(int rows, int d) {
    return rows * d * 2;
}
__host__ __device__ constexpr int PanelBytes(int rows) {
    return rows * 128;
}

// The query rows a block owns: two warpgroups of 64.
constexpr int kHopperRows = 128;

#if defined(__CUDA_ARCH__)

// The shared memory of a Hopper step's block (wgmma-tma.cu's, warp-specialized.cu's): Q's tile,
// then STAGES stages of K's tile and of V's, each tile in panels of 64 columns ([panel][rows][128
// bytes], 128-byte swizzled as TMA writes them; d = 128 is two panels), then the mbarriers: Q's,
// K's and V's `full` ones (a copy's bytes have landed) and K's and V's `empty` ones (every
// consumer warp is done reading a stage; warp-specialized.cu's alone). One thread issues the TMA
// copies. The whole problem is one [B·H·N] × d matrix for TMA: a tile that reaches past its
// head's N reads the next head's rows (masked as scores of keys that do not exist) or, past the
// last head, zeros; a box's bytes count in full either way.
template <int D, int BC, int STAGES>
struct HopperTiles {
    static constexpr int kPanels = D / 64;
    static constexpr int kQBytes = TileBytes(kHopperRows, D), kKvBytes = TileBytes(BC, D);
    static constexpr int kQPanel = PanelBytes(kHopperRows), kKvPanel = PanelBytes(BC);
    uint8_t* const qs;  // [panel][kHopperRows rows][128 bytes]
    uint8_t* const ks;  // [stage][panel][BC rows][128 bytes]
    uint8_t* const vs;  // the same for V
    uint64_t* const q_full;
    uint64_t* const k_full;  // [STAGES] each
    uint64_t* const v_full;
    uint64_t* const k_empty;
    uint64_t* const v_empty;

    // `smem`: the block's dynamic shared memory, aligned to 1024 bytes (tc::AlignedDynamicSmem).
    __device__ explicit HopperTiles(uint8_t* smem)
        : qs(smem),
          ks(qs + kQBytes),
          vs(ks + STAGES * kKvBytes),
          q_full(reinterpret_cast<uint64_t*>(vs + STAGES * kKvBytes)),
          k_full(q_full + 1),
          v_full(k_full + STAGES),
          k_empty(v_full + STAGES),
          v_empty(k_empty + STAGES) {}

    // By one thread, before a barrier of the block: the tensor maps prefetched, every full
    // barrier made for one arrival (the copying thread's, with the bytes) and, where
    // `empty_arrivals` > 0, every empty one for that many.
    __device__ void Init(const CUtensorMap* map_q, const CUtensorMap* map_k,
                         const CUtensorMap* map_v, int empty_arrivals) const {
        tc::TmaPrefetchMap(map_q);
        tc::TmaPrefetchMap(map_k);
        tc::TmaPrefetchMap(map_v);
        tc::BarrierInit(q_full, 1);
#pragma unroll
        for (int s = 0; s < STAGES; ++s) {
            tc::BarrierInit(&k_full[s], 1);
            tc::BarrierInit(&v_full[s], 1);
            if (empty_arrivals > 0) {
                tc::BarrierInit(&k_empty[s], empty_arrivals);
                tc::BarrierInit(&v_empty[s], empty_arrivals);
            }
        }
        tc::BarrierInitFence();
    }

    // The copy of Q's kHopperRows rows from `row` of the matrix, on q_full.
    __device__ void LoadQ(const CUtensorMap* map, int row) const {
        tc::BarrierExpectBytes(q_full, kQBytes);
#pragma unroll
        for (int c = 0; c < kPanels; ++c) tc::TmaLoad(qs + c * kQPanel, map, c * 64, row, q_full);
    }
    // The copy of a tile of BC rows from `row` into stage s of `tiles` (ks or vs), on `full`.
    __device__ void LoadKv(uint8_t* tiles, const CUtensorMap* map, int row, int s,
                           uint64_t* full) const {
        tc::BarrierExpectBytes(full, kKvBytes);
#pragma unroll
        for (int c = 0; c < kPanels; ++c)
            tc::TmaLoad(tiles + s * kKvBytes + c * kKvPanel, map, c * 64, row, full);
    }
    __device__ void LoadK(const CUtensorMap* map, int row, int s) const {
        LoadKv(ks, map, row, s, &k_full[s]);
    }
    __device__ void LoadV(const CUtensorMap* map, int row, int s) const {
        LoadKv(vs, map, row, s, &v_full[s]);
    }

    // Stage s's tiles of K and of V, and warpgroup w's 64 rows of Q's first panel.
    __device__ const uint8_t* K(int s) const {
        return ks + s * kKvBytes;
    }
    __device__ const uint8_t* V(int s) const {
        return vs + s * kKvBytes;
    }
    __device__ const uint8_t* QRows(int w) const {
        return qs + w * 64 * 128;
    }
};

#endif  // __CUDA_ARCH__

}  // namespace lessons::attention
