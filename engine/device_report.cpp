#include "device_report.h"

#include <string>

#include "device_facts.h"
#include "report.h"

namespace lessons {

using json = nlohmann::ordered_json;

namespace {

json Known(double value) {
    return value > 0 ? json(value) : json(nullptr);
}

json Measured(const Ceilings* c, double Ceilings::*field) {
    return c ? Known(c->*field) : json(nullptr);
}

json CeilingsToJson(const DeviceInfo& d, const Ceilings* c, size_t device_count) {
    const Ceilings datasheet = DatasheetCeilings(d);
    json j;
    j["read_gbps"] = Measured(c, &Ceilings::read_gbps);
    j["copy_gbps"] = Measured(c, &Ceilings::copy_gbps);
    j["datasheet_dram_gbps"] = Known(datasheet.datasheet_dram_gbps);
    j["fp32_gflops"] = Measured(c, &Ceilings::fp32_gflops);
    j["datasheet_fp32_gflops"] = Known(datasheet.datasheet_fp32_gflops);
    j["tf32_gflops"] = Measured(c, &Ceilings::tf32_gflops);
    j["tf32_unavailable"] = c && c->tf32_gflops <= 0 && !c->tf32_unavailable.empty()
                                ? json(c->tf32_unavailable)
                                : json(nullptr);
    j["bf16_gflops"] = Measured(c, &Ceilings::bf16_gflops);
    j["bf16_unavailable"] = c && c->bf16_gflops <= 0 && !c->bf16_unavailable.empty()
                                ? json(c->bf16_unavailable)
                                : json(nullptr);
    j["h2d_gbps"] = Measured(c, &Ceilings::h2d_gbps);
    j["d2h_gbps"] = Measured(c, &Ceilings::d2h_gbps);
    j["block_floor_ns"] = Measured(c, &Ceilings::block_floor_ns);
    j["block_floor_256_ns"] = Measured(c, &Ceilings::block_floor_256_ns);
    j["datasheet_pcie_gbps"] = Known(datasheet.datasheet_pcie_gbps);
    json peers = json::array();
    for (size_t k = 0; k < device_count; ++k)
        peers.push_back(c && k < c->peer_gbps.size() ? Known(c->peer_gbps[k]) : json(nullptr));
    j["peer_gbps"] = peers;
    return j;
}

json DeviceToJson(const DeviceInfo& d, const Ceilings* c, size_t device_count) {
    json j;
    j["ordinal"] = d.ordinal;
    j["name"] = d.name;
    j["compute_capability"] = std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor);
    j["sm_count"] = d.sm_count;
    j["total_memory_bytes"] = d.total_memory;
    j["l2_bytes"] = d.l2_bytes;
    j["max_threads_per_block"] = d.max_threads_per_block;
    j["max_threads_per_sm"] = d.max_threads_per_sm;
    j["clock_khz"] = d.clock_khz;
    j["fp32_lanes_per_sm"] = d.fp32_lanes_per_sm;
    j["memory_clock_khz"] = d.memory_clock_khz;
    j["bus_width_bits"] = d.bus_width_bits;
    j["pci_bus_id"] = d.pci_bus_id;
    j["pcie"] = d.pcie_link_width > 0 ? json{{"generation", d.pcie_generation},
                                             {"gtps", d.pcie_link_gtps},
                                             {"width", d.pcie_link_width}}
                                      : json(nullptr);
    json peers = json::array();
    for (size_t k = 0; k < device_count; ++k)
        peers.push_back(k < d.peer_access.size() && d.peer_access[k]);
    j["peer_access"] = peers;
    j["driver_version"] = d.driver_version;
    j["runtime_version"] = d.runtime_version;
    j["ceilings"] = CeilingsToJson(d, c, device_count);
    return j;
}

}  // namespace

json DevicesToJson(const DeviceList& list, const std::vector<const Ceilings*>& ceilings_or_null) {
    json out = json::array();
    for (size_t i = 0; i < list.devices.size(); ++i)
        out.push_back(DeviceToJson(list.devices[i],
                                   i < ceilings_or_null.size() ? ceilings_or_null[i] : nullptr,
                                   list.devices.size()));
    return out;
}

json DeviceSummaryToJson(const DeviceList& list, const Ceilings* device0_ceilings) {
    json j;
    j["available"] = list.available();
    j["count"] = list.count();
    j["built_with_cuda"] = list.built_with_cuda;
    if (!list.skipped.empty()) j["skipped"] = list.skipped;
    if (!list.available()) {
        j["reason"] = list.unavailable.text;
        j["reason_message"] = MessageIdJson(list.unavailable);
        return j;
    }
    const DeviceInfo& d = list.devices.front();
    j["datasheet_gbps"] = d.datasheet_gbps;
    j["measured_copy_gbps"] = Measured(device0_ceilings, &Ceilings::copy_gbps);
    const json facts = DeviceToJson(d, device0_ceilings, list.devices.size());
    for (auto it = facts.begin(); it != facts.end(); ++it) j[it.key()] = it.value();
    return j;
}

}  // namespace lessons
