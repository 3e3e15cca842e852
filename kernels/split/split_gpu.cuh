// Chapter 1, split lines: the GPU steps' kernels (device code only). Each kernel file exports,
// beside its kernel, a SplitKernel: what the harness needs to launch it and to query it.
// A launch scans buf[0, n) on `stream`, appending offsets to `out` through the counter
// `count`, which the caller zeroes first. `out` must hold SplitCapacity(n) values.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "split_toggles.h"

namespace lessons::split {

using SplitLaunch = cudaError_t (*)(const char* buf, uint64_t n, unsigned long long* out,
                                    unsigned long long* count, int block, cudaStream_t stream);

struct SplitKernel {
    const char* name;                           // the __global__ function's name
    const void* kernel;                         // its address, for attribute queries
    SplitLaunch launch;                         // returns the launch's error
    size_t (*dynamic_smem)(int block);          // dynamic shared memory of a block
    uint64_t (*blocks)(uint64_t n, int block);  // the grid it launches for n bytes
    // Bytes it reads, from n up zero-padded (the device buffer holds this plus 16); null: n.
    uint64_t (*padded)(uint64_t n, int block);
};

size_t NoDynamicSmem(int block);

extern const SplitKernel kSplit04;  // one thread per even position
extern const SplitKernel kSplit06;  // branch-free, padded input
extern const SplitKernel kSplit07;  // shared-memory staging
extern const SplitKernel kSplit08;  // four bytes per thread
extern const SplitKernel kSplit10;  // 16-byte loads, block-aggregated output
// Lesson 10 with output=per-hit (split_toggles.h): one atomicAdd per hit, as in lesson 8.
extern const SplitKernel kSplit10PerHit;

// Lesson 5: the host buffer the copy reads from is page-locked.
cudaError_t Split05AllocPinned(char** host, size_t bytes);

// Lesson 9: Thrust; the number found is returned on the host.
cudaError_t Split09ThrustCopyIf(const char* buf, uint64_t n, unsigned long long* out,
                                unsigned long long* found, cudaStream_t stream);

// Lesson 10's kernel on buf[0, n) adding offset_base to every offset (lesson 11's chunks).
cudaError_t LaunchSplit10Range(const char* buf, uint64_t n, unsigned long long* out,
                               unsigned long long* count, int block, cudaStream_t stream,
                               uint64_t offset_base);

// Lesson 11: chunks on several streams, copy and scan overlapped. `host` must be pinned,
// `dev` padded as for lesson 10; `events` holds num_streams events.
cudaError_t Split11Overlapped(const char* host, char* dev, uint64_t n, unsigned long long* out,
                              unsigned long long* count, int block, uint64_t chunk,
                              cudaStream_t main, const cudaStream_t* streams, cudaEvent_t* events,
                              int num_streams);
uint64_t Split11Chunk(uint64_t n, int block);

}  // namespace lessons::split
