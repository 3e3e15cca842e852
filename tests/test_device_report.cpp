// The device list as JSON, the datasheet figures and the PCIe link from sysfs, all from
// hand-made structs and files: no GPU needed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "device.h"
#include "device_facts.h"
#include "device_report.h"
#include "errors.h"

using namespace lessons;
using json = nlohmann::ordered_json;

namespace {

// Two H100 SXMs joined by NVLink, as the runtime reports them.
DeviceInfo MakeH100(int ordinal, int count) {
    DeviceInfo d;
    d.ordinal = ordinal;
    d.name = "NVIDIA H100 80GB HBM3";
    d.cc_major = 9;
    d.cc_minor = 0;
    d.sm_count = 132;
    d.total_memory = 85'024'112'640ull;
    d.l2_bytes = 52'428'800;
    d.max_threads_per_block = 1024;
    d.max_threads_per_sm = 2048;
    d.clock_khz = 1'980'000;
    d.fp32_lanes_per_sm = Fp32LanesPerSm(9, 0);
    d.memory_clock_khz = 2'619'000;
    d.bus_width_bits = 5120;
    d.datasheet_gbps = 3352.32;
    d.pci_bus_id = ordinal == 0 ? "0000:18:00.0" : "0000:2A:00.0";
    d.pcie_link_gtps = 32.0;
    d.pcie_link_width = 16;
    d.pcie_generation = 5;
    d.peer_access.assign(count, true);
    d.peer_access[ordinal] = false;
    d.driver_version = 13000;
    d.runtime_version = 13000;
    d.built_with_cuda = true;
    d.count = count;
    return d;
}

DeviceList MakeList(int count) {
    DeviceList list;
    list.built_with_cuda = true;
    for (int i = 0; i < count; ++i) list.devices.push_back(MakeH100(i, count));
    return list;
}

Ceilings MakeCeilings(int ordinal, int count) {
    Ceilings c = DatasheetCeilings(MakeH100(ordinal, count));
    c.read_gbps = 3150;
    c.copy_gbps = 3000;
    c.fp32_gflops = 60000;
    c.h2d_gbps = 54.5;
    c.d2h_gbps = 0;  // not measured (no page-locked memory): written as null
    c.block_floor_ns = 0.62;
    c.peer_gbps.assign(count, 0.0);
    for (int j = 0; j < count; ++j)
        if (j != ordinal) c.peer_gbps[j] = 390;
    return c;
}

void WriteFile(const std::filesystem::path& path, const std::string& text) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

}  // namespace

TEST(DeviceFacts, Fp32LanesByComputeCapability) {
    EXPECT_EQ(Fp32LanesPerSm(7, 5), 64);
    EXPECT_EQ(Fp32LanesPerSm(8, 0), 64);
    EXPECT_EQ(Fp32LanesPerSm(8, 6), 128);
    EXPECT_EQ(Fp32LanesPerSm(8, 9), 128);
    EXPECT_EQ(Fp32LanesPerSm(9, 0), 128);
    EXPECT_EQ(Fp32LanesPerSm(10, 0), 128);
    EXPECT_EQ(Fp32LanesPerSm(12, 0), 128);
    EXPECT_EQ(Fp32LanesPerSm(0, 0), 0);
}

TEST(DeviceFacts, DatasheetCeilingsOfAnH100) {
    const Ceilings c = DatasheetCeilings(MakeH100(0, 1));
    EXPECT_NEAR(c.datasheet_dram_gbps, 3352.32, 0.01);
    EXPECT_NEAR(c.datasheet_fp32_gflops, 66908.16, 0.01);  // 132 x 128 x 2 x 1.98 GHz
    EXPECT_NEAR(c.datasheet_pcie_gbps, 63.015, 0.001);     // gen 5 x16 after 128b/130b
    EXPECT_EQ(c.read_gbps, 0.0);
    EXPECT_TRUE(c.peer_gbps.empty());
    DeviceInfo unknown_link = MakeH100(0, 1);
    unknown_link.pcie_link_gtps = 0;
    unknown_link.pcie_link_width = 0;
    EXPECT_EQ(DatasheetCeilings(unknown_link).datasheet_pcie_gbps, 0.0);
}

TEST(DeviceFacts, PcieGenerationsAndLaneRates) {
    EXPECT_EQ(PcieGeneration(0), 0);
    EXPECT_EQ(PcieGeneration(2.5), 1);
    EXPECT_EQ(PcieGeneration(5), 2);
    EXPECT_EQ(PcieGeneration(8), 3);
    EXPECT_EQ(PcieGeneration(16), 4);
    EXPECT_EQ(PcieGeneration(32), 5);
    EXPECT_EQ(PcieGeneration(64), 6);
    EXPECT_DOUBLE_EQ(PcieLaneGbps(2.5), 0.25);
    EXPECT_DOUBLE_EQ(PcieLaneGbps(5), 0.5);
    EXPECT_NEAR(PcieLaneGbps(8), 0.985, 0.001);
    EXPECT_NEAR(PcieLaneGbps(16), 1.969, 0.001);
    EXPECT_NEAR(PcieLaneGbps(64), 7.5625, 1e-9);
    EXPECT_EQ(PcieLaneGbps(0), 0.0);
}

TEST(DeviceFacts, PcieLinkFromSysfsTakesTheSlowerEnd) {
    namespace fs = std::filesystem;
    const fs::path root = fs::path(::testing::TempDir()) / ("sysfs_" + std::to_string(getpid()));
    fs::remove_all(root);
    // /sys/bus/pci/devices/<id> links into the tree under its bridge, as on Linux.
    const fs::path bridge = root / "devices/pci0000:00/0000:00:01.0";
    const fs::path gpu = bridge / "0000:18:00.0";
    WriteFile(gpu / "max_link_speed", "32.0 GT/s PCIe\n");
    WriteFile(gpu / "max_link_width", "16\n");
    WriteFile(bridge / "max_link_speed", "16.0 GT/s PCIe\n");
    WriteFile(bridge / "max_link_width", "16\n");
    fs::create_directories(root / "bus");
    fs::create_directory_symlink(gpu, root / "bus/0000:18:00.0");

    const PcieLink link = ReadPcieLink("00000000:18:00.0", (root / "bus").string());
    EXPECT_DOUBLE_EQ(link.gtps, 16.0) << "the gen 4 bridge limits the gen 5 GPU";
    EXPECT_EQ(link.width, 16);
    EXPECT_EQ(ReadPcieLink("0000:18:00.0", (root / "bus").string()).gtps, 16.0);

    const PcieLink missing = ReadPcieLink("0000:99:00.0", (root / "bus").string());
    EXPECT_EQ(missing.gtps, 0.0);
    EXPECT_EQ(missing.width, 0);
    EXPECT_EQ(ReadPcieLink("", (root / "bus").string()).width, 0);
    fs::remove_all(root);
}

TEST(DeviceReport, TwoGpusWithCeilings) {
    const DeviceList list = MakeList(2);
    const Ceilings c0 = MakeCeilings(0, 2), c1 = MakeCeilings(1, 2);
    const json j = DevicesToJson(list, {&c0, &c1});
    ASSERT_TRUE(j.is_array());
    ASSERT_EQ(j.size(), 2u);
    for (const char* key :
         {"ordinal", "name", "compute_capability", "sm_count", "total_memory_bytes", "l2_bytes",
          "max_threads_per_block", "max_threads_per_sm", "clock_khz", "fp32_lanes_per_sm",
          "memory_clock_khz", "bus_width_bits", "pci_bus_id", "pcie", "peer_access",
          "driver_version", "runtime_version", "ceilings"})
        EXPECT_TRUE(j[0].contains(key)) << key;
    EXPECT_EQ(j[1]["ordinal"], 1);
    EXPECT_EQ(j[0]["compute_capability"], "9.0");
    EXPECT_EQ(j[0]["pcie"]["generation"], 5);
    EXPECT_EQ(j[0]["pcie"]["width"], 16);
    EXPECT_EQ(j[0]["peer_access"], json({false, true}));
    EXPECT_EQ(j[1]["peer_access"], json({true, false}));

    const json& c = j[0]["ceilings"];
    EXPECT_EQ(c["read_gbps"], 3150.0);
    EXPECT_EQ(c["copy_gbps"], 3000.0);
    EXPECT_EQ(c["fp32_gflops"], 60000.0);
    EXPECT_EQ(c["h2d_gbps"], 54.5);
    EXPECT_TRUE(c["d2h_gbps"].is_null()) << "0 means not measured";
    EXPECT_EQ(c["block_floor_ns"], 0.62);
    EXPECT_TRUE(c["block_floor_256_ns"].is_null());
    EXPECT_NEAR(c["datasheet_dram_gbps"].get<double>(), 3352.32, 0.01);
    EXPECT_NEAR(c["datasheet_fp32_gflops"].get<double>(), 66908.16, 0.01);
    EXPECT_NEAR(c["datasheet_pcie_gbps"].get<double>(), 63.015, 0.001);
    ASSERT_EQ(c["peer_gbps"].size(), 2u);
    EXPECT_TRUE(c["peer_gbps"][0].is_null()) << "no copy to itself";
    EXPECT_EQ(c["peer_gbps"][1], 390.0);
    EXPECT_TRUE(j[1]["ceilings"]["peer_gbps"][1].is_null());
}

TEST(DeviceReport, UnmeasuredAndUnknownFiguresAreNull) {
    DeviceList list = MakeList(2);
    list.devices[1].pcie_link_gtps = 0;
    list.devices[1].pcie_link_width = 0;
    list.devices[1].pcie_generation = 0;
    const Ceilings c0 = MakeCeilings(0, 2);
    // Device 1 not measured: a null pointer; a shorter vector leaves the rest unmeasured too.
    for (const std::vector<const Ceilings*>& given :
         {std::vector<const Ceilings*>{&c0, nullptr}, std::vector<const Ceilings*>{&c0}}) {
        const json j = DevicesToJson(list, given);
        ASSERT_EQ(j.size(), 2u);
        const json& c = j[1]["ceilings"];
        for (const char* key : {"read_gbps", "copy_gbps", "fp32_gflops", "h2d_gbps", "d2h_gbps",
                                "block_floor_ns", "block_floor_256_ns", "datasheet_pcie_gbps"})
            EXPECT_TRUE(c[key].is_null()) << key;
        EXPECT_EQ(c["peer_gbps"], json({nullptr, nullptr}));
        EXPECT_NEAR(c["datasheet_dram_gbps"].get<double>(), 3352.32, 0.01)
            << "datasheet figures need no measurement";
        EXPECT_TRUE(j[1]["pcie"].is_null());
        EXPECT_EQ(j[0]["ceilings"]["copy_gbps"], 3000.0);
    }
}

// The TF32 ceiling, measured apart: its figure when known, else null with why.
TEST(DeviceReport, Tf32CeilingOrWhyNot) {
    const DeviceList list = MakeList(2);
    Ceilings c0 = MakeCeilings(0, 2), c1 = MakeCeilings(1, 2);
    c0.tf32_gflops = 417000;
    c1.tf32_unavailable = "not measured yet: it is measured when a tensor-core step first runs";
    const json j = DevicesToJson(list, {&c0, &c1});
    EXPECT_EQ(j[0]["ceilings"]["tf32_gflops"], 417000.0);
    EXPECT_TRUE(j[0]["ceilings"]["tf32_unavailable"].is_null());
    EXPECT_TRUE(j[1]["ceilings"]["tf32_gflops"].is_null());
    EXPECT_EQ(j[1]["ceilings"]["tf32_unavailable"], c1.tf32_unavailable);
    EXPECT_EQ(DeviceSummaryToJson(list, &c0)["ceilings"]["tf32_gflops"], 417000.0);
}

TEST(DeviceReport, EmptyListIsAnEmptyArray) {
    DeviceList none;
    none.unavailable.text = "no NVIDIA GPU found";
    EXPECT_EQ(DevicesToJson(none, {}), json::array());
}

TEST(DeviceReport, SummaryKeepsTheKeysOlderReadersUse) {
    const DeviceList list = MakeList(2);
    const Ceilings c0 = MakeCeilings(0, 2);
    const json s = DeviceSummaryToJson(list, &c0);
    EXPECT_EQ(s["available"], true);
    EXPECT_EQ(s["count"], 2);
    EXPECT_EQ(s["built_with_cuda"], true);
    EXPECT_EQ(s["name"], "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(s["measured_copy_gbps"], 3000.0);
    EXPECT_NEAR(s["datasheet_gbps"].get<double>(), 3352.32, 0.01);
    EXPECT_EQ(s["ordinal"], 0);
    EXPECT_EQ(s["ceilings"]["read_gbps"], 3150.0);
    EXPECT_FALSE(s.contains("reason"));
    EXPECT_TRUE(DeviceSummaryToJson(list, nullptr)["measured_copy_gbps"].is_null());

    DeviceList none;
    none.built_with_cuda = true;
    none.unavailable.text = "no NVIDIA GPU found";
    none.skipped = {"device 0: too old"};
    const json n = DeviceSummaryToJson(none, nullptr);
    EXPECT_EQ(n["available"], false);
    EXPECT_EQ(n["count"], 0);
    EXPECT_EQ(n["reason"], "no NVIDIA GPU found");
    EXPECT_EQ(n["skipped"], json({"device 0: too old"}));
    EXPECT_FALSE(n.contains("name"));
}

// The real list on this machine: without a GPU, device 0's ceilings are zeros and any other
// ordinal is refused; with GPUs, an ordinal past the end is refused before anything runs.
TEST(DeviceList, BadOrdinalsAreUsageErrors) {
    const DeviceList& list = GetDevices();
    EXPECT_THROW(GetTf32Ceiling(-1), UsageError);
    EXPECT_THROW(KnownTf32Ceiling(list.count() + 1), UsageError);
    if (!list.available()) {
        // No GPU: no TF32 ceiling, with the reason, and nothing is measured.
        const Tf32Ceiling none = GetTf32Ceiling(0);
        EXPECT_EQ(none.gflops, 0.0);
        EXPECT_EQ(none.unavailable, list.unavailable.text);
        EXPECT_EQ(KnownTf32Ceiling(0).unavailable, list.unavailable.text);
    }
    EXPECT_EQ(list.built_with_cuda, BuiltWithCuda());
    EXPECT_EQ(list.count(), static_cast<int>(list.devices.size()));
    EXPECT_THROW(GetCeilings(-1), UsageError);
    EXPECT_THROW(GetCeilings(list.count() + 1), UsageError);
    if (!list.available()) {
        EXPECT_FALSE(list.unavailable.text.empty());
        const Ceilings& c = GetCeilings(0);
        EXPECT_EQ(c.copy_gbps, 0.0);
        EXPECT_EQ(c.read_gbps, 0.0);
        EXPECT_EQ(MeasuredCopyGbps(), 0.0);
        EXPECT_EQ(QueryDeviceMemory(0).total_bytes, 0u);
        EXPECT_THROW(QueryDeviceMemory(1), UsageError);
        EXPECT_FALSE(GetDeviceInfo().available());
        EXPECT_EQ(GetDeviceInfo().unavailable.text, list.unavailable.text);
    } else {
        EXPECT_THROW(GetCeilings(list.count()), UsageError);
        EXPECT_THROW(QueryDeviceMemory(list.count()), UsageError);
        for (int i = 0; i < list.count(); ++i) {
            EXPECT_EQ(list.devices[i].ordinal, i);
            EXPECT_EQ(list.devices[i].peer_access.size(), list.devices.size());
        }
        EXPECT_EQ(GetDeviceInfo().name, list.devices[0].name);
        EXPECT_EQ(GetDeviceInfo().count, list.count());
    }
}
