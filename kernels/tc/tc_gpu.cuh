// Chapter 8, tensor cores on Hopper: the GPU steps' kernels (device code only). C = A·B with A
// and B in bf16, fp32 accumulation, C rounded once to bf16 when it is stored. Layout ("TN", the
// one tensor cores read fastest, both operands K-major): A is m × k row-major, B is given as Bᵀ,
// n × k row-major (each column of B contiguous), C is m × n row-major. Leading dimensions are
// multiples of 8 elements (16 bytes: what TMA and cp.async need); the harness pads with zeros.
// Each kernel file registers one descriptor per compiled configuration (LESSONS_KERNELS).
#pragma once

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstddef>

#include "kernel_family.h"
#include "tc_tiles.h"

namespace lessons::tc {

struct TcProblem {
    int m = 0, n = 0, k = 0;  // any of them ≥ 1
    const __nv_bfloat16* a = nullptr;
    int lda = 0;  // ≥ k, a multiple of 8
    const __nv_bfloat16* bt = nullptr;
    int ldb = 0;  // ≥ k, a multiple of 8 (Bᵀ's row stride)
    __nv_bfloat16* c = nullptr;
    int ldc = 0;  // ≥ n, a multiple of 8
};

// Launches C = A·B on `stream` and returns the launch's error (or an error of the set-up it
// needs, e.g. a tensor map the driver refused).
using TcLaunch = cudaError_t (*)(const TcProblem& p, cudaStream_t stream);

// One compiled kernel: a configuration of a step.
struct TcKernel {
    TcTile tile;
    const char* name;     // the __global__ function's name
    const void* kernel;   // its address, for attribute queries
    size_t dynamic_smem;  // dynamic shared memory per block (bytes)
    TcLaunch launch;
    int min_cc;  // the lowest compute capability (major * 10 + minor) that runs it: 80 or 90
};

}  // namespace lessons::tc
