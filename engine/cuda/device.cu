// Device backend with the CUDA runtime: device 0's properties, the measured copy ceiling and
// the L2 flush.
#include <cuda_runtime.h>

#include <algorithm>
#include <mutex>
#include <vector>

#include "../device.h"
#include "cuda_util.h"

namespace lessons {

const DeviceInfo& GetDeviceInfo() {
    static const DeviceInfo info = [] {
        DeviceInfo i;
        i.built_with_cuda = true;
        int count = 0;  // stays 0 when the call fails: no driver (35) or no device (100)
        const cudaError_t err = cudaGetDeviceCount(&count);
        if (err != cudaSuccess || count == 0) {
            cudaGetLastError();
            i.count = 0;
            if (err == cudaSuccess || err == cudaErrorNoDevice)
                i.unavailable_reason = "no NVIDIA GPU found";
            else if (err == cudaErrorInsufficientDriver)
                i.unavailable_reason = "no NVIDIA driver, or one too old for CUDA 13";
            else
                i.unavailable_reason = std::string("CUDA cannot start: ") + cudaGetErrorString(err);
            if (err != cudaSuccess)
                i.unavailable_reason += std::string(" (") + cudaGetErrorName(err) + ")";
            return i;
        }
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
            cudaGetLastError();
            i.unavailable_reason = "cudaGetDeviceProperties failed for device 0";
            return i;
        }
        if (prop.major < 7 || (prop.major == 7 && prop.minor < 5)) {
            i.unavailable_reason = std::string(prop.name) + " has compute capability " +
                                   std::to_string(prop.major) + "." + std::to_string(prop.minor) +
                                   "; CUDA Lessons needs 7.5 or newer";
            return i;
        }
        i.count = count;
        i.name = prop.name;
        i.cc_major = prop.major;
        i.cc_minor = prop.minor;
        i.sm_count = prop.multiProcessorCount;
        i.total_memory = prop.totalGlobalMem;
        i.l2_bytes = static_cast<uint64_t>(prop.l2CacheSize);
        i.max_threads_per_block = prop.maxThreadsPerBlock;
        i.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
        // CUDA 13 removed the clock fields from cudaDeviceProp: read them as attributes.
        cudaDeviceGetAttribute(&i.memory_clock_khz, cudaDevAttrMemoryClockRate, 0);
        cudaDeviceGetAttribute(&i.bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, 0);
        i.datasheet_gbps = 2.0 * i.memory_clock_khz * 1e3 * (i.bus_width_bits / 8.0) / 1e9;
        cudaDriverGetVersion(&i.driver_version);
        cudaRuntimeGetVersion(&i.runtime_version);
        cudaGetLastError();
        return i;
    }();
    return info;
}

double MeasuredCopyGbps() {
    static std::once_flag once;
    static double gbps = 0;
    std::call_once(once, [] {
        if (!GetDeviceInfo().available()) return;
        size_t free_bytes = 0, total_bytes = 0;
        LESSONS_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
        // 1 GiB each way where memory allows, never less than 64 MiB.
        size_t bytes = size_t(1) << 30;
        while (bytes > (size_t(64) << 20) && 2 * bytes + (size_t(256) << 20) > free_bytes)
            bytes /= 2;
        cuda::DeviceBuffer<char> src(bytes, "the copy-bandwidth probe");
        cuda::DeviceBuffer<char> dst(bytes, "the copy-bandwidth probe");
        cuda::Stream stream;
        LESSONS_CUDA_CHECK(cudaMemsetAsync(src.get(), 1, bytes, stream.get()));
        cuda::Event start, stop;
        std::vector<double> samples;
        for (int rep = 0; rep < 13; ++rep) {
            start.Record(stream.get());
            LESSONS_CUDA_CHECK(cudaMemcpyAsync(dst.get(), src.get(), bytes,
                                               cudaMemcpyDeviceToDevice, stream.get()));
            stop.Record(stream.get());
            const double ms = cuda::ElapsedMs(start, stop);
            if (rep >= 3) samples.push_back(ms);  // the first three are warm-up
        }
        std::sort(samples.begin(), samples.end());
        const double median_ms = samples[samples.size() / 2];
        gbps = 2.0 * double(bytes) / (median_ms * 1e6);
    });
    return gbps;
}

DeviceMemory QueryDeviceMemory() {
    DeviceMemory m;
    if (!GetDeviceInfo().available()) return m;
    size_t free_bytes = 0, total_bytes = 0;
    LESSONS_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
    m.free_bytes = free_bytes;
    m.total_bytes = total_bytes;
    return m;
}

namespace {

__global__ void flush_l2_kernel(unsigned int* data, size_t count, unsigned int value) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
         i += size_t(gridDim.x) * blockDim.x)
        data[i] = value + static_cast<unsigned int>(i);
}

}  // namespace

void FlushL2() {
    const DeviceInfo& info = GetDeviceInfo();
    if (!info.available()) return;
    static cuda::DeviceBuffer<unsigned int> scratch;  // kept for the life of the process
    static unsigned int value = 0;
    const size_t count = std::max<size_t>(info.l2_bytes * 2 / sizeof(unsigned int), 1 << 20);
    if (scratch.size() < count) scratch = cuda::DeviceBuffer<unsigned int>(count, "the L2 flush");
    flush_l2_kernel<<<info.sm_count * 4, 512>>>(scratch.get(), count, ++value);
    LESSONS_CUDA_CHECK_LAUNCH("flush_l2_kernel");
    LESSONS_CUDA_CHECK(cudaDeviceSynchronize());
}

bool BuiltWithCuda() {
    return true;
}

}  // namespace lessons
