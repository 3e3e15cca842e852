// Chapter 1, split lines: the problem (data, reference, check) and the harness shared by
// its steps. Step code itself lives in kernels/split/.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lesson.h"

namespace lessons::split {

// The kinds of text the chapter generates (its "data" parameter).
enum class TextKind { kRandom, kDense, kNone };
TextKind ParseTextKind(const std::string& name);

// Text for the chapter, from a seed (the same bytes on every machine and thread count):
//  random: uniform random bytes, so '\r' and '\n' each appear with probability 1/256 (the
//          seed's test file) and a "\r\n" pair about once every 64 KiB;
//  dense:  lines of 0 to 3 printable bytes, each ended by "\r\n": the worst case for
//          anything that serialises on the number of hits;
//  none:   random bytes that are never '\r' or '\n'.
void FillSplitText(TextKind kind, uint64_t seed, char* out, uint64_t size,
                   const std::atomic<bool>* cancel = nullptr);

// The text to scan and the reference answer (sorted offsets).
class SplitWorkload : public Workload {
public:
    explicit SplitWorkload(const WorkloadSpec& spec);
    uint64_t SizeBytes() const override { return m_size; }
    const char* data() const { return m_data.get(); }
    const std::vector<uint64_t>& reference() const { return m_reference; }

private:
    std::unique_ptr<char[]> m_data;
    uint64_t m_size = 0;
    std::vector<uint64_t> m_reference;
};

// The work of a step over n bytes that finds `found` line breaks: read the buffer once, write
// 8 bytes per offset; a GPU step also copies the text in and the offsets (and their count) out.
Work SplitWork(uint64_t n, uint64_t found, bool on_gpu);
// What `found` line breaks add to that work: 8 bytes written per offset, and on the GPU the
// offsets and their count copied out.
void CountBreaks(Work& work, uint64_t found, bool on_gpu);
// The line breaks n bytes of a data kind hold on average, for predictions: random bytes have a
// "\r\n" pair 1 time in 65536, dense text one per 3.5 bytes (0-3 bytes then "\r\n"), none 0.
uint64_t ExpectedBreaks(const std::string& data, uint64_t n);

// The multi-GPU steps' shares start on whole 4 KiB pages: page-aligned copies from pinned
// memory run at full speed (engine/shares.h cuts them; the work rule counts what crosses).
constexpr uint64_t kSplitShareAlign = 4096;

// Host memory the workload takes for n bytes, at worst (every other byte a pair).
uint64_t SplitWorkloadHostBytes(uint64_t n);

// What the check says when a step's offsets are wrong, in both languages (Chapter::messages).
std::vector<MessageForm> SplitMessages();

// Base of every split step: the output on the host, its check, the bytes moved.
class SplitStep : public StepInstance {
public:
    SplitStep(const Workload& workload, bool on_gpu);
    Check Verify() const override;
    // The lesson's declared work with the line breaks as found (the rule expects a count for
    // the data kind; see ExpectedBreaks).
    Work Measured(Work declared) const override;
    void WriteOutput(std::ostream& out) const override;

protected:
    const SplitWorkload& m_work;
    std::unique_ptr<uint64_t[]> m_out;  // SplitCapacity(n) values, not initialised
    uint64_t m_found = 0;
    bool m_on_gpu = false;
};

// Memory a CPU step needs: its output buffer.
MemoryNeeds SplitCpuNeeds(const ParamValues& params);
// Memory a GPU step needs: its output on the host; the text, output and counter on the GPU.
MemoryNeeds SplitGpuNeeds(const ParamValues& params);
// The same, plus a page-locked copy of the text on the host (the steps from pinned-memory on).
MemoryNeeds SplitPinnedGpuNeeds(const ParamValues& params);

// The CPU steps.
std::unique_ptr<StepInstance> MakeSplitNaive(const Workload& w, const StepContext& c);
std::unique_ptr<StepInstance> MakeSplitEvenPositions(const Workload& w, const StepContext& c);
std::unique_ptr<StepInstance> MakeSplitOpenMP(const Workload& w, const StepContext& c);

}  // namespace lessons::split
