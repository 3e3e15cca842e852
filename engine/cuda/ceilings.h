// The ceiling measurements behind GetCeilings() (device.cu caches them per device).
#pragma once

#include "../device.h"

namespace lessons::cuda {

// Measures every ceiling of list.devices[ordinal] and fills in its datasheet figures. Makes
// the device current for the time it takes and restores the caller's device.
Ceilings MeasureCeilings(const DeviceList& list, int ordinal);

// The read and copy ceilings of list.devices[ordinal] over `bytes` (rounded down to 16-byte
// words): what GetMemoryCeilingsAt caches. Throws UsageError when the device has no room.
MemoryCeilingsAt MeasureMemoryCeilings(const DeviceList& list, int ordinal, uint64_t bytes);

}  // namespace lessons::cuda
