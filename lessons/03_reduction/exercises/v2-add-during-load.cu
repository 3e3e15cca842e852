// Exercise 3.4: add during the load. The harness now launches half as many blocks as step 3.3:
// ceil(n / (2 x block)) blocks of `block` threads (a power of two), each with block floats of
// dynamic shared memory, so block b owns in[2 b block, 2 b block + 2 block).
// This is step 3.3's kernel under this step's name: as it stands it is WRONG, since each block
// loads only the first half of its elements. Make each thread load two elements, block apart,
// and store their sum before the tree.
__global__ void reduce_v2_add_during_load_kernel(const float* in, uint64_t n, float* partials) {
    extern __shared__ float s[];
    const unsigned tid = threadIdx.x;
    const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + tid;
    s[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) partials[blockIdx.x] = s[0];
}
