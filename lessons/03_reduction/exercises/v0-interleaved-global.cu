// Exercise 3.2: a tree in global memory. The harness launches ceil(n / block) blocks of `block`
// threads (a power of two) and repeats the pass on the partial sums until one value is left;
// block b owns data[b * block, b * block + block) (the last block fewer, up to n) and writes
// its sum to partials[b]. `data` is a fresh copy of the input each time: you may overwrite it.
// As it stands thread 0 adds its block's elements one after another: right, but one thread of
// the block works. Make every thread work, pairing elements in a tree.
__global__ void reduce_v0_interleaved_global_kernel(float* data, uint64_t n, float* partials) {
    if (threadIdx.x != 0) return;
    const uint64_t base = blockIdx.x * uint64_t(blockDim.x);
    float sum = 0.0f;
    for (uint64_t i = base; i < n && i < base + blockDim.x; ++i) sum += data[i];
    partials[blockIdx.x] = sum;
}
