#include "model/device_facts.h"

#include <climits>
#include <cmath>

#include "report.h"  // MessageFromJson

namespace lessons::app {
namespace {

// The non-negative finite number under `key` of object `o`; 0 when there is none.
double Number(const Json& o, const char* key) {
    if (!o.is_object()) return 0;
    const auto it = o.find(key);
    if (it == o.end() || !it->is_number()) return 0;
    const double v = it->get<double>();
    return std::isfinite(v) && v > 0 ? v : 0;
}

uint64_t Bytes(const Json& o, const char* key) {
    if (!o.is_object()) return 0;
    const auto it = o.find(key);
    if (it == o.end()) return 0;
    if (it->is_number_unsigned()) return it->get<uint64_t>();
    const double v = Number(o, key);  // a signed or floating-point figure
    return v < 1.8e19 ? static_cast<uint64_t>(v) : 0;
}

int Int(const Json& o, const char* key) {
    const double v = Number(o, key);
    return v <= double(INT_MAX) ? static_cast<int>(v) : 0;
}

std::string Text(const Json& o, const char* key) {
    if (!o.is_object()) return {};
    const auto it = o.find(key);
    return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

const Json& Member(const Json& o, const char* key) {
    static const Json kNone;
    if (!o.is_object()) return kNone;
    const auto it = o.find(key);
    return it == o.end() ? kNone : *it;
}

// One device object: the summary's (device 0, with its datasheet bandwidth at the top level)
// or an entry of the list (with it among the ceilings).
GpuFacts Gpu(const Json& d) {
    GpuFacts g;
    g.name = Text(d, "name");
    g.total_memory_bytes = Bytes(d, "total_memory_bytes");
    g.free_memory_bytes = Bytes(d, "free_memory_bytes");
    g.sm_count = Int(d, "sm_count");
    g.max_threads_per_sm = Int(d, "max_threads_per_sm");
    g.clock_khz = Int(d, "clock_khz");
    const Json& c = Member(d, "ceilings");
    GpuCeilings& out = g.ceilings;
    out.read_gbps = Number(c, "read_gbps");
    out.copy_gbps = Number(c, "copy_gbps");
    if (out.copy_gbps <= 0) out.copy_gbps = Number(d, "measured_copy_gbps");
    out.fp32_gflops = Number(c, "fp32_gflops");
    out.tf32_gflops = Number(c, "tf32_gflops");
    out.bf16_gflops = Number(c, "bf16_gflops");
    out.h2d_gbps = Number(c, "h2d_gbps");
    out.d2h_gbps = Number(c, "d2h_gbps");
    out.block_floor_ns = Number(c, "block_floor_ns");
    out.datasheet_gbps = Number(d, "datasheet_gbps");
    if (out.datasheet_gbps <= 0) out.datasheet_gbps = Number(c, "datasheet_dram_gbps");
    return g;
}

}  // namespace

DeviceFacts DeviceFactsFromInfo(const Json& info) {
    DeviceFacts f;
    const Json& summary = Member(info, "device");
    const Json& available = Member(summary, "available");
    f.reported = available.is_boolean();
    f.available = f.reported && available.get<bool>();
    f.reason = MessageFromJson(Member(summary, "reason_message"), Text(summary, "reason"));
    f.cpu = Text(Member(info, "host"), "cpu");
    const Json& list = Member(info, "devices");
    if (list.is_array())
        for (const Json& d : list)
            if (d.is_object()) f.gpus.push_back(Gpu(d));
    // Device 0: the summary's facts (its datasheet bandwidth among them) over the list's first.
    if (f.available) {
        Json merged = list.is_array() && !list.empty() && list.front().is_object() ? list.front()
                                                                                   : Json::object();
        merged.update(summary);
        if (f.gpus.empty())
            f.gpus.push_back(Gpu(merged));
        else
            f.gpus.front() = Gpu(merged);
    }
    return f;
}

}  // namespace lessons::app
