// Chapter 3 on several GPUs (lesson 27): one share of the floats per GPU, summed there by
// lesson 25's kernel; NCCL adds the GPUs' sums.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "cuda/nccl_loader.h"
#include "reduce_gpu.cuh"

namespace lessons::reduce {

struct ReduceGpu {
    int device = 0;
    cudaStream_t stream = nullptr;
    const float* in = nullptr;  // its share
    uint64_t count = 0;
    float* sum = nullptr;       // one float: its share's sum, then (after NCCL) the total
    float* partials = nullptr;  // lesson 25's block sums (grid floats)
    unsigned* counter = nullptr;
    int grid = 1;
    cudaEvent_t start, summed, stop;
};

// Launches lesson 25's kernel on every GPU's share.
cudaError_t Reduce27SumShares(std::vector<ReduceGpu>& gpus, const OnePassKernel& kernel, int block);
// ncclAllReduce of the GPUs' sums, in one group. The caller waits for the streams.
nccl::Result Reduce27Combine(std::vector<ReduceGpu>& gpus, const nccl::Api& api,
                             const nccl::Comms& comms);

}  // namespace lessons::reduce
