#include "reduce_chapter.h"

#include <cmath>
#include <cstdio>

#include "checked.h"
#include "generators.h"
#include "host_timing.h"
#include "units.h"

namespace lessons::reduce {

ReduceWorkload::ReduceWorkload(const WorkloadSpec& spec)
    : m_count(spec.size_bytes / sizeof(float)), m_ones(spec.data == DataKind::kOnes) {
    m_data.reset(new float[m_count ? m_count : 1]);
    FillFloats(spec.data, spec.seed, m_data.get(), m_count, spec.cancel);
    m_reference = SumReference(m_data.get(), m_count);
}

std::string ReduceWorkload::Describe() const {
    return std::to_string(m_count) + " floats (" + FormatSize(SizeBytes()) + ")";
}

double ReduceWorkload::Tolerance() const {
    if (m_ones && m_count <= (uint64_t(1) << 24)) return 0;
    return std::ldexp(m_reference.magnitude, -23) * (std::log2(double(m_count) + 1) + 16);
}

uint64_t WorkloadHostBytes(uint64_t size_bytes) {
    return size_bytes;
}

Check ReduceStep::Verify() const {
    Check check;
    check.value = m_value;
    check.expected = m_work.reference().sum;
    const double error = std::fabs(m_value - m_work.reference().sum);
    const double tolerance = m_work.Tolerance();
    check.ok = error <= tolerance;  // false for NaN too
    if (!check.ok) {
        char msg[256];
        std::snprintf(msg, sizeof msg,
                      "sum %.9g, expected %.9g: off by %.3g, more than the tolerance %.3g", m_value,
                      m_work.reference().sum, error, tolerance);
        check.message = msg;
    }
    return check;
}

MemoryNeeds CpuStepNeeds(uint64_t) {
    return {0, 0};
}

MemoryNeeds GpuStepNeeds(uint64_t size_bytes) {
    const uint64_t partials = 2 * (size_bytes / sizeof(float) / 32 + 1) * sizeof(float);
    return {0, SaturatingAdd(size_bytes, partials + (uint64_t(1) << 20))};
}

MemoryNeeds InPlaceGpuStepNeeds(uint64_t size_bytes) {
    MemoryNeeds needs = GpuStepNeeds(size_bytes);
    needs.device_bytes = SaturatingAdd(needs.device_bytes, size_bytes);
    return needs;
}

namespace {

class CpuSumStep : public ReduceStep {
public:
    CpuSumStep(const Workload& w, int threads) : ReduceStep(w), m_threads(threads) {}
    Sample Run() override {
        return TimeOnHost(
            [this] { m_value = SumOpenMP(m_work.data(), m_work.count(), m_threads); });
    }

private:
    int m_threads;
};

}  // namespace

std::unique_ptr<StepInstance> MakeCpuSum(const Workload& w, const StepConfig& c) {
    return std::make_unique<CpuSumStep>(w, c.threads);
}

}  // namespace lessons::reduce
