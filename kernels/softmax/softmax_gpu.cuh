// Chapter 9, softmax and RMSNorm over rows: what the steps' kernels share (device code only).
// Each kernel file registers, beside its kernel, what the harness needs to launch and query it
// (LESSONS_KERNELS): one descriptor per dtype.
#pragma once

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "kernel_family.h"

namespace lessons::softmax {

// A hand-written step, for one dtype: y = softmax(x) (or RMSNorm(x)·w) over each row of x,
// row-major m × n (m, n >= 1), launched with `block` threads per block (a power of two, 32 to
// 1024). x, y and w are float or __nv_bfloat16 as `bf16` says; w is RMSNorm's weight (n values),
// null for softmax.
struct SoftmaxKernel {
    const char* name;  // the kernel template's name
    bool bf16;         // the dtype it implements
    // The kernel instance the launch uses at (n, block), for attribute queries.
    const void* (*pick)(int n, int block);
    cudaError_t (*launch)(const void* x, void* y, const void* w, int m, int n, int block,
                          cudaStream_t stream);
    int smem_per_thread = 0;  // dynamic shared memory the launch gives each thread, in bytes
};

// ---- device helpers ----

__device__ __forceinline__ float ToFloat(float v) {
    return v;
}
__device__ __forceinline__ float ToFloat(__nv_bfloat16 v) {
    return __bfloat162float(v);
}
template <typename T>
__device__ __forceinline__ T FromFloat(float v);
template <>
__device__ __forceinline__ float FromFloat<float>(float v) {
    return v;
}
template <>
__device__ __forceinline__ __nv_bfloat16 FromFloat<__nv_bfloat16>(float v) {
    return __float2bfloat16_rn(v);
}

// exp(x) by the special-function unit: ex2.approx of x·log2(e). Its error, 2 + 1.16·|x| units
// in the last place (CUDA's programming guide), is what the check's tolerance allows.
__device__ __forceinline__ float FastExp(float x) {
    return __expf(x);
}

__device__ __forceinline__ float WarpMax(float v) {
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
    return v;
}
__device__ __forceinline__ float WarpSum(float v) {
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}

// The max / sum over the whole block, every thread gets it: shuffles within each warp, then the
// warps' results through 32 floats of shared memory (`scratch`), which the call leaves free again.
__device__ __forceinline__ float BlockMax(float v, float* scratch) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
    v = WarpMax(v);
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    v = lane < warps ? scratch[lane] : -INFINITY;
    v = WarpMax(v);
    __syncthreads();  // scratch is free for the next reduction
    return v;
}
__device__ __forceinline__ float BlockSum(float v, float* scratch) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
    v = WarpSum(v);
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    v = lane < warps ? scratch[lane] : 0.0f;
    v = WarpSum(v);
    __syncthreads();
    return v;
}

// A row's group: a warp (kWarp, several rows per block) or the whole block (one row per block).
template <bool kWarp>
__device__ __forceinline__ float GroupMax(float v, float* scratch) {
    if constexpr (kWarp)
        return WarpMax(v);
    else
        return BlockMax(v, scratch);
}
template <bool kWarp>
__device__ __forceinline__ float GroupSum(float v, float* scratch) {
    if constexpr (kWarp)
        return WarpSum(v);
    else
        return BlockSum(v, scratch);
}

// 16 bytes of T: 4 floats or 8 bf16 values, loaded and stored as one instruction.
template <typename T>
struct Vec16 {
    static constexpr int kCount = 16 / sizeof(T);
    uint4 raw;
    __device__ __forceinline__ T* v() { return reinterpret_cast<T*>(&raw); }
};

// The online softmax's pair: the running max and the sum of exp(x - max) so far. Merging two
// rescales the one with the smaller max; an empty pair (max -inf, sum 0) changes nothing.
struct MaxSum {
    float max;
    float sum;
};
__device__ __forceinline__ MaxSum Merge(MaxSum a, MaxSum b) {
    const float m = fmaxf(a.max, b.max);
    if (m == -INFINITY) return {m, 0.0f};
    return {m, a.sum * FastExp(a.max - m) + b.sum * FastExp(b.max - m)};
}
__device__ __forceinline__ MaxSum WarpMerge(MaxSum v) {
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) {
        MaxSum other{__shfl_xor_sync(0xffffffffu, v.max, offset),
                     __shfl_xor_sync(0xffffffffu, v.sum, offset)};
        v = Merge(v, other);
    }
    return v;
}

// ---- the cuDNN step (lesson 9.9): cudnnSoftmaxForward, loaded at run time ----

// Empty when cuDNN was found and loaded, else why not and what to install.
std::string CudnnUnavailable();
// Where it was loaded from and its version, or why it is unavailable.
std::string CudnnDescribe();
// A cuDNN handle on `stream` with x and y described as m × n rows; every call returns "" on
// success, else what failed.
std::string CudnnCreate(void** state, int m, int n, bool bf16, cudaStream_t stream);
std::string CudnnRun(void* state, const void* x, void* y);
void CudnnDestroy(void* state);

}  // namespace lessons::softmax
