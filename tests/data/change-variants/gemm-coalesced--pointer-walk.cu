// lesson: gemm/coalesced
// FOUND: the change written another way (row and column pointers walked along k)
__global__ void gemm_coalesced_kernel(int m, int n, int k, const float* a, const float* b,
                                      float* c) {
    const int col = blockIdx.x * 32 + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n) return;
    const float* ar = a + size_t(row) * k;
    const float* bc = b + col;
    float sum = 0.0f;
    for (int i = 0; i < k; ++i) {
        sum += ar[i] * *bc;
        bc += n;
    }
    c[size_t(row) * n + col] = sum;
}
