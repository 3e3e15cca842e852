// Chapter 5, GEMM: bounds-checked loads and stores of four consecutive floats of a row-major
// matrix, shared by the tiled steps. Inside the matrix and on a 16-byte boundary they are one
// 16-byte access; at an edge (or when the row length is not a multiple of 4, so rows are not
// 16-byte aligned) they fall back to single floats, and what lies outside reads as zero. The
// edge tiles of any m, n, k are handled here, inside the kernels.
// Below them, the pieces a step keeps once an earlier step has taught them (its tile copies, its
// outer product, its stores of a thread's block of C) and the cp.async helpers of step 5.8. The
// exercises' prelude holds this file, so a starting file calls them as the kernels do.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace lessons::gemm {

// Elements [col, col + 4) of row `row` of a rows × cols matrix (col a multiple of 4).
__device__ __forceinline__ float4 Load4(const float* p, int rows, int cols, int row, int col) {
    float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (row >= rows) return v;
    const float* q = p + size_t(row) * cols + col;
    if ((cols & 3) == 0 && col + 3 < cols) return *reinterpret_cast<const float4*>(q);
    if (col < cols) v.x = q[0];
    if (col + 1 < cols) v.y = q[1];
    if (col + 2 < cols) v.z = q[2];
    if (col + 3 < cols) v.w = q[3];
    return v;
}

__device__ __forceinline__ void Store4(float* p, int rows, int cols, int row, int col, float4 v) {
    if (row >= rows) return;
    float* q = p + size_t(row) * cols + col;
    if ((cols & 3) == 0 && col + 3 < cols) {
        *reinterpret_cast<float4*>(q) = v;
        return;
    }
    if (col < cols) q[0] = v.x;
    if (col + 1 < cols) q[1] = v.y;
    if (col + 2 < cols) q[2] = v.z;
    if (col + 3 < cols) q[3] = v.w;
}

// One float, zero outside the matrix.
__device__ __forceinline__ float Load1(const float* p, int rows, int cols, int row, int col) {
    return row < rows && col < cols ? p[size_t(row) * cols + col] : 0.0f;
}

// Four floats of a row at once, or (kVec false) one float at a time: Load4's result either way.
template <bool kVec>
__device__ __forceinline__ float4 LoadQuad(const float* p, int rows, int cols, int row, int col) {
    if constexpr (kVec) return Load4(p, rows, cols, row, col);
    return make_float4(Load1(p, rows, cols, row, col), Load1(p, rows, cols, row, col + 1),
                       Load1(p, rows, cols, row, col + 2), Load1(p, rows, cols, row, col + 3));
}

// r[0..3] = v.x, v.y, v.z, v.w: a float4 read from a tile, spread over a thread's registers.
__device__ __forceinline__ void Spread4(float* r, float4 v) {
    r[0] = v.x, r[1] = v.y, r[2] = v.z, r[3] = v.w;
}

// Step 5.3's tile copy, one float at a time by THREADS threads (this one is `tid`): the BM × BK
// tile of A at (row0, k0) into as[row][k], the BK × BN tile of B at (k0, col0) into bs[k][col].
template <int BM, int BN, int BK, int THREADS>
__device__ __forceinline__ void LoadTiles1(float (&as)[BM][BK], float (&bs)[BK][BN], const float* a,
                                           const float* b, int m, int n, int k, int row0, int col0,
                                           int k0, int tid) {
    for (int i = tid; i < BM * BK; i += THREADS)
        as[i / BK][i % BK] = Load1(a, m, k, row0 + i / BK, k0 + i % BK);
    for (int i = tid; i < BK * BN; i += THREADS)
        bs[i / BN][i % BN] = Load1(b, k, n, k0 + i / BN, col0 + i % BN);
}

// Step 5.6's tile copy, 16 bytes at a time: the A tile stored transposed, as[k][row] (rows
// padded by 4 floats), the B tile as it is, bs[k][col]. (Step 5.7's kernel and its start keep the
// loops written out: tests/data/change-variants edit them.)
template <int BM, int BN, int BK, int THREADS>
__device__ __forceinline__ void LoadTiles4TransposedA(float (&as)[BK][BM + 4], float (&bs)[BK][BN],
                                                      const float* a, const float* b, int m, int n,
                                                      int k, int row0, int col0, int k0, int tid) {
#pragma unroll
    for (int i = tid; i < BM * BK / 4; i += THREADS) {
        const int r = i / (BK / 4), kc = (i % (BK / 4)) * 4;
        const float4 v = Load4(a, m, k, row0 + r, k0 + kc);
        as[kc + 0][r] = v.x;
        as[kc + 1][r] = v.y;
        as[kc + 2][r] = v.z;
        as[kc + 3][r] = v.w;
    }
#pragma unroll
    for (int i = tid; i < BK * BN / 4; i += THREADS) {
        const int r = i / (BN / 4), cc = (i % (BN / 4)) * 4;
        *reinterpret_cast<float4*>(&bs[r][cc]) = Load4(b, k, n, k0 + r, col0 + cc);
    }
}

// Step 5.5's outer product in registers: sum[i][j] += ra[i] · rb[j], TM · TN multiply-adds.
template <int TM, int TN>
__device__ __forceinline__ void OuterProduct(float (&sum)[TM][TN], const float (&ra)[TM],
                                             const float (&rb)[TN]) {
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) sum[i][j] += ra[i] * rb[j];
}

// A thread's TM × TN block of C at (row, col), four floats of a row at a time with Store4
// (kVec) or one float at a time; only the elements inside the m × n matrix are stored.
template <bool kVec, int TM, int TN>
__device__ __forceinline__ void StoreBlock(float* c, int m, int n, int row, int col,
                                           const float (&sum)[TM][TN]) {
    static_assert(TN % 4 == 0, "a row of the block in fours");
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; j += 4) {
            if constexpr (kVec) {
                Store4(c, m, n, row + i, col + j,
                       make_float4(sum[i][j], sum[i][j + 1], sum[i][j + 2], sum[i][j + 3]));
            } else {
#pragma unroll
                for (int q = 0; q < 4; ++q)
                    if (row + i < m && col + j + q < n)
                        c[size_t(row + i) * n + col + j + q] = sum[i][j + q];
            }
        }
}

// cp.async (sm_80 and later, step 5.8) copies global to shared memory without passing through
// registers, so a copy in flight holds no register. The A tile, stored transposed, is copied one
// float at a time (a 4-byte copy can land anywhere); B in 16-byte pieces. Older GPUs copy
// through registers, synchronously: the same results, without the overlap.

// Copies 4 bytes from global to shared memory (the shared address `dst`), or writes zeros
// there without reading `src` where `full` is false. Before sm_80: a load, then a store whose
// "memory" clobber keeps the compiler from moving shared-memory accesses across it.
__device__ __forceinline__ void Copy4(unsigned dst, const float* src, bool full) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(src),
                 "r"(full ? 4 : 0));
#else
    const float v = full ? *src : 0.0f;
    asm volatile("st.shared.f32 [%0], %1;\n" ::"r"(dst), "f"(v) : "memory");
#endif
}

// The same for 16 bytes (both addresses 16-byte aligned).
__device__ __forceinline__ void Copy16(unsigned dst, const float* src, bool full) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src),
                 "r"(full ? 16 : 0));
#else
    const float4 v = full ? *reinterpret_cast<const float4*>(src) : make_float4(0, 0, 0, 0);
    asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};\n" ::"r"(dst), "f"(v.x), "f"(v.y),
                 "f"(v.z), "f"(v.w)
                 : "memory");
#endif
}

// Closes the group of copies issued since the last call.
__device__ __forceinline__ void CommitCopies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

// Waits until at most `kPending` of this thread's groups are still in flight.
template <int kPending>
__device__ __forceinline__ void WaitCopies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
#endif
}

}  // namespace lessons::gemm
