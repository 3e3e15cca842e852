// One thread per pair: the CPU step even-positions' test, one GPU thread per even position.
// Hundreds of thousands of threads (a large GPU holds over 2000 per SM) read the
// buffer at once, so the scan runs at a good part of the GPU's memory bandwidth. But the
// buffer must first cross PCIe from pageable host memory: that copy, not the kernel, dominates.
#include "split_gpu.cuh"

namespace lessons::split {

__global__ void split_one_thread_per_pair_kernel(const char* __restrict__ buf, uint64_t n,
                                                 unsigned long long* __restrict__ out,
                                                 unsigned long long* __restrict__ count) {
    const uint64_t i = (blockIdx.x * uint64_t(blockDim.x) + threadIdx.x) * 2;
    if (i >= n) return;
    const char c = buf[i];
    if (c == '\r') {
        if (i + 1 < n && buf[i + 1] == '\n') out[atomicAdd(count, 1ull)] = i + 2;
    } else if (c == '\n') {
        if (i > 0 && buf[i - 1] == '\r') out[atomicAdd(count, 1ull)] = i + 1;
    }
}

size_t NoDynamicSmem(int) {
    return 0;
}

namespace {

uint64_t Blocks(uint64_t n, int block) {
    const uint64_t threads = (n + 1) / 2;
    return (threads + block - 1) / block;
}

cudaError_t Launch(const char* buf, uint64_t n, unsigned long long* out, unsigned long long* count,
                   int block, cudaStream_t stream) {
    const uint64_t blocks = Blocks(n, block);
    if (blocks == 0) return cudaSuccess;
    split_one_thread_per_pair_kernel<<<static_cast<unsigned>(blocks), block, 0, stream>>>(
        buf, n, out, count);
    return cudaGetLastError();
}

const SplitKernel kSplitOneThreadPerPair{
    .name = "split_one_thread_per_pair_kernel",
    .kernel = reinterpret_cast<const void*>(&split_one_thread_per_pair_kernel),
    .launch = &Launch,
    .dynamic_smem = &NoDynamicSmem,
    .blocks = &Blocks,
};

}  // namespace

LESSONS_KERNELS(kSplitOneThreadPerPair);

}  // namespace lessons::split
