// A kernel that writes through a null pointer, for the sticky-error test (test_gpu.cpp).
#include "cuda/cuda_util.h"

namespace {

__global__ void write_through_null_kernel(int* p) {
    p[threadIdx.x] = 1;
}

}  // namespace

void LaunchIllegalAddressAndSync() {
    write_through_null_kernel<<<1, 32>>>(nullptr);
    LESSONS_CUDA_CHECK_LAUNCH("write_through_null_kernel");
    LESSONS_CUDA_CHECK(cudaDeviceSynchronize());
}
