// Lesson 31: cublasSgemv, the library. cuBLAS stores matrices column-major: our row-major
// m × n matrix A is, read column-major, the n × m matrix A^T with leading dimension n. So
// y = A·x is asked for as "transpose that n × m matrix": CUBLAS_OP_T, rows n, columns m,
// lda n. cuBLAS picks its own kernel and launch for the shape and the GPU.
#include "gemv_gpu.cuh"

#if LESSONS_HAVE_CUBLAS
#include <cublas_v2.h>
#endif

namespace lessons::gemv {

#if LESSONS_HAVE_CUBLAS

namespace {

std::string Status(const char* call, cublasStatus_t status) {
    if (status == CUBLAS_STATUS_SUCCESS) return {};
    return std::string(call) + " failed: " + cublasGetStatusName(status) + " (" +
           cublasGetStatusString(status) + ")";
}

}  // namespace

std::string Gemv31Unavailable() {
    return {};
}

std::string Gemv31Create(void** handle, cudaStream_t stream) {
    cublasHandle_t h = nullptr;
    std::string error = Status("cublasCreate", cublasCreate(&h));
    if (!error.empty()) return error;
    error = Status("cublasSetStream", cublasSetStream(h, stream));
    if (!error.empty()) {
        cublasDestroy(h);
        return error;
    }
    *handle = h;
    return {};
}

std::string Gemv31Run(void* handle, const float* a, const float* x, float* y, int m, int n) {
    const float alpha = 1.0f, beta = 0.0f;
    return Status("cublasSgemv", cublasSgemv(static_cast<cublasHandle_t>(handle), CUBLAS_OP_T, n, m,
                                             &alpha, a, n, x, 1, &beta, y, 1));
}

void Gemv31Destroy(void* handle) {
    if (handle) cublasDestroy(static_cast<cublasHandle_t>(handle));
}

#else

std::string Gemv31Unavailable() {
    return "this build has no cuBLAS (CMake found no CUDA::cublas in the CUDA toolkit)";
}

std::string Gemv31Create(void**, cudaStream_t) {
    return Gemv31Unavailable();
}

std::string Gemv31Run(void*, const float*, const float*, float*, int, int) {
    return Gemv31Unavailable();
}

void Gemv31Destroy(void*) {}

#endif

}  // namespace lessons::gemv
