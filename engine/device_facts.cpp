#include "device_facts.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

namespace lessons {

int Fp32LanesPerSm(int cc_major, int cc_minor) {
    if (cc_major <= 0) return 0;
    if (cc_major < 8) return 64;                    // Volta, Turing
    if (cc_major == 8 && cc_minor == 0) return 64;  // A100
    return 128;                                     // 8.6, 8.7, 8.9, Hopper, Blackwell, ...
}

namespace {

// The number that opens a sysfs file ("32.0 GT/s PCIe", "16"); 0 when absent or unreadable.
double ReadLeadingNumber(const std::string& path) {
    std::ifstream in(path);
    double value = 0;
    if (!(in >> value)) return 0;
    return value;
}

std::string Lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Keeps the smaller known value: 0 means unknown.
template <typename T>
T MinKnown(T a, T b) {
    if (a <= 0) return b;
    if (b <= 0) return a;
    return std::min(a, b);
}

}  // namespace

PcieLink ReadPcieLink(const std::string& pci_bus_id, const std::string& sysfs_root) {
    PcieLink link;
    if (pci_bus_id.empty()) return link;
    namespace fs = std::filesystem;
    std::error_code ec;
    std::string id = Lower(pci_bus_id);
    fs::path dir = fs::path(sysfs_root) / id;
    if (!fs::exists(dir, ec)) {
        // The runtime may print a longer domain ("00000000:18:00.0"); sysfs uses four digits.
        const size_t colon = id.find(':');
        if (colon == std::string::npos || colon <= 4) return link;
        id = id.substr(colon - 4);
        dir = fs::path(sysfs_root) / id;
        if (!fs::exists(dir, ec)) return link;
    }
    link.gtps = ReadLeadingNumber((dir / "max_link_speed").string());
    link.width = static_cast<int>(ReadLeadingNumber((dir / "max_link_width").string()));
    // The port above the device (a root port or a switch) may be slower or narrower.
    const fs::path real = fs::canonical(dir, ec);
    if (!ec && real.has_parent_path()) {
        const fs::path up = real.parent_path();
        link.gtps = MinKnown(link.gtps, ReadLeadingNumber((up / "max_link_speed").string()));
        link.width = MinKnown(
            link.width, static_cast<int>(ReadLeadingNumber((up / "max_link_width").string())));
    }
    if (link.gtps <= 0 || link.width <= 0) return {};
    return link;
}

int PcieGeneration(double gtps) {
    if (gtps <= 0) return 0;
    const double kTop[] = {2.5, 5.0, 8.0, 16.0, 32.0, 64.0};
    for (int g = 0; g < 6; ++g)
        if (gtps <= kTop[g] * 1.01) return g + 1;
    return 6;
}

double PcieLaneGbps(double gtps) {
    switch (PcieGeneration(gtps)) {
        case 0:
            return 0;
        case 1:
        case 2:
            return gtps * 8.0 / 10.0 / 8.0;
        case 6:
            return gtps * 242.0 / 256.0 / 8.0;
        default:
            return gtps * 128.0 / 130.0 / 8.0;
    }
}

Ceilings DatasheetCeilings(const DeviceInfo& d) {
    Ceilings c;
    c.datasheet_dram_gbps = 2.0 * d.memory_clock_khz * 1e3 * (d.bus_width_bits / 8.0) / 1e9;
    c.datasheet_fp32_gflops =
        double(d.sm_count) * d.fp32_lanes_per_sm * 2.0 * (d.clock_khz * 1e3) / 1e9;
    c.datasheet_pcie_gbps = PcieLaneGbps(d.pcie_link_gtps) * d.pcie_link_width;
    return c;
}

}  // namespace lessons
