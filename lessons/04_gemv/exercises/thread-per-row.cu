// Exercise 4.1: one thread per row. Write y = A·x for A row-major, m rows of n floats.
// The harness launches ceil(m / block) blocks of `block` threads and checks every y[row]
// against the CPU reference (y starts as NaN, so a row left unwritten fails).
__global__ void gemv_thread_per_row_kernel(const float* __restrict__ a, const float* __restrict__ x,
                                           float* __restrict__ y, int m, int n) {
    // 1. This thread's row, from blockIdx.x, blockDim.x and threadIdx.x.
    // 2. Threads past the last row (row >= m) do nothing.
    // 3. Add a[row * n + j] * x[j] for every j in a float, then write y[row].
}
