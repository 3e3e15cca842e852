// Branch-free padding: no edge branches, no idle threads.
// The one-thread-per-pair kernel tests every even position and checks on every thread whether it is
// at the first or last byte. Here the device buffer is padded with zeros to a whole number of
// blocks (plus one byte), and each thread tests an odd position i: the pair may start at i - 1
// or at i, and both neighbours always exist. Zeros never form a pair, so the padding finds
// nothing, and the grid has no threads past the end.
#include "split_gpu.cuh"
#include "split_padded.cuh"

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

const SplitKernel kSplitBranchFreePadding =
    PaddedBlocks<&split_branch_free_padding_kernel, 2>::Descriptor(
        "split_branch_free_padding_kernel");

}  // namespace

LESSONS_KERNELS(kSplitBranchFreePadding);

}  // namespace lessons::split
