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

// ---- A row's 16 bytes kept as they were loaded ----
// A chunk in registers as its raw 16 bytes (a uint4): 4 registers whatever the dtype, so a thread
// holds twice as many bf16 values as it would as floats. Each value is widened when it is used.

// The dtype's -inf, the padding past a row's end (exp(-inf) is 0).
template <typename T>
__device__ __forceinline__ T NegativeInfinity();
template <>
__device__ __forceinline__ float NegativeInfinity<float>() {
    return -Infinity();
}
template <>
__device__ __forceinline__ __nv_bfloat16 NegativeInfinity<__nv_bfloat16>() {
    return __ushort_as_bfloat16(static_cast<unsigned short>(0xff80u));
}

__device__ __forceinline__ unsigned Word(const uint4& raw, int w) {
    return w == 0 ? raw.x : w == 1 ? raw.y : w == 2 ? raw.z : raw.w;
}

// Value i of a raw chunk, as a float (i a constant once the loops are unrolled).
template <typename T>
__device__ __forceinline__ float Element(const uint4& raw, int i);
template <>
__device__ __forceinline__ float Element<float>(const uint4& raw, int i) {
    return __uint_as_float(Word(raw, i));
}
template <>
__device__ __forceinline__ float Element<__nv_bfloat16>(const uint4& raw, int i) {
    // A bf16 value is the top half of a float: shift or mask, no conversion instruction.
    const unsigned w = Word(raw, i / 2);
    return __uint_as_float(i % 2 == 0 ? w << 16 : w & 0xffff0000u);
}

// The largest value of a raw chunk, as a float (bf16: compared in pairs as bf16, which is exact,
// without widening them).
template <typename T>
__device__ __forceinline__ float ChunkMax(const uint4& raw);
template <>
__device__ __forceinline__ float ChunkMax<float>(const uint4& raw) {
    return fmaxf(fmaxf(__uint_as_float(raw.x), __uint_as_float(raw.y)),
                 fmaxf(__uint_as_float(raw.z), __uint_as_float(raw.w)));
}
template <>
__device__ __forceinline__ float ChunkMax<__nv_bfloat16>(const uint4& raw) {
    const __nv_bfloat162* p = reinterpret_cast<const __nv_bfloat162*>(&raw);
    const __nv_bfloat162 m = __hmax2(__hmax2(p[0], p[1]), __hmax2(p[2], p[3]));
    return fmaxf(__low2float(m), __high2float(m));
}

// Value i of a raw chunk widened again where it is used once more. The compiler would otherwise
// keep the widened floats of the first use alive until the second (8 registers a bf16 chunk
// instead of 4): asm volatile makes it widen the value anew from the raw chunk.
template <typename T>
__device__ __forceinline__ float ElementAgain(const uint4& raw, int i);
template <>
__device__ __forceinline__ float ElementAgain<float>(const uint4& raw, int i) {
    float v;
    asm volatile("mov.b32 %0, %1;" : "=f"(v) : "r"(Word(raw, i)));
    return v;
}
template <>
__device__ __forceinline__ float ElementAgain<__nv_bfloat16>(const uint4& raw, int i) {
    float v;
    if (i % 2 == 0)
        asm volatile("shl.b32 %0, %1, 16;" : "=f"(v) : "r"(Word(raw, i / 2)));
    else
        asm volatile("and.b32 %0, %1, 0xffff0000;" : "=f"(v) : "r"(Word(raw, i / 2)));
    return v;
}

// Chunk c of the row r (n values) as raw bytes: one 16-byte load when aligned, else value by value,
// `pad` past the row's end.
template <typename T>
__device__ __forceinline__ uint4 LoadRaw(const T* r, int c, int n, bool aligned, T pad) {
    if (aligned) return __ldg(reinterpret_cast<const uint4*>(r) + c);
    constexpr int V = ChunkCount<T>();
    uint4 raw;
    T* v = reinterpret_cast<T*>(&raw);
#pragma unroll
    for (int i = 0; i < V; ++i) {
        const int j = c * V + i;
        v[i] = j < n ? r[j] : pad;
    }
    return raw;
}

// A chunk filled with `pad`.
template <typename T>
__device__ __forceinline__ uint4 FilledRaw(T pad) {
    constexpr int V = ChunkCount<T>();
    uint4 raw;
    T* v = reinterpret_cast<T*>(&raw);
#pragma unroll
    for (int i = 0; i < V; ++i) v[i] = pad;
    return raw;
}

// ---- Groups of `lanes` threads a row (a power of two, 1 to 1024, chosen at run time) ----
// Up to 32 lanes: shuffles among the group's lanes (xor offsets below `lanes` stay inside it).
// More: shuffles within each warp, then the group's warps through `scratch` (32 floats, one a warp
// of the block) and a __syncthreads, which every thread of the block must reach. `tid` is the
// thread's index in its block (its warp: tid / 32; a group's lanes are consecutive). A `scratch`
// serves one reduction: give each reduction of a row its own.
__device__ __forceinline__ float GroupMaxOf(float v, int lanes, int tid, float* scratch) {
#pragma unroll
    for (int offset = 1; offset < 32; offset *= 2)
        if (offset < lanes) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
    if (lanes > 32) {
        const int warp = tid / 32, per = lanes / 32;
        if (tid % 32 == 0) scratch[warp] = v;
        __syncthreads();
        v = scratch[warp / per * per + tid % per];
#pragma unroll
        for (int offset = 1; offset < 32; offset *= 2)
            if (offset < per) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
    }
    return v;
}
__device__ __forceinline__ float GroupSumOf(float v, int lanes, int tid, float* scratch) {
#pragma unroll
    for (int offset = 1; offset < 32; offset *= 2)
        if (offset < lanes) v += __shfl_xor_sync(0xffffffffu, v, offset);
    if (lanes > 32) {
        const int warp = tid / 32, per = lanes / 32;
        if (tid % 32 == 0) scratch[warp] = v;
        __syncthreads();
        v = scratch[warp / per * per + tid % per];
#pragma unroll
        for (int offset = 1; offset < 32; offset *= 2)
            if (offset < per) v += __shfl_xor_sync(0xffffffffu, v, offset);
    }
    return v;
}

// Packs V floats into a raw chunk of T, rounded to nearest (bf16: two values an instruction).
template <typename T>
__device__ __forceinline__ uint4 PackRaw(const float* v);
template <>
__device__ __forceinline__ uint4 PackRaw<float>(const float* v) {
    return make_uint4(__float_as_uint(v[0]), __float_as_uint(v[1]), __float_as_uint(v[2]),
                      __float_as_uint(v[3]));
}
template <>
__device__ __forceinline__ uint4 PackRaw<__nv_bfloat16>(const float* v) {
    unsigned w[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
        const __nv_bfloat162 pair = __floats2bfloat162_rn(v[2 * i], v[2 * i + 1]);
        w[i] = *reinterpret_cast<const unsigned*>(&pair);
    }
    return make_uint4(w[0], w[1], w[2], w[3]);
}

// Stores chunk c of the row o (n values): one 16-byte store when aligned, else value by value up
// to the row's end.
template <typename T>
__device__ __forceinline__ void StoreRaw(T* o, int c, int n, bool aligned, const uint4& raw) {
    if (aligned) {
        reinterpret_cast<uint4*>(o)[c] = raw;
        return;
    }
    constexpr int V = ChunkCount<T>();
    const T* v = reinterpret_cast<const T*>(&raw);
#pragma unroll
    for (int i = 0; i < V; ++i)
        if (c * V + i < n) o[c * V + i] = v[i];
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
