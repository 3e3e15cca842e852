// What the worker said about this machine's GPUs in its `info` reply (docs/serve-protocol.md),
// read once into types that the status bar, the controls, the prediction and the roofline take.
// The worker is another program: every figure is read defensively, and a field that is missing
// or of another type reads as unknown (0, empty), never as an exception.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "message.h"
#include "predict.h"
#include "report.h"  // Json

namespace lessons::app {

// A GPU's ceilings as the worker measured them (GB/s, GFLOP/s); 0 where unknown. The TF32 and
// bf16 figures are there once a tensor-core step (or "measure again") has measured them.
struct GpuCeilings : PredictCeilings {
    double block_floor_ns = 0;  // an empty kernel's time per block of 32 threads
    double datasheet_gbps = 0;  // the memory's datasheet bandwidth, for comparison
};

struct GpuFacts {
    std::string name;
    uint64_t total_memory_bytes = 0;
    uint64_t free_memory_bytes = 0;  // when the info was asked; 0: not known
    int sm_count = 0;
    int max_threads_per_sm = 0;
    int clock_khz = 0;  // peak SM clock
    GpuCeilings ceilings;
};

struct DeviceFacts {
    bool reported = false;       // an info reply with the device summary has arrived
    bool available = false;      // the worker can run GPU steps
    Message reason;              // why it cannot (reported and not available)
    std::vector<GpuFacts> gpus;  // device 0 first; empty without a GPU
    std::string cpu;             // the host's CPU model ("host": {"cpu"}), "" when not said

    const GpuFacts* First() const { return gpus.empty() ? nullptr : &gpus.front(); }
};

// From the worker's `info` reply: its "device" summary (device 0's facts, or why there is no
// GPU) and its "devices" list (every GPU).
DeviceFacts DeviceFactsFromInfo(const Json& info);

}  // namespace lessons::app
