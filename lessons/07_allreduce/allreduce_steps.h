// Chapter 7's step kinds: what a row of its table says about how the step runs, one kind per
// plan. Data only (the catalogue compiles without CUDA); allreduce_harness.cu implements each
// where the GPU is linked.
#pragma once

namespace lessons::allreduce {

// Down to page-locked host memory, added by the host's threads, back up: no kernel of its own
// (the runtime's copies and the host's threads), so no block size.
struct ThroughHost {
    static constexpr bool kLibrary = true;
};

// Every vector to GPU 0 by peer copies, the add kernel its source registers, the sum copied
// back out.
struct PeerCopies {};

// Reduce-scatter, then all-gather, round a ring, with the previous lesson's add kernel.
struct Ring {};

// NCCL's ncclAllReduce.
struct Nccl {
    static constexpr bool kLibrary = true;
};

// One process per GPU, started by the step (the ranks), each calling NCCL for its own GPU: the
// rank's calls are its source's (NcclRankCall).
struct ProcessPerGpu {
    static constexpr bool kLibrary = true;
};

// The same ranks and calls (the process-per-GPU lesson's, its `previous`), with the NCCL settings
// its own source adds (RankSettings): the network path, an algorithm.
struct ProcessPerGpuWith {
    static constexpr bool kLibrary = true;
};

}  // namespace lessons::allreduce
