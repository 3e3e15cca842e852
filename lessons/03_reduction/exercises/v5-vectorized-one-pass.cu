// Exercise 3.7: 16-byte loads, one launch. The harness launches G blocks (as many as the GPU
// holds at once) of `block` threads, any multiple of 32, once: partials has G floats, *counter
// is 0 before the launch and must be 0 again after it, and *result must hold the sum.
// As it stands each thread walks the array with a grid stride one float at a time; each block
// adds its threads' sums with warp shuffles and writes partials[blockIdx.x]; the last block to
// finish (counted with atomicAdd on *counter) adds the block sums. That is right, but each load
// brings 4 bytes, and one accumulator leaves one load in flight at a time. Load float4s, two
// grid strides apart into two accumulators, and add the last n % 4 floats separately.
__device__ float block_sum(float v, float* scratch) {
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

__global__ void reduce_v5_vectorized_one_pass_kernel(const float* in, uint64_t n, float* result,
                                                     float* partials, unsigned* counter) {
    __shared__ float scratch[32];
    __shared__ bool is_last;
    const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
    float a = 0.0f;
    for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += stride)
        a += in[i];
    const float sum = block_sum(a, scratch);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = sum;
        __threadfence();  // the sum is visible to every block before the count says so
        is_last = atomicAdd(counter, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!is_last) return;
    float total = 0.0f;
    for (unsigned j = threadIdx.x; j < gridDim.x; j += blockDim.x) total += __ldcg(&partials[j]);
    total = block_sum(total, scratch);
    if (threadIdx.x == 0) {
        *result = total;
        *counter = 0;
    }
}
