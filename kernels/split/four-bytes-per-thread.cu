// Four bytes per thread: more work per thread.
// Each thread loads 4 bytes with one 32-bit load and tests all four positions, so a quarter
// of the threads move the same bytes with a quarter of the load instructions. The next byte
// after a thread's four comes from shared memory (its neighbour's word), and from a halo for
// the last thread of the block.
#include "split_gpu.cuh"

namespace lessons::split {

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
    for (unsigned k = 0; k < 4; ++k) {
        const unsigned j = 4 * t + k;
        if (s[j] == '\r' && s[j + 1] == '\n') out[atomicAdd(count, 1ull)] = base + j + 2;
    }
}

namespace {

uint64_t Padded(uint64_t n, int block) {
    return PaddedTo(n, 4 * uint64_t(block));
}

uint64_t Blocks(uint64_t n, int block) {
    return Padded(n, block) / (4 * uint64_t(block));
}

size_t DynamicSmem(int block) {
    return 4 * size_t(block) + 4;
}

cudaError_t Launch(const char* buf, uint64_t n, unsigned long long* out, unsigned long long* count,
                   int block, cudaStream_t stream) {
    const uint64_t blocks = Blocks(n, block);
    if (blocks == 0) return cudaSuccess;
    split_four_bytes_per_thread_kernel<<<static_cast<unsigned>(blocks), block, DynamicSmem(block),
                                         stream>>>(buf, out, count);
    return cudaGetLastError();
}

const SplitKernel kSplitFourBytesPerThread{
    .name = "split_four_bytes_per_thread_kernel",
    .kernel = reinterpret_cast<const void*>(&split_four_bytes_per_thread_kernel),
    .launch = &Launch,
    .dynamic_smem = &DynamicSmem,
    .blocks = &Blocks,
    .padded = &Padded,
};

}  // namespace

LESSONS_KERNELS(kSplitFourBytesPerThread);

}  // namespace lessons::split
