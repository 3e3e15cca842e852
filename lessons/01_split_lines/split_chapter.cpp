#include "split_chapter.h"

#include <algorithm>
#include <ostream>

#include "checked.h"
#include "errors.h"
#include "files.h"
#include "generators.h"
#include "host_timing.h"
#include "split/split_cpu.h"
#include "units.h"

namespace lessons::split {

SplitWorkload::SplitWorkload(const WorkloadSpec& spec) : m_size(spec.size_bytes) {
    m_data.reset(new char[m_size ? m_size : 1]);
    if (!spec.input_file.empty()) {
        ReadRegularFile(spec.input_file, m_data.get(), m_size, spec.cancel);
    } else {
        FillSplitText(spec.data, spec.seed, m_data.get(), m_size, spec.cancel);
    }
    m_reference = SplitReference(m_data.get(), m_size);
}

std::string SplitWorkload::Describe() const {
    return FormatSize(m_size) + " of text, " + std::to_string(m_reference.size()) + " line breaks";
}

uint64_t WorkloadHostBytes(uint64_t n) {
    return SaturatingAdd(n, SaturatingMul(8, SplitCapacity(n)));
}

SplitStep::SplitStep(const Workload& workload)
    : m_work(static_cast<const SplitWorkload&>(workload)),
      m_out(new uint64_t[SplitCapacity(workload.SizeBytes())]) {}

Check SplitStep::Verify() const {
    Check check;
    check.found = m_found;
    const std::vector<uint64_t>& expected = m_work.reference();
    if (m_found > SplitCapacity(m_work.SizeBytes())) {
        check.message = "the step reported " + std::to_string(m_found) +
                        " offsets, more than the buffer can hold";
        return check;
    }
    std::vector<uint64_t> got(m_out.get(), m_out.get() + m_found);
    std::sort(got.begin(), got.end());
    if (got == expected) {
        check.ok = true;
        return check;
    }
    check.message = "found " + std::to_string(got.size()) + " line breaks, expected " +
                    std::to_string(expected.size());
    const auto mismatch = std::mismatch(got.begin(), got.end(), expected.begin(), expected.end());
    const size_t index = static_cast<size_t>(mismatch.first - got.begin());
    check.message += "; first difference at sorted position " + std::to_string(index) + ": got ";
    check.message += mismatch.first == got.end() ? "nothing" : std::to_string(*mismatch.first);
    check.message += ", expected ";
    check.message +=
        mismatch.second == expected.end() ? "nothing" : std::to_string(*mismatch.second);
    return check;
}

uint64_t SplitStep::BytesMoved() const {
    return m_work.SizeBytes() + 8 * m_found;
}

void SplitStep::WriteOutput(std::ostream& out) const {
    std::vector<uint64_t> sorted(m_out.get(), m_out.get() + m_found);
    std::sort(sorted.begin(), sorted.end());
    for (uint64_t v : sorted) out << v << '\n';
}

MemoryNeeds CpuStepNeeds(uint64_t n) {
    return {SaturatingMul(8, SplitCapacity(n)), 0};
}

MemoryNeeds GpuStepNeeds(uint64_t n) {
    // The text (with up to 32 KiB of padding), the offsets, the counter.
    const uint64_t offsets = SaturatingMul(8, SplitCapacity(n));
    return {offsets, SaturatingAdd(SaturatingAdd(n, uint64_t(64) << 10), offsets + 8)};
}

MemoryNeeds PinnedGpuStepNeeds(uint64_t n) {
    MemoryNeeds needs = GpuStepNeeds(n);
    needs.host_bytes = SaturatingAdd(needs.host_bytes, n);  // the page-locked copy of the text
    return needs;
}

namespace {

// A CPU step: one call of a kernels/split function, timed with steady_clock.
template <typename Fn>
class CpuSplitStep : public SplitStep {
public:
    CpuSplitStep(const Workload& w, Fn fn) : SplitStep(w), m_fn(fn) {}
    Sample Run() override {
        return TimeOnHost(
            [this] { m_found = m_fn(m_work.data(), m_work.SizeBytes(), m_out.get()); });
    }

private:
    Fn m_fn;
};

template <typename Fn>
std::unique_ptr<StepInstance> MakeCpu(const Workload& w, Fn fn) {
    return std::make_unique<CpuSplitStep<Fn>>(w, fn);
}

}  // namespace

std::unique_ptr<StepInstance> MakeNaive(const Workload& w, const StepConfig&) {
    return MakeCpu(w, &SplitNaive);
}

std::unique_ptr<StepInstance> MakeEvenPositions(const Workload& w, const StepConfig&) {
    return MakeCpu(w, &SplitEvenPositions);
}

std::unique_ptr<StepInstance> MakeOpenMP(const Workload& w, const StepConfig& c) {
    const int threads = c.threads;
    return MakeCpu(w, [threads](const char* buf, uint64_t n, uint64_t* out) {
        return SplitOpenMP(buf, n, out, threads);
    });
}

}  // namespace lessons::split
