// Exercise 9.5: 16-byte loads. The harness launches a warp per row, as in 9.4. This is step 9.4's
// kernel (the row in registers, 4-byte loads) under this step's name: right, but each load
// instruction moves 4 bytes a lane. Move the row in chunks of 4 floats, one 16-byte load each.
__global__ void softmax_vectorized_kernel(const float* __restrict__ x, float* __restrict__ y, int m,
                                          int n) {
    constexpr int K = 32;
    const int lane = threadIdx.x % 32;
    const long long row = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    if (row >= m) return;
    const float* r = x + static_cast<size_t>(row) * n;
    float* o = y + static_cast<size_t>(row) * n;
    if (n <= 32 * K) {
        float v[K];
        float max = -Infinity();
#pragma unroll
        for (int k = 0; k < K; ++k) {
            const int j = k * 32 + lane;
            v[k] = j < n ? r[j] : -Infinity();
            max = fmaxf(max, v[k]);
        }
        max = WarpMax(max);
        float sum = 0.0f;
#pragma unroll
        for (int k = 0; k < K; ++k) {
            v[k] = FastExp(v[k] - max);
            sum += v[k];
        }
        const float inv = 1.0f / WarpSum(sum);
#pragma unroll
        for (int k = 0; k < K; ++k)
            if (k * 32 + lane < n) o[k * 32 + lane] = v[k] * inv;
    } else {
        float max = -Infinity();
        for (int j = lane; j < n; j += 32) max = fmaxf(max, r[j]);
        max = WarpMax(max);
        float sum = 0.0f;
        for (int j = lane; j < n; j += 32) sum += FastExp(r[j] - max);
        const float inv = 1.0f / WarpSum(sum);
        for (int j = lane; j < n; j += 32) o[j] = FastExp(r[j] - max) * inv;
    }
}
