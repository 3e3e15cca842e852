// lesson: split/one-thread-per-pair
// WRONG: the last byte's thread returns early: a final \r\n is missed.
__global__ void split_one_thread_per_pair_kernel(const char* __restrict__ buf, uint64_t n,
                                                 unsigned long long* __restrict__ out,
                                                 unsigned long long* __restrict__ count) {
    const uint64_t i = (blockIdx.x * uint64_t(blockDim.x) + threadIdx.x) * 2;
    if (i + 1 >= n) return;
    const char c = buf[i];
    if (c == '\r') {
        if (buf[i + 1] == '\n') out[atomicAdd(count, 1ull)] = i + 2;
    } else if (c == '\n') {
        if (i > 0 && buf[i - 1] == '\r') out[atomicAdd(count, 1ull)] = i + 1;
    }
}
