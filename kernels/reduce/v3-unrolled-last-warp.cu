// v3: sum in registers first, then a sequential-addressing tree, then the last
// warp unrolled: a fixed grid walks the array (each thread accumulates many elements), the
// tree halves a contiguous range of threads (whole warps idle, no divergence, no bank
// conflicts), one warp adds the last 64 sums with __syncwarp() between reads and writes (the
// seed's, with neither that nor volatile, races). Toggles switch one idea off: `accumulate`
// (two per thread as v2 loads, or one), `last_warp=loop` (__syncthreads to the end).
#include "reduce_gpu.cuh"

namespace lessons::reduce {

template <Accumulate kAccumulate, LastWarp kLastWarp>
__global__ void reduce_v3_unrolled_last_warp_kernel(const float* in, uint64_t n, float* partials) {
    extern __shared__ float s[];
    const unsigned tid = threadIdx.x;
    float sum = 0.0f;
    if constexpr (kAccumulate == Accumulate::kManyPerThread) {
        const uint64_t per_block = (n + gridDim.x - 1) / gridDim.x;
        const uint64_t begin = blockIdx.x * per_block;
        const uint64_t end = begin + per_block < n ? begin + per_block : n;
        for (uint64_t i = begin + tid; i < end; i += blockDim.x) sum += in[i];
    } else if constexpr (kAccumulate == Accumulate::kTwoPerThread) {
        const uint64_t i = blockIdx.x * uint64_t(blockDim.x) * 2 + tid;
        if (i < n) sum = in[i];
        if (i + blockDim.x < n) sum += in[i + blockDim.x];
    } else {
        const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + tid;
        if (i < n) sum = in[i];
    }
    s[tid] = sum;
    __syncthreads();
    // The block is a power of two of at least 64: every level reads inside it.
    const unsigned last = kLastWarp == LastWarp::kUnrolled ? 32 : 0;
    for (unsigned half = blockDim.x / 2; half > last; half /= 2) {
        if (tid < half) s[tid] += s[tid + half];
        __syncthreads();
    }
    if constexpr (kLastWarp == LastWarp::kLoop) {
        if (tid == 0) partials[blockIdx.x] = s[0];
    } else if (tid < 32) {
        float v = s[tid] + s[tid + 32];
        for (unsigned offset = 16; offset > 0; offset /= 2) {
            __syncwarp();  // every lane has read before any lane writes
            s[tid] = v;
            __syncwarp();  // every lane has written before any lane reads
            v += s[tid + offset];
        }
        if (tid == 0) partials[blockIdx.x] = v;
    }
}

namespace {

template <Accumulate kAccumulate, LastWarp kLastWarp>
cudaError_t Pass(float* in, uint64_t n, float* out, int block, int max_grid, cudaStream_t s,
                 uint64_t* written) {
    const uint64_t per_block = (kAccumulate == Accumulate::kTwoPerThread ? 2 : 1) * uint64_t(block);
    uint64_t blocks = (n + per_block - 1) / per_block;
    if (kAccumulate == Accumulate::kManyPerThread && blocks > uint64_t(max_grid)) blocks = max_grid;
    reduce_v3_unrolled_last_warp_kernel<kAccumulate, kLastWarp>
        <<<static_cast<unsigned>(blocks), block, FloatPerThreadSmem(block), s>>>(in, n, out);
    *written = blocks;
    return cudaGetLastError();
}

template <Accumulate kAccumulate, LastWarp kLastWarp>
ReducePassKernel Variant(const char* name) {
    return {
        name,
        reinterpret_cast<const void*>(&reduce_v3_unrolled_last_warp_kernel<kAccumulate, kLastWarp>),
        &Pass<kAccumulate, kLastWarp>,
        &FloatPerThreadSmem,
        false,
        {ValueOf(kAccumulateToggle, kAccumulate), ValueOf(kLastWarpToggle, kLastWarp)}};
}

using A = Accumulate;
using W = LastWarp;
#define LESSONS_REDUCE_V3(a, w) \
    Variant<A::a, W::w>("reduce_v3_unrolled_last_warp_kernel<Accumulate::" #a ", LastWarp::" #w ">")

const ReducePassKernel kReduceV3[]{
    LESSONS_REDUCE_V3(kManyPerThread, kUnrolled), LESSONS_REDUCE_V3(kManyPerThread, kLoop),
    LESSONS_REDUCE_V3(kTwoPerThread, kUnrolled),  LESSONS_REDUCE_V3(kTwoPerThread, kLoop),
    LESSONS_REDUCE_V3(kOnePerThread, kUnrolled),  LESSONS_REDUCE_V3(kOnePerThread, kLoop),
};
#undef LESSONS_REDUCE_V3

}  // namespace

LESSONS_KERNELS(kReduceV3);

}  // namespace lessons::reduce
