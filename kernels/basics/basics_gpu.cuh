// Chapter 2, GPU performance basics: the GPU steps' kernels and host-memory helpers (device
// code only). Each lesson exports one descriptor per choice, in the order of basics_choices.h.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "basics_choices.h"

namespace lessons::basics {

// Lesson 15: y = x^T A for a rows x cols matrix A (row-major), one thread per column.
struct VecMatKernel {
    const char* name;    // the __global__ function's name
    const void* kernel;  // its address, for attribute queries
    cudaError_t (*launch)(const float* a, const float* x, float* y, unsigned rows, uint64_t cols,
                          int block, cudaStream_t stream);
    size_t (*dynamic_smem)(unsigned rows);  // dynamic shared memory of a block
};
extern const VecMatKernel kVecMat15[kVecMatNames.size()];  // [VecMatVariant]

// Lessons 16 and 17: one thread per element of n.
struct ElementKernel {
    const char* name;
    const void* kernel;
    // Lesson 16 reads `in` and writes `out` (`b` unused); lesson 17 writes out = in + b.
    cudaError_t (*launch)(const float* in, const float* b, float* out, uint64_t n, int block,
                          cudaStream_t stream);
};
extern const ElementKernel kDivergence16[kDivergenceNames.size()];  // by kDivergenceWays
extern const ElementKernel kAdd17[kStrides.size()];                 // by kStrides

// Lesson 18: a host buffer of `bytes` allocated as `kind`, and what allocating it cost.
struct HostBuffer {
    void* ptr = nullptr;
    uint64_t bytes = 0;
    HostMemory kind = HostMemory::kPageable;
    double alloc_ms = 0;     // malloc + first touch, or cudaMallocHost
    double register_ms = 0;  // cudaHostRegister (kRegistered only)
};
// On failure nothing stays allocated and `out` is empty.
cudaError_t AllocateHost(HostMemory kind, uint64_t bytes, HostBuffer* out);
void FreeHost(HostBuffer* buffer);
// The transfer the lesson times: host to device on `stream`, then wait for it.
cudaError_t CopyToDeviceAndWait(void* device, const void* host, uint64_t bytes,
                                cudaStream_t stream);

}  // namespace lessons::basics
