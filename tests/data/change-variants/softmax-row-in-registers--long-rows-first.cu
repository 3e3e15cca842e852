// lesson: softmax/row-in-registers
// FOUND: the change written another way (long rows first and return, then the registers)
__global__ void softmax_row_in_registers_kernel(const float* __restrict__ x, float* __restrict__ y,
                                                int m, int n) {
    constexpr int K = 32;
    const int lane = threadIdx.x % 32;
    const long long row = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    if (row >= m) return;
    const float* r = x + static_cast<size_t>(row) * n;
    float* o = y + static_cast<size_t>(row) * n;
    if (n > 32 * K) {
        float mx = -Infinity();
        for (int j = lane; j < n; j += 32) mx = fmaxf(mx, r[j]);
        mx = WarpMax(mx);
        float s = 0.0f;
        for (int j = lane; j < n; j += 32) s += FastExp(r[j] - mx);
        const float inv = 1.0f / WarpSum(s);
        for (int j = lane; j < n; j += 32) o[j] = FastExp(r[j] - mx) * inv;
        return;
    }
    float v[K];
    float mx = -Infinity();
#pragma unroll
    for (int k = 0; k < K; ++k) {
        v[k] = (lane + 32 * k < n) ? r[lane + 32 * k] : -Infinity();
        mx = fmaxf(mx, v[k]);
    }
    mx = WarpMax(mx);
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < K; ++k) {
        v[k] = FastExp(v[k] - mx);
        s += v[k];
    }
    const float inv = 1.0f / WarpSum(s);
#pragma unroll
    for (int k = 0; k < K; ++k)
        if (lane + 32 * k < n) o[lane + 32 * k] = v[k] * inv;
}
