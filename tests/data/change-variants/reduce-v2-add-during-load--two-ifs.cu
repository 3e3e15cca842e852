// lesson: reduce/v2-add-during-load
// FOUND: the change written another way (two guarded adds into a register)
__global__ void reduce_v2_add_during_load_kernel(const float* in, uint64_t n, float* partials) {
    extern __shared__ float s[];
    const unsigned tid = threadIdx.x;
    const uint64_t first = 2 * blockDim.x * (uint64_t)blockIdx.x + tid;
    const uint64_t second = first + blockDim.x;
    float v = 0.0f;
    if (first < n) v += in[first];
    if (second < n) v += in[second];
    s[tid] = v;
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) partials[blockIdx.x] = s[0];
}
