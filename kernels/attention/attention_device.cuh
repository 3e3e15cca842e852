// Chapter 10's device helpers: -inf, the swizzled offset of a tile's chunk, and the tensor-core
// helpers (sm_80 and later): ldmatrix, plain and transposed, the m16n8k16 bf16 mma with fp32
// accumulation, and two floats packed as bf16. Device code only, and nothing NVRTC lacks: the
// exercises' prelude is this file (after <cuda_bf16.h>), so a student's kernel calls the same
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

namespace lessons::attention {

// -inf: the score of a key a row does not see, and the running max before any key.
__device__ __forceinline__ float NegInfinity() {
    return __int_as_float(0xff800000);
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
// Four 8 × 8 matrices of 16-bit elements: lanes 8q..8q+7 give the addresses of matrix q's rows
// (16 bytes each); lane L receives row L / 4, elements 2·(L % 4) and 2·(L % 4) + 1 of each.
__device__ __forceinline__ void LdMatrixX4(unsigned (&r)[4], unsigned addr) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
}

// The same, each matrix transposed on the way: lane L receives column L / 4, rows 2·(L % 4) and
// 2·(L % 4) + 1 — two rows of one column, which is what B wants from a row-major V.
__device__ __forceinline__ void LdMatrixX4Trans(unsigned (&r)[4], unsigned addr) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(addr));
}

// d += a · b: a 16 × 8 tile of C (fp32), a 16 × 16 tile of A, a 16 × 8 tile of B (bf16).
__device__ __forceinline__ void Mma16816(float (&d)[4], const unsigned (&a)[4], unsigned b0,
                                         unsigned b1) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

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
