// Four bytes per thread: more work per thread.
// Each thread loads 4 bytes with one 32-bit load and tests all four positions, so a quarter
// of the threads move the same bytes with a quarter of the load instructions. The next byte
// after a thread's four comes from shared memory (its neighbour's word), and from a halo for
// the last thread of the block.
#include "split_gpu.cuh"
#include "split_padded.cuh"

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

size_t DynamicSmem(int block) {
    return 4 * size_t(block) + 4;
}

const SplitKernel kSplitFourBytesPerThread =
    PaddedBlocks<&split_four_bytes_per_thread_kernel, 4, &DynamicSmem>::Descriptor(
        "split_four_bytes_per_thread_kernel");

}  // namespace

LESSONS_KERNELS(kSplitFourBytesPerThread);

}  // namespace lessons::split
