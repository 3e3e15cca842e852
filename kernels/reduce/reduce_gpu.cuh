// Chapter 3, reduction: the GPU steps' kernels (device code only). Each kernel file exports,
// beside its kernel, what the harness needs to launch it and to query it.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "reduce_toggles.h"

namespace lessons::reduce {

// A multi-pass step (lessons 20-24): one pass reduces in[0, n) to partial sums in out and
// sets *written to how many it wrote; the harness repeats passes until one value is left.
// `max_grid` caps the grid of the steps that loop over their data (lessons 23 and 24).
struct ReducePassKernel {
    const char* name;    // the __global__ function's name
    const void* kernel;  // its address, for attribute queries
    cudaError_t (*pass)(float* in, uint64_t n, float* out, int block, int max_grid,
                        cudaStream_t stream, uint64_t* written);
    size_t (*dynamic_smem)(int block);  // dynamic shared memory of a block
    bool in_place;                      // it overwrites `in` (lesson 20)
};

size_t NoDynamicSmem(int block);
size_t FloatPerThreadSmem(int block);  // block * sizeof(float)

// Lessons 21, 23 and 25 have ablation toggles (reduce_toggles.h): one compiled kernel per
// combination, indexed by the toggles' enums; index 0 of each is the lesson as written.
extern const ReducePassKernel kReduce20;                           // interleaved, in global memory
extern const ReducePassKernel kReduce21[kAddressingNames.size()];  // shared memory
extern const ReducePassKernel kReduce22;                           // add during load
// Sequential addressing, unrolled last warp: [accumulate][last_warp].
extern const ReducePassKernel kReduce23[kAccumulateNames.size()][kLastWarpNames.size()];
extern const ReducePassKernel kReduce24;  // warp shuffle

// Lesson 25: one launch for the whole sum. `partials` holds `grid` floats, `counter` one
// unsigned that must be zero before the first launch (the kernel leaves it zero again).
// With passes=two, `launch` queues a second launch of one block that adds the block sums;
// `name` and `kernel` are the first, which reads the data.
struct OnePassKernel {
    const char* name;
    const void* kernel;
    cudaError_t (*launch)(const float* in, uint64_t n, float* result, float* partials,
                          unsigned* counter, int block, int grid, cudaStream_t stream);
};
extern const OnePassKernel kReduce25[kLoadsNames.size()][kPassesNames.size()];  // [loads][passes]

// Lesson 26: CUB. Call with temp == nullptr to learn temp_bytes.
cudaError_t Reduce26Cub(void* temp, size_t& temp_bytes, const float* in, float* result, uint64_t n,
                        cudaStream_t stream);

}  // namespace lessons::reduce
