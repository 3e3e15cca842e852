// Exercise 3.6: warp shuffles. The harness launches min(ceil(n / block), G) blocks (G: as many
// as the GPU holds at once) of `block` threads, any multiple of 32, and NO dynamic shared
// memory; a block owns a contiguous share of about n / gridDim.x elements, as in step 3.5.
// As it stands each thread adds its share in a register, then the block adds the sums in a
// tree in a static shared array with a __syncthreads() per level: right, but every level of
// the tree goes through shared memory and a barrier. Sum each warp with __shfl_down_sync
// instead, and keep shared memory for one value per warp.
__global__ void reduce_v4_warp_shuffle_kernel(const float* in, uint64_t n, float* partials) {
    __shared__ float s[1024];
    const unsigned tid = threadIdx.x;
    const uint64_t per_block = (n + gridDim.x - 1) / gridDim.x;
    const uint64_t begin = blockIdx.x * per_block;
    const uint64_t end = begin + per_block < n ? begin + per_block : n;
    float sum = 0.0f;
    for (uint64_t i = begin + tid; i < end; i += blockDim.x) sum += in[i];
    s[tid] = sum;
    __syncthreads();
    if (tid == 0) {
        float total = 0.0f;
        for (unsigned t = 0; t < blockDim.x; ++t) total += s[t];
        partials[blockIdx.x] = total;
    }
}
