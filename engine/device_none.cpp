// Device backend of a build without CUDA: there is never a GPU.
#include <string>

#include "device.h"
#include "errors.h"
#include "nccl_probe.h"

namespace lessons {

namespace {

void RequireDeviceZero(int ordinal) {
    if (ordinal != 0)
        throw UsageError("there is no GPU " + std::to_string(ordinal) + ": " +
                         GetDevices().unavailable.text);
}

}  // namespace

const DeviceList& GetDevices() {
    static const DeviceList list = [] {
        DeviceList l;
        l.unavailable = Message::Of(kNoCudaInBuild);
        return l;
    }();
    return list;
}

const Ceilings& GetCeilings(int ordinal) {
    RequireDeviceZero(ordinal);
    static const Ceilings none;
    return none;
}

MemoryCeilingsAt GetMemoryCeilingsAt(int ordinal, uint64_t) {
    RequireDeviceZero(ordinal);
    return {};
}

DeviceMemory QueryDeviceMemory(int ordinal) {
    RequireDeviceZero(ordinal);
    return {};
}

void FlushL2(int ordinal) {
    RequireDeviceZero(ordinal);
}

bool BuiltWithCuda() {
    return false;
}

const DeviceInfo& GetDeviceInfo() {
    static const DeviceInfo info = [] {
        DeviceInfo i;
        i.unavailable = GetDevices().unavailable;
        return i;
    }();
    return info;
}

double MeasuredCopyGbps() {
    return 0;
}

std::string NcclStatus() {
    return "unavailable: this build has no CUDA support";
}

std::string NcclUnavailable() {
    return NcclStatus();
}

}  // namespace lessons
