// Chapter 5, GEMM: the GPU steps' kernels (device code only). C = A·B in fp32, every matrix
// row-major: A is m × k, B is k × n, C is m × n. Each kernel file registers, beside its kernel,
// one descriptor per compiled tile configuration (LESSONS_KERNELS); the harness picks one by
// the lesson's `tile` parameter, or launches the one kernel with the `block` parameter.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <optional>
#include <string>

#include "gemm_tiles.h"
#include "kernel_family.h"

namespace lessons::gemm {

// Launches C = A·B on `stream` and returns the launch's error.
using GemmLaunch = cudaError_t (*)(int m, int n, int k, const float* a, const float* b, float* c,
                                   int block, cudaStream_t stream);

// One compiled kernel: a tile configuration of a step, or a step's only kernel.
struct GemmKernel {
    // The configuration it was compiled for; none for a kernel launched with the `block`
    // parameter's threads (its blocks are 32 × block/32).
    std::optional<GemmTile> tile;
    const char* name;     // the __global__ function's name
    const void* kernel;   // its address, for attribute queries
    size_t dynamic_smem;  // dynamic shared memory per block (bytes)
    GemmLaunch launch;
    int min_cc;  // the lowest compute capability (major * 10 + minor) that can run it
};

// A __global__ GEMM kernel (an instantiation of a kernel template for one tile).
using GemmKernelFn = void (*)(int m, int n, int k, const float* a, const float* b, float* c);

// Launches `kKernel`, compiled for tile T: one block of T.threads per BM × BN tile of C.
template <GemmTile T, GemmKernelFn kKernel, size_t kDynamicSmem>
cudaError_t LaunchTiled(int m, int n, int k, const float* a, const float* b, float* c, int,
                        cudaStream_t stream) {
    const dim3 grid(unsigned((n + T.bn - 1) / T.bn), unsigned((m + T.bm - 1) / T.bm));
    kKernel<<<grid, T.threads, kDynamicSmem, stream>>>(m, n, k, a, b, c);
    return cudaGetLastError();
}

// The descriptor of `kKernel`, the instantiation of the kernel template `name` for tile T.
template <GemmTile T, GemmKernelFn kKernel, size_t kDynamicSmem = 0>
GemmKernel TiledKernel(const char* name, int min_cc = 0) {
    return {T,
            name,
            reinterpret_cast<const void*>(kKernel),
            kDynamicSmem,
            &LaunchTiled<T, kKernel, kDynamicSmem>,
            min_cc};
}

// Launches `kKernel` with the `block` parameter's threads, not a tile: blocks of 32 × block/32,
// x (the fastest index) walking the rows of C where kXWalksRows, else its columns.
template <GemmKernelFn kKernel, bool kXWalksRows>
cudaError_t LaunchByBlock(int m, int n, int k, const float* a, const float* b, float* c, int block,
                          cudaStream_t stream) {
    const dim3 threads(32, unsigned(block / 32));
    const int along_x = kXWalksRows ? m : n, along_y = kXWalksRows ? n : m;
    const dim3 grid(unsigned((along_x + 31) / 32), unsigned((along_y + threads.y - 1) / threads.y));
    kKernel<<<grid, threads, 0, stream>>>(m, n, k, a, b, c);
    return cudaGetLastError();
}

// The descriptor of `kKernel` (the __global__ function `name`), launched by LaunchByBlock.
template <GemmKernelFn kKernel, bool kXWalksRows>
GemmKernel BlockKernel(const char* name) {
    return {std::nullopt,
            name,
            reinterpret_cast<const void*>(kKernel),
            0,
            &LaunchByBlock<kKernel, kXWalksRows>,
            0};
}

// cuBLAS SGEMM in plain fp32 (kernels/gemm/cublas-sgemm.cu). Each returns an empty string on
// success, else what failed (or why cuBLAS is unavailable in this build). Create sets
// CUBLAS_DEFAULT_MATH explicitly: fp32 FMAs, no TF32.
std::string GemmCublasUnavailable();
std::string GemmCublasCreate(void** handle, cudaStream_t stream);
std::string GemmCublasRun(void* handle, int m, int n, int k, const float* a, const float* b,
                          float* c);
void GemmCublasDestroy(void* handle);
// kernels/gemm/cublas-tf32.cu: switch a handle to TF32 tensor cores.
std::string GemmCublasAllowTf32(void* handle);

}  // namespace lessons::gemm
