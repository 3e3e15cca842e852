// Shared memory: stage each block's bytes in shared memory.
// Each thread loads its two bytes with one 16-bit load, so a warp reads 64 contiguous bytes
// in one request, and the byte before the block's stretch comes in as a halo. Each thread
// tests its even position (one-thread-per-pair's rule) reading neighbours from shared memory
// instead of global memory, at the price of a __syncthreads(). Padding (branch-free-padding's)
// keeps loads in bounds.
#include "split_gpu.cuh"
#include "split_padded.cuh"

namespace lessons::split {

__global__ void split_shared_memory_kernel(const char* __restrict__ buf,
                                           unsigned long long* __restrict__ out,
                                           unsigned long long* __restrict__ count) {
    extern __shared__ unsigned short pairs[];  // 2 bytes per thread
    __shared__ char before;                    // the halo: the byte before this block's bytes
    const unsigned t = threadIdx.x;
    const uint64_t base = blockIdx.x * uint64_t(blockDim.x) * 2;
    pairs[t] = reinterpret_cast<const unsigned short*>(buf + base)[t];
    if (t == 0) before = base ? buf[base - 1] : 0;
    __syncthreads();
    const char* s = reinterpret_cast<const char*>(pairs);
    const uint64_t p = base + 2 * t;  // the even position this thread tests
    const char c = s[2 * t];
    if (c == '\r') {
        if (s[2 * t + 1] == '\n') out[atomicAdd(count, 1ull)] = p + 2;
    } else if (c == '\n') {
        if ((t ? s[2 * t - 1] : before) == '\r') out[atomicAdd(count, 1ull)] = p + 1;
    }
}

namespace {

size_t DynamicSmem(int block) {
    return size_t(block) * sizeof(unsigned short);
}

// Padded as branch-free-padding is: whole blocks of 2 x block bytes.
const SplitKernel kSplitSharedMemory =
    PaddedBlocks<&split_shared_memory_kernel, 2, &DynamicSmem>::Descriptor(
        "split_shared_memory_kernel");

}  // namespace

LESSONS_KERNELS(kSplitSharedMemory);

}  // namespace lessons::split
