// Chapter 1: the launch and descriptor of a kernel that scans whole blocks of kUnit · block bytes
// (kUnit bytes a thread), the text zero-padded up to a whole number of them (CUDA code: it
// launches the kernel).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "split_gpu.cuh"

namespace lessons::split {

// kKernel(buf, out, count) on one block of `block` threads per kUnit · block bytes, each with
// kSmem(block) bytes of dynamic shared memory.
template <auto kKernel, uint64_t kUnit, size_t (*kSmem)(int) = &NoDynamicSmem>
struct PaddedBlocks {
    static uint64_t Padded(uint64_t n, int block) { return PaddedTo(n, kUnit * uint64_t(block)); }

    static uint64_t Blocks(uint64_t n, int block) {
        return Padded(n, block) / (kUnit * uint64_t(block));
    }

    static cudaError_t Launch(const char* buf, uint64_t n, unsigned long long* out,
                              unsigned long long* count, int block, cudaStream_t stream) {
        const uint64_t blocks = Blocks(n, block);
        if (blocks == 0) return cudaSuccess;
        kKernel<<<static_cast<unsigned>(blocks), block, kSmem(block), stream>>>(buf, out, count);
        return cudaGetLastError();
    }

    // The descriptor, for the __global__ function `name`.
    static SplitKernel Descriptor(const char* name) {
        return {.name = name,
                .kernel = reinterpret_cast<const void*>(kKernel),
                .launch = &Launch,
                .dynamic_smem = kSmem,
                .blocks = &Blocks,
                .padded = &Padded};
    }
};

}  // namespace lessons::split
