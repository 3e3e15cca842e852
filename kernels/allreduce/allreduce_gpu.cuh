// Chapter 7, all-reduce across GPUs: what each GPU holds and what each step's file registers
// (LESSONS_KERNELS). Every GPU has an input vector `in` of n floats; afterwards its `out` holds
// the element-wise sum over all GPUs. Each call queues its work on every GPU's own stream,
// records the marks below, and returns the first CUDA error (NCCL's call: NCCL's result).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "cuda_try.h"
#include "kernel_family.h"
#include "nccl/nccl_loader.h"

namespace lessons::allreduce {

struct AllreduceGpu {
    int device = 0;
    cudaStream_t stream = nullptr;
    const float* in = nullptr;
    float* out = nullptr;
    float* scratch = nullptr;  // peer copies: GPU 0's G - 1 vectors; the ring without peer access
    // Marks on its stream: start, after the first phase, after the second, at the end.
    cudaEvent_t start, first, second, stop;
};

constexpr int kMaxInputs = 16;

// The add kernel (registered by the peer-copies step, launched by the ring too): out = sum of
// ins[0..count) element-wise, on `stream`'s GPU; any pointer may be a peer's.
struct AddKernel {
    const char* name;    // the __global__ function's name
    const void* kernel;  // its address, for attribute queries
    cudaError_t (*launch)(float* out, const float* const* ins, int count, uint64_t n, int block,
                          cudaStream_t stream);
};

// Down to the host, add there with OpenMP `threads`, back up. `host` holds one page-locked
// vector per GPU and one for the sum.
struct ThroughHostCall {
    cudaError_t (*run)(std::vector<AllreduceGpu>& gpus, uint64_t n, const std::vector<float*>& host,
                       int threads, double* host_add_ms);
};

// Every vector to GPU 0 (peer copies into its scratch), one add kernel there, the sum copied
// back out to every GPU.
struct PeerCopiesCall {
    cudaError_t (*run)(std::vector<AllreduceGpu>& gpus, uint64_t n, int block);
};

// A ring. `events` holds gpus.size() x 2 (gpus - 1) x pieces events; `direct`: peer access
// between neighbours (else chunks are staged through scratch, one piece large).
struct RingPlan {
    uint64_t pieces = 1;  // each GPU's chunk is cut into this many pieces
    std::vector<cudaEvent_t> events;
    bool direct = true;
    const AddKernel* add = nullptr;
    int block = 256;  // the add kernel's
};
struct RingCall {
    cudaError_t (*run)(std::vector<AllreduceGpu>& gpus, uint64_t n, const RingPlan& plan);
};

// ncclAllReduce on every GPU in one group; returns NCCL's result. The caller waits for the
// streams.
struct NcclCall {
    nccl::Result (*run)(std::vector<AllreduceGpu>& gpus, uint64_t n, const nccl::Api& api,
                        const nccl::Comms& comms);
};

}  // namespace lessons::allreduce
