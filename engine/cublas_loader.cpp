#include "cublas_loader.h"

#include <dlfcn.h>
#include <sys/resource.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "dl_open.h"

#if LESSONS_HAVE_CUBLAS
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#endif

namespace lessons::cublas {

#if LESSONS_HAVE_CUBLAS

namespace {

// The soname of the cuBLAS this program was compiled against: its calls' ABI is that major's.
const std::string kSoname = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);

// The calls the project makes (nm -u over the kernel objects), each named once: its field, its
// symbol and the type of the headers they were compiled against. cublasGemmEx has a C++
// overload too: its type is spelled out.
using GemmExFn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                    int, const void*, const void*, cudaDataType, int, const void*,
                                    cudaDataType, int, const void*, void*, cudaDataType, int,
                                    cublasComputeType_t, cublasGemmAlgo_t);
using GemmStridedBatchedExFn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t,
                                                  cublasOperation_t, int, int, int, const void*,
                                                  const void*, cudaDataType, int, long long,
                                                  const void*, cudaDataType, int, long long,
                                                  const void*, void*, cudaDataType, int, long long,
                                                  int, cublasComputeType_t, cublasGemmAlgo_t);
#define LESSONS_CUBLAS_CALLS(X)                                                   \
    X(Create, cublasCreate_v2, decltype(&::cublasCreate_v2))                      \
    X(Destroy, cublasDestroy_v2, decltype(&::cublasDestroy_v2))                   \
    X(SetStream, cublasSetStream_v2, decltype(&::cublasSetStream_v2))             \
    X(SetMathMode, cublasSetMathMode, decltype(&::cublasSetMathMode))             \
    X(Sgemv, cublasSgemv_v2, decltype(&::cublasSgemv_v2))                         \
    X(Sgemm, cublasSgemm_v2, decltype(&::cublasSgemm_v2))                         \
    X(GemmEx, cublasGemmEx, GemmExFn)                                             \
    X(GemmStridedBatchedEx, cublasGemmStridedBatchedEx, GemmStridedBatchedExFn)   \
    X(GetStatusName, cublasGetStatusName, decltype(&::cublasGetStatusName))       \
    X(GetStatusString, cublasGetStatusString, decltype(&::cublasGetStatusString)) \
    X(GetProperty, cublasGetProperty, decltype(&::cublasGetProperty))

struct Api {
#define LESSONS_CUBLAS_FIELD(field, symbol, type) type field = nullptr;
    LESSONS_CUBLAS_CALLS(LESSONS_CUBLAS_FIELD)
#undef LESSONS_CUBLAS_FIELD
};

using Loaded = dl::Loaded<Api>;

bool BindAll(void* handle, Api& a) {
#define LESSONS_CUBLAS_BIND(field, symbol, type) dl::Bind(handle, #symbol, a.field)&&
    return LESSONS_CUBLAS_CALLS(LESSONS_CUBLAS_BIND) true;
#undef LESSONS_CUBLAS_BIND
}

// The address-space limit (ulimit -v) in MiB, or 0 when there is none.
unsigned long long AddressSpaceLimitMib() {
    rlimit limit{};
    if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 0;
    return static_cast<unsigned long long>(limit.rlim_cur) >> 20;
}

std::string InstallAdvice() {
    const int major = CUBLAS_VER_MAJOR;
    const std::string apt = "libcublas-" + std::to_string(CUDART_VERSION / 1000) + "-" +
                            std::to_string(CUDART_VERSION % 1000 / 10);
    const std::string pip =
        major >= 13 ? "nvidia-cublas" : "nvidia-cublas-cu" + std::to_string(major);
    return "install cuBLAS " + std::to_string(major) + " (Debian/Ubuntu: the " + apt +
           " package from NVIDIA's CUDA repository, or pip's " + pip +
           ") or set CUDA_LESSONS_CUBLAS=/path/to/" + kSoname;
}

const Loaded& State() {
    static const Loaded loaded = [] {
        Loaded l;
        std::string tried;
        bool mapping_failed = false;
        // Found, but too big to map: so are its copies.
        const auto stop = [&mapping_failed](const std::string& reason) {
            mapping_failed = mapping_failed || reason.find("map") != std::string::npos ||
                             reason.find("memory") != std::string::npos;
            return mapping_failed;
        };
        dl::OpenFirst(Candidates(), "lacks a cuBLAS call", BindAll, stop, l, tried);
        if (l.ok) return l;
        l.why = "cuBLAS could not be loaded (tried " + tried + "): ";
        const unsigned long long limit = AddressSpaceLimitMib();
        if (mapping_failed && limit > 0)
            l.why += "this process may map at most " + std::to_string(limit) +
                     " MiB (ulimit -v), too little for cuBLAS and its cuBLASLt, which are mapped "
                     "whole: raise or remove the limit";
        else
            l.why += InstallAdvice();
        return l;
    }();
    return loaded;
}

const Api* LoadedApi() {
    const Loaded& l = State();
    return l.ok ? &l.api : nullptr;
}

}  // namespace

std::vector<std::string> Candidates() {
#ifdef LESSONS_CUDA_LIBRARY_DIR
    const std::string built_with = LESSONS_CUDA_LIBRARY_DIR;
#else
    const std::string built_with;
#endif
    return dl::Candidates("CUDA_LESSONS_CUBLAS", {kSoname.c_str()}, built_with);
}

bool Load() {
    return State().ok;
}

const std::string& Unavailable() {
    return State().why;
}

std::string Describe() {
    const Loaded& l = State();
    if (!l.ok) return l.why;
    int major = 0, minor = 0, patch = 0;
    l.api.GetProperty(MAJOR_VERSION, &major);
    l.api.GetProperty(MINOR_VERSION, &minor);
    l.api.GetProperty(PATCH_LEVEL, &patch);
    return l.path + ", cuBLAS " + std::to_string(major) + "." + std::to_string(minor) + "." +
           std::to_string(patch);
}

}  // namespace lessons::cublas

// The cuBLAS calls of the library steps (kernels/gemv/31_cublas.cu,
// kernels/gemm/40_cublas_sgemm.cu, kernels/gemm/42_cublas_tf32.cu, kernels/tc/cublas_bf16.cu,
// kernels/attention/unfused.cu, kernels/cublas_handle.cuh), one definition each: the library is
// loaded on the first and each forwards to it. A kernel file that calls another cuBLAS function
// fails to link ("undefined reference to cublas..."): add its definition here, and its row to
// LESSONS_CUBLAS_CALLS. They are linked into the program and not exported (the program is not
// linked with -rdynamic), so the library's own calls to these names stay inside it.
using lessons::cublas::LoadedApi;

extern "C" {

cublasStatus_t cublasCreate_v2(cublasHandle_t* handle) {
    const auto* api = LoadedApi();
    return api ? api->Create(handle) : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) {
    const auto* api = LoadedApi();
    return api ? api->Destroy(handle) : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t stream) {
    const auto* api = LoadedApi();
    return api ? api->SetStream(handle, stream) : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode) {
    const auto* api = LoadedApi();
    return api ? api->SetMathMode(handle, mode) : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t cublasSgemv_v2(cublasHandle_t handle, cublasOperation_t trans, int m, int n,
                              const float* alpha, const float* a, int lda, const float* x, int incx,
                              const float* beta, float* y, int incy) {
    const auto* api = LoadedApi();
    return api ? api->Sgemv(handle, trans, m, n, alpha, a, lda, x, incx, beta, y, incy)
               : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
                              cublasOperation_t transb, int m, int n, int k, const float* alpha,
                              const float* a, int lda, const float* b, int ldb, const float* beta,
                              float* c, int ldc) {
    const auto* api = LoadedApi();
    return api ? api->Sgemm(handle, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
               : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa,
                            cublasOperation_t transb, int m, int n, int k, const void* alpha,
                            const void* a, cudaDataType a_type, int lda, const void* b,
                            cudaDataType b_type, int ldb, const void* beta, void* c,
                            cudaDataType c_type, int ldc, cublasComputeType_t compute_type,
                            cublasGemmAlgo_t algo) {
    const auto* api = LoadedApi();
    return api ? api->GemmEx(handle, transa, transb, m, n, k, alpha, a, a_type, lda, b, b_type, ldb,
                             beta, c, c_type, ldc, compute_type, algo)
               : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa,
                                          cublasOperation_t transb, int m, int n, int k,
                                          const void* alpha, const void* a, cudaDataType a_type,
                                          int lda, long long stride_a, const void* b,
                                          cudaDataType b_type, int ldb, long long stride_b,
                                          const void* beta, void* c, cudaDataType c_type, int ldc,
                                          long long stride_c, int batch_count,
                                          cublasComputeType_t compute_type, cublasGemmAlgo_t algo) {
    const auto* api = LoadedApi();
    return api ? api->GemmStridedBatchedEx(handle, transa, transb, m, n, k, alpha, a, a_type, lda,
                                           stride_a, b, b_type, ldb, stride_b, beta, c, c_type, ldc,
                                           stride_c, batch_count, compute_type, algo)
               : CUBLAS_STATUS_NOT_INITIALIZED;
}

// Without the library: the status's name from this table, and for the status every call then
// returns, the reason it could not be loaded.
const char* cublasGetStatusName(cublasStatus_t status) {
    if (const auto* api = LoadedApi()) return api->GetStatusName(status);
    switch (status) {
        case CUBLAS_STATUS_SUCCESS:
            return "CUBLAS_STATUS_SUCCESS";
        case CUBLAS_STATUS_NOT_INITIALIZED:
            return "CUBLAS_STATUS_NOT_INITIALIZED";
        default:
            return "CUBLAS_STATUS_UNKNOWN";
    }
}

const char* cublasGetStatusString(cublasStatus_t status) {
    if (const auto* api = LoadedApi()) return api->GetStatusString(status);
    if (status == CUBLAS_STATUS_NOT_INITIALIZED) return lessons::cublas::Unavailable().c_str();
    return status == CUBLAS_STATUS_SUCCESS ? "success" : "unknown cuBLAS status";
}

}  // extern "C"

#else  // this build has no cuBLAS: the library steps say so themselves (kernels/cublas_handle.cuh)

std::vector<std::string> Candidates() {
    return {};
}

bool Load() {
    return false;
}

const std::string& Unavailable() {
    static const std::string why =
        "this build has no cuBLAS (CMake found no CUDA::cublas in the CUDA toolkit)";
    return why;
}

std::string Describe() {
    return Unavailable();
}

}  // namespace lessons::cublas

#endif
