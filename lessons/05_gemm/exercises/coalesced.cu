// Exercise 5.2: a warp walks along a row of C. This is step 5.1's kernel under this step's
// name. The harness now launches ceil(n / 32) × ceil(m / (block / 32)) blocks of
// 32 × (block / 32) threads: blockIdx.x and threadIdx.x span the columns of C, blockIdx.y and
// threadIdx.y its rows. As it stands the kernel still takes its row from x: it is right for a
// square C (m = n, where the grid covers C either way) and not in general, and the 32 lanes of
// a warp read A 32 rows apart and write C 32 rows apart. Make x, the fastest index, pick the
// column.
__global__ void gemm_coalesced_kernel(int m, int n, int k, const float* a, const float* b,
                                      float* c) {
    const int row = blockIdx.x * 32 + threadIdx.x;  // x, the fastest index, walks down a column
    const int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n) return;
    float sum = 0.0f;
    for (int i = 0; i < k; ++i) sum += a[size_t(row) * k + i] * b[size_t(i) * n + col];
    c[size_t(row) * n + col] = sum;
}
