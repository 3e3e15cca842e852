// NCCL, loaded at run time (dlopen): many CUDA installs have no NCCL, and the program must
// start, and run every other lesson, without it. Where it looks, in order: the file named by
// CUDA_LESSONS_NCCL, "libnccl.so.2" through the loader's own search (LD_LIBRARY_PATH,
// ldconfig's cache), then the toolkit's lib folders (CUDA_HOME, /usr/local/cuda). Only the few
// calls the lessons make are declared here, with NCCL's stable ABI values, so that building
// needs no nccl.h, nor any CUDA header (a stream is the runtime's cudaStream_t, a
// struct CUstream_st*). The multi-GPU steps' kernel files and harnesses call it; the engine
// reports what it found (NcclStatus).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace lessons::nccl {

using Comm = struct ncclComm*;
using Stream = struct CUstream_st*;  // cudaStream_t
enum Result : int { kSuccess = 0 };
enum DataType : int { kFloat32 = 7 };  // ncclFloat32
enum RedOp : int { kSum = 0 };         // ncclSum

struct Api {
    Result (*CommInitAll)(Comm* comms, int ndev, const int* devlist);
    Result (*CommDestroy)(Comm comm);
    Result (*AllReduce)(const void* send, void* recv, size_t count, DataType type, RedOp op,
                        Comm comm, Stream stream);
    Result (*GroupStart)();
    Result (*GroupEnd)();
    const char* (*GetErrorString)(Result result);
    Result (*GetVersion)(int* version);
};

// The library, found and loaded on the first call (thread-safe); null when it is missing.
// Sets NCCL_NVLS_ENABLE=0 first unless the user set it: NVLink multicast is not needed here,
// and on shared GPU hosts it can take the GPUs out of service.
const Api* Load();

// Empty when Load() succeeded; else "unavailable: NCCL not found (...)" with what to install
// and where the program looked.
const std::string& Unavailable();
// The file loaded and NCCL's version ("/usr/local/cuda/lib64/libnccl.so.2, NCCL 2.27.7"),
// or the reason it is unavailable.
std::string Describe();

// The places tried, in order (for the message and the tests).
std::vector<std::string> Candidates();

// Throws std::runtime_error naming the call when result != kSuccess.
void Check(Result result, const char* call);

// One communicator per GPU of `devices`, made together (ncclCommInitAll) and destroyed
// together. Throws std::runtime_error when NCCL is missing (check Load() first, to say so as
// the caller reports a missing library).
class Comms {
public:
    explicit Comms(const std::vector<int>& devices);
    ~Comms();
    Comms(const Comms&) = delete;
    Comms& operator=(const Comms&) = delete;
    Comm operator[](size_t i) const { return m_comms[i]; }

private:
    std::vector<Comm> m_comms;
};

}  // namespace lessons::nccl
