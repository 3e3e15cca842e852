// Chapter 3, reduction: the GPU steps' kernels and launchers (device code only).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace lessons::reduce {

// A multi-pass step: one pass reduces in[0, n) to partial sums in out and returns how many it
// wrote; the harness repeats passes until one value is left. `max_grid` caps the grid of the
// steps that loop over their data (lessons 23 and 24). Lesson 20 works in place: it
// overwrites `in`.
using ReducePass = uint64_t (*)(float* in, uint64_t n, float* out, int block, int max_grid,
                                cudaStream_t stream);

uint64_t Reduce20Pass(float* in, uint64_t n, float* out, int block, int max_grid, cudaStream_t s);
uint64_t Reduce21Pass(float* in, uint64_t n, float* out, int block, int max_grid, cudaStream_t s);
uint64_t Reduce22Pass(float* in, uint64_t n, float* out, int block, int max_grid, cudaStream_t s);
uint64_t Reduce23Pass(float* in, uint64_t n, float* out, int block, int max_grid, cudaStream_t s);
uint64_t Reduce24Pass(float* in, uint64_t n, float* out, int block, int max_grid, cudaStream_t s);
const void* Reduce20Kernel();
const void* Reduce21Kernel();
const void* Reduce22Kernel();
const void* Reduce23Kernel();
const void* Reduce24Kernel();

// Lesson 25: one launch for the whole sum. `partials` holds max_grid floats, `counter` one
// unsigned that must be zero before the first launch (the kernel leaves it zero again).
void Reduce25(const float* in, uint64_t n, float* result, float* partials, unsigned* counter,
              int block, int grid, cudaStream_t stream);
const void* Reduce25Kernel();

// Lesson 26: CUB. Call with temp == nullptr to learn temp_bytes.
cudaError_t Reduce26Cub(void* temp, size_t& temp_bytes, const float* in, float* result, uint64_t n,
                        cudaStream_t stream);

}  // namespace lessons::reduce
