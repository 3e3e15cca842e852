// Pinned memory: the kernel of one-thread-per-pair, fed from page-locked host memory.
// cudaMemcpy from ordinary pageable memory goes through a driver staging buffer, one chunk
// at a time; from memory allocated with cudaMallocHost the GPU's copy engine reads the
// buffer directly over PCIe, so the host-to-device copy runs near the link's speed. The price
// is paid once, at allocation: pinning many pages is slow, and pinned memory is taken from
// what the operating system can page.
#include "split_gpu.cuh"

namespace lessons::split {

// The text is copied once into memory from cudaMallocHost; every copy to the GPU then reads
// from there, with the same cudaMemcpyAsync and the same kernel as the step before.
cudaError_t SplitAllocPinned(char** host, size_t bytes) {
    return cudaMallocHost(reinterpret_cast<void**>(host), bytes ? bytes : 1);
}

}  // namespace lessons::split
