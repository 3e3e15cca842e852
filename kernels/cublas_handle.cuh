// What the cuBLAS steps (gemv/cublas, gemm/cublas-sgemm, gemm/cublas-tf32) share: a handle on the
// harness's stream, status messages that name the call, and the reason when this build has no
// cuBLAS. The steps keep only their own call (and, for GEMM, the math mode).
#pragma once

#include <cuda_runtime.h>

#include <string>

#if LESSONS_HAVE_CUBLAS
#include <cublas_v2.h>
#endif

namespace lessons {

#if LESSONS_HAVE_CUBLAS

// "" when the call succeeded, else "<call> failed: <name> (<description>)".
inline std::string CublasStatus(const char* call, cublasStatus_t status) {
    if (status == CUBLAS_STATUS_SUCCESS) return {};
    return std::string(call) + " failed: " + cublasGetStatusName(status) + " (" +
           cublasGetStatusString(status) + ")";
}

inline std::string CublasUnavailable() {
    return {};
}

// A handle whose work goes to `stream`; on failure nothing is left behind.
inline std::string CublasCreate(cublasHandle_t* handle, cudaStream_t stream) {
    cublasHandle_t h = nullptr;
    std::string error = CublasStatus("cublasCreate", cublasCreate(&h));
    if (!error.empty()) return error;
    error = CublasStatus("cublasSetStream", cublasSetStream(h, stream));
    if (!error.empty()) {
        cublasDestroy(h);
        return error;
    }
    *handle = h;
    return {};
}

inline void CublasDestroy(void* handle) {
    if (handle) cublasDestroy(static_cast<cublasHandle_t>(handle));
}

#else

inline std::string CublasUnavailable() {
    return "this build has no cuBLAS (CMake found no CUDA::cublas in the CUDA toolkit)";
}

#endif

}  // namespace lessons
