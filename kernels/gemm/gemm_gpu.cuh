// Chapter 5, GEMM: the GPU steps' kernels (device code only). C = A·B in fp32, every matrix
// row-major: A is m × k, B is k × n, C is m × n. Each step exports one descriptor per compiled
// tile configuration; the harness picks one by the lesson's `tile` (or `block`) parameter.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

namespace lessons::gemm {

// Launches C = A·B on `stream` and returns the launch's error.
using GemmLaunch = cudaError_t (*)(int m, int n, int k, const float* a, const float* b, float* c,
                                   int block, cudaStream_t stream);

// One compiled kernel: a tile configuration of a step.
struct GemmKernel {
    const char* config;   // the choice's name: "256t-128x128x8-8x8" (threads, BM×BN×BK, TM×TN)
    const char* name;     // the __global__ function's name
    const void* kernel;   // its address, for attribute queries
    int threads;          // threads per block (0: the `block` parameter decides)
    size_t dynamic_smem;  // dynamic shared memory per block (bytes)
    GemmLaunch launch;
    int min_cc;  // the lowest compute capability (major * 10 + minor) that can run it
};

// Lessons 32 and 33 take a block size instead of a tile (their blocks are 32 × block/32).
extern const GemmKernel kGemm32;  // naive: one thread per element of C
extern const GemmKernel kGemm33;  // coalesced: a warp walks along a row of C

// The tiled steps: their configurations, the default (the fastest on the H100) first.
constexpr int kGemmConfigs = 4;
extern const GemmKernel kGemm34[kGemmConfigs];  // shared-memory tiles
extern const GemmKernel kGemm35[kGemmConfigs];  // 1D register blocking
extern const GemmKernel kGemm36[kGemmConfigs];  // 2D register blocking
extern const GemmKernel kGemm37[kGemmConfigs];  // float4 loads, transposed A tile
extern const GemmKernel kGemm38[kGemmConfigs];  // warp tiling
extern const GemmKernel kGemm39[kGemmConfigs];  // double buffering (cp.async on sm_80+)
extern const GemmKernel kGemm41[kGemmConfigs];  // WMMA TF32 tensor cores (sm_80+)

// Lesson 40: cuBLAS SGEMM in plain fp32 (kernels/gemm/40_cublas_sgemm.cu). Each returns an
// empty string on success, else what failed (or why cuBLAS is unavailable in this build).
// Create sets CUBLAS_DEFAULT_MATH explicitly: fp32 FMAs, no TF32.
std::string GemmCublasUnavailable();
std::string GemmCublasCreate(void** handle, cudaStream_t stream);
std::string GemmCublasRun(void* handle, int m, int n, int k, const float* a, const float* b,
                          float* c);
void GemmCublasDestroy(void* handle);
// Lesson 42 (kernels/gemm/42_cublas_tf32.cu): switch a handle to TF32 tensor cores.
std::string GemmCublasAllowTf32(void* handle);

}  // namespace lessons::gemm
