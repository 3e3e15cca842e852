// The tensor cores through mma.sync (sm_80 and later): ldmatrix, plain and transposed, and the
// m16n8k16 bf16 multiply with fp32 accumulation. Chapter 8's mma.sync and cp.async steps use
// them, and chapter 10's (attention_device.cuh). Device code only, and nothing NVRTC lacks: the
// exercises' preludes hold this file, so a student's kernel calls the same helpers.
#pragma once

namespace lessons::tc {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
// Four 8 × 8 matrices of 16-bit elements from shared memory: lanes 8q..8q+7 give the addresses
// of matrix q's eight rows (16 bytes each); every lane receives one 32-bit register per matrix:
// lane L gets row L / 4, elements 2·(L % 4) and 2·(L % 4) + 1 of it.
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

// d += a · b for one 16 × 8 tile of C (fp32, four registers a lane), a 16 × 16 tile of A (bf16,
// four registers of two) and a 16 × 8 tile of B (bf16, two registers of two).
__device__ __forceinline__ void Mma16816(float (&d)[4], const unsigned (&a)[4], unsigned b0,
                                         unsigned b1) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
#endif

}  // namespace lessons::tc
