// Device backend of a build without CUDA: there is never a GPU.
#include "device.h"

namespace lessons {

const DeviceInfo& GetDeviceInfo() {
    static const DeviceInfo info = [] {
        DeviceInfo i;
        i.unavailable_reason =
            "this build has no CUDA support (no CUDA compiler at configure time)";
        return i;
    }();
    return info;
}

double MeasuredCopyGbps() {
    return 0;
}
DeviceMemory QueryDeviceMemory() {
    return {};
}
void FlushL2() {}
bool BuiltWithCuda() {
    return false;
}

}  // namespace lessons
