#include "reduce_chapter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "checked.h"
#include "generators.h"
#include "host_timing.h"
#include "printed.h"
#include "units.h"

namespace lessons::reduce {

ReduceWorkload::ReduceWorkload(const WorkloadSpec& spec)
    : FloatsWorkload(spec),
      m_ones(spec.params.Choice("data") == "ones"),
      m_reference(SumReference(m_data.get(), m_count)) {}

double ReduceWorkload::Tolerance() const {
    if (m_ones && m_count <= (uint64_t(1) << 24)) return 0;
    return std::ldexp(m_reference.magnitude, -23) * (std::log2(double(m_count) + 1) + 16);
}

uint64_t ReduceWorkloadHostBytes(uint64_t size_bytes) {
    return size_bytes;
}

namespace {

constexpr MessageForm kWrongSum{"reduce.wrong-sum",
                                "sum {1}, expected {2}: off by {3}, more than the tolerance {4}",
                                "和为 {1}，应为 {2}：相差 {3}，超过容差 {4}"};

}  // namespace

std::vector<MessageForm> ReduceMessages() {
    return {kWrongSum};
}

Check ReduceStep::Verify() const {
    Check check;
    const double error = std::fabs(m_value - m_work.reference().sum);
    const double tolerance = m_work.Tolerance();
    check.values = {{"sum", m_value},
                    {"expected", m_work.reference().sum},
                    {"error", error},
                    {"tolerance", tolerance}};
    check.ok = error <= tolerance;  // false for NaN too
    if (!check.ok)
        check.Fail(kWrongSum, {Printed("%.9g", m_value), Printed("%.9g", m_work.reference().sum),
                               Printed("%.3g", error), Printed("%.3g", tolerance)});
    return check;
}

Work ReduceWork(uint64_t count) {
    Work w;
    w.bytes_read = count * sizeof(float);
    w.flops = count;
    w.bound = Bound::kRead;
    return w;
}

MemoryNeeds ReduceCpuNeeds(const ParamValues&) {
    return {0, 0};
}

MemoryNeeds ReduceGpuNeeds(const ParamValues& params) {
    const uint64_t size_bytes = params.Number("size");
    const uint64_t partials = 2 * (size_bytes / sizeof(float) / 32 + 1) * sizeof(float);
    return {0, SaturatingAdd(size_bytes, partials + (uint64_t(1) << 20))};
}

MemoryNeeds ReduceInPlaceGpuNeeds(const ParamValues& params) {
    MemoryNeeds needs = ReduceGpuNeeds(params);
    needs.device_bytes = SaturatingAdd(needs.device_bytes, params.Number("size"));
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

std::unique_ptr<StepInstance> MakeReduceCpuSum(const Workload& w, const StepContext& c) {
    return std::make_unique<CpuSumStep>(w, static_cast<int>(c.params.Number("threads")));
}

}  // namespace lessons::reduce
