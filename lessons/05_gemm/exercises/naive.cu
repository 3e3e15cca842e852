// Exercise 5.1: one thread per element of C. Write C = A·B for row-major A (m × k), B (k × n)
// and C (m × n). The harness launches ceil(m / 32) × ceil(n / (block / 32)) blocks of
// 32 × (block / 32) threads (dim3(32, block / 32)): blockIdx.x and threadIdx.x span the rows of
// C, blockIdx.y and threadIdx.y its columns. It checks C against the CPU reference (C starts as
// NaN, so an element left unwritten fails).
__global__ void gemm_naive_kernel(int m, int n, int k, const float* a, const float* b, float* c) {
    // 1. This thread's row, from blockIdx.x and threadIdx.x (blocks are 32 rows tall), and its
    //    column, from blockIdx.y, blockDim.y and threadIdx.y.
    // 2. Threads outside C (row >= m or col >= n) do nothing.
    // 3. Add a[row * k + i] * b[i * n + col] for every i in a float, then write c[row * n + col].
}
