// What a chapter and a lesson are. Every list the programs show (CLI list, bench, the GUI's
// menu, tests) is built from the Registry that holds these declarations.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lessons {

enum class StepKind { kCpu, kGpu };
enum class DataKind { kRandom, kDense, kNone, kOnes };

const char* ToString(StepKind kind);
const char* ToString(DataKind kind);
// Throws UsageError naming the valid values.
DataKind ParseDataKind(std::string_view text);

// How a chapter's input is made: generated from a seed, or read from a file.
struct WorkloadSpec {
    uint64_t size_bytes = 0;
    DataKind data = DataKind::kRandom;
    uint64_t seed = 1;
    std::string input_file;  // non-empty: read this file instead of generating
    // Set to stop generating or reading with Cancelled; not part of what the spec describes.
    const std::atomic<bool>* cancel = nullptr;

    bool operator==(const WorkloadSpec& o) const {
        return size_bytes == o.size_bytes && data == o.data && seed == o.seed &&
               input_file == o.input_file;
    }
};

// A chapter's input and its CPU reference answer, shared by every step of the chapter.
class Workload {
public:
    virtual ~Workload() = default;
    virtual uint64_t SizeBytes() const = 0;
    // Size of the problem as the chapter counts it (bytes for split, elements for reduction).
    virtual std::string Describe() const = 0;
};

// One timed execution of a step. Parts are set where the step has them (copies and kernel).
struct Sample {
    double total_ms = 0;
    std::optional<double> h2d_ms;
    std::optional<double> kernel_ms;
    std::optional<double> d2h_ms;
};

// The check of a step's output against the chapter's reference.
struct Check {
    bool ok = false;
    std::string message;             // empty when ok; else what differs, e.g. the first mismatch
    std::optional<uint64_t> found;   // e.g. number of line breaks found (split)
    std::optional<double> value;     // e.g. the sum computed (reduction)
    std::optional<double> expected;  // and the reference's
};

struct StepConfig {
    int block = 0;    // threads per block (GPU steps)
    int threads = 0;  // host threads (OpenMP steps)
};

// A step set up for one workload and config: buffers allocated, nothing timed yet.
// Run() executes the step once and times itself; Verify() checks the output of the last Run().
class StepInstance {
public:
    virtual ~StepInstance() = default;
    virtual Sample Run() = 0;
    virtual Check Verify() const = 0;
    // Bytes the step must move through memory at the least (the basis for GB/s).
    virtual uint64_t BytesMoved() const = 0;
    // Writes the step's output in the chapter's file format (split: sorted offsets).
    virtual void WriteOutput(std::ostream& out) const;
    // Other measurements the step makes once, at set-up, in milliseconds unless the name says
    // otherwise (e.g. "alloc_pinned_ms": what page-locking the host buffer cost).
    virtual std::vector<std::pair<std::string, double>> Extras() const { return {}; }
};

// The block sizes a GPU step accepts: multiples of 32 in [min, max] (powers of two only when
// the kernel's indexing needs it), further capped by the kernel's own limit at run time.
struct BlockSpec {
    int min = 32;
    int max = 1024;
    int default_block = 256;
    bool power_of_two = false;
    std::string why;  // shown with the choices, e.g. why powers of two are needed

    bool Accepts(int block) const;
    std::vector<int> Choices() const;  // the values a slider offers
};

// Memory a step needs for a problem of `size_bytes`, checked before anything is allocated.
struct MemoryNeeds {
    uint64_t host_bytes = 0;
    uint64_t device_bytes = 0;
};

// Resource use of a step's kernel at a block size (cudaFuncGetAttributes + occupancy).
struct KernelAttributes {
    std::string kernel;
    int registers = 0;
    int static_smem_bytes = 0;
    int max_threads_per_block = 0;
    int active_blocks_per_sm = 0;
    double occupancy = 0;  // active warps / max warps per SM
};

struct Lesson {
    int number = 0;
    std::string id;       // "split/04-one-thread-per-pair": menu, legend, CLI, CSV, tests
    std::string chapter;  // chapter id
    std::string title;
    StepKind kind = StepKind::kCpu;
    int previous = 0;         // lesson plotted against this one; 0 for a chapter's first
    std::string source_path;  // the step's file, e.g. "kernels/split/04_one_thread_per_pair.cu"
    std::string_view source;  // its contents (embedded at build time)
    std::string_view text_en;
    std::string_view text_zh;
    std::optional<BlockSpec> blocks;  // GPU steps
    bool uses_threads = false;        // OpenMP steps: the thread count is a setting
    bool library = false;             // a library call (CUB, cuBLAS): no block size to set
    std::function<MemoryNeeds(uint64_t size_bytes)> needs;
    // Null when this build cannot run the step (GPU step in a build without CUDA).
    std::function<std::unique_ptr<StepInstance>(const Workload&, const StepConfig&)> make;
    // GPU steps: resource use of the kernel at a block size.
    std::function<KernelAttributes(int block)> attributes;
};

struct Chapter {
    int number = 0;
    std::string id;  // "split"
    std::string title;
    std::string bytes_rule;  // how GB/s is counted, in words
    uint64_t default_size = 0;
    uint64_t element_bytes = 1;        // sizes must be a multiple of this (4 for float arrays)
    std::vector<DataKind> data_kinds;  // what the generator makes; the first is the default
    bool accepts_input_file = false;
    std::function<std::shared_ptr<Workload>(const WorkloadSpec&)> make_workload;
    // Host memory the workload itself takes (input + reference), checked before generating.
    std::function<uint64_t(uint64_t size_bytes)> workload_host_bytes;
};

}  // namespace lessons
