// Chapter 1, split lines: the GPU steps' kernels and their launchers (device code only).
// Each launcher scans buf[0, n) on `stream`, appending offsets to `out` through the counter
// `count`, which the caller zeroes first. `out` must hold SplitCapacity(n) values.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace lessons::split {

// Lesson 4: one thread per even position.
void LaunchSplit04(const char* buf, uint64_t n, unsigned long long* out,
                   unsigned long long* count, int block, cudaStream_t stream);
const void* Split04Kernel();
uint64_t Split04Blocks(uint64_t n, int block);

}  // namespace lessons::split
