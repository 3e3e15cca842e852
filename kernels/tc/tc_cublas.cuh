// Chapter 8: cuBLAS's bf16 GEMM on the chapter's layout (kernels/tc/cublas-bf16.cu), for its
// library step and for the bf16 tensor-core ceiling. Each returns an empty string on success,
// else what failed (or why this build has no cuBLAS).
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "tc_gpu.cuh"

namespace lessons::tc {

std::string TcCublasUnavailable();
// A handle on `stream` (default math: bf16 inputs run on the tensor cores either way).
std::string TcCublasCreate(void** handle, cudaStream_t stream);
// C = A·B for `p` (its leading dimensions as given).
std::string TcCublasRun(void* handle, const TcProblem& p);
void TcCublasDestroy(void* handle);

}  // namespace lessons::tc
