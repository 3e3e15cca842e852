// Chapter 4, GEMV: the GPU steps' kernels (device code only). Each kernel file registers,
// beside its kernel, what the harness needs to launch it and to query it (LESSONS_KERNELS).
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <string>

#include "gemv_toggles.h"
#include "kernel_family.h"

namespace lessons::gemv {

// A hand-written step (thread-per-row, warp-per-row, vectorized-rows-per-warp): y = A·x with A
// row-major m × n (m, n >= 1), launched with `block` threads per block, a multiple of 32.
struct GemvKernel {
    const char* name;    // the __global__ function's name
    const void* kernel;  // its address, for attribute queries
    cudaError_t (*launch)(const float* a, const float* x, float* y, int m, int n, int block,
                          cudaStream_t stream);
    std::array<ToggleValue, 2> toggles = {};  // lesson 4.3's variants: the values implemented
};

// The vectorized step's group: the lanes that share one row of n floats in blocks of `block`
// threads (a power of two from 1 to 32, or the whole block, when it is a power of two and the row
// has at least 4 float4s per thread).
int GemvLanesPerRow(int n, int block);
// The same under the `row_lanes` toggle: as written, capped at a warp, or always a warp.
int GemvLanesPerRow(RowLanes lanes, int n, int block);

// The cuBLAS step: cublasSgemv. Every call returns "" on success, else what failed.
// Empty when this build has cuBLAS, else why not.
std::string GemvCublasUnavailable();
// A cuBLAS handle bound to `stream`, in *handle.
std::string GemvCublasCreate(void** handle, cudaStream_t stream);
std::string GemvCublasRun(void* handle, const float* a, const float* x, float* y, int m, int n);
void GemvCublasDestroy(void* handle);

}  // namespace lessons::gemv
