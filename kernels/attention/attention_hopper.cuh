// Chapter 10's Hopper helpers (sm_90a), shared by the wgmma steps (wgmma-tma.cu,
// warp-specialized.cu): the descriptor of an MN-major operand (V), wgmma with A from registers
// (P), 2^x on the special-function unit, the register pin for P, and the tile sizes. Chapter 8's
// helpers (tc/tc_hopper.cuh: K-major descriptors, wgmma from shared memory, mbarriers, TMA,
// setmaxnreg) are included with it.
#pragma once

#include <cstdint>

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
            "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, "
            "%7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, "
            "%24, %25, %26, %27, %28, %29, %30, %31}, {%32, %33, %34, %35}, %36, p, 1, 1, 1;\n}\n"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
              "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]),
              "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]),
              "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
              "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]),
              "+f"(d[31])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc_b), "r"(1));
    }
};

template <>
struct WgmmaRegA<128> {
    static __device__ __forceinline__ void Run(float (&d)[64], const unsigned (&a)[4],
                                               uint64_t desc_b) {
        asm volatile(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
            "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {%0, %1, %2, %3, %4, %5, %6, "
            "%7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, "
            "%24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, "
            "%40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, "
            "%56, %57, %58, %59, %60, %61, %62, %63}, {%64, %65, %66, %67}, %68, p, 1, 1, 1;\n}\n"
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

}  // namespace lessons::attention
