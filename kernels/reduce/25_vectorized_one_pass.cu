// Lesson 25 (v5): one pass, 16-byte loads, a grid sized to the GPU.
// Each thread walks the array with a grid stride, loading float4s (one 16-byte instruction
// for four floats) two at a time into independent accumulators, so many loads are in flight.
// Blocks publish their sums; the last block to finish adds them up: one launch, no second
// pass, and the same order every time (no floating-point atomics).
#include "reduce_gpu.cuh"

namespace lessons::reduce {

// The block's sum, valid in thread 0. Uses `scratch` (32 floats) and __syncthreads.
__device__ __forceinline__ float block_sum_25(float v, float* scratch) {
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < blockDim.x / 32 ? scratch[lane] : 0.0f;
        for (int offset = 16; offset > 0; offset /= 2)
            v += __shfl_down_sync(0xffffffffu, v, offset);
    }
    return v;
}

__global__ void reduce_25_vectorized_one_pass_kernel(const float* __restrict__ in, uint64_t n,
                                                     float* result, float* partials,
                                                     unsigned* counter) {
    __shared__ float scratch[32];
    __shared__ bool is_last;
    const uint64_t n4 = n / 4;
    const float4* in4 = reinterpret_cast<const float4*>(in);
    const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
    const uint64_t first = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
    float a = 0.0f, b = 0.0f;
    uint64_t i = first;
    for (; i + stride < n4; i += 2 * stride) {
        const float4 p = in4[i];
        const float4 q = in4[i + stride];
        a += (p.x + p.y) + (p.z + p.w);
        b += (q.x + q.y) + (q.z + q.w);
    }
    if (i < n4) {
        const float4 p = in4[i];
        a += (p.x + p.y) + (p.z + p.w);
    }
    if (first < n % 4) b += in[n4 * 4 + first];  // the last 0-3 floats
    const float sum = block_sum_25(a + b, scratch);

    if (threadIdx.x == 0) {
        partials[blockIdx.x] = sum;
        __threadfence();  // the sum is visible to every block before the count says so
        is_last = atomicAdd(counter, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!is_last) return;
    float total = 0.0f;
    for (unsigned j = threadIdx.x; j < gridDim.x; j += blockDim.x) total += __ldcg(&partials[j]);
    total = block_sum_25(total, scratch);
    if (threadIdx.x == 0) {
        *result = total;
        *counter = 0;  // ready for the next launch
    }
}

namespace {

cudaError_t Launch(const float* in, uint64_t n, float* result, float* partials, unsigned* counter,
                   int block, int grid, cudaStream_t stream) {
    reduce_25_vectorized_one_pass_kernel<<<grid, block, 0, stream>>>(in, n, result, partials,
                                                                     counter);
    return cudaGetLastError();
}

}  // namespace

const OnePassKernel kReduce25{"reduce_25_vectorized_one_pass_kernel",
                              reinterpret_cast<const void*>(&reduce_25_vectorized_one_pass_kernel),
                              &Launch};

}  // namespace lessons::reduce
