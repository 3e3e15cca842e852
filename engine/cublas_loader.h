// cuBLAS, loaded at run time (dlopen) on its first call, as NCCL, NVRTC and cuDNN are: linked,
// libcublas and the libcublasLt it needs are mapped at every start (about 600 MB of address
// space), so `list`, `page` or a CPU step could not start under a small `ulimit -v`, and the
// program could not start at all without them. The library steps' kernel files call cuBLAS as
// usual (cublasCreate, cublasSgemm...): cublas_loader.cpp defines each call the project makes,
// loads the library on the first one and forwards. While it cannot be loaded, each call returns
// CUBLAS_STATUS_NOT_INITIALIZED and cublasGetStatusString says why (Unavailable()).
// Where it looks, in order: the file named by CUDA_LESSONS_CUBLAS (and only it),
// "libcublas.so.<major>" of the toolkit it was built with through the loader's own search
// (LD_LIBRARY_PATH, ldconfig's cache), then the toolkit's lib folders (CUDA_HOME, CUDA_PATH,
// the toolkit of the build, /usr/local/cuda).
#pragma once

#include <string>
#include <vector>

namespace lessons::cublas {

// Loads the library on the first call (thread-safe); false when it cannot be loaded, or when
// this build has no cuBLAS.
bool Load();

// Empty when Load() succeeded; else "cuBLAS could not be loaded (tried ...): install ..." with
// each place tried and the loader's reason, or why this build has no cuBLAS.
const std::string& Unavailable();

// The file loaded and cuBLAS's version ("/usr/local/cuda/lib64/libcublas.so.13, cuBLAS 13.1.0"),
// or the reason it is unavailable.
std::string Describe();

// The places tried, in order (for the message and the tests).
std::vector<std::string> Candidates();

}  // namespace lessons::cublas
