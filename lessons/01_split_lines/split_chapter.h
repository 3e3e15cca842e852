// Chapter 1, split lines: the problem (data, reference, check) and the harness shared by
// its steps. Step code itself lives in kernels/split/.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "lesson.h"

namespace lessons::split {

// The text to scan and the reference answer (sorted offsets).
class SplitWorkload : public Workload {
public:
    explicit SplitWorkload(const WorkloadSpec& spec);
    uint64_t SizeBytes() const override { return m_size; }
    std::string Describe() const override;
    const char* data() const { return m_data.get(); }
    const std::vector<uint64_t>& reference() const { return m_reference; }

private:
    std::unique_ptr<char[]> m_data;
    uint64_t m_size = 0;
    std::vector<uint64_t> m_reference;
};

// Host memory the workload takes for n bytes, at worst (every other byte a pair).
uint64_t WorkloadHostBytes(uint64_t n);

// Base of every split step: the output on the host, its check, the bytes moved.
class SplitStep : public StepInstance {
public:
    explicit SplitStep(const Workload& workload);
    Check Verify() const override;
    uint64_t BytesMoved() const override;  // read the buffer once, write 8 bytes per offset
    void WriteOutput(std::ostream& out) const override;

protected:
    const SplitWorkload& m_work;
    std::unique_ptr<uint64_t[]> m_out;  // SplitCapacity(n) values, not initialised
    uint64_t m_found = 0;
};

// Memory a CPU step needs: its output buffer.
MemoryNeeds CpuStepNeeds(uint64_t n);
// Memory a GPU step needs: its output on the host; the text, output and counter on the GPU.
MemoryNeeds GpuStepNeeds(uint64_t n);
// The same, plus a page-locked copy of the text on the host (lessons 5 to 11).
MemoryNeeds PinnedGpuStepNeeds(uint64_t n);

// Factories of the CPU steps (lessons 1-3).
std::unique_ptr<StepInstance> MakeNaive(const Workload& w, const StepConfig& c);
std::unique_ptr<StepInstance> MakeEvenPositions(const Workload& w, const StepConfig& c);
std::unique_ptr<StepInstance> MakeOpenMP(const Workload& w, const StepConfig& c);

}  // namespace lessons::split
