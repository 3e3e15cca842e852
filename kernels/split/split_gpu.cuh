// Chapter 1, split lines: the GPU steps' kernels and their launchers (device code only).
// Each launcher scans buf[0, n) on `stream`, appending offsets to `out` through the counter
// `count`, which the caller zeroes first. `out` must hold SplitCapacity(n) values.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace lessons::split {

// Lesson 4: one thread per even position.
void LaunchSplit04(const char* buf, uint64_t n, unsigned long long* out, unsigned long long* count,
                   int block, cudaStream_t stream);
const void* Split04Kernel();
uint64_t Split04Blocks(uint64_t n, int block);

// Lesson 5: page-locked host memory (the kernel is lesson 4's).
cudaError_t AllocPinned(char** host, size_t bytes);
cudaError_t FreePinned(char* host);
cudaError_t CopyToDevice(char* device, const char* host, size_t bytes, cudaStream_t stream);

// Lessons 6-8 and 10 read past n: the device buffer must hold SplitNNPadded(n, block) bytes
// plus 16, and every byte from n on must be zero.
void LaunchSplit06(const char* buf, uint64_t n, unsigned long long* out, unsigned long long* count,
                   int block, cudaStream_t stream);
const void* Split06Kernel();
uint64_t Split06Padded(uint64_t n, int block);
void LaunchSplit07(const char* buf, uint64_t n, unsigned long long* out, unsigned long long* count,
                   int block, cudaStream_t stream);
const void* Split07Kernel();
uint64_t Split07Padded(uint64_t n, int block);
void LaunchSplit08(const char* buf, uint64_t n, unsigned long long* out, unsigned long long* count,
                   int block, cudaStream_t stream);
const void* Split08Kernel();
uint64_t Split08Padded(uint64_t n, int block);

// Lesson 9: Thrust; the number found is returned on the host.
cudaError_t Split09ThrustCopyIf(const char* buf, uint64_t n, unsigned long long* out,
                                unsigned long long* found, cudaStream_t stream);

// Lesson 10: 16-byte loads, block-aggregated output. The Range form scans buf[0, n) and adds
// offset_base to every offset (lesson 11 scans chunks of a larger buffer).
void LaunchSplit10(const char* buf, uint64_t n, unsigned long long* out, unsigned long long* count,
                   int block, cudaStream_t stream);
void LaunchSplit10Range(const char* buf, uint64_t n, unsigned long long* out,
                        unsigned long long* count, int block, cudaStream_t stream,
                        uint64_t offset_base);
const void* Split10Kernel();
uint64_t Split10Padded(uint64_t n, int block);
size_t Split10SharedBytes(int block);  // dynamic shared memory of a block

// Lesson 11: chunks on several streams, copy and scan overlapped. `host` must be pinned,
// `dev` padded as for lesson 10; `events` holds num_streams events.
cudaError_t Split11Overlapped(const char* host, char* dev, uint64_t n, unsigned long long* out,
                              unsigned long long* count, int block, uint64_t chunk,
                              cudaStream_t main, const cudaStream_t* streams, cudaEvent_t* events,
                              int num_streams);
uint64_t Split11Chunk(uint64_t n, int block);

}  // namespace lessons::split
