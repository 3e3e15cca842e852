// `info`: every GPU with its facts and measured ceilings beside the datasheet figures, the
// peer-access matrix when there are several, and the host.
#include <iostream>
#include <string>
#include <vector>

#include "commands.h"
#include "device.h"
#include "device_report.h"
#include "errors.h"
#include "host.h"
#include "report.h"
#include "units.h"

namespace lessons::cli {

using json = nlohmann::ordered_json;

namespace {

std::string Gbps(double gbps) {
    if (gbps <= 0) return "unknown";
    return Fixed(gbps, gbps < 100 ? 1 : 0) + " GB/s";
}

std::string Tflops(double gflops) {
    if (gflops <= 0) return "unknown";
    return Fixed(gflops / 1000, 1) + " TFLOP/s";
}

std::string Percent(double measured, double datasheet) {
    if (measured <= 0 || datasheet <= 0) return "-";
    return Fixed(100 * measured / datasheet, 0) + "%";
}

std::string Mhz(int khz) {
    return std::to_string((khz + 500) / 1000) + " MHz";
}

std::string PcieLinkText(const DeviceInfo& d) {
    std::string text = d.pcie_link_width > 0 ? "gen " + std::to_string(d.pcie_generation) + " x" +
                                                   std::to_string(d.pcie_link_width) + " (" +
                                                   Fixed(d.pcie_link_gtps, 1) + " GT/s per lane)"
                                             : std::string("link unknown");
    return d.pci_bus_id.empty() ? text : text + ", bus " + d.pci_bus_id;
}

void PrintDevice(const DeviceInfo& d, const Ceilings& c) {
    std::cout << "GPU " << d.ordinal << ": " << d.name << "\n";
    TextTable facts({"what", "value"});
    facts.AddRow(
        {"compute capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)});
    facts.AddRow({"SMs", std::to_string(d.sm_count) + " x " + std::to_string(d.fp32_lanes_per_sm) +
                             " FP32 lanes, boost clock " + Mhz(d.clock_khz)});
    facts.AddRow({"memory", FormatSize(d.total_memory) + ", " + std::to_string(d.bus_width_bits) +
                                "-bit bus at " + Mhz(d.memory_clock_khz)});
    facts.AddRow({"L2 cache", FormatSize(d.l2_bytes)});
    facts.AddRow({"threads per block / per SM", std::to_string(d.max_threads_per_block) + " / " +
                                                    std::to_string(d.max_threads_per_sm)});
    facts.AddRow({"PCIe", PcieLinkText(d)});
    facts.AddRow({"driver / runtime",
                  std::to_string(d.driver_version) + " / " + std::to_string(d.runtime_version)});
    std::cout << facts.Render() << "\n";

    TextTable ceilings({"ceiling", "measured", "datasheet", "of datasheet"},
                       {false, true, true, true});
    ceilings.AddRow({"read (fastest of 5 streaming kernels, 1 GiB)", Gbps(c.read_gbps),
                     Gbps(c.datasheet_dram_gbps), Percent(c.read_gbps, c.datasheet_dram_gbps)});
    ceilings.AddRow({"device copy (read + write, up to 1 GiB)", Gbps(c.copy_gbps),
                     Gbps(c.datasheet_dram_gbps), Percent(c.copy_gbps, c.datasheet_dram_gbps)});
    ceilings.AddRow({"fp32 peak (independent FMAs)", Tflops(c.fp32_gflops),
                     Tflops(c.datasheet_fp32_gflops),
                     Percent(c.fp32_gflops, c.datasheet_fp32_gflops)});
    ceilings.AddRow({"TF32 tensor cores (cuBLAS TF32 SGEMM)",
                     c.tf32_gflops > 0 ? Tflops(c.tf32_gflops) : "unknown: " + c.tf32_unavailable,
                     "-", "-"});
    ceilings.AddRow({"bf16 tensor cores (cuBLAS bf16 GEMM, median)",
                     c.bf16_gflops > 0 ? Tflops(c.bf16_gflops) : "unknown: " + c.bf16_unavailable,
                     "-", "-"});
    ceilings.AddRow({"host to device (pinned)", Gbps(c.h2d_gbps), Gbps(c.datasheet_pcie_gbps),
                     Percent(c.h2d_gbps, c.datasheet_pcie_gbps)});
    ceilings.AddRow({"device to host (pinned)", Gbps(c.d2h_gbps), Gbps(c.datasheet_pcie_gbps),
                     Percent(c.d2h_gbps, c.datasheet_pcie_gbps)});
    std::cout << ceilings.Render() << "\n";

    // Not a ceiling but a floor: what a grid costs when its blocks do nothing.
    TextTable floor({"launch floor (an empty kernel, 2^21 blocks)", "per block", "whole grid"},
                    {false, true, true});
    for (const auto& [threads, ns] :
         {std::pair{32, c.block_floor_ns}, std::pair{256, c.block_floor_256_ns}})
        floor.AddRow({"blocks of " + std::to_string(threads) + " threads",
                      ns > 0 ? Fixed(ns, 3) + " ns" : "unknown",
                      ns > 0 ? Fixed(ns * kFloorBlocks / 1e6, 3) + " ms" : "unknown"});
    std::cout << floor.Render() << "\n";
}

// Rows copy from, columns copy to: "yes" or "no" for direct peer access and the measured copy.
void PrintPeers(const DeviceList& list, const std::vector<const Ceilings*>& ceilings) {
    std::vector<std::string> header = {"from \\ to"};
    for (const DeviceInfo& d : list.devices) header.push_back("GPU " + std::to_string(d.ordinal));
    TextTable t(header, std::vector<bool>(header.size(), true));
    for (const DeviceInfo& from : list.devices) {
        std::vector<std::string> row = {"GPU " + std::to_string(from.ordinal)};
        for (const DeviceInfo& to : list.devices) {
            if (to.ordinal == from.ordinal) {
                row.push_back("-");
                continue;
            }
            const bool direct = from.peer_access[to.ordinal];
            const double gbps = ceilings[from.ordinal]->peer_gbps[to.ordinal];
            row.push_back((direct ? "peer, " : "via host, ") + Gbps(gbps));
        }
        t.AddRow(row);
    }
    std::cout << "Copies between GPUs (peer access where allowed, otherwise staged through the "
                 "host)\n"
              << t.Render() << "\n";
}

}  // namespace

int Info(Format format) {
    if (format == Format::kCsv) throw UsageError("info prints a table or json, not csv");
    const DeviceList& list = GetDevices();
    const HostInfo& h = GetHostInfo();
    // `info` reports every ceiling, so it measures the TF32 one too (the GEMM chapter's cuBLAS
    // measurement, which its harness registers when the program is loaded).
    const std::vector<Ceilings> figures = AllCeilings(true);
    std::vector<const Ceilings*> ceilings;
    for (const Ceilings& f : figures) ceilings.push_back(&f);
    if (format == Format::kJson) {
        json out;
        out["devices"] = DevicesToJson(list, ceilings);
        out["device"] = DeviceSummaryToJson(list, list.available() ? ceilings[0] : nullptr);
        out["host"] = ToJson(h);
        out["nccl"] = NcclStatus();
        std::cout << out.dump(2) << "\n";
        return kExitOk;
    }
    if (!list.available()) std::cout << "GPU: none: " << list.unavailable.text << "\n\n";
    for (const DeviceInfo& d : list.devices) PrintDevice(d, *ceilings[d.ordinal]);
    if (list.count() > 1) PrintPeers(list, ceilings);
    for (const std::string& s : list.skipped) std::cout << "Not used: " << s << "\n";
    if (!list.skipped.empty()) std::cout << "\n";
    TextTable t({"host", "value"});
    t.AddRow({"CPU", h.cpu_name});
    t.AddRow({"hardware threads", std::to_string(h.hardware_threads)});
    t.AddRow({"host memory", FormatSize(h.total_memory) + " (" + FormatSize(HostAvailableMemory()) +
                                 " available)"});
    t.AddRow({"built with CUDA", list.built_with_cuda ? "yes" : "no"});
    t.AddRow({"NCCL (the multi-GPU reduction and all-reduce)", NcclStatus()});
    std::cout << t.Render();
    return kExitOk;
}

}  // namespace lessons::cli
