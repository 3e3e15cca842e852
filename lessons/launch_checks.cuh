// What a tiled GPU step checks before its kernel is launched, said once for the harnesses of
// chapters 5, 8 and 10. `what` names the user's choice in the messages ("tile=256t-128x128x8"),
// `gpu` the GPU ("NVIDIA H200", or "this GPU" where none is chosen yet).
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "cuda/cuda_util.h"
#include "errors.h"

namespace lessons {

// A kernel with more than 48 KB of dynamic shared memory must say so before it is launched or
// its occupancy asked; a GPU whose SMs have less refuses here.
inline void AllowDynamicSmem(const void* kernel, size_t dynamic_smem, const std::string& what,
                             const std::string& gpu) {
    if (dynamic_smem <= 48 * 1024) return;
    if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             int(dynamic_smem)) != cudaSuccess) {
        cudaGetLastError();
        throw UsageError(what + " needs " + std::to_string(dynamic_smem) +
                         " B of shared memory per block, more than " + gpu +
                         " gives one block; choose another");
    }
}

// A block of `threads` of `kernel` (named `name`) with `dynamic_smem` bytes: more threads than
// the kernel's registers allow in a block, or no block fitting on one SM at all, is refused.
inline void CheckBlockFits(const void* kernel, const char* name, int threads, size_t dynamic_smem,
                           const std::string& what, const std::string& gpu) {
    cudaFuncAttributes attr{};
    LESSONS_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
    if (threads > attr.maxThreadsPerBlock)
        throw UsageError(what + " needs " + std::to_string(threads) + " threads per block, but " +
                         name + " uses " + std::to_string(attr.numRegs) +
                         " registers per thread, which allows at most " +
                         std::to_string(attr.maxThreadsPerBlock) + "; choose another");
    int per_sm = 0;
    LESSONS_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, dynamic_smem));
    if (per_sm == 0)
        throw UsageError(what + " cannot run on " + gpu + ": a block of " +
                         std::to_string(threads) + " threads with " + std::to_string(attr.numRegs) +
                         " registers each and " +
                         std::to_string(attr.sharedSizeBytes + dynamic_smem) +
                         " B of shared memory does not fit on one SM; choose another");
}

}  // namespace lessons
