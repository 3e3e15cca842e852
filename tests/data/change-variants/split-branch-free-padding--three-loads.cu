// lesson: split/branch-free-padding
// FOUND: the change written another way (three loads, two tests, no else)
__global__ void split_branch_free_padding_kernel(const char* __restrict__ buf,
                                                 unsigned long long* __restrict__ out,
                                                 unsigned long long* __restrict__ count) {
    const uint64_t t = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
    const uint64_t i = 2 * t + 1;
    const char prev = buf[i - 1], c = buf[i], next = buf[i + 1];
    if (prev == '\r' && c == '\n') out[atomicAdd(count, 1ull)] = i + 1;
    if (c == '\r' && next == '\n') out[atomicAdd(count, 1ull)] = i + 2;
}
