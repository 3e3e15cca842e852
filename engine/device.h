// The GPU as the engine sees it. Implemented with the CUDA runtime in cuda/device.cu, or by
// device_none.cpp in a build without CUDA (count 0, with the reason).
#pragma once

#include <cstdint>
#include <string>

namespace lessons {

struct DeviceInfo {
    bool built_with_cuda = false;
    int count = 0;                   // 0: no usable GPU; see unavailable_reason
    std::string unavailable_reason;  // why GPU lessons cannot run here
    int ordinal = 0;
    std::string name;
    int cc_major = 0;
    int cc_minor = 0;
    int sm_count = 0;
    uint64_t total_memory = 0;
    uint64_t l2_bytes = 0;
    int max_threads_per_block = 0;
    int max_threads_per_sm = 0;
    int memory_clock_khz = 0;
    int bus_width_bits = 0;
    double datasheet_gbps = 0;  // 2 (DDR) x memory clock x bus width
    int driver_version = 0;
    int runtime_version = 0;

    bool available() const { return count > 0; }
};

// Queried once per process. Never throws: no driver or no device gives count 0 and a reason.
const DeviceInfo& GetDeviceInfo();

// Device-to-device copy bandwidth in GB/s (bytes read + bytes written), measured once per
// process on first use with a copy of up to 1 GiB; 0 without a device.
double MeasuredCopyGbps();

struct DeviceMemory {
    uint64_t free_bytes = 0;
    uint64_t total_bytes = 0;
};
DeviceMemory QueryDeviceMemory();

// Evicts the L2 cache (writes a buffer twice its size), for cold-L2 timing.
void FlushL2();

// True when this build contains GPU code.
bool BuiltWithCuda();

}  // namespace lessons
