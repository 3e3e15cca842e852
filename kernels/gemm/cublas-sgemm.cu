// cuBLAS SGEMM, the library, in plain fp32.
// cuBLAS picks a kernel tuned by NVIDIA for this GPU and shape: the target of the chapter's
// fp32 kernels. Its math mode is set explicitly to CUBLAS_DEFAULT_MATH, which keeps SGEMM on the
// fp32 FMA units (TF32 tensor cores are the cuBLAS TF32 step's). cuBLAS is column-major: our
// row-major C = A·B is, read column-major, C^T = B^T·A^T, so we pass B first, with n as the
// "rows" (ld n, k, n).
#include "cublas_handle.cuh"
#include "gemm_gpu.cuh"

namespace lessons::gemm {

std::string GemmCublasUnavailable() {
    return CublasUnavailable();
}

#if LESSONS_HAVE_CUBLAS

std::string GemmCublasCreate(void** handle, cudaStream_t stream) {
    cublasHandle_t* const h = reinterpret_cast<cublasHandle_t*>(handle);
    std::string error = CublasCreate(h, stream);
    if (!error.empty()) return error;
    error = CublasStatus("cublasSetMathMode", cublasSetMathMode(*h, CUBLAS_DEFAULT_MATH));
    if (!error.empty()) {
        CublasDestroy(*handle);
        *handle = nullptr;
    }
    return error;
}

std::string GemmCublasRun(void* handle, int m, int n, int k, const float* a, const float* b,
                          float* c) {
    const float alpha = 1.0f, beta = 0.0f;
    // Column-major C^T (n × m) = B^T (n × k, ld n) · A^T (k × m, ld k).
    return CublasStatus(
        "cublasSgemm", cublasSgemm(static_cast<cublasHandle_t>(handle), CUBLAS_OP_N, CUBLAS_OP_N, n,
                                   m, k, &alpha, b, n, a, k, &beta, c, n));
}

void GemmCublasDestroy(void* handle) {
    CublasDestroy(handle);
}

#else

std::string GemmCublasCreate(void**, cudaStream_t) {
    return GemmCublasUnavailable();
}

std::string GemmCublasRun(void*, int, int, int, const float*, const float*, float*) {
    return GemmCublasUnavailable();
}

void GemmCublasDestroy(void*) {}

#endif

}  // namespace lessons::gemm
