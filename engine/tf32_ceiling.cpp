// The TF32 tensor-core ceiling's cache (device.h): the measurement itself is the GEMM chapter's
// (gemm_harness.cu, through cuBLAS), registered with SetTf32Measurer, so that the engine links
// no cuBLAS. Built with and without CUDA: without, there is no device and no measurer.
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "device.h"
#include "errors.h"

namespace lessons {
namespace {

struct Tf32State {
    std::mutex mutex;
    Tf32Measurer measurer;
    std::vector<std::optional<Tf32Ceiling>> measured;  // by ordinal
};

Tf32State& State() {
    static Tf32State state;
    return state;
}

// Why device `ordinal` has no TF32 ceiling before anything is measured; empty: it can have one.
std::string WhyNot(const DeviceList& list, int ordinal, bool have_measurer) {
    if (!list.available() && ordinal == 0) return list.unavailable_reason;
    if (ordinal < 0 || ordinal >= list.count())
        throw UsageError("there is no GPU " + std::to_string(ordinal) + ": this machine has " +
                         std::to_string(list.count()) +
                         (list.count() ? " (0 to " + std::to_string(list.count() - 1) + ")" : ""));
    const DeviceInfo& d = list.devices[size_t(ordinal)];
    if (d.cc_major < 8)
        return d.name + " has compute capability " + std::to_string(d.cc_major) + "." +
               std::to_string(d.cc_minor) + "; TF32 tensor cores need 8.0 or newer";
    if (!have_measurer)
        return "this program has no TF32 measurement (the GEMM chapter's GPU steps, which "
               "measure it with cuBLAS, are not linked)";
    return {};
}

}  // namespace

void SetTf32Measurer(Tf32Measurer measurer) {
    Tf32State& s = State();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.measurer = std::move(measurer);
}

Tf32Ceiling GetTf32Ceiling(int ordinal) {
    const DeviceList& list = GetDevices();
    Tf32State& s = State();
    std::lock_guard<std::mutex> lock(s.mutex);
    Tf32Ceiling c;
    c.unavailable = WhyNot(list, ordinal, bool(s.measurer));
    if (!c.unavailable.empty()) return c;
    if (s.measured.size() < list.devices.size()) s.measured.resize(list.devices.size());
    std::optional<Tf32Ceiling>& slot = s.measured[size_t(ordinal)];
    if (slot) return *slot;
    // A CUDA error propagates and leaves nothing cached: the next call measures again.
    try {
        c.gflops = s.measurer(ordinal);
        if (c.gflops <= 0) c.unavailable = "the TF32 measurement gave no rate";
    } catch (const UnavailableError& e) {
        c.unavailable = e.what();
    } catch (const UsageError& e) {
        c.unavailable = e.what();
    }
    slot = c;
    return c;
}

Tf32Ceiling KnownTf32Ceiling(int ordinal) {
    const DeviceList& list = GetDevices();
    Tf32State& s = State();
    std::lock_guard<std::mutex> lock(s.mutex);
    Tf32Ceiling c;
    c.unavailable = WhyNot(list, ordinal, bool(s.measurer));
    if (!c.unavailable.empty()) return c;
    if (size_t(ordinal) < s.measured.size() && s.measured[size_t(ordinal)])
        return *s.measured[size_t(ordinal)];
    c.unavailable = "not measured yet: it is measured when a tensor-core step first runs";
    return c;
}

std::vector<Ceilings> AllCeilings(bool measure_tf32) {
    std::vector<Ceilings> all;
    for (const DeviceInfo& d : GetDevices().devices) {
        all.push_back(GetCeilings(d.ordinal));
        const Tf32Ceiling t =
            measure_tf32 ? GetTf32Ceiling(d.ordinal) : KnownTf32Ceiling(d.ordinal);
        all.back().tf32_gflops = t.gflops;
        all.back().tf32_unavailable = t.unavailable;
    }
    return all;
}

}  // namespace lessons
