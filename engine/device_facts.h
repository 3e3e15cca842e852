// Device figures computed on the host from what the CUDA runtime and the PCI bus report: FP32
// lanes per SM, the datasheet ceilings, the PCIe link read from Linux's sysfs (NVML is not
// used). No CUDA here: tested without a GPU.
#pragma once

#include <string>

#include "device.h"

namespace lessons {

// FP32 FMA units per SM for a compute capability (CUDA C Programming Guide, "Arithmetic
// Instructions"): 64 for 7.x and 8.0, 128 for 8.6 and newer.
int Fp32LanesPerSm(int cc_major, int cc_minor);

struct PcieLink {
    double gtps = 0;  // per lane; 0: unknown
    int width = 0;    // lanes; 0: unknown
};

// The link's top speed: the lower of the device's and its upstream port's max_link_speed and
// max_link_width under sysfs_root/<bus id> ("0000:18:00.0", any case). Unknown (0) when sysfs
// does not tell (a container, a virtual machine, not Linux). The current speed is not used: an
// idle GPU lowers it.
PcieLink ReadPcieLink(const std::string& pci_bus_id,
                      const std::string& sysfs_root = "/sys/bus/pci/devices");

// 1 to 6 from the per-lane speed; 0 for an unknown speed.
int PcieGeneration(double gtps);
// GB/s per lane and direction after line coding (8b/10b up to 5 GT/s, 128b/130b for 8 to
// 32 GT/s, 242B/256B flits at 64 GT/s).
double PcieLaneGbps(double gtps);

// The datasheet side of a device's ceilings (DRAM, FP32 peak at the boost clock, PCIe);
// measured fields are left 0.
Ceilings DatasheetCeilings(const DeviceInfo& device);

}  // namespace lessons
