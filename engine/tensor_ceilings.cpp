// The tensor-core ceilings' cache (device.h): the measurements themselves are the chapters'
// (TF32: the GEMM chapter's gemm_harness.cu; bf16: the tensor-core chapter's tc_harness.cu,
// both through cuBLAS), registered with SetTensorMeasurer, so that the engine links no cuBLAS.
// Built with and without CUDA: without, there is no device and no measurer.
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "device.h"
#include "errors.h"

namespace lessons {
namespace {

struct TensorState {
    TensorMeasurer measurer;
    std::vector<std::optional<TensorCeiling>> measured;  // by ordinal
};

struct State {
    std::mutex mutex;
    TensorState tf32, bf16;
};

State& Shared() {
    static State state;
    return state;
}

TensorState& Of(State& s, Bound bound) {
    if (bound == Bound::kTf32) return s.tf32;
    if (bound == Bound::kBf16) return s.bf16;
    throw std::logic_error(std::string("no tensor-core ceiling for bound ") + ToString(bound));
}

// Why device `ordinal` has no ceiling of `bound` before anything is measured; empty: it can
// have one.
std::string WhyNot(const DeviceList& list, int ordinal, Bound bound, bool have_measurer) {
    if (!list.available() && ordinal == 0) return list.unavailable.text;
    if (ordinal < 0 || ordinal >= list.count())
        throw UsageError("there is no GPU " + std::to_string(ordinal) + ": this machine has " +
                         std::to_string(list.count()) +
                         (list.count() ? " (0 to " + std::to_string(list.count() - 1) + ")" : ""));
    const DeviceInfo& d = list.devices[size_t(ordinal)];
    const char* what = bound == Bound::kTf32 ? "TF32" : "bf16";
    if (d.cc_major < 8)
        return d.name + " has compute capability " + std::to_string(d.cc_major) + "." +
               std::to_string(d.cc_minor) + "; " + what + " tensor cores need 8.0 or newer";
    if (!have_measurer)
        return bound == Bound::kTf32
                   ? "this program has no TF32 measurement (the GEMM chapter's GPU steps, which "
                     "measure it with cuBLAS, are not linked)"
                   : "this program has no bf16 measurement (the tensor-core chapter's GPU steps, "
                     "which measure it with cuBLAS, are not linked)";
    return {};
}

}  // namespace

void SetTensorMeasurer(Bound bound, TensorMeasurer measurer) {
    State& s = Shared();
    std::lock_guard<std::mutex> lock(s.mutex);
    Of(s, bound).measurer = std::move(measurer);
}

namespace {

// `bound`'s ceiling on GPU `ordinal`: as measured before, else measured now when `measure` is
// set, else unavailable with the reason.
TensorCeiling Ceiling(Bound bound, int ordinal, bool measure) {
    const DeviceList& list = GetDevices();
    State& s = Shared();
    std::lock_guard<std::mutex> lock(s.mutex);
    TensorState& t = Of(s, bound);
    TensorCeiling c;
    c.unavailable = WhyNot(list, ordinal, bound, bool(t.measurer));
    if (!c.unavailable.empty()) return c;
    if (t.measured.size() < list.devices.size()) t.measured.resize(list.devices.size());
    std::optional<TensorCeiling>& slot = t.measured[size_t(ordinal)];
    if (slot) return *slot;
    if (!measure) {
        c.unavailable = "not measured yet: it is measured when a tensor-core step first runs";
        return c;
    }
    // A CUDA error propagates and leaves nothing cached: the next call measures again.
    try {
        c.gflops = t.measurer(ordinal);
        if (c.gflops <= 0)
            c.unavailable = std::string("the ") + (bound == Bound::kTf32 ? "TF32" : "bf16") +
                            " measurement gave no rate";
    } catch (const UnavailableError& e) {
        c.unavailable = e.what();
    } catch (const UsageError& e) {
        c.unavailable = e.what();
    }
    slot = c;
    return c;
}

}  // namespace

TensorCeiling GetTensorCeiling(Bound bound, int ordinal) {
    return Ceiling(bound, ordinal, true);
}

TensorCeiling KnownTensorCeiling(Bound bound, int ordinal) {
    return Ceiling(bound, ordinal, false);
}

std::vector<Ceilings> AllCeilings(bool measure_tensor) {
    std::vector<Ceilings> all;
    for (const DeviceInfo& d : GetDevices().devices) {
        all.push_back(GetCeilings(d.ordinal));
        for (Bound bound : {Bound::kTf32, Bound::kBf16}) {
            const TensorCeiling t = measure_tensor ? GetTensorCeiling(bound, d.ordinal)
                                                   : KnownTensorCeiling(bound, d.ordinal);
            if (bound == Bound::kTf32) {
                all.back().tf32_gflops = t.gflops;
                all.back().tf32_unavailable = t.unavailable;
            } else {
                all.back().bf16_gflops = t.gflops;
                all.back().bf16_unavailable = t.unavailable;
            }
        }
    }
    return all;
}

// Beside the tensor-core ceilings because this file is in the device library with and without
// CUDA: the cold-L2 flag of the run on this thread (device.h).
namespace {
thread_local bool t_cold_l2 = false;
}  // namespace

void SetColdL2Timing(bool cold) {
    t_cold_l2 = cold;
}

bool ColdL2Timing() {
    return t_cold_l2;
}

}  // namespace lessons
