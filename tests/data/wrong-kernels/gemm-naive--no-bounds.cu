// lesson: gemm/naive
// WRONG: no bounds test: the edge blocks write past the end of C.
__global__ void gemm_naive_kernel(int m, int n, int k, const float* a, const float* b, float* c) {
    const int row = blockIdx.x * 32 + threadIdx.x;
    const int col = blockIdx.y * blockDim.y + threadIdx.y;
    float sum = 0.0f;
    if (row < m && col < n)
        for (int i = 0; i < k; ++i) sum += a[size_t(row) * k + i] * b[size_t(i) * n + col];
    c[size_t(row) * n + col] = sum;
}
