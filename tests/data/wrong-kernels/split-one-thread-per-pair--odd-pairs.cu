// lesson: split/one-thread-per-pair
// WRONG: tests only a \r at even positions: pairs at odd positions are missed.
__global__ void split_one_thread_per_pair_kernel(const char* __restrict__ buf, uint64_t n,
                                                 unsigned long long* __restrict__ out,
                                                 unsigned long long* __restrict__ count) {
    const uint64_t i = (blockIdx.x * uint64_t(blockDim.x) + threadIdx.x) * 2;
    if (i >= n) return;
    if (buf[i] == '\r' && i + 1 < n && buf[i + 1] == '\n') out[atomicAdd(count, 1ull)] = i + 2;
}
