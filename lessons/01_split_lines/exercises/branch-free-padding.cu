// Exercise 1.6: branch-free padding. The harness now pads the device buffer with zero bytes to
// a whole number of blocks of 2 x block bytes, plus 16 more, and launches exactly
// padded / (2 x block) blocks: every thread has a position, and reading one byte past it is
// always in bounds. Zeros never form a pair. The kernel no longer gets n.
// As it stands this kernel finds only the pairs that start at an even position: every pair
// that starts at an odd one is missed. Make each thread test an odd position i, where a pair
// may start at i - 1 or at i, with no edge branch.
__global__ void split_branch_free_padding_kernel(const char* __restrict__ buf,
                                                 unsigned long long* __restrict__ out,
                                                 unsigned long long* __restrict__ count) {
    const uint64_t i = (blockIdx.x * uint64_t(blockDim.x) + threadIdx.x) * 2;
    if (buf[i] == '\r' && buf[i + 1] == '\n') out[atomicAdd(count, 1ull)] = i + 2;
}
