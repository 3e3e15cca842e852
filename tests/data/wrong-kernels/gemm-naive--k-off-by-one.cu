// lesson: gemm/naive
// WRONG: the product loop stops one short of k: the last product is left out.
__global__ void gemm_naive_kernel(int m, int n, int k, const float* a, const float* b, float* c) {
    const int row = blockIdx.x * 32 + threadIdx.x;
    const int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n) return;
    float sum = 0.0f;
    for (int i = 0; i < k - 1; ++i) sum += a[size_t(row) * k + i] * b[size_t(i) * n + col];
    c[size_t(row) * n + col] = sum;
}
