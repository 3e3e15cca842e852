// Lesson 5: the same kernel as lesson 4, fed from page-locked (pinned) host memory.
// cudaMemcpy from ordinary pageable memory goes through a driver staging buffer, one chunk
// at a time; from memory allocated with cudaMallocHost the GPU's copy engine reads the
// buffer directly over PCIe, so the host-to-device copy runs near the link's speed. The price
// is paid once, at allocation: pinning many pages is slow, and pinned memory is taken from
// what the operating system can page.
#include "split_gpu.cuh"

namespace lessons::split {

cudaError_t AllocPinned(char** host, size_t bytes) {
    return cudaMallocHost(reinterpret_cast<void**>(host), bytes ? bytes : 1);
}

cudaError_t FreePinned(char* host) {
    return cudaFreeHost(host);
}

cudaError_t CopyToDevice(char* device, const char* host, size_t bytes, cudaStream_t stream) {
    // The same call as lesson 4's; what changed is where `host` points.
    return cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, stream);
}

}  // namespace lessons::split
