// Chapter 9's device helpers: conversions, the fast exponential, warp and block reductions, the
// 16-byte chunks of a row, the online softmax's pair. Device code only, and nothing NVRTC lacks:
// the exercises' prelude is this file (after <cuda_bf16.h>), so a student's kernel calls the same
// helpers as the steps' own.
#pragma once

#include <cuda_bf16.h>

namespace lessons::softmax {

__device__ __forceinline__ float Infinity() {
    return __int_as_float(0x7f800000);
}

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
    v = lane < warps ? scratch[lane] : -Infinity();
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

// A row is handled in chunks of 16 bytes: 4 floats or 8 bf16 values.
template <typename T>
__host__ __device__ constexpr int ChunkCount() {
    return 16 / sizeof(T);
}

// Elements [c·V, c·V + V) of the row `r` of n elements, as floats, into `out`: one 16-byte load
// when rows are 16-byte aligned (`aligned`: n a multiple of V, so every chunk is whole), else one
// element at a time, `pad` past the row's end.
template <typename T>
__device__ __forceinline__ void LoadChunk(const T* r, int c, int n, bool aligned, float* out,
                                          float pad) {
    constexpr int V = ChunkCount<T>();
    if (aligned) {
        const uint4 raw = __ldg(reinterpret_cast<const uint4*>(r) + c);
        const T* v = reinterpret_cast<const T*>(&raw);
#pragma unroll
        for (int i = 0; i < V; ++i) out[i] = ToFloat(v[i]);
    } else {
#pragma unroll
        for (int i = 0; i < V; ++i) {
            const int j = c * V + i;
            out[i] = j < n ? ToFloat(r[j]) : pad;
        }
    }
}

// Stores the chunk back, rounded to T: one 16-byte store when aligned, else element by element up
// to the row's end.
template <typename T>
__device__ __forceinline__ void StoreChunk(T* o, int c, int n, bool aligned, const float* in) {
    constexpr int V = ChunkCount<T>();
    if (aligned) {
        uint4 raw;
        T* v = reinterpret_cast<T*>(&raw);
#pragma unroll
        for (int i = 0; i < V; ++i) v[i] = FromFloat<T>(in[i]);
        reinterpret_cast<uint4*>(o)[c] = raw;
    } else {
#pragma unroll
        for (int i = 0; i < V; ++i)
            if (c * V + i < n) o[c * V + i] = FromFloat<T>(in[i]);
    }
}

// The online softmax's pair: the running max and the sum of exp(x - max) so far. Merging two
// rescales the one with the smaller max; an empty pair (max -inf, sum 0) changes nothing.
struct MaxSum {
    float max;
    float sum;
};
__device__ __forceinline__ MaxSum Merge(MaxSum a, MaxSum b) {
    const float m = fmaxf(a.max, b.max);
    if (m == -Infinity()) return {m, 0.0f};
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

}  // namespace lessons::softmax
