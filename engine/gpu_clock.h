// The SM clock a GPU ran at, read through NVML (libnvidia-ml, which the NVIDIA driver installs),
// loaded at run time: nothing links it, and without it the reading is simply absent. A GPU step
// reads it after each timed sample, so its result says at which clock its time was measured and
// what held the clock below the device's highest (NVML's clock event reasons): a tensor-core
// kernel run back to back for a second draws the board to its power cap and slows by 10% or
// more against the same kernel timed in a short burst.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lessons {

// NVML's clock event reasons (nvmlClocksEventReason*), the bits a result keeps.
inline constexpr uint64_t kClockIdle = 0x1;
inline constexpr uint64_t kClockApplicationSetting = 0x2;
inline constexpr uint64_t kClockPowerCap = 0x4;
inline constexpr uint64_t kClockHwSlowdown = 0x8;
inline constexpr uint64_t kClockSyncBoost = 0x10;
inline constexpr uint64_t kClockSwThermal = 0x20;
inline constexpr uint64_t kClockHwThermal = 0x40;
inline constexpr uint64_t kClockHwPowerBrake = 0x80;
inline constexpr uint64_t kClockDisplaySetting = 0x100;

struct GpuClockReading {
    double sm_mhz = 0;
    double max_sm_mhz = 0;  // the device's highest SM clock; 0: not known
    uint64_t reasons = 0;   // the clock event reasons active when read
};

// One reading of the device with this PCI bus id ("0000:18:00.0"); none where NVML is missing,
// cannot start, or does not know the device.
std::optional<GpuClockReading> ReadGpuClock(const std::string& pci_bus_id);

// The median clock of the readings, the highest clock, and every reason seen but the idle one.
std::optional<GpuClockReading> SummarizeClock(const std::vector<GpuClockReading>& readings);

// The reasons, one id each ("power-cap", "thermal", "hardware-slowdown", "power-brake",
// "application-clocks", "sync-boost", "display"), in this order; the idle reason is left out.
std::vector<std::string> ClockReasonIds(uint64_t reasons);

}  // namespace lessons
