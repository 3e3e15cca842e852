// lesson: reduce/v4-warp-shuffle
// WRONG: shares of n / blocks rounded down: the last n % blocks are lost.
__device__ __forceinline__ float warp_sum(float v) {
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void reduce_v4_warp_shuffle_kernel(const float* in, uint64_t n, float* partials) {
    __shared__ float warp_sums[32];
    const unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    const uint64_t per_block = n / gridDim.x;
    const uint64_t begin = blockIdx.x * per_block;
    const uint64_t end = begin + per_block < n ? begin + per_block : n;
    float sum = 0.0f;
    for (uint64_t i = begin + tid; i < end; i += blockDim.x) sum += in[i];
    sum = warp_sum(sum);
    if (lane == 0) warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f;
        sum = warp_sum(sum);
        if (lane == 0) partials[blockIdx.x] = sum;
    }
}
