// Exercise 4.2: one warp per row. This is step 4.1's kernel under this step's name. The
// harness now launches ceil(m / (block / 32)) blocks of `block` threads: 32 threads for every
// row. As it stands it is right but slow: only the first m threads work, and the 32 threads of
// a warp read 32 different rows. Make the 32 lanes of a warp share one row.
__global__ void gemv_warp_per_row_kernel(const float* __restrict__ a, const float* __restrict__ x,
                                         float* __restrict__ y, int m, int n) {
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m) return;
    const float* r = a + static_cast<size_t>(row) * n;
    float sum = 0.0f;
    for (int j = 0; j < n; ++j) sum += r[j] * x[j];
    y[row] = sum;
}
