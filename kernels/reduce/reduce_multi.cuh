// Chapter 3 on several GPUs: one share of the floats per GPU, summed there by the one-pass
// kernel (v5, as written); NCCL adds the GPUs' sums.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "nccl/nccl_loader.h"
#include "reduce_gpu.cuh"

namespace lessons::reduce {

struct ReduceGpu {
    int device = 0;
    cudaStream_t stream = nullptr;
    const float* in = nullptr;  // its share
    uint64_t count = 0;
    float* sum = nullptr;       // one float: its share's sum, then (after NCCL) the total
    float* partials = nullptr;  // the one-pass kernel's block sums (grid floats)
    unsigned* counter = nullptr;
    int grid = 1;
    cudaEvent_t start, summed, stop;
};

// The multi-GPU step's two phases.
struct MultiGpuSum {
    // Launches `kernel` on every GPU's share, all at once.
    cudaError_t (*sum_shares)(std::vector<ReduceGpu>& gpus, const OnePassKernel& kernel, int block);
    // ncclAllReduce of the GPUs' sums, in one group. The caller waits for the streams.
    nccl::Result (*combine)(std::vector<ReduceGpu>& gpus, const nccl::Api& api,
                            const nccl::Comms& comms);
};

}  // namespace lessons::reduce
