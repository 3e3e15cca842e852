// The GPUs as the engine sees them: a list of devices with their facts and peer access, and
// the ceilings measured on each. Implemented with the CUDA runtime in cuda/device.cu and
// cuda/ceilings.cu, or by device_none.cpp in a build without CUDA (no devices, with the reason).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "message.h"

#include "work.h"

namespace lessons {

// The blocks of the launch-floor kernel: 2^21, the grid of a 256 MiB array of floats in
// blocks of 32 threads (chapter 2's experiments at block 32).
inline constexpr unsigned kFloorBlocks = 1u << 21;

// What a step can reach on one device, measured once per process (GetCeilings) with the
// datasheet figures beside. Rates in GB/s (1e9 bytes/s) and GFLOP/s; 0 where unknown.
struct Ceilings {
    double read_gbps = 0;       // fastest of five read-only streaming kernels, bytes / time
    double copy_gbps = 0;       // device-to-device copy, (bytes read + bytes written) / time
    uint64_t memory_bytes = 0;  // the footprint both were measured over (1 GiB where it fits)
    double fp32_gflops = 0;     // a kernel of independent FMAs on every SM, 2 flops per FMA
    double h2d_gbps = 0;        // pinned host to device
    double d2h_gbps = 0;        // device to pinned host
    // The block-launch floor: an empty kernel over kFloorBlocks blocks of 32 (and of 256)
    // threads, median time per block in ns. What a grid costs when its blocks do nothing.
    double block_floor_ns = 0;
    double block_floor_256_ns = 0;
    std::vector<double> peer_gbps;     // [j]: copy from this device to device j (0 for itself)
    double datasheet_dram_gbps = 0;    // 2 (DDR) x memory clock x bus width
    double datasheet_fp32_gflops = 0;  // SMs x FP32 lanes per SM x 2 x boost clock
    double datasheet_pcie_gbps = 0;    // PCIe generation x link width; 0: unknown
    // Measured apart, only when a step needs them (GetTensorCeiling): GetCeilings leaves these
    // empty, and the reports that show them (`info`) copy them in.
    double tf32_gflops = 0;        // cuBLAS's own TF32 SGEMM, best of a few runs
    std::string tf32_unavailable;  // why tf32_gflops is 0 (not measured yet, no cuBLAS, ...)
    double bf16_gflops = 0;        // cuBLAS's bf16 GEMM (fp32 accumulation), median of a few runs
    std::string bf16_unavailable;  // why bf16_gflops is 0
};

// One device's facts, as cudaGetDeviceProperties and the PCI bus report them.
struct DeviceInfo {
    int ordinal = 0;  // the CUDA device number; devices[i].ordinal == i
    std::string name;
    int cc_major = 0;
    int cc_minor = 0;
    int sm_count = 0;
    uint64_t total_memory = 0;
    uint64_t l2_bytes = 0;
    int max_threads_per_block = 0;
    int max_threads_per_sm = 0;
    int clock_khz = 0;          // peak (boost) SM clock
    int fp32_lanes_per_sm = 0;  // FP32 FMA units per SM, from the compute capability
    int memory_clock_khz = 0;
    int bus_width_bits = 0;
    double datasheet_gbps = 0;      // 2 (DDR) x memory clock x bus width
    std::string pci_bus_id;         // "0000:18:00.0"
    double pcie_link_gtps = 0;      // the link's top speed per lane (GT/s); 0: unknown
    int pcie_link_width = 0;        // lanes; 0: unknown
    int pcie_generation = 0;        // 1 to 6; 0: unknown
    std::vector<bool> peer_access;  // [j]: this device can access device j's memory
    int driver_version = 0;
    int runtime_version = 0;

    // The old single-device view, kept while callers move to GetDevices(); filled in every
    // entry of the list too.
    bool built_with_cuda = false;
    int count = 0;        // number of devices; 0: no usable GPU
    Message unavailable;  // why GPU lessons cannot run here
    bool available() const { return count > 0; }
};

struct DeviceList {
    bool built_with_cuda = false;
    Message unavailable;               // why there is no device (empty when there is one)
    std::vector<DeviceInfo> devices;   // every usable device, in CUDA order
    std::vector<std::string> skipped;  // devices left out (too old), with why
    bool available() const { return !devices.empty(); }
    int count() const { return static_cast<int>(devices.size()); }
};

// Queried once per process. Never throws: no driver or no device gives an empty list and a
// reason. Devices are usable from ordinal 0 up: a device too old for this build ends the list
// (hide it with CUDA_VISIBLE_DEVICES to use the ones after it).
const DeviceList& GetDevices();

// Every ceiling of one device, measured together on the first call for that device (well
// under 2 s; later calls return the same figures). Thread-safe. Throws UsageError for an
// ordinal that is not in the list; without a GPU, device 0's ceilings are all 0. The peer
// measurement enables peer access from this device to every device that allows it.
const Ceilings& GetCeilings(int ordinal);

// The read and copy ceilings of one device over a footprint of its own, so that a memory-bound
// step is compared with streaming its own bytes, not GetCeilings' 1 GiB (a kernel over 256 MiB
// reaches less of the memory's rate than one over 1 GiB).
struct MemoryCeilingsAt {
    double read_gbps = 0;
    double copy_gbps = 0;
    uint64_t bytes = 0;  // the footprint measured; 0: unknown (no GPU)
};

// The footprint measured for a step of `bytes`: its bytes rounded up to five significant bits
// (at most 6.25% more; neighbouring sizes share one measurement), at least four times the L2 and 64
// MiB (below that the streaming kernels would time the L2 or their launch, not the memory), and at
// most `standard`, GetCeilings' own footprint, whose figures are then used.
inline uint64_t MemoryCeilingFootprint(uint64_t bytes, uint64_t l2_bytes, uint64_t standard) {
    uint64_t at = std::max<uint64_t>({bytes, 4 * l2_bytes, uint64_t(64) << 20});
    int bits = 0;
    for (uint64_t v = at; v > 31; v >>= 1) ++bits;
    const uint64_t unit = uint64_t(1) << bits;  // five significant bits: round up to `unit`s
    at = (at + unit - 1) / unit * unit;
    return standard ? std::min(at, standard) : at;
}

// The ceilings at MemoryCeilingFootprint(bytes, ...) of device `ordinal`: measured once per
// device and footprint (well under a second), GetCeilings' figures at its own footprint.
// Thread-safe. Where the device has no room for the measurement, GetCeilings' figures (their
// `bytes` say so). Without a GPU, zeros.
MemoryCeilingsAt GetMemoryCeilingsAt(int ordinal, uint64_t bytes);

// The tensor-core ceilings of one device (Bound::kTf32, Bound::kBf16), each a library GEMM at a
// size that reaches its peak: TF32, the fastest of a few runs of cuBLAS's own TF32 SGEMM
// (CUBLAS_TF32_TENSOR_OP_MATH); bf16, the median of a few runs of cuBLAS's bf16 GEMM with fp32
// accumulation (the same statistic as every result's time). The engine links no cuBLAS: the
// chapters register the measurements where their GPU library is linked (SetTensorMeasurer), and
// each runs only when something asks for its figure (a step held to it, `info`, the roofline's
// "measure the ceilings again"), once per device and process.
struct TensorCeiling {
    double gflops = 0;        // 0: unknown
    std::string unavailable;  // why it is unknown
};
using Tf32Ceiling = TensorCeiling;
// Measures device `ordinal` (current for the call) and returns GFLOP/s; throws
// UnavailableError (no cuBLAS, ...) or UsageError (no memory) with the reason.
using TensorMeasurer = std::function<double(int ordinal)>;
using Tf32Measurer = TensorMeasurer;
// `bound`: Bound::kTf32 or Bound::kBf16 (any other throws std::logic_error).
void SetTensorMeasurer(Bound bound, TensorMeasurer measurer);
// Measured on the first call for a device (well under a second), then the same figure.
// Thread-safe. Without a measurer, on a GPU below compute capability 8.0 (no TF32 or bf16
// tensor cores) or when the measurement fails, gflops is 0 and `unavailable` says why. Throws
// UsageError for an ordinal that is not in the list.
TensorCeiling GetTensorCeiling(Bound bound, int ordinal);
// The figure if it has been measured in this process, without measuring: unavailable says
// "not measured yet" until then.
TensorCeiling KnownTensorCeiling(Bound bound, int ordinal);
inline void SetTf32Measurer(TensorMeasurer measurer) {
    SetTensorMeasurer(Bound::kTf32, std::move(measurer));
}
inline TensorCeiling GetTf32Ceiling(int ordinal) {
    return GetTensorCeiling(Bound::kTf32, ordinal);
}
inline TensorCeiling KnownTf32Ceiling(int ordinal) {
    return KnownTensorCeiling(Bound::kTf32, ordinal);
}
// Every device's ceilings, in device order, with its tensor-core ceilings measured now
// (`measure_tensor`) or as far as they are known.
std::vector<Ceilings> AllCeilings(bool measure_tensor);

struct DeviceMemory {
    uint64_t free_bytes = 0;
    uint64_t total_bytes = 0;
};
// Free and total memory of a device now; all 0 without a GPU.
DeviceMemory QueryDeviceMemory(int ordinal = 0);

// Evicts a device's L2 cache (writes a buffer twice its size and waits), for cold-L2 timing.
void FlushL2(int ordinal = 0);

// Whether the run on this thread is timed with a cold L2 (RunOptions::cold_l2): the session sets
// it for the time of a run. A step that launches a short kernel several times within one timed
// sample (cuda::BatchFor) launches it once instead, so that every timed launch finds the L2
// flushed.
void SetColdL2Timing(bool cold);
bool ColdL2Timing();

// True when this build contains GPU code.
bool BuiltWithCuda();

// NCCL, as the multi-GPU lessons load it at run time: the file and version, or why it is
// unavailable and what to install (kernels/nccl/nccl_loader.h).
std::string NcclStatus();

// Old single-device calls, kept while callers move to the list: device 0 (or, without a GPU,
// count 0 and the reason), and GetCeilings(0).copy_gbps.
const DeviceInfo& GetDeviceInfo();
double MeasuredCopyGbps();

}  // namespace lessons
