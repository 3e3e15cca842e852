// Exercise 1.7: stage each block's bytes in shared memory. The harness pads the buffer as step
// 1.6 does, launches padded / (2 x block) blocks, and gives each block 2 x block bytes of
// dynamic shared memory (extern __shared__). Each thread tests its even position p (step 1.4's
// rule), reading its neighbours from shared memory; the byte before the block's stretch comes
// in as a halo.
// As it stands this kernel reads global memory only: right, but it does not use shared memory.
__global__ void split_shared_memory_kernel(const char* __restrict__ buf,
                                           unsigned long long* __restrict__ out,
                                           unsigned long long* __restrict__ count) {
    const uint64_t p = (blockIdx.x * uint64_t(blockDim.x) + threadIdx.x) * 2;
    const char c = buf[p];
    if (c == '\r') {
        if (buf[p + 1] == '\n') out[atomicAdd(count, 1ull)] = p + 2;
    } else if (c == '\n') {
        if (p > 0 && buf[p - 1] == '\r') out[atomicAdd(count, 1ull)] = p + 1;
    }
}
