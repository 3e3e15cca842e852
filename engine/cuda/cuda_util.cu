#include "cuda_util.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <vector>

#include "../device.h"
#include "../errors.h"
#include "../guard_zones.h"
#include "../units.h"

namespace lessons::cuda {

bool IsSticky(cudaError_t error) {
    switch (error) {
        case cudaErrorIllegalAddress:
        case cudaErrorLaunchTimeout:
        case cudaErrorAssert:
        case cudaErrorHardwareStackError:
        case cudaErrorIllegalInstruction:
        case cudaErrorMisalignedAddress:
        case cudaErrorInvalidAddressSpace:
        case cudaErrorInvalidPc:
        case cudaErrorLaunchFailure:
        case cudaErrorECCUncorrectable:
        case cudaErrorContextIsDestroyed:
            return true;
        default:
            return false;
    }
}

void Check(cudaError_t error, const char* call, const char* file, int line) {
    if (error == cudaSuccess) return;
    std::ostringstream msg;
    msg << file << ":" << line << ": " << call << " failed: " << cudaGetErrorName(error) << " ("
        << cudaGetErrorString(error) << ")";
    const bool sticky = IsSticky(error);
    if (sticky)
        msg << "; the CUDA context is lost, the process must be restarted";
    else
        cudaGetLastError();  // clear a non-sticky error so the next check is not blamed
    throw CudaError(msg.str(), sticky);
}

namespace {

[[noreturn]] void ThrowOutOfMemory(size_t bytes, const char* what, bool pinned) {
    cudaGetLastError();  // clear the allocation failure
    std::string msg = std::string("not enough ") + (pinned ? "page-locked host" : "device") +
                      " memory for " + what + ": " + FormatSize(bytes) + " requested";
    if (!pinned) {
        size_t free_bytes = 0, total_bytes = 0;
        if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess)
            msg += ", " + FormatSize(free_bytes) + " free of " + FormatSize(total_bytes);
    }
    throw UsageError(msg + "; choose a smaller size");
}

}  // namespace

namespace {

// The guarded buffers now allocated: the pointer handed out -> its size and name.
struct Guarded {
    size_t bytes = 0;
    std::string what;
};
std::mutex g_guarded_mutex;
std::map<void*, Guarded> g_guarded;

// The pattern of a zone, made once.
const std::vector<uint8_t>& GuardPattern() {
    static const std::vector<uint8_t> pattern = [] {
        std::vector<uint8_t> p(kGuardBytes);
        FillGuard(p.data(), p.size());
        return p;
    }();
    return pattern;
}

}  // namespace

void* MallocDevice(size_t bytes, const char* what) {
    const bool guarded = GuardZonesOn();
    const size_t total = guarded ? kGuardLead + bytes + kGuardBytes : (bytes ? bytes : 1);
    void* ptr = nullptr;
    const cudaError_t err = cudaMalloc(&ptr, total);
    if (err == cudaErrorMemoryAllocation) ThrowOutOfMemory(bytes, what, false);
    Check(err, "cudaMalloc", __FILE__, __LINE__);
    if (!guarded) return ptr;
    uint8_t* user = static_cast<uint8_t*>(ptr) + kGuardLead;
    const std::vector<uint8_t>& pattern = GuardPattern();
    const cudaError_t fill1 =
        cudaMemcpy(user - kGuardBytes, pattern.data(), kGuardBytes, cudaMemcpyHostToDevice);
    const cudaError_t fill2 =
        cudaMemcpy(user + bytes, pattern.data(), kGuardBytes, cudaMemcpyHostToDevice);
    if (fill1 != cudaSuccess || fill2 != cudaSuccess) {
        cudaFree(ptr);
        Check(fill1 != cudaSuccess ? fill1 : fill2, "cudaMemcpy (guard zones)", __FILE__, __LINE__);
    }
    const std::lock_guard<std::mutex> lock(g_guarded_mutex);
    g_guarded[user] = Guarded{bytes, what ? what : "a buffer"};
    return user;
}

void FreeDevice(void* ptr) {
    if (!ptr) return;
    std::optional<Guarded> guarded;
    {
        const std::lock_guard<std::mutex> lock(g_guarded_mutex);
        const auto it = g_guarded.find(ptr);
        if (it != g_guarded.end()) {
            guarded = std::move(it->second);
            g_guarded.erase(it);
        }
    }
    if (!guarded) {
        cudaFree(ptr);
        return;
    }
    uint8_t* user = static_cast<uint8_t*>(ptr);
    // Every kernel that could write it has finished: the copies wait for the device (a lost
    // context makes them fail, and then nothing is said about the zones).
    std::vector<uint8_t> before(kGuardBytes), after(kGuardBytes);
    if (cudaDeviceSynchronize() == cudaSuccess &&
        cudaMemcpy(before.data(), user - kGuardBytes, kGuardBytes, cudaMemcpyDeviceToHost) ==
            cudaSuccess &&
        cudaMemcpy(after.data(), user + guarded->bytes, kGuardBytes, cudaMemcpyDeviceToHost) ==
            cudaSuccess) {
        const std::optional<GuardHit> hit_before = CheckGuard(before.data(), before.size());
        const std::optional<GuardHit> hit_after = CheckGuard(after.data(), after.size());
        if (hit_before || hit_after)
            ReportGuardDamage(
                {guarded->what,
                 GuardDamageText(guarded->what, guarded->bytes, hit_before, hit_after),
                 GuardDamageTextZh(guarded->what, guarded->bytes, hit_before, hit_after)});
    } else {
        cudaGetLastError();
    }
    cudaFree(user - kGuardLead);
}

void* MallocPinned(size_t bytes, const char* what) {
    void* ptr = nullptr;
    const cudaError_t err = cudaMallocHost(&ptr, bytes ? bytes : 1);
    if (err == cudaErrorMemoryAllocation) ThrowOutOfMemory(bytes, what, true);
    Check(err, "cudaMallocHost", __FILE__, __LINE__);
    return ptr;
}

void FreePinned(void* ptr) {
    if (ptr) cudaFreeHost(ptr);
}

namespace {

// The flags the holds wait on: mapped page-locked host memory, one slot per hold in flight
// (a hold waits for its own token, so slots are never cleared), and a count of the holds that
// let go by themselves. Allocated once; without page-locked memory there is no hold.
constexpr unsigned kHoldSlots = 256;
struct HoldFlags {
    volatile unsigned* slots = nullptr;
    volatile unsigned long long* timeouts = nullptr;
};

const HoldFlags& Flags() {
    static const HoldFlags flags = [] {
        HoldFlags f;
        void* p = nullptr;
        const size_t bytes = kHoldSlots * sizeof(unsigned) + sizeof(unsigned long long);
        if (cudaHostAlloc(&p, bytes, cudaHostAllocMapped | cudaHostAllocPortable) != cudaSuccess) {
            cudaGetLastError();
            return f;
        }
        std::memset(p, 0, bytes);
        f.slots = static_cast<volatile unsigned*>(p);
        f.timeouts = reinterpret_cast<volatile unsigned long long*>(static_cast<char*>(p) +
                                                                    kHoldSlots * sizeof(unsigned));
        return f;
    }();
    return flags;
}

std::atomic<unsigned> g_hold_tokens{0};

__device__ unsigned long long GlobalTimerNs() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void hold_kernel(const volatile unsigned* slot, unsigned token,
                            unsigned long long limit_ns, volatile unsigned long long* timeouts) {
    const unsigned long long start = GlobalTimerNs();
    while (*slot != token) {
        if (GlobalTimerNs() - start > limit_ns) {
            *timeouts = *timeouts + 1;
            return;
        }
#if __CUDA_ARCH__ >= 700
        __nanosleep(256);
#endif
    }
}

}  // namespace

// CUDA_LESSONS_TIMING_HOLD=0 turns the hold off: `profile` sets it for the program it runs under
// ncu, which runs each kernel alone with the host waiting (a hold would only wait its limit out
// and be profiled as a kernel of the step); the sanitizer runs of scripts/gpu-check.sh too.
bool HoldWanted() {
    static const bool wanted = [] {
        const char* v = std::getenv("CUDA_LESSONS_TIMING_HOLD");
        return !(v && std::strcmp(v, "0") == 0);
    }();
    return wanted;
}

StreamHold::StreamHold(cudaStream_t stream) {
    if (!HoldWanted()) return;
    const HoldFlags& f = Flags();
    if (!f.slots) return;
    m_token = g_hold_tokens.fetch_add(1, std::memory_order_relaxed) + 1;
    if (m_token == 0) m_token = g_hold_tokens.fetch_add(1, std::memory_order_relaxed) + 1;
    m_slot = m_token % kHoldSlots;
    unsigned* slot_dev = nullptr;
    unsigned long long* timeouts_dev = nullptr;
    if (cudaHostGetDevicePointer(reinterpret_cast<void**>(&slot_dev),
                                 const_cast<unsigned*>(f.slots + m_slot), 0) != cudaSuccess ||
        cudaHostGetDevicePointer(reinterpret_cast<void**>(&timeouts_dev),
                                 const_cast<unsigned long long*>(f.timeouts), 0) != cudaSuccess) {
        cudaGetLastError();  // this device cannot see the flags: time without a hold
        return;
    }
    hold_kernel<<<1, 1, 0, stream>>>(
        slot_dev, m_token, static_cast<unsigned long long>(kHoldLimitMs * 1e6), timeouts_dev);
    LESSONS_CUDA_CHECK_LAUNCH("the timing hold (hold_kernel)");
    m_held = true;
}

void StreamHold::Release() {
    if (!m_held) return;
    m_held = false;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    Flags().slots[m_slot] = m_token;
}

StreamHold::~StreamHold() {
    Release();
}

int BatchFor(double one_launch_ms) {
    // Under a tool (no hold: ncu, the sanitizer) each launch is the tool's to see: one.
    if (ColdL2Timing() || !HoldWanted() || !(one_launch_ms > 0)) return 1;
    const double n = std::ceil(kBatchTargetMs / one_launch_ms);
    return n >= kMaxBatch ? kMaxBatch : std::max(1, static_cast<int>(n));
}

unsigned long long StreamHoldTimeouts() {
    const HoldFlags& f = Flags();
    return f.timeouts ? *f.timeouts : 0;
}

Event::Event() {
    LESSONS_CUDA_CHECK(cudaEventCreate(&m_event));
}
Event::~Event() {
    if (m_event) cudaEventDestroy(m_event);
}
void Event::Record(cudaStream_t stream) {
    LESSONS_CUDA_CHECK(cudaEventRecord(m_event, stream));
}

double ElapsedMs(const Event& start, const Event& stop) {
    LESSONS_CUDA_CHECK(cudaEventSynchronize(stop.get()));
    float ms = 0;
    LESSONS_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
    return ms;
}

Stream::Stream() {
    LESSONS_CUDA_CHECK(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking));
}
Stream::~Stream() {
    if (m_stream) cudaStreamDestroy(m_stream);
}
void Stream::Synchronize() {
    LESSONS_CUDA_CHECK(cudaStreamSynchronize(m_stream));
}

KernelAttributes QueryKernelAttributes(const void* func, const char* name, int block,
                                       size_t dynamic_smem) {
    RequireDevice();
    cudaFuncAttributes attr{};
    LESSONS_CUDA_CHECK(cudaFuncGetAttributes(&attr, func));
    KernelAttributes out;
    out.kernel = name;
    out.registers = attr.numRegs;
    out.static_smem_bytes = static_cast<int>(attr.sharedSizeBytes);
    out.dynamic_smem_bytes = static_cast<int>(dynamic_smem);
    out.max_threads_per_block = attr.maxThreadsPerBlock;
    if (block > 0 && block <= attr.maxThreadsPerBlock) {
        int blocks = 0;
        LESSONS_CUDA_CHECK(
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, func, block, dynamic_smem));
        out.active_blocks_per_sm = blocks;
        const int max_threads = GetDeviceInfo().max_threads_per_sm;
        if (max_threads > 0) out.occupancy = double(blocks) * block / max_threads;
    }
    return out;
}

void CheckBlockAgainstKernel(const void* func, const char* name, int block, size_t dynamic_smem) {
    cudaFuncAttributes attr{};
    LESSONS_CUDA_CHECK(cudaFuncGetAttributes(&attr, func));
    if (block > attr.maxThreadsPerBlock)
        throw UsageError("block size " + std::to_string(block) + " is too large for " + name +
                         ": with its " + std::to_string(attr.numRegs) +
                         " registers per thread it can take at most " +
                         std::to_string(attr.maxThreadsPerBlock) + " threads per block");
    if (dynamic_smem > size_t(attr.maxDynamicSharedSizeBytes))
        throw UsageError("block size " + std::to_string(block) + " needs " +
                         std::to_string(dynamic_smem) + " B of dynamic shared memory in " + name +
                         ", more than the " + std::to_string(attr.maxDynamicSharedSizeBytes) +
                         " B a block of it may take; use a smaller block");
}

void RequireDevice() {
    const DeviceInfo& info = GetDeviceInfo();
    if (!info.available()) throw UsageError("no usable GPU: " + info.unavailable.text);
}

}  // namespace lessons::cuda
