// Chapter 3, reduction: the GPU steps' kernels (device code only). Each kernel file registers,
// beside its kernel, what the harness needs to launch it and to query it (LESSONS_KERNELS). A
// step with ablation toggles (reduce_toggles.h) registers one compiled variant per combination
// of their values, each carrying the values it implements.
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <cstddef>
#include <cstdint>

#include "kernel_family.h"
#include "reduce_toggles.h"

namespace lessons::reduce {

// A multi-pass step (v0 to v4): one pass reduces in[0, n) to partial sums in out and sets
// *written to how many it wrote; the harness repeats passes until one value is left.
// `max_grid` caps the grid of the steps that loop over their data (v3 and v4).
struct ReducePassKernel {
    const char* name;    // the __global__ function's name
    const void* kernel;  // its address, for attribute queries
    cudaError_t (*pass)(float* in, uint64_t n, float* out, int block, int max_grid,
                        cudaStream_t stream, uint64_t* written);
    size_t (*dynamic_smem)(int block);   // dynamic shared memory of a block
    bool in_place;                       // it overwrites `in` (v0)
    std::array<ToggleValue, 2> toggles;  // the toggle values this variant implements
};

size_t NoDynamicSmem(int block);
size_t FloatPerThreadSmem(int block);  // block * sizeof(float)

// The one-pass step (v5): one launch for the whole sum. `partials` holds `grid` floats,
// `counter` one unsigned that must be zero before the first launch (the kernel leaves it zero
// again). With passes=two, `launch` queues a second launch of one block that adds the block
// sums; `name` and `kernel` are the first, which reads the data.
struct OnePassKernel {
    const char* name;
    const void* kernel;
    cudaError_t (*launch)(const float* in, uint64_t n, float* result, float* partials,
                          unsigned* counter, int block, int grid, cudaStream_t stream);
    std::array<ToggleValue, 2> toggles;  // the toggle values this variant implements
};

// CUB's DeviceReduce::Sum. Call with temp == nullptr to learn temp_bytes.
struct CubSum {
    cudaError_t (*sum)(void* temp, size_t& temp_bytes, const float* in, float* result, uint64_t n,
                       cudaStream_t stream);
};

}  // namespace lessons::reduce
