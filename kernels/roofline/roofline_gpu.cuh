// Chapter 6, the roofline: the GPU step's kernel (device code only). The kernel file
// registers, beside its kernel, what the harness needs to launch and query it
// (LESSONS_KERNELS).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "kernel_family.h"

namespace lessons::roofline {

struct IntensityKernel {
    const char* name;    // the __global__ function's name
    const void* kernel;  // its address, for attribute queries
    // y[i] = the two FMA chains of x[i] (roofline_cpu.h), `fmas` FMAs per element.
    cudaError_t (*launch)(const float* x, float* y, uint64_t n, int fmas, int block, int grid,
                          cudaStream_t stream);
};

}  // namespace lessons::roofline
