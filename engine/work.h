// The work a step must do, and the ceiling it is held to: the basis of every rate, of the
// roofline and of the page's prediction.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "params.h"

namespace lessons {

// Which measured ceiling a step's rate is compared with.
enum class Bound {
    kNone,  // no ceiling (CPU steps)
    kRead,  // read-mostly: the read-only streaming bandwidth
    kCopy,  // reads and writes alike: the device copy bandwidth
    kFp32,  // arithmetic: the fp32 FMA peak
    kTf32,  // arithmetic on TF32 tensor cores: cuBLAS's own TF32 SGEMM rate (GetTf32Ceiling)
    kBf16,  // arithmetic on bf16 tensor cores: cuBLAS's bf16 GEMM rate (GetTensorCeiling)
    kH2D,   // limited by host-to-device copies over PCIe
    kPeer,  // limited by copies between GPUs
};
const char* ToString(Bound bound);
Bound ParseBound(std::string_view text);  // "" or unknown: kNone
// Arithmetic bounds (fp32, TF32, bf16): the rate is GFLOP/s, not GB/s.
inline bool IsArithmetic(Bound bound) {
    return bound == Bound::kFp32 || bound == Bound::kTf32 || bound == Bound::kBf16;
}
// The tensor-core bounds, whose ceilings a library GEMM measures (GetTensorCeiling).
inline bool IsTensor(Bound bound) {
    return bound == Bound::kTf32 || bound == Bound::kBf16;
}
// What the ceiling is, in words: "read-only bandwidth", "fp32 FMA peak", ...; and in Chinese.
const char* CeilingDescription(Bound bound);
const char* CeilingDescriptionZh(Bound bound);

// The work a step must do at the least, the basis of every rate and of the roofline.
struct Work {
    uint64_t bytes_read = 0;     // device (or host, for CPU steps) memory
    uint64_t bytes_written = 0;  // device (or host) memory
    uint64_t flops = 0;
    uint64_t h2d_bytes = 0;   // over PCIe, host to device
    uint64_t d2h_bytes = 0;   // over PCIe, device to host
    uint64_t peer_bytes = 0;  // between GPUs
    Bound bound = Bound::kNone;
    // The rate is taken over this part of the time when the step reports it (the kernel,
    // without the copies around it), else over the whole sample.
    std::string rate_part = "kernel";

    uint64_t MemoryBytes() const { return bytes_read + bytes_written; }
};

// The work a step must do for a parameter set, computed without running it (the prediction of
// a lesson's page). Where the work depends on the data (split: the line breaks found), the
// expected count for the data kind is used.
using WorkFn = std::function<Work(const ParamValues&)>;

}  // namespace lessons
