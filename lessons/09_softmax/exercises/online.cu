// Exercise 9.6: online softmax. The harness launches a warp per row. This is step 9.5's kernel for
// rows too long for registers (three passes, 16-byte chunks) under this step's name: right, but
// it reads the row three times. Find the max and the sum in one pass, so the row is read twice.
__global__ void softmax_online_kernel(const float* __restrict__ x, float* __restrict__ y, int m,
                                      int n) {
    const int lane = threadIdx.x % 32;
    const long long row = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    if (row >= m) return;
    const float* r = x + static_cast<size_t>(row) * n;
    float* o = y + static_cast<size_t>(row) * n;
    const int chunks = (n + 3) / 4;
    const bool aligned = n % 4 == 0;
    float v[4];
    float max = -Infinity();
    for (int c = lane; c < chunks; c += 32) {
        LoadChunk(r, c, n, aligned, v, -Infinity());
        for (int i = 0; i < 4; ++i) max = fmaxf(max, v[i]);
    }
    max = WarpMax(max);
    float sum = 0.0f;
    for (int c = lane; c < chunks; c += 32) {
        LoadChunk(r, c, n, aligned, v, -Infinity());
        for (int i = 0; i < 4; ++i) sum += FastExp(v[i] - max);
    }
    const float inv = 1.0f / WarpSum(sum);
    for (int c = lane; c < chunks; c += 32) {
        LoadChunk(r, c, n, aligned, v, -Infinity());
        for (int i = 0; i < 4; ++i) v[i] = FastExp(v[i] - max) * inv;
        StoreChunk(o, c, n, aligned, v);
    }
}
