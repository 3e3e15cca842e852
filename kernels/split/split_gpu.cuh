// Chapter 1, split lines: the GPU steps' kernels (device code only). Each kernel file
// registers, beside its kernel, a SplitKernel (LESSONS_KERNELS): what the harness needs to
// launch it and to query it. A launch scans buf[0, n) on `stream`, appending offsets to `out`
// through the counter `count`, which the caller zeroes first. `out` must hold
// SplitCapacity(n) values.
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <cstddef>
#include <cstdint>

#include "kernel_family.h"
#include "split_toggles.h"

namespace lessons::split {

using SplitLaunch = cudaError_t (*)(const char* buf, uint64_t n, unsigned long long* out,
                                    unsigned long long* count, int block, cudaStream_t stream);
// The same scan over one chunk or share of a longer text: every offset gets `offset_base`
// added, so that it counts from the start of the whole text.
using SplitRangeLaunch = cudaError_t (*)(const char* buf, uint64_t n, unsigned long long* out,
                                         unsigned long long* count, int block, cudaStream_t stream,
                                         uint64_t offset_base);

struct SplitKernel {
    const char* name;                           // the __global__ function's name
    const void* kernel;                         // its address, for attribute queries
    SplitLaunch launch;                         // returns the launch's error
    size_t (*dynamic_smem)(int block);          // dynamic shared memory of a block
    uint64_t (*blocks)(uint64_t n, int block);  // the grid it launches for n bytes
    // Bytes it reads, from n up zero-padded (the device buffer holds this plus 16); null: n.
    uint64_t (*padded)(uint64_t n, int block) = nullptr;
    // Its scan of a chunk or share (SplitRangeLaunch), for the steps that cut the text up and
    // launch this kernel on each piece; null when it has none.
    SplitRangeLaunch launch_range = nullptr;
    // The toggle values it implements (split_toggles.h), for the step whose source registers a
    // variant per combination; all empty for a kernel of a step without toggles.
    std::array<ToggleValue, 4> toggles = {};
};

size_t NoDynamicSmem(int block);

// n rounded up to a whole number of `unit` bytes: the padded size of a kernel that reads
// whole blocks of `unit` bytes.
inline uint64_t PaddedTo(uint64_t n, uint64_t unit) {
    return (n + unit - 1) / unit * unit;
}

// The pinned-memory step: the host buffer the copy reads from is page-locked.
cudaError_t SplitAllocPinned(char** host, size_t bytes);

// Thrust; the number found is returned on the host.
cudaError_t SplitThrustCopyIf(const char* buf, uint64_t n, unsigned long long* out,
                              unsigned long long* found, cudaStream_t stream);

// The overlapped-chunks step: chunks of `chunk` bytes on several streams, each scanned by
// `scan` once it has arrived, copy and scan overlapped. `host` must be pinned, `dev` padded
// for the kernel; `events` holds num_streams events.
cudaError_t SplitOverlappedChunks(const char* host, char* dev, uint64_t n, unsigned long long* out,
                                  unsigned long long* count, SplitRangeLaunch scan, int block,
                                  uint64_t chunk, cudaStream_t main, const cudaStream_t* streams,
                                  cudaEvent_t* events, int num_streams);
// The chunk for n bytes: a whole number of `unit` bytes (the kernel's block of bytes).
uint64_t SplitOverlappedChunk(uint64_t n, uint64_t unit);

}  // namespace lessons::split
