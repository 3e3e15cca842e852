// Chapter 10's device helpers: -inf, the swizzled offset of a tile's chunk, and the tensor-core
// helpers (sm_80 and later): ldmatrix, plain and transposed, the m16n8k16 bf16 mma with fp32
// accumulation (chapter 8's, kernels/tc/tc_mma.cuh), and two floats packed as bf16. Device code
// only, and nothing NVRTC lacks: the exercises' prelude is tc_mma.cuh and this file (after
// <cuda_bf16.h>), so a student's kernel calls the same helpers as the steps' own.
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
// ldmatrix and the m16n8k16 multiply: chapter 8's (tc_mma.cuh).
using tc::LdMatrixX4;
using tc::LdMatrixX4Trans;
using tc::Mma16816;

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

}  // namespace lessons::attention
