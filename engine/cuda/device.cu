// Device backend with the CUDA runtime: the device list with its peer-access matrix, the
// per-device ceilings (measured in ceilings.cu, cached here), free memory, the L2 flush, and the
// NCCL found at run time (NcclStatus, in nccl_probe.cpp).
#include <cuda_runtime.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "../device.h"
#include "../device_facts.h"
#include "../errors.h"
#include "ceilings.h"
#include "cuda_util.h"
#include "scoped_device.h"

namespace lessons {

namespace {

Message NoDeviceReason(cudaError_t err) {
    if (err == cudaSuccess) return Message::Of(kNoGpuFound);
    if (err == cudaErrorNoDevice) return Message::Of(kNoGpuFoundError, {cudaGetErrorName(err)});
    if (err == cudaErrorInsufficientDriver) return Message::Of(kNoDriver, {cudaGetErrorName(err)});
    return Message::Of(kCudaCannotStart, {cudaGetErrorString(err), cudaGetErrorName(err)});
}

Message TooOld(const cudaDeviceProp& prop) {
    return Message::Of(kTooOld,
                       {prop.name, std::to_string(prop.major) + "." + std::to_string(prop.minor)});
}

DeviceInfo Describe(const cudaDeviceProp& prop, int ordinal) {
    DeviceInfo i;
    i.ordinal = ordinal;
    i.name = prop.name;
    i.cc_major = prop.major;
    i.cc_minor = prop.minor;
    i.sm_count = prop.multiProcessorCount;
    i.total_memory = prop.totalGlobalMem;
    i.l2_bytes = static_cast<uint64_t>(prop.l2CacheSize);
    i.max_threads_per_block = prop.maxThreadsPerBlock;
    i.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
    // CUDA 13 removed the clock fields from cudaDeviceProp: read them as attributes.
    cudaDeviceGetAttribute(&i.clock_khz, cudaDevAttrClockRate, ordinal);
    cudaDeviceGetAttribute(&i.memory_clock_khz, cudaDevAttrMemoryClockRate, ordinal);
    cudaDeviceGetAttribute(&i.bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, ordinal);
    i.fp32_lanes_per_sm = Fp32LanesPerSm(i.cc_major, i.cc_minor);
    i.datasheet_gbps = DatasheetCeilings(i).datasheet_dram_gbps;
    char bus_id[64] = {};
    if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, ordinal) == cudaSuccess) {
        i.pci_bus_id = bus_id;
        const PcieLink link = ReadPcieLink(i.pci_bus_id);
        i.pcie_link_gtps = link.gtps;
        i.pcie_link_width = link.width;
        i.pcie_generation = PcieGeneration(link.gtps);
    }
    cudaDriverGetVersion(&i.driver_version);
    cudaRuntimeGetVersion(&i.runtime_version);
    cudaGetLastError();  // an attribute this device lacks must not be blamed on a later call
    return i;
}

// The list's entry for an ordinal; throws UsageError naming the valid ones.
const DeviceInfo& DeviceOrThrow(int ordinal) {
    const DeviceList& list = GetDevices();
    if (ordinal >= 0 && ordinal < list.count()) return list.devices[ordinal];
    if (!list.available())
        throw UsageError("there is no GPU " + std::to_string(ordinal) + ": " +
                         list.unavailable.text);
    throw UsageError("there is no GPU " + std::to_string(ordinal) + ": this machine has " +
                     std::to_string(list.count()) + " (0 to " + std::to_string(list.count() - 1) +
                     ")");
}

}  // namespace

const DeviceList& GetDevices() {
    static const DeviceList list = [] {
        DeviceList l;
        l.built_with_cuda = true;
        int count = 0;  // stays 0 when the call fails: no driver (35) or no device (100)
        const cudaError_t err = cudaGetDeviceCount(&count);
        if (err != cudaSuccess || count == 0) {
            cudaGetLastError();
            l.unavailable = NoDeviceReason(err);
            return l;
        }
        for (int d = 0; d < count; ++d) {
            cudaDeviceProp prop{};
            const cudaError_t perr = cudaGetDeviceProperties(&prop, d);
            Message why;
            if (perr != cudaSuccess) {
                cudaGetLastError();
                why = Message::Of(kNoProperties, {std::to_string(d), cudaGetErrorName(perr)});
            } else if (prop.major < 7 || (prop.major == 7 && prop.minor < 5)) {
                why = TooOld(prop);
            }
            if (!why.empty()) {
                // Ordinals stay CUDA's: the list ends at the first device it cannot use.
                for (int rest = d; rest < count; ++rest)
                    l.skipped.push_back("device " + std::to_string(rest) + ": " +
                                        (rest == d ? why.text : "after an unusable device") +
                                        " (CUDA_VISIBLE_DEVICES can hide it)");
                if (d == 0) l.unavailable = why;
                break;
            }
            l.devices.push_back(Describe(prop, d));
        }
        const int n = l.count();
        for (DeviceInfo& i : l.devices) {
            i.built_with_cuda = true;
            i.count = n;
            i.peer_access.assign(n, false);
            for (int j = 0; j < n; ++j) {
                int can = 0;
                if (j != i.ordinal && cudaDeviceCanAccessPeer(&can, i.ordinal, j) == cudaSuccess)
                    i.peer_access[j] = can != 0;
            }
        }
        cudaGetLastError();
        return l;
    }();
    return list;
}

const Ceilings& GetCeilings(int ordinal) {
    const DeviceList& list = GetDevices();
    if (!list.available() && ordinal == 0) {
        static const Ceilings none;
        return none;
    }
    DeviceOrThrow(ordinal);
    struct Slot {
        std::once_flag once;
        Ceilings ceilings;
    };
    static const std::unique_ptr<Slot[]> slots = std::make_unique<Slot[]>(list.devices.size());
    Slot& slot = slots[ordinal];
    // A measurement that throws leaves the flag unset: the next call measures again.
    std::call_once(slot.once, [&] { slot.ceilings = cuda::MeasureCeilings(list, ordinal); });
    return slot.ceilings;
}

MemoryCeilingsAt GetMemoryCeilingsAt(int ordinal, uint64_t bytes) {
    const Ceilings& c = GetCeilings(ordinal);
    const MemoryCeilingsAt standard{c.read_gbps, c.copy_gbps, c.memory_bytes};
    const DeviceList& list = GetDevices();
    if (!list.available() || c.memory_bytes == 0) return standard;
    const uint64_t at =
        MemoryCeilingFootprint(bytes, list.devices[size_t(ordinal)].l2_bytes, c.memory_bytes);
    if (at >= c.memory_bytes) return standard;
    static std::mutex mutex;
    static std::map<std::pair<int, uint64_t>, MemoryCeilingsAt> measured;
    std::lock_guard<std::mutex> lock(mutex);
    const auto key = std::make_pair(ordinal, at);
    if (auto it = measured.find(key); it != measured.end()) return it->second;
    try {
        return measured[key] = cuda::MeasureMemoryCeilings(list, ordinal, at);
    } catch (const UsageError&) {
        return standard;  // no room beside the step's own buffers: the standard footprint's
    }
}

DeviceMemory QueryDeviceMemory(int ordinal) {
    DeviceMemory m;
    if (!GetDevices().available() && ordinal == 0) return m;
    DeviceOrThrow(ordinal);
    cuda::ScopedDevice on(ordinal);
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

void FlushL2(int ordinal) {
    if (!GetDevices().available() && ordinal == 0) return;
    const DeviceInfo& info = DeviceOrThrow(ordinal);
    struct Scratch {
        cuda::DeviceBuffer<unsigned int> buffer;  // kept for the life of the process
        unsigned int value = 0;
    };
    static std::mutex mutex;
    static std::vector<Scratch> scratch(GetDevices().devices.size());
    std::lock_guard<std::mutex> lock(mutex);
    cuda::ScopedDevice on(ordinal);
    Scratch& s = scratch[ordinal];
    const size_t count = std::max<size_t>(info.l2_bytes * 2 / sizeof(unsigned int), 1 << 20);
    if (s.buffer.size() < count) s.buffer = cuda::DeviceBuffer<unsigned int>(count, "the L2 flush");
    flush_l2_kernel<<<info.sm_count * 4, 512>>>(s.buffer.get(), count, ++s.value);
    LESSONS_CUDA_CHECK_LAUNCH("flush_l2_kernel");
    LESSONS_CUDA_CHECK(cudaDeviceSynchronize());
}

bool BuiltWithCuda() {
    return true;
}

const DeviceInfo& GetDeviceInfo() {
    static const DeviceInfo info = [] {
        const DeviceList& list = GetDevices();
        if (list.available()) return list.devices.front();
        DeviceInfo i;
        i.built_with_cuda = true;
        i.unavailable = list.unavailable;
        return i;
    }();
    return info;
}

double MeasuredCopyGbps() {
    return GetCeilings(0).copy_gbps;
}

}  // namespace lessons
