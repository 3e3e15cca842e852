// Pinned transfers: the same host-to-device copy from three kinds of host memory. Pageable memory
// (malloc) is copied by the driver through a page-locked staging buffer, chunk by chunk;
// page-locked memory (cudaMallocHost, or cudaHostRegister of an existing buffer) is read by
// the GPU's copy engine directly, at the full PCIe rate. Locking pages costs time once.
#include <chrono>
#include <cstdlib>

#include "basics_gpu.cuh"

namespace lessons::basics {
namespace {

double MsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

cudaError_t AllocateHost(HostMemory kind, uint64_t bytes, HostBuffer* out) {
    *out = HostBuffer{};
    const size_t n = bytes ? bytes : 1;
    const auto t0 = std::chrono::steady_clock::now();
    void* ptr = nullptr;
    if (kind == HostMemory::kPinned) {
        const cudaError_t e = cudaMallocHost(&ptr, n);  // locked and mapped for the GPU now
        if (e != cudaSuccess) return e;
    } else {
        ptr = std::malloc(n);
        if (!ptr) return cudaErrorMemoryAllocation;
        // First touch: the system hands out the pages only now. One write per 4 KiB page,
        // volatile, because a compiler may turn malloc + memset(0) into calloc, which
        // touches nothing.
        volatile char* page = static_cast<char*>(ptr);
        for (size_t i = 0; i < n; i += 4096) page[i] = 1;
    }
    out->alloc_ms = MsSince(t0);
    if (kind == HostMemory::kRegistered) {
        const auto t1 = std::chrono::steady_clock::now();
        const cudaError_t e = cudaHostRegister(ptr, n, cudaHostRegisterDefault);
        if (e != cudaSuccess) {
            std::free(ptr);
            return e;
        }
        out->register_ms = MsSince(t1);
    }
    out->ptr = ptr;
    out->bytes = bytes;
    out->kind = kind;
    return cudaSuccess;
}

void FreeHost(HostBuffer* buffer) {
    if (!buffer->ptr) return;
    if (buffer->kind == HostMemory::kPinned) {
        cudaFreeHost(buffer->ptr);
    } else {
        if (buffer->kind == HostMemory::kRegistered) cudaHostUnregister(buffer->ptr);
        std::free(buffer->ptr);
    }
    *buffer = HostBuffer{};
}

cudaError_t CopyToDeviceAndWait(void* device, const void* host, uint64_t bytes,
                                cudaStream_t stream) {
    if (bytes) {
        const cudaError_t e = cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, stream);
        if (e != cudaSuccess) return e;
    }
    return cudaStreamSynchronize(stream);
}

}  // namespace lessons::basics
