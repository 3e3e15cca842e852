// Chapter 2, GPU performance basics: the GPU steps' kernels and host-memory helpers (device
// code only). Each kernel file registers one kernel per choice of its lesson's parameter
// (LESSONS_KERNELS), each naming the choice it implements.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "basics_choices.h"
#include "kernel_family.h"

namespace lessons::basics {

// Global vs shared: y = x^T A for a rows x cols matrix A (row-major), one thread per column.
struct VecMatKernel {
    const char* name;    // the __global__ function's name
    const void* kernel;  // its address, for attribute queries
    cudaError_t (*launch)(const float* a, const float* x, float* y, unsigned rows, uint64_t cols,
                          int block, cudaStream_t stream);
    size_t (*dynamic_smem)(unsigned rows);  // dynamic shared memory of a block
    const char* variant;                    // the `variant` it implements (kVecMatNames)
};

// Branch divergence and coalescing: one thread per element of n.
struct ElementKernel {
    const char* name;
    const void* kernel;
    // Branch divergence reads `in` and writes `out` (`b` unused); coalescing writes
    // out = in + b.
    cudaError_t (*launch)(const float* in, const float* b, float* out, uint64_t n, int block,
                          cudaStream_t stream);
    unsigned ways = 0;    // branch divergence: the paths each warp splits into (DivergenceName)
    unsigned stride = 0;  // coalescing: the `stride` between neighbouring lanes
};

// Pinned transfers: a host buffer of `bytes` allocated as `kind`, and what allocating it cost.
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
