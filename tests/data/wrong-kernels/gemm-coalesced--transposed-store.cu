// lesson: gemm/coalesced
// WRONG: C is stored transposed (column-major): elements off the diagonal land wrong.
__global__ void gemm_coalesced_kernel(int m, int n, int k, const float* a, const float* b,
                                      float* c) {
    const int col = blockIdx.x * 32 + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n) return;
    float sum = 0.0f;
    for (int i = 0; i < k; ++i) sum += a[size_t(row) * k + i] * b[size_t(i) * n + col];
    c[size_t(col) * m + row] = sum;
}
