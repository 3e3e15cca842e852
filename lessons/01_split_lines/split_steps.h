// Chapter 1's step kinds: what a row of its table says about how the step runs. Data only (the
// catalogue compiles without CUDA); split_harness.cu and split_multi_harness.cu implement each
// where the GPU is linked.
#pragma once

#include <vector>

#include "kernels_of.h"
#include "params.h"
#include "work.h"

namespace lessons::split {

// Copy the text in, scan it with a kernel of kernels/split/ (at the row's block size), copy
// the offsets out; each part timed.
// The arguments a step's scan kernel takes, in order (a student's kernel for its exercise is
// compiled for and launched with the same).
enum class ScanArgs {
    kPadded,          // (buf, out, count): the buffer zero-padded, no length
    kWithN,           // (buf, n, out, count)
    kWithOffsetBase,  // (buf, out, count, offset_base): offsets start at offset_base
};

struct Kernel {
    bool pinned = false;              // the host text in page-locked memory
    bool measure_allocation = false;  // report what pinned and pageable allocations cost
    // The kernel of its own source, or the previous lesson's (a step that changes only the
    // host side).
    KernelsFrom from = KernelsFrom::kOwnSource;
    ScanArgs args = ScanArgs::kPadded;
};

// thrust::copy_if over a counting iterator, from pinned memory.
struct Thrust {
    static constexpr bool kLibrary = true;
};

// The previous lesson's kernel, as it is by default, over chunks on several streams: the copy
// of one chunk overlaps the scan of another. Only the whole is timed, held to the host-to-device
// copy.
struct OverlappedChunks {
    WorkFn Work() const;
};

// How the multi-GPU steps share the text out.
enum class Plan {
    kGatherToFirst,  // each GPU copies its share in, sends it to GPU 0, which scans it all
    kOpenMPGather,   // the same, one OpenMP host thread driving each GPU
    kEachScans,      // each GPU scans its own share; only offsets come back
};

// The text cut into one share per GPU (`gpus`), scanned as `plan` says by the kernel that
// `kernels` (a kernel file) registers, as it is by default.
struct MultiGpu {
    Plan plan = Plan::kGatherToFirst;
    const char* kernels = "";
    std::vector<ParamSpec> Params() const { return {GpusParam()}; }
    // Held to the host-to-device links added up, over the whole time; the gathering plans also
    // move every share but GPU 0's between GPUs.
    WorkFn Work() const;
};

}  // namespace lessons::split
