// Chapter 1 on several GPUs (its last three steps): what each GPU holds and the steps' calls. The
// text is cut into shares (engine/shares.h); GPU i takes share i. Each call queues its work on
// every GPU's own stream, records the timing marks below, and returns the first CUDA error.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "cuda_try.h"
#include "split_cpu.h"
#include "split_gpu.cuh"

namespace lessons::split {

struct SplitGpu {
    int device = 0;
    cudaStream_t stream = nullptr;
    uint64_t begin = 0, end = 0;  // its share of the text
    // Scatter-gather and OpenMP-per-GPU: GPU 0 holds the whole text (zero-padded for the
    // kernel), the others their share. Each-scans-its-share: every GPU its share, the byte
    // after it, zero padding.
    char* buf = nullptr;
    unsigned long long* out = nullptr;         // offsets found (gathering: GPU 0's only)
    unsigned long long* count = nullptr;       // their counter
    unsigned long long* host_count = nullptr;  // pinned, one value
    // Marks on its stream: before its copy in, after it, after its share reached GPU 0 (or,
    // on GPU 0, after every share did), after the scan, after the copy out.
    cudaEvent_t start, copied, moved, scanned, done;
};

struct SplitMulti {
    const char* host = nullptr;  // the text, page-locked
    uint64_t n = 0;
    SplitRangeLaunch scan = nullptr;       // the kernel each scanning GPU launches
    int block = 256;                       // its block size
    std::vector<SplitGpu> gpus;            // gpus[0] scans when the shares are gathered
    unsigned long long* result = nullptr;  // host, SplitCapacity(n) values
};

// Each returns the number of offsets written to m.result (SplitCapacity(n) + 1 when a GPU
// reported more than can exist, so that the check says so).
cudaError_t SplitScatterGather(SplitMulti& m, uint64_t* found);
cudaError_t SplitOpenMPPerGpu(SplitMulti& m, uint64_t* found);
cudaError_t SplitEachScansItsShare(SplitMulti& m, uint64_t* found);

// The gathering steps' last part on GPU 0: scan the gathered text, bring the offsets back.
cudaError_t SplitScanGathered(SplitMulti& m, uint64_t* found);

}  // namespace lessons::split
