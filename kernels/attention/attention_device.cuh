// Chapter 10's device helpers: -inf, the swizzled offset of a tile's chunk, the tensor-core
// helpers (sm_80 and later): ldmatrix, plain and transposed, the m16n8k16 bf16 mma with fp32
// accumulation (chapter 8's, kernels/tc/tc_mma.cuh), and two floats packed as bf16; and the
// pieces of the mma.sync steps that later steps keep (the softmax on the fragments, the stores of
// O, the products on swizzled tiles). Device code only, and nothing NVRTC lacks: the exercises'
// prelude is tc_mma.cuh and this file (after <cuda_bf16.h>), so a student's kernel calls the same
// helpers as the steps' own.
// The fragment layouts (g = lane / 4, t = lane % 4), as chapter 8's mma.sync step draws them:
//   A 16 × 16 (row): a0 = A[g][2t, 2t+1], a1 = A[g+8][2t, 2t+1], a2 = A[g][2t+8, 2t+9],
//                    a3 = A[g+8][2t+8, 2t+9]
//   B 16 × 8 (col):  b0 = B[2t, 2t+1][g], b1 = B[2t+8, 2t+9][g]
//   C 16 × 8:        c0, c1 = C[g][2t, 2t+1], c2, c3 = C[g+8][2t, 2t+1]
// C's layout over two n8 tiles is A's over one k16 step: the scores a warp holds in registers
// are, once rounded to bf16, the A operand of the next product, with no trip through memory.
#pragma once

#include <cuda_bf16.h>

#include "tc/tc_mma.cuh"

namespace lessons::attention {

// -inf: the score of a key a row does not see, and the running max before any key.
__device__ __forceinline__ float NegInfinity() {
    return __int_as_float(0xff800000);
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
// ldmatrix, the m16n8k16 multiply and zeroed fragments: chapter 8's (tc_mma.cuh).
using tc::LdMatrixX4;
using tc::LdMatrixX4Trans;
using tc::Mma16816;
using tc::ZeroFragments;

// Two floats as one register of two bf16, the first in the low half (the lower column).
__device__ __forceinline__ unsigned PackBf16(float lo, float hi) {
    const __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<const unsigned*>(&v);
}

// Eight bf16 of row `row` (d long) of a head's matrix from column `col` on; zeros past n rows.
__device__ __forceinline__ uint4 LoadRow8(const __nv_bfloat16* m, int n, int d, int row, int col) {
    if (row >= n) return make_uint4(0, 0, 0, 0);
    return *reinterpret_cast<const uint4*>(m + static_cast<size_t>(row) * d + col);
}
#endif

// The element offset of chunk `chunk` (8 bf16, 16 bytes) of row `row` in a swizzled tile whose
// rows are D elements long: the chunk is stored at chunk ^ (row % 8), so eight consecutive rows
// put the same chunk in eight different 16-byte columns of the banks.
template <int D>
__device__ __forceinline__ int Swizzled(int row, int chunk) {
    return row * D + ((chunk ^ (row % 8)) * 8);
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
// Below, the pieces of the mma.sync steps that a later step keeps once an earlier one has taught
// them (the earlier step's own file writes its piece out): a warp owns 16 query rows, this
// lane's rows[0] = g and rows[1] = g + 8 of them (g = lane / 4, t = lane % 4); s[j] is the n8 tile
// of keys 8j..8j+7 of its scores, o[j] that of columns 8j..8j+7 of its O.

// Step 10.4's copy of a tile: ROWS rows of a head's matrix m (d = D) from row row0 into `tile`,
// swizzled, 16 bytes a thread at a time by THREADS threads; rows past n are zeros.
template <int D, int ROWS, int THREADS>
__device__ __forceinline__ void LoadSwizzledTile(__nv_bfloat16* tile, const __nv_bfloat16* m, int n,
                                                 int row0) {
    constexpr int kChunks = D / 8;
    for (int c = threadIdx.x; c < ROWS * kChunks; c += THREADS)
        *reinterpret_cast<uint4*>(tile + Swizzled<D>(c / kChunks, c % kChunks)) =
            LoadRow8(m, n, D, row0 + c / kChunks, (c % kChunks) * 8);
}

// Step 10.4's Q fragments: the block's BR rows of Q from row q0 copied into qs, swizzled
// (LoadSwizzledTile), and after a barrier the warp's 16 rows of it, D / 16 k16 steps of A, loaded
// once with ldmatrix. Every row a lane addresses is ≡ lane % 8 (mod 8): its swizzle is lane % 8.
template <int D, int BR, int THREADS>
__device__ __forceinline__ void LoadSwizzledQ(unsigned (&qf)[D / 16][4], __nv_bfloat16* qs,
                                              const __nv_bfloat16* q, int n, int q0, int warp,
                                              int lane) {
    LoadSwizzledTile<D, BR, THREADS>(qs, q, n, q0);
    __syncthreads();
    const unsigned qs_base = static_cast<unsigned>(__cvta_generic_to_shared(qs));
#pragma unroll
    for (int kk = 0; kk < D / 16; ++kk)
        LdMatrixX4(qf[kk], qs_base + Swizzled<D>(warp * 16 + lane % 16, kk * 2 + lane / 16) * 2);
}

// Step 10.3's online softmax on one tile's score fragments (keys from k0): a key past n, or
// (causal) past the row, scores -inf; the others are scaled. The four lanes of a row agree on its
// max with two shuffles; m (the running max) and l (this lane's share of the row's sum, added up
// at the end) are updated, O's rows rescaled, and s replaced by the weights exp(s − m).
template <int NT, int DT>
__device__ __forceinline__ void FragmentSoftmax(float (&s)[NT][4], float (&o)[DT][4], float (&m)[2],
                                                float (&l)[2], const int (&rows)[2], int k0, int t,
                                                int n, bool causal, float scale) {
    float base[2];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        float mx = NegInfinity();
#pragma unroll
        for (int j = 0; j < NT; ++j)
#pragma unroll
            for (int e = 2 * h; e < 2 * h + 2; ++e) {
                const int key = k0 + j * 8 + 2 * t + e % 2;
                const bool seen = key < n && (!causal || key <= rows[h]);
                s[j][e] = seen ? s[j][e] * scale : NegInfinity();
                mx = fmaxf(mx, s[j][e]);
            }
        mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
        mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
        const float m_new = fmaxf(m[h], mx);
        base[h] = m_new == NegInfinity() ? 0.0f : m_new;
        const float rescale = __expf(m[h] - base[h]);  // 0 the first time
        m[h] = m_new;
        l[h] *= rescale;
#pragma unroll
        for (int j = 0; j < DT; ++j) {
            o[j][2 * h] *= rescale;
            o[j][2 * h + 1] *= rescale;
        }
    }
#pragma unroll
    for (int j = 0; j < NT; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) {
            s[j][e] = __expf(s[j][e] - base[e / 2]);  // masked: exp(-inf) = 0
            l[e / 2] += s[j][e];
        }
}

// Step 10.3's end: O / l for the warp's rows (l summed over the four lanes of each row), rounded
// to bf16 and stored two columns a lane into `out`, the head's O (rows D long); rows past n are
// not stored.
template <int D>
__device__ __forceinline__ void StoreFragmentRows(const float (&o)[D / 8][4], const float (&l)[2],
                                                  const int (&rows)[2], int t, __nv_bfloat16* out,
                                                  int n) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        float sum = l[h];
        sum += __shfl_xor_sync(0xffffffffu, sum, 1);
        sum += __shfl_xor_sync(0xffffffffu, sum, 2);
        const float inv = 1.0f / sum;
        if (rows[h] >= n) continue;
#pragma unroll
        for (int j = 0; j < D / 8; ++j)
            *reinterpret_cast<__nv_bfloat162*>(out + size_t(rows[h]) * D + j * 8 + 2 * t) =
                __floats2bfloat162_rn(o[j][2 * h] * inv, o[j][2 * h + 1] * inv);
    }
}

// Step 10.4's S = Q·Kᵀ: the warp's Q fragments qf times the 64 keys of a swizzled K tile (a key
// a row) at shared address ks. Lane L gives the rows of matrices 0, 1 = keys n..n+7 at d and
// d+8, 2, 3 = keys n+8..n+15: key n + L % 8 + 8·(L / 16), chunk 2·kk + (L / 8) % 2.
template <int D, int NT>
__device__ __forceinline__ void SwizzledQk(float (&s)[NT][4], const unsigned (&qf)[D / 16][4],
                                           unsigned ks, int lane) {
    ZeroFragments(s);
#pragma unroll
    for (int kk = 0; kk < D / 16; ++kk)
#pragma unroll
        for (int jp = 0; jp < NT / 2; ++jp) {
            unsigned kf[4];
            LdMatrixX4(kf, ks + Swizzled<D>(jp * 16 + lane % 8 + (lane / 16) * 8,
                                            kk * 2 + (lane / 8) % 2) *
                                    2);
            Mma16816(s[2 * jp], qf[kk], kf[0], kf[1]);
            Mma16816(s[2 * jp + 1], qf[kk], kf[2], kf[3]);
        }
}

// Step 10.4's O += P·V: P from the weights' registers (two n8 tiles of s, rounded to bf16, are
// one k16 step of A), V from a swizzled tile of 64 keys (a key a row) at shared address vs
// through ldmatrix.trans: matrices 0, 1 = keys k..k+7 and k+8..k+15 at columns d..d+7, 2, 3 = the
// same keys at d+8..d+15.
template <int D, int NT>
__device__ __forceinline__ void SwizzledPv(float (&o)[D / 8][4], const float (&s)[NT][4],
                                           unsigned vs, int lane) {
#pragma unroll
    for (int kk = 0; kk < NT / 2; ++kk) {
        const unsigned pf[4] = {PackBf16(s[2 * kk][0], s[2 * kk][1]),
                                PackBf16(s[2 * kk][2], s[2 * kk][3]),
                                PackBf16(s[2 * kk + 1][0], s[2 * kk + 1][1]),
                                PackBf16(s[2 * kk + 1][2], s[2 * kk + 1][3])};
#pragma unroll
        for (int dp = 0; dp < D / 16; ++dp) {
            unsigned vf[4];
            LdMatrixX4Trans(vf, vs + Swizzled<D>(kk * 16 + lane % 8 + ((lane / 8) % 2) * 8,
                                                 dp * 2 + lane / 16) *
                                         2);
            Mma16816(o[2 * dp], pf, vf[0], vf[1]);
            Mma16816(o[2 * dp + 1], pf, vf[2], vf[3]);
        }
    }
}
#endif

}  // namespace lessons::attention
