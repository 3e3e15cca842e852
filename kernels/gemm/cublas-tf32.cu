// cuBLAS with TF32 tensor cores, the library again.
// The same cublasSgemm call as cuBLAS SGEMM in fp32, with one change: the handle's math mode is
// CUBLAS_TF32_TENSOR_OP_MATH, which lets cuBLAS round A and B to TF32 (10-bit mantissa) and
// multiply on the tensor cores, accumulating in fp32. It is the target of the WMMA TF32 step.
#include "cublas_handle.cuh"
#include "gemm_gpu.cuh"

namespace lessons::gemm {

#if LESSONS_HAVE_CUBLAS

std::string GemmCublasAllowTf32(void* handle) {
    return CublasStatus(
        "cublasSetMathMode(CUBLAS_TF32_TENSOR_OP_MATH)",
        cublasSetMathMode(static_cast<cublasHandle_t>(handle), CUBLAS_TF32_TENSOR_OP_MATH));
}

#else

std::string GemmCublasAllowTf32(void*) {
    return GemmCublasUnavailable();
}

#endif

}  // namespace lessons::gemm
