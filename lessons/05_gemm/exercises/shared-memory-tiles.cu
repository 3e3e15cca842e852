// Exercise 5.3: shared-memory tiles. The harness runs the step's tile 256t-16x16x64: blocks of
// BM × BN = 256 threads in one dimension, ceil(n / BN) × ceil(m / BM) of them; thread tid of
// block (x, y) computes C[y * BM + tid / BN][x * BN + tid % BN]. Load1(p, rows, cols, row, col)
// is declared for you (with Load4 and Store4, from the chapter's gemm_tile_io.cuh): element
// (row, col) of a rows × cols row-major matrix, 0 outside it.
// This is step 5.2's kernel on this launch: right, but every thread reads its whole row of A
// and column of B from global memory. Walk k in steps of BK: the block copies a BM × BK tile of
// A and a BK × BN tile of B into shared memory together, and every thread computes from there.
constexpr int BM = 16, BN = 16, BK = 64;
static_assert((BM * BK + BK * BN) * 4 <= 48 * 1024, "the two tiles fit in static shared memory");

__global__ void __launch_bounds__(BM* BN)
    gemm_shared_memory_tiles_kernel(int m, int n, int k, const float* a, const float* b, float* c) {
    const int tid = threadIdx.x, ty = tid / BN, tx = tid % BN;
    const int row = blockIdx.y * BM + ty, col = blockIdx.x * BN + tx;
    if (row >= m || col >= n) return;
    float sum = 0.0f;
    for (int i = 0; i < k; ++i) sum += a[size_t(row) * k + i] * b[size_t(i) * n + col];
    c[size_t(row) * n + col] = sum;
}
