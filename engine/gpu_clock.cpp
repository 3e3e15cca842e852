#include "gpu_clock.h"

#include <dlfcn.h>

#include <algorithm>
#include <map>
#include <mutex>

namespace lessons {

namespace {

// NVML's C interface, as far as this file calls it (nvml.h: stable since driver 340).
using NvmlDevice = struct NvmlDeviceOpaque*;
constexpr int kNvmlSuccess = 0;
constexpr int kNvmlClockSm = 1;

struct Nvml {
    int (*init)() = nullptr;
    int (*by_bus_id)(const char*, NvmlDevice*) = nullptr;
    int (*clock)(NvmlDevice, int, unsigned*) = nullptr;
    int (*max_clock)(NvmlDevice, int, unsigned*) = nullptr;
    int (*reasons)(NvmlDevice, unsigned long long*) = nullptr;
    bool ready = false;
    std::map<std::string, NvmlDevice> devices;
};

template <class F>
F Symbol(void* library, const char* name) {
    return reinterpret_cast<F>(dlsym(library, name));
}

// Opened once, on the first reading, and kept: the driver's own library, by its soname only
// (no path from the environment is tried).
Nvml& Library() {
    static Nvml nvml;
    static std::once_flag once;
    std::call_once(once, [] {
        void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!library) return;
        nvml.init = Symbol<int (*)()>(library, "nvmlInit_v2");
        nvml.by_bus_id =
            Symbol<int (*)(const char*, NvmlDevice*)>(library, "nvmlDeviceGetHandleByPciBusId_v2");
        nvml.clock = Symbol<int (*)(NvmlDevice, int, unsigned*)>(library, "nvmlDeviceGetClockInfo");
        nvml.max_clock =
            Symbol<int (*)(NvmlDevice, int, unsigned*)>(library, "nvmlDeviceGetMaxClockInfo");
        nvml.reasons = Symbol<int (*)(NvmlDevice, unsigned long long*)>(
            library, "nvmlDeviceGetCurrentClocksEventReasons");
        if (!nvml.reasons)  // its name before driver 535
            nvml.reasons = Symbol<int (*)(NvmlDevice, unsigned long long*)>(
                library, "nvmlDeviceGetCurrentClocksThrottleReasons");
        nvml.ready = nvml.init && nvml.by_bus_id && nvml.clock && nvml.init() == kNvmlSuccess;
    });
    return nvml;
}

}  // namespace

std::optional<GpuClockReading> ReadGpuClock(const std::string& pci_bus_id) {
    if (pci_bus_id.empty() || pci_bus_id.size() > 64) return std::nullopt;
    static std::mutex mutex;
    const std::lock_guard<std::mutex> lock(mutex);
    Nvml& nvml = Library();
    if (!nvml.ready) return std::nullopt;
    auto found = nvml.devices.find(pci_bus_id);
    if (found == nvml.devices.end()) {
        NvmlDevice device = nullptr;
        if (nvml.by_bus_id(pci_bus_id.c_str(), &device) != kNvmlSuccess || !device)
            return std::nullopt;
        found = nvml.devices.emplace(pci_bus_id, device).first;
    }
    GpuClockReading r;
    unsigned mhz = 0;
    if (nvml.clock(found->second, kNvmlClockSm, &mhz) != kNvmlSuccess || mhz == 0)
        return std::nullopt;
    r.sm_mhz = mhz;
    unsigned top = 0;
    if (nvml.max_clock && nvml.max_clock(found->second, kNvmlClockSm, &top) == kNvmlSuccess)
        r.max_sm_mhz = top;
    unsigned long long reasons = 0;
    if (nvml.reasons && nvml.reasons(found->second, &reasons) == kNvmlSuccess) r.reasons = reasons;
    return r;
}

std::optional<GpuClockReading> SummarizeClock(const std::vector<GpuClockReading>& readings) {
    if (readings.empty()) return std::nullopt;
    std::vector<double> mhz;
    GpuClockReading out;
    for (const GpuClockReading& r : readings) {
        mhz.push_back(r.sm_mhz);
        out.max_sm_mhz = std::max(out.max_sm_mhz, r.max_sm_mhz);
        out.reasons |= r.reasons;
    }
    std::sort(mhz.begin(), mhz.end());
    const size_t n = mhz.size();
    out.sm_mhz = n % 2 ? mhz[n / 2] : (mhz[n / 2 - 1] + mhz[n / 2]) / 2;
    out.reasons &= ~kClockIdle;
    return out;
}

std::vector<std::string> ClockReasonIds(uint64_t reasons) {
    static const std::pair<uint64_t, const char*> kIds[] = {
        {kClockPowerCap, "power-cap"},
        {kClockSwThermal | kClockHwThermal, "thermal"},
        {kClockHwSlowdown, "hardware-slowdown"},
        {kClockHwPowerBrake, "power-brake"},
        {kClockApplicationSetting, "application-clocks"},
        {kClockSyncBoost, "sync-boost"},
        {kClockDisplaySetting, "display"},
    };
    std::vector<std::string> out;
    for (const auto& [bits, id] : kIds)
        if (reasons & bits) out.emplace_back(id);
    return out;
}

}  // namespace lessons
