// The host calls of the multi-GPU steps queue work on every GPU's own stream and return the first
// CUDA error: LESSONS_CUDA_TRY(call) returns `call`'s error from the function it stands in, when
// it is one.
#pragma once

#include <cuda_runtime.h>

#define LESSONS_CUDA_TRY(call)                                          \
    do {                                                                \
        const cudaError_t lessons_cuda_err_ = (call);                   \
        if (lessons_cuda_err_ != cudaSuccess) return lessons_cuda_err_; \
    } while (0)
