// cublasSgemv, the library. cuBLAS stores matrices column-major: our row-major
// m × n matrix A is, read column-major, the n × m matrix A^T with leading dimension n. So
// y = A·x is asked for as "transpose that n × m matrix": CUBLAS_OP_T, rows n, columns m,
// lda n. cuBLAS picks its own kernel and launch for the shape and the GPU.
#include "cublas_handle.cuh"
#include "gemv_gpu.cuh"

namespace lessons::gemv {

std::string GemvCublasUnavailable() {
    return CublasUnavailable();
}

#if LESSONS_HAVE_CUBLAS

std::string GemvCublasCreate(void** handle, cudaStream_t stream) {
    return CublasCreate(reinterpret_cast<cublasHandle_t*>(handle), stream);
}

std::string GemvCublasRun(void* handle, const float* a, const float* x, float* y, int m, int n) {
    const float alpha = 1.0f, beta = 0.0f;
    return CublasStatus("cublasSgemv", cublasSgemv(static_cast<cublasHandle_t>(handle), CUBLAS_OP_T,
                                                   n, m, &alpha, a, n, x, 1, &beta, y, 1));
}

void GemvCublasDestroy(void* handle) {
    CublasDestroy(handle);
}

#else

std::string GemvCublasCreate(void**, cudaStream_t) {
    return GemvCublasUnavailable();
}

std::string GemvCublasRun(void*, const float*, const float*, float*, int, int) {
    return GemvCublasUnavailable();
}

void GemvCublasDestroy(void*) {}

#endif

}  // namespace lessons::gemv
