// Branch-free padding: no edge branches, no idle threads.
// The one-thread-per-pair kernel tests every even position and checks on every thread whether it is
// at the first or last byte. Here the device buffer is padded with zeros to a whole number of
// blocks (plus one byte), and each thread tests an odd position i: the pair may start at i - 1
// or at i, and both neighbours always exist. Zeros never form a pair, so the padding finds
// nothing, and the grid has no threads past the end.
#include "split_gpu.cuh"

namespace lessons::split {

__global__ void split_branch_free_padding_kernel(const char* __restrict__ buf,
                                                 unsigned long long* __restrict__ out,
                                                 unsigned long long* __restrict__ count) {
    const uint64_t i = (blockIdx.x * uint64_t(blockDim.x) + threadIdx.x) * 2 + 1;
    const char c = buf[i];
    if (c == '\n') {
        if (buf[i - 1] == '\r') out[atomicAdd(count, 1ull)] = i + 1;
    } else if (c == '\r') {
        if (buf[i + 1] == '\n') out[atomicAdd(count, 1ull)] = i + 2;
    }
}

namespace {

uint64_t Padded(uint64_t n, int block) {
    return PaddedTo(n, 2 * uint64_t(block));
}

uint64_t Blocks(uint64_t n, int block) {
    return Padded(n, block) / (2 * uint64_t(block));
}

cudaError_t Launch(const char* buf, uint64_t n, unsigned long long* out, unsigned long long* count,
                   int block, cudaStream_t stream) {
    const uint64_t blocks = Blocks(n, block);
    if (blocks == 0) return cudaSuccess;
    split_branch_free_padding_kernel<<<static_cast<unsigned>(blocks), block, 0, stream>>>(buf, out,
                                                                                          count);
    return cudaGetLastError();
}

const SplitKernel kSplitBranchFreePadding{
    .name = "split_branch_free_padding_kernel",
    .kernel = reinterpret_cast<const void*>(&split_branch_free_padding_kernel),
    .launch = &Launch,
    .dynamic_smem = &NoDynamicSmem,
    .blocks = &Blocks,
    .padded = &Padded,
};

}  // namespace

LESSONS_KERNELS(kSplitBranchFreePadding);

}  // namespace lessons::split
