// Exercise 2.1: stage x in shared memory. The harness computes y = x^T A (A is rows x cols,
// row-major; x has rows floats, y cols) with one thread per column: ceil(cols / block) blocks
// of `block` threads, each with rows floats of dynamic shared memory (extern __shared__).
// As it stands every thread reads all of x from global memory, once per row: right, and the
// `global` variant of this lesson. Copy x into shared memory once per block, every thread of
// the block copying a share, and read it from there.
__global__ void vecmat_shared_kernel(const float* a, const float* x, float* y, unsigned rows,
                                     uint64_t cols) {
    const uint64_t j = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
    if (j >= cols) return;
    const float* column = a + j;  // A[0][j]; the next row's element is cols floats further
    float sum = 0.0f;
    for (unsigned i = 0; i < rows; ++i, column += cols) sum += x[i] * *column;
    y[j] = sum;
}
