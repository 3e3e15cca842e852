// lesson: gemm/coalesced
// FOUND: the change written another way (blockDim.x for 32, one bounds test around the body)
__global__ void gemm_coalesced_kernel(int m, int n, int k, const float* a, const float* b,
                                      float* c) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (y < m && x < n) {
        float acc = 0.0f;
        for (int t = 0; t < k; t++) acc += a[(size_t)y * k + t] * b[(size_t)t * n + x];
        c[(size_t)y * n + x] = acc;
    }
}
