// lesson: split/four-bytes-per-thread
// WRONG: tests 3 bytes of its word: a pair from a word's last byte is missed.
__global__ void split_four_bytes_per_thread_kernel(const char* __restrict__ buf,
                                                   unsigned long long* __restrict__ out,
                                                   unsigned long long* __restrict__ count) {
    extern __shared__ unsigned int words[];  // 4 bytes per thread, then one byte of halo
    const unsigned t = threadIdx.x;
    const uint64_t base = blockIdx.x * uint64_t(blockDim.x) * 4;
    words[t] = reinterpret_cast<const unsigned int*>(buf + base)[t];
    char* s = reinterpret_cast<char*>(words);
    if (t == blockDim.x - 1) s[4 * blockDim.x] = buf[base + 4 * uint64_t(blockDim.x)];
    __syncthreads();
    for (unsigned k = 0; k < 3; ++k) {
        const unsigned j = 4 * t + k;
        if (s[j] == '\r' && s[j + 1] == '\n') out[atomicAdd(count, 1ull)] = base + j + 2;
    }
}
