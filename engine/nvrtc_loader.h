// NVRTC, the CUDA toolkit's runtime compiler, loaded at run time (dlopen) as NCCL is: the
// program builds without it and every other command runs where it is missing. Where it looks,
// in order: the file named by CUDA_LESSONS_NVRTC (and only it), "libnvrtc.so.13" and
// "libnvrtc.so.12" through the loader's own search (LD_LIBRARY_PATH, ldconfig's cache), then
// the toolkit's lib folders (CUDA_HOME, CUDA_PATH, /usr/local/cuda). Only the calls the
// exercises make are declared, with NVRTC's stable C ABI, so building needs no nvrtc.h.
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

namespace lessons::nvrtc {

using Program = struct _nvrtcProgram*;
enum Result : int { kSuccess = 0, kCompilationError = 6 };

// Each call the exercises make, named once: its name after "nvrtc" and its type.
#define LESSONS_NVRTC_CALLS(X)                                                                 \
    X(GetErrorString, const char*(Result result))                                              \
    X(Version, Result(int* major, int* minor))                                                 \
    X(CreateProgram, Result(Program* prog, const char* src, const char* name, int num_headers, \
                            const char* const* headers, const char* const* include_names))     \
    X(DestroyProgram, Result(Program* prog))                                                   \
    X(CompileProgram, Result(Program prog, int num_options, const char* const* options))       \
    X(GetPTXSize, Result(Program prog, size_t* size))                                          \
    X(GetPTX, Result(Program prog, char* ptx))                                                 \
    X(GetCUBINSize, Result(Program prog, size_t* size))                                        \
    X(GetCUBIN, Result(Program prog, char* cubin))                                             \
    X(GetProgramLogSize, Result(Program prog, size_t* size))                                   \
    X(GetProgramLog, Result(Program prog, char* log))                                          \
    X(AddNameExpression, Result(Program prog, const char* name_expression))                    \
    X(GetLoweredName, Result(Program prog, const char* name_expression, const char** lowered))

// The calls, bound: api->CompileProgram(...).
struct Api {
#define LESSONS_NVRTC_FIELD(name, ...) std::add_pointer_t<__VA_ARGS__> name = nullptr;
    LESSONS_NVRTC_CALLS(LESSONS_NVRTC_FIELD)
#undef LESSONS_NVRTC_FIELD
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
