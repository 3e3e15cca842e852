// Exercise 3.3: the tree in shared memory. The harness launches ceil(n / block) blocks of
// `block` threads (a power of two), each with block floats of dynamic shared memory
// (extern __shared__), and repeats the pass on the partial sums until one value is left. Block
// b reads in[b * block, b * block + block) (the last block fewer, up to n) and writes its sum
// to partials[b]. The input is const: it cannot be added into.
// As it stands thread 0 adds its block's elements one after another from global memory: right,
// but slow. Copy the block's elements to shared memory, then add them there in step 3.2's
// interleaved tree.
__global__ void reduce_v1_shared_memory_kernel(const float* in, uint64_t n, float* partials) {
    if (threadIdx.x != 0) return;
    const uint64_t base = blockIdx.x * uint64_t(blockDim.x);
    float sum = 0.0f;
    for (uint64_t i = base; i < n && i < base + blockDim.x; ++i) sum += in[i];
    partials[blockIdx.x] = sum;
}
