// Predict, then measure: the least time a step's work takes on a device's measured ceilings
// (memory bytes at the read or copy bandwidth, flops at the fp32 peak or, for tensor-core
// steps, the TF32 peak, bytes over PCIe at the host-to-device and device-to-host rates), and
// Little's law for steps that keep too few bytes in flight to reach those ceilings. Pure
// arithmetic: the GUI computes it live for its page.
#pragma once

#include "lesson.h"

namespace lessons {

// The ceilings a prediction uses, in GB/s and GFLOP/s; 0 where unknown.
struct PredictCeilings {
    double read_gbps = 0;
    double copy_gbps = 0;
    double fp32_gflops = 0;
    double h2d_gbps = 0;
    double d2h_gbps = 0;
    double tf32_gflops = 0;  // cuBLAS's TF32 SGEMM, for tensor-core steps
    double bf16_gflops = 0;  // cuBLAS's bf16 GEMM, for the bf16 tensor-core steps
};

struct Prediction {
    Bound device_bound =
        Bound::kNone;           // the ceiling the device part is held to (read/copy/fp32/tf32)
    double device_ceiling = 0;  // its figure
    double memory_ms = 0;       // the memory bytes at the read (or copy) bandwidth
    double flops_ms = 0;        // the flops at the fp32 (or, tensor cores, TF32) peak
    double device_ms = 0;       // the larger of the two: the kernel's least time
    double h2d_ms = 0;          // the bytes over PCIe, host to device
    double d2h_ms = 0;          // ... and device to host
    // Copies and kernels overlap (a step bound by its host-to-device copy): the whole run takes
    // at least the longer of the copy in and the kernel, then the copy out; else their sum.
    bool overlapped = false;
    double total_ms = 0;    // the whole run's least time
    double rate_ms = 0;     // the least time of the part the rate is taken over (Work::rate_part)
    bool complete = false;  // every ceiling the work needs was known
};

// The least time `work` takes on `ceilings`. A step without a bound (a CPU step) gets an empty
// prediction (complete = false, every time 0).
Prediction Predict(const Work& work, const PredictCeilings& ceilings);

// Milliseconds to move `bytes` at `gbps` (1e9 bytes/s); 0 when the rate is unknown.
double MsAt(uint64_t bytes, double gbps);

// Little's law: the rate (GB/s) that `resident_threads` threads, each with
// `bytes_per_thread` in flight, sustain when each load takes `latency_ns`.
double LittleGbps(double bytes_per_thread, double resident_threads, double latency_ns);
// The latency (ns) at which that many bytes in flight give `gbps`: what a measured rate implies.
double ImpliedLatencyNs(double bytes_per_thread, double resident_threads, double gbps);

// The DRAM latency the page assumes for Little's law, in SM clock cycles (HBM3 on Hopper is
// about 600 cycles unloaded: fp4-site.pages.dev/silicon/gpu-memory-hierarchy), and in ns at a
// clock of `clock_khz` (0: unknown, gives 0).
constexpr double kAssumedDramLatencyCycles = 600;
double AssumedLatencyNs(int clock_khz);

// measured / bound: "measured is 1.08x the bound"; 0 when either is unknown.
double TimesBound(double measured_ms, double bound_ms);

}  // namespace lessons
