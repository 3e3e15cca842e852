// cuBLAS bf16 GEMM, the library: the target of the chapter's hand-written steps, and the
// measurement of its bf16 tensor-core ceiling.
// cublasGemmEx with bf16 A, B and C and CUBLAS_COMPUTE_32F: products accumulated in fp32, C
// rounded to bf16 once, as the hand-written steps do. cuBLAS is column-major: our row-major A
// (m × k) reads as Aᵀ, and Bᵀ (n × k, row-major) reads as B itself (k × n), so the row-major
// C = A·B is the column-major Cᵀ (n × m) = op(B)ᵀ·Aᵀ: "TN", B transposed, A not.
#include "cublas_handle.cuh"
#include "tc_cublas.cuh"

namespace lessons::tc {

std::string TcCublasUnavailable() {
    return CublasUnavailable();
}

#if LESSONS_HAVE_CUBLAS

std::string TcCublasCreate(void** handle, cudaStream_t stream) {
    return CublasCreate(reinterpret_cast<cublasHandle_t*>(handle), stream);
}

std::string TcCublasRun(void* handle, const TcProblem& p) {
    const float alpha = 1.0f, beta = 0.0f;
    return CublasStatus(
        "cublasGemmEx",
        cublasGemmEx(static_cast<cublasHandle_t>(handle), CUBLAS_OP_T, CUBLAS_OP_N, p.n, p.m, p.k,
                     &alpha, p.bt, CUDA_R_16BF, p.ldb, p.a, CUDA_R_16BF, p.lda, &beta, p.c,
                     CUDA_R_16BF, p.ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

void TcCublasDestroy(void* handle) {
    CublasDestroy(handle);
}

#else

std::string TcCublasCreate(void**, cudaStream_t) {
    return TcCublasUnavailable();
}

std::string TcCublasRun(void*, const TcProblem&) {
    return TcCublasUnavailable();
}

void TcCublasDestroy(void*) {}

#endif

}  // namespace lessons::tc
