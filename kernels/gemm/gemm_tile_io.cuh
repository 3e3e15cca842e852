// Chapter 5, GEMM: bounds-checked loads and stores of four consecutive floats of a row-major
// matrix, shared by the tiled steps. Inside the matrix and on a 16-byte boundary they are one
// 16-byte access; at an edge (or when the row length is not a multiple of 4, so rows are not
// 16-byte aligned) they fall back to single floats, and what lies outside reads as zero. The
// edge tiles of any m, n, k are handled here, inside the kernels.
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

}  // namespace lessons::gemm
