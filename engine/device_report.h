// The device list and its ceilings as JSON (for `info --format json` and the worker's info
// reply). Formats structs only: no CUDA here.
#pragma once

#include <nlohmann/json.hpp>

#include <vector>

#include "device.h"

namespace lessons {

// One object per device: its facts, its row of the peer-access matrix and, under "ceilings",
// each measured figure beside the datasheet one. ceilings_or_null[i] belongs to devices[i];
// a null pointer (or a missing entry) leaves the measured figures null. A figure that is 0
// (not measured, not known) is written as null.
nlohmann::ordered_json DevicesToJson(const DeviceList& list,
                                     const std::vector<const Ceilings*>& ceilings_or_null);

// The single "device" object older readers know: available, count, built_with_cuda and
// reason, then device 0's object from DevicesToJson with datasheet_gbps and
// measured_copy_gbps (null when device0_ceilings is null).
nlohmann::ordered_json DeviceSummaryToJson(const DeviceList& list,
                                           const Ceilings* device0_ceilings);

}  // namespace lessons
