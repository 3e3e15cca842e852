#include "predict.h"

#include <algorithm>

namespace lessons {

double MsAt(uint64_t bytes, double gbps) {
    return gbps > 0 ? static_cast<double>(bytes) / gbps / 1e6 : 0;
}

Prediction Predict(const Work& work, const PredictCeilings& c) {
    Prediction p;
    if (work.bound == Bound::kNone) return p;
    p.complete = true;
    // The device part: the memory bytes at the copy bandwidth for a copy-like step, else at the
    // read-only bandwidth (read-mostly steps, arithmetic, and steps bound by their copies).
    p.device_bound = work.bound == Bound::kCopy ? Bound::kCopy : Bound::kRead;
    const double memory_gbps = p.device_bound == Bound::kCopy ? c.copy_gbps : c.read_gbps;
    p.device_ceiling = memory_gbps;
    if (work.MemoryBytes() > 0) {
        p.memory_ms = MsAt(work.MemoryBytes(), memory_gbps);
        p.complete = p.complete && memory_gbps > 0;
    }
    if (work.flops > 0 && IsArithmetic(work.bound)) {
        // A tensor-core step without its TF32 or bf16 figure is incomplete, never timed at the fp32
        // peak.
        const double peak = work.bound == Bound::kTf32   ? c.tf32_gflops
                            : work.bound == Bound::kBf16 ? c.bf16_gflops
                                                         : c.fp32_gflops;
        p.flops_ms = peak > 0 ? static_cast<double>(work.flops) / peak / 1e6 : 0;
        p.complete = p.complete && peak > 0;
        if (p.flops_ms >= p.memory_ms) {
            p.device_bound = work.bound;
            p.device_ceiling = peak;
        }
    }
    p.device_ms = std::max(p.memory_ms, p.flops_ms);
    if (work.h2d_bytes > 0) {
        p.h2d_ms = MsAt(work.h2d_bytes, c.h2d_gbps);
        p.complete = p.complete && c.h2d_gbps > 0;
    }
    if (work.d2h_bytes > 0) {
        p.d2h_ms = MsAt(work.d2h_bytes, c.d2h_gbps);
        p.complete = p.complete && c.d2h_gbps > 0;
    }
    p.overlapped = work.bound == Bound::kH2D;
    p.total_ms = p.overlapped ? std::max(p.h2d_ms, p.device_ms) + p.d2h_ms
                              : p.h2d_ms + p.device_ms + p.d2h_ms;
    p.rate_ms = work.rate_part == "kernel" && !p.overlapped ? p.device_ms : p.total_ms;
    return p;
}

double LittleGbps(double bytes_per_thread, double resident_threads, double latency_ns) {
    return latency_ns > 0 ? bytes_per_thread * resident_threads / latency_ns : 0;
}

double ImpliedLatencyNs(double bytes_per_thread, double resident_threads, double gbps) {
    return gbps > 0 ? bytes_per_thread * resident_threads / gbps : 0;
}

double AssumedLatencyNs(int clock_khz) {
    return clock_khz > 0 ? kAssumedDramLatencyCycles / (clock_khz * 1e3) * 1e9 : 0;
}

double TimesBound(double measured_ms, double bound_ms) {
    return measured_ms > 0 && bound_ms > 0 ? measured_ms / bound_ms : 0;
}

}  // namespace lessons
