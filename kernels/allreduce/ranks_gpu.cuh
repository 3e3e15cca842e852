// Chapter 7's multi-process steps: what each rank (one process per GPU) calls, registered by the
// step files (LESSONS_KERNELS) and run by lessons/07_allreduce/ranks_harness.cu.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernel_family.h"
#include "nccl/nccl_ranks.h"

namespace lessons::allreduce {

// What each rank runs (the process-per-GPU step; the later steps of the chapter run the same
// calls with other NCCL settings). Each returns NCCL's result or, for a CUDA call that failed,
// nccl::Result(1) with the CUDA error in *cuda.
struct NcclRankCall {
    // Rank 0 only: a new communicator id (its bootstrap's address), for every rank to join.
    nccl::Result (*make_id)(const nccl::RankApi& api, nccl::UniqueId* id);
    // Every rank, on its own GPU (already current): joins the communicator of `ranks` ranks as
    // rank `rank`; returns when all have joined.
    nccl::Result (*join)(const nccl::RankApi& api, const nccl::UniqueId& id, int ranks, int rank,
                         nccl::Comm* comm);
    // `times` all-reduces of n floats, one after another on `stream`, between the events.
    nccl::Result (*all_reduce)(const nccl::Api& api, nccl::Comm comm, const float* in, float* out,
                               uint64_t n, cudaStream_t stream, cudaEvent_t start, cudaEvent_t stop,
                               int times, cudaError_t* cuda);
};

// The NCCL settings a later step gives every rank (NAME=VALUE), from the step's `algo` choice
// ("nccl", "ring", "tree"); `remote`: some ranks run on other hosts (no loopback then).
struct RankSettings {
    void (*add)(const std::string& algo, bool remote, std::vector<std::string>& env);
};

}  // namespace lessons::allreduce
