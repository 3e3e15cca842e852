// CUDA helpers for engine and lesson code (.cu files only; the GUI never sees this header).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>

#include "../lesson.h"

#define LESSONS_CUDA_CHECK(call) ::lessons::cuda::Check((call), #call, __FILE__, __LINE__)
// After a kernel launch: reports launch-configuration errors at once.
#define LESSONS_CUDA_CHECK_LAUNCH(what) \
    ::lessons::cuda::Check(cudaGetLastError(), what, __FILE__, __LINE__)

namespace lessons::cuda {

// Errors after which the context is unusable until the process ends.
bool IsSticky(cudaError_t error);

// Throws CudaError with file, line, the call and cudaGetErrorString when error != cudaSuccess.
void Check(cudaError_t error, const char* call, const char* file, int line);

// cudaMalloc that turns "out of memory" into a UsageError naming the sizes (and clears the
// error so the next check is not blamed).
// While guard zones are on (guard_zones.h) the buffer gets its zones, and FreeDevice checks
// them; a buffer from MallocDevice is freed with FreeDevice.
void* MallocDevice(size_t bytes, const char* what);
void FreeDevice(void* ptr);  // errors are not reported (it runs in destructors)
void* MallocPinned(size_t bytes, const char* what);

void FreePinned(void* ptr);  // cudaFreeHost; errors are not reported

// An array of `count` T owned by this object: allocated by Alloc (with `what` naming it in the
// error), freed by Free when the object goes; movable, not copyable.
template <typename T, void* (*Alloc)(size_t, const char*), void (*Free)(void*)>
class OwnedBuffer {
public:
    OwnedBuffer() = default;
    OwnedBuffer(size_t count, const char* what)
        : m_ptr(static_cast<T*>(Alloc(count * sizeof(T), what))), m_count(count) {}
    ~OwnedBuffer() { Reset(); }
    OwnedBuffer(OwnedBuffer&& o) noexcept
        : m_ptr(std::exchange(o.m_ptr, nullptr)), m_count(std::exchange(o.m_count, 0)) {}
    OwnedBuffer& operator=(OwnedBuffer&& o) noexcept {
        if (this != &o) {
            Reset();
            m_ptr = std::exchange(o.m_ptr, nullptr);
            m_count = std::exchange(o.m_count, 0);
        }
        return *this;
    }
    OwnedBuffer(const OwnedBuffer&) = delete;
    OwnedBuffer& operator=(const OwnedBuffer&) = delete;
    // Takes ownership of `count` T at `ptr`, allocated as Alloc does.
    static OwnedBuffer Adopt(T* ptr, size_t count) {
        OwnedBuffer b;
        b.m_ptr = ptr;
        b.m_count = count;
        return b;
    }

    T* get() const { return m_ptr; }
    size_t size() const { return m_count; }
    size_t bytes() const { return m_count * sizeof(T); }

private:
    void Reset() {
        if (m_ptr) Free(m_ptr);  // errors here cannot be reported from a destructor
        m_ptr = nullptr;
        m_count = 0;
    }
    T* m_ptr = nullptr;
    size_t m_count = 0;
};

// Device memory (MallocDevice, FreeDevice).
template <typename T>
using DeviceBuffer = OwnedBuffer<T, &MallocDevice, &FreeDevice>;

// Page-locked host memory (cudaMallocHost; Adopt takes memory from cudaMallocHost).
template <typename T>
using PinnedBuffer = OwnedBuffer<T, &MallocPinned, &FreePinned>;

class Event {
public:
    Event();
    ~Event();
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    void Record(cudaStream_t stream);
    cudaEvent_t get() const { return m_event; }

private:
    cudaEvent_t m_event = nullptr;
};

// Milliseconds between two recorded events (waits for the second).
double ElapsedMs(const Event& start, const Event& stop);

class Stream {
public:
    Stream();
    ~Stream();
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    cudaStream_t get() const { return m_stream; }
    void Synchronize();

private:
    cudaStream_t m_stream = nullptr;
};

// Holds a stream until the timed work behind it is queued. Without it, a timed region starts
// when its first event reaches an idle GPU, and the time the host then spends queuing the work
// (a library's own host code, a launch) is counted as the step's: tens of microseconds for a
// cuBLAS call, several percent of a short kernel. The hold is a one-thread kernel that waits for
// a flag in mapped host memory; Release() (or the destructor) sets it once the stop event is
// queued, so the events time only what the GPU did. A hold the host does not release within
// kHoldLimitMs (a call that waited for the stream itself) lets go by itself: the region is then
// timed as without it, never hung. Use it only around work queued without the host waiting
// for the stream (pinned or device copies, launches, library calls).
class StreamHold {
public:
    static constexpr double kHoldLimitMs = 200.0;
    explicit StreamHold(cudaStream_t stream);
    ~StreamHold();
    StreamHold(const StreamHold&) = delete;
    StreamHold& operator=(const StreamHold&) = delete;
    void Release();

private:
    unsigned m_slot = 0;
    unsigned m_token = 0;
    bool m_held = false;
};

// How many launches of a step's work one timed sample holds. A kernel alone on an idle GPU also
// pays for its own start on the GPU's side (its grid set up, its parameters and tensor maps
// fetched, its cluster placed): a kernel queued behind another hides that, as in a program's
// loop or PyTorch's timing of back-to-back calls, and a profiler's kernel time leaves it out
// (several percent of a 0.2 ms tensor-core GEMM on an H200). A kernel shorter than
// kBatchTargetMs is therefore launched back to back within one sample, and the sample is their
// mean: ceil(kBatchTargetMs / one_launch_ms), at most kMaxBatch; 1 when the run is timed with a
// cold L2 (ColdL2Timing), where every launch must find the L2 flushed, and under a tool
// (CUDA_LESSONS_TIMING_HOLD=0: ncu, the sanitizer), which sees each launch.
constexpr double kBatchTargetMs = 1.0;
constexpr int kMaxBatch = 16;
int BatchFor(double one_launch_ms);

// How many holds of this process let go by themselves (their host never released them in time).
unsigned long long StreamHoldTimeouts();
// Whether timed regions are held (false under CUDA_LESSONS_TIMING_HOLD=0: ncu, the sanitizer).
bool HoldWanted();

// Resource use of a kernel at a block size; `func` is the __global__ function's address.
KernelAttributes QueryKernelAttributes(const void* func, const char* name, int block,
                                       size_t dynamic_smem = 0);

// Checks a block size and its dynamic shared memory against the kernel's own limits; throws
// UsageError naming the limit.
void CheckBlockAgainstKernel(const void* func, const char* name, int block,
                             size_t dynamic_smem = 0);

// Throws UsageError when the GPU is unusable here, naming the reason.
void RequireDevice();

}  // namespace lessons::cuda
