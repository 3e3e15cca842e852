// NVRTC, the CUDA toolkit's runtime compiler, loaded at run time (dlopen) as NCCL is: the
// program builds without it and every other command runs where it is missing. Where it looks,
// in order: the file named by CUDA_LESSONS_NVRTC (and only it), "libnvrtc.so.13" and
// "libnvrtc.so.12" through the loader's own search (LD_LIBRARY_PATH, ldconfig's cache), then
// the toolkit's lib folders (CUDA_HOME, CUDA_PATH, /usr/local/cuda). Only the calls the
// exercises make are declared, with NVRTC's stable C ABI, so building needs no nvrtc.h.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace lessons::nvrtc {

using Program = struct _nvrtcProgram*;
enum Result : int { kSuccess = 0, kCompilationError = 6 };

struct Api {
    const char* (*GetErrorString)(Result result);
    Result (*Version)(int* major, int* minor);
    Result (*CreateProgram)(Program* prog, const char* src, const char* name, int num_headers,
                            const char* const* headers, const char* const* include_names);
    Result (*DestroyProgram)(Program* prog);
    Result (*CompileProgram)(Program prog, int num_options, const char* const* options);
    Result (*GetPTXSize)(Program prog, size_t* size);
    Result (*GetPTX)(Program prog, char* ptx);
    Result (*GetCUBINSize)(Program prog, size_t* size);
    Result (*GetCUBIN)(Program prog, char* cubin);
    Result (*GetProgramLogSize)(Program prog, size_t* size);
    Result (*GetProgramLog)(Program prog, char* log);
    Result (*AddNameExpression)(Program prog, const char* name_expression);
    Result (*GetLoweredName)(Program prog, const char* name_expression, const char** lowered);
};

// The library, found and loaded on the first call (thread-safe); null when it is missing.
const Api* Load();

// Empty when Load() succeeded; else "NVRTC not found (tried ...)" with what to install.
const std::string& Unavailable();

// The file loaded and NVRTC's version ("/usr/local/cuda/lib64/libnvrtc.so.13, NVRTC 13.0"), or
// the reason it is unavailable.
std::string Describe();

// The file loaded (its real path), or empty when NVRTC is unavailable.
std::string LoadedPath();

// The places tried, in order (for the message and the tests).
std::vector<std::string> Candidates();

}  // namespace lessons::nvrtc
