// Global vs shared: y = x^T A, one thread per column, with x read from global memory by every
// thread (`global`) or staged once per block in shared memory (`shared`: the block's threads
// copy it together; `shared-one-thread`: thread 0 copies it alone, as the seed wrote it).
// Every thread reads all of x: in global memory each read is a load through L1/L2, in shared
// memory an LDS. A, read once and coalesced, is the same in all three.
#include "basics_gpu.cuh"

namespace lessons::basics {

__global__ void vecmat_global_kernel(const float* a, const float* x, float* y, unsigned rows,
                                     uint64_t cols) {
    const uint64_t j = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
    if (j >= cols) return;
    const float* column = a + j;  // A[0][j]; the next row's element is cols floats further
    float sum = 0.0f;
    for (unsigned i = 0; i < rows; ++i, column += cols) sum += x[i] * *column;
    y[j] = sum;
}

template <bool kOneThread>
__global__ void vecmat_shared_kernel(const float* a, const float* x, float* y, unsigned rows,
                                     uint64_t cols) {
    extern __shared__ float shared_x[];
    if (kOneThread) {
        if (threadIdx.x == 0)
            for (unsigned i = 0; i < rows; ++i) shared_x[i] = x[i];
    } else {
        for (unsigned i = threadIdx.x; i < rows; i += blockDim.x) shared_x[i] = x[i];
    }
    __syncthreads();  // every thread of the block reaches it: no return before
    const uint64_t j = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
    if (j >= cols) return;
    const float* column = a + j;
    float sum = 0.0f;
    for (unsigned i = 0; i < rows; ++i, column += cols) sum += shared_x[i] * *column;
    y[j] = sum;
}

namespace {

size_t NoSmem(unsigned) {
    return 0;
}
size_t XSmem(unsigned rows) {
    return size_t(rows) * sizeof(float);
}

template <typename Kernel>
cudaError_t Launch(Kernel kernel, size_t smem, const float* a, const float* x, float* y,
                   unsigned rows, uint64_t cols, int block, cudaStream_t s) {
    if (cols == 0) return cudaSuccess;
    const uint64_t blocks = (cols + block - 1) / block;
    kernel<<<static_cast<unsigned>(blocks), block, smem, s>>>(a, x, y, rows, cols);
    return cudaGetLastError();
}

cudaError_t LaunchGlobal(const float* a, const float* x, float* y, unsigned rows, uint64_t cols,
                         int block, cudaStream_t s) {
    return Launch(vecmat_global_kernel, 0, a, x, y, rows, cols, block, s);
}

template <bool kOneThread>
cudaError_t LaunchShared(const float* a, const float* x, float* y, unsigned rows, uint64_t cols,
                         int block, cudaStream_t s) {
    return Launch(vecmat_shared_kernel<kOneThread>, XSmem(rows), a, x, y, rows, cols, block, s);
}

const VecMatKernel kBasicsGlobalVsShared[]{
    {"vecmat_shared_kernel<false>", reinterpret_cast<const void*>(&vecmat_shared_kernel<false>),
     &LaunchShared<false>, &XSmem, VecMatName(VecMatVariant::kShared)},
    {"vecmat_global_kernel", reinterpret_cast<const void*>(&vecmat_global_kernel), &LaunchGlobal,
     &NoSmem, VecMatName(VecMatVariant::kGlobal)},
    {"vecmat_shared_kernel<true>", reinterpret_cast<const void*>(&vecmat_shared_kernel<true>),
     &LaunchShared<true>, &XSmem, VecMatName(VecMatVariant::kSharedOneThread)},
};

}  // namespace

LESSONS_KERNELS(kBasicsGlobalVsShared);

}  // namespace lessons::basics
