// lesson: gemv/warp-per-row
// WRONG: lanes stop at the last whole 32 columns: a row's last n % 32 are lost.
__global__ void gemv_warp_per_row_kernel(const float* __restrict__ a, const float* __restrict__ x,
                                         float* __restrict__ y, int m, int n) {
    const int lane = threadIdx.x % 32;
    const long long row = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    if (row >= m) return;
    const float* r = a + static_cast<size_t>(row) * n;
    float sum = 0.0f;
    for (int j = lane; j - lane + 32 <= n; j += 32) sum += r[j] * x[j];
    for (int offset = 16; offset > 0; offset /= 2)
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) y[row] = sum;
}
