// lesson: reduce/v2-add-during-load
// WRONG: each block's last thread stores 0: two elements per block dropped.
__global__ void reduce_v2_add_during_load_kernel(const float* in, uint64_t n, float* partials) {
    extern __shared__ float s[];
    const unsigned tid = threadIdx.x;
    const uint64_t i = blockIdx.x * uint64_t(blockDim.x) * 2 + tid;
    float v = i < n ? in[i] : 0.0f;
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    s[tid] = tid == blockDim.x - 1 ? 0.0f : v;
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) partials[blockIdx.x] = s[0];
}
