// Chapter 7, all-reduce across GPUs: what each GPU holds and the steps' calls. Every GPU has
// an input vector `in` of n floats; afterwards its `out` holds the element-wise sum over all
// GPUs. Each call queues its work on every GPU's own stream, records the marks below, and
// returns the first CUDA error (lesson 47: NCCL's result).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

namespace lessons::allreduce {

#define ALLREDUCE_TRY(call)                                       \
    do {                                                          \
        const cudaError_t allreduce_err_ = (call);                \
        if (allreduce_err_ != cudaSuccess) return allreduce_err_; \
    } while (0)

struct AllreduceGpu {
    int device = 0;
    cudaStream_t stream = nullptr;
    const float* in = nullptr;
    float* out = nullptr;
    float* scratch = nullptr;  // lesson 45 (GPU 0: G - 1 vectors), lesson 46 without peer access
    // Marks on its stream: start, after the first phase, after the second, at the end.
    cudaEvent_t start, first, second, stop;
};

// out = sum of ins[0..count) element-wise, on `stream`'s GPU; any pointer may be a peer's.
constexpr int kMaxInputs = 16;
cudaError_t AddVectors(float* out, const float* const* ins, int count, uint64_t n, int block,
                       cudaStream_t stream);
// What AddVectors launches, for attribute queries.
extern const void* const kAddVectorsKernel;
extern const char* const kAddVectorsName;

// Lesson 44: down to the host, add there with OpenMP `threads`, back up. `host` holds one
// page-locked vector per GPU and one for the sum.
cudaError_t Allreduce44ThroughHost(std::vector<AllreduceGpu>& gpus, uint64_t n,
                                   const std::vector<float*>& host, int threads,
                                   double* host_add_ms);

// Lesson 45: every vector to GPU 0 (peer copies into its scratch), one add kernel there,
// the sum copied back out to every GPU.
cudaError_t Allreduce45ReduceBroadcast(std::vector<AllreduceGpu>& gpus, uint64_t n, int block);

// Lesson 46: a ring. `events` holds gpus.size() x 2 (gpus - 1) x pieces events; `direct`:
// peer access between neighbours (else chunks are staged through scratch, one piece large).
struct RingPlan {
    uint64_t pieces = 1;  // each GPU's chunk is cut into this many pieces
    std::vector<cudaEvent_t> events;
    bool direct = true;
    int block = 256;  // the add kernel's
};
cudaError_t Allreduce46Ring(std::vector<AllreduceGpu>& gpus, uint64_t n, const RingPlan& plan);

}  // namespace lessons::allreduce

// Lesson 47 (needs the NCCL loader's declarations): ncclAllReduce on every GPU in one group;
// returns NCCL's result. The caller waits for the streams.
#include "cuda/nccl_loader.h"
namespace lessons::allreduce {
nccl::Result Allreduce47Nccl(std::vector<AllreduceGpu>& gpus, uint64_t n, const nccl::Api& api,
                             const nccl::Comms& comms);
}  // namespace lessons::allreduce
