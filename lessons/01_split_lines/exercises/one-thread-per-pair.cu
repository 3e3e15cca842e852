// Exercise 1.4: one thread per pair. Find every "\r\n" in buf[0, n) and append the offset just
// after it (i + 2 for a pair at i) to out, claiming each slot with atomicAdd on *count.
// The harness launches ceil(ceil(n / 2) / block) blocks of `block` threads: one thread for each
// even position i = 0, 2, 4, ... It checks the offsets found as a set against the CPU reference.
__global__ void split_one_thread_per_pair_kernel(const char* __restrict__ buf, uint64_t n,
                                                 unsigned long long* __restrict__ out,
                                                 unsigned long long* __restrict__ count) {
    // 1. This thread's even position i, from blockIdx.x, blockDim.x and threadIdx.x (64-bit).
    // 2. Threads with i >= n do nothing.
    // 3. A pair starts at i ('\r' at i, '\n' at i + 1) or ends at i ('\r' at i - 1, '\n' at i):
    //    test both, never reading before buf[0] or at buf[n] and beyond.
}
