// lesson: gemv/thread-per-row
// WRONG: no bounds test: the last block's spare threads write past the end of y.
__global__ void gemv_thread_per_row_kernel(const float* __restrict__ a, const float* __restrict__ x,
                                           float* __restrict__ y, int m, int n) {
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    if (row < m)
        for (int j = 0; j < n; ++j) sum += a[static_cast<size_t>(row) * n + j] * x[j];
    y[row] = sum;
}
