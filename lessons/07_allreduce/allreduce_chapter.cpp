#include "allreduce_chapter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "checked.h"
#include "errors.h"
#include "generators.h"
#include "units.h"

namespace lessons::allreduce {

AllreduceWorkload::AllreduceWorkload(const WorkloadSpec& spec)
    : m_count(spec.params.Number("size") / sizeof(float)) {
    const uint64_t gpus = spec.params.Number("gpus");
    const bool ones = spec.params.Choice("data") == "ones";
    m_exact = ones;
    m_reference.reset(new float[m_count ? m_count : 1]);
    std::vector<double> sum(ones ? 0 : m_count, 0.0);
    for (uint64_t g = 0; g < gpus; ++g) {
        m_inputs.emplace_back(new float[m_count ? m_count : 1]);
        float* x = m_inputs.back().get();
        if (ones) {
            std::fill(x, x + m_count, 1.0f);
            continue;
        }
        FillUniformFloats(spec.seed + g * 0x9E3779B97F4A7C15ull, x, m_count, spec.cancel);
        for (uint64_t i = 0; i < m_count; ++i) sum[i] += x[i];
    }
    for (uint64_t i = 0; i < m_count; ++i)
        m_reference[i] = ones ? float(gpus) : static_cast<float>(sum[i]);
}

uint64_t AllreduceWorkloadHostBytes(uint64_t size_bytes, uint64_t gpus) {
    // The inputs, the reference and the double sums made on the way.
    return SaturatingMul(size_bytes, SaturatingAdd(gpus, 3));
}

Check CheckAllreduce(const AllreduceWorkload& w, const std::vector<std::vector<float>>& results) {
    Check check;
    const int gpus = w.gpus();
    double worst = 0;  // the largest error / allowed
    for (size_t g = 0; g < results.size(); ++g) {
        const std::vector<float>& got = results[g];
        for (uint64_t i = 0; i < w.count(); ++i) {
            double magnitude = 0;
            for (int k = 0; k < gpus; ++k) magnitude += std::fabs(double(w.input(k)[i]));
            const double allowed = w.exact() ? 0 : std::ldexp(magnitude, -23) * gpus;
            const double error = std::fabs(double(got[i]) - double(w.reference()[i]));
            const bool ok = allowed > 0 ? error <= allowed : error == 0;  // false for NaN
            if (allowed > 0) worst = std::max(worst, error / allowed);
            if (!ok && check.message.empty()) {
                char msg[256];
                std::snprintf(msg, sizeof msg,
                              "GPU %zu, element %llu: %.9g, expected %.9g (allowed error %.3g)", g,
                              static_cast<unsigned long long>(i), double(got[i]),
                              double(w.reference()[i]), allowed);
                check.message = msg;
            }
        }
    }
    check.ok = check.message.empty();
    check.values = {{"gpus", double(gpus)}, {"max_error", worst}};
    return check;
}

Work AllreduceWork(const AllreduceWorkload& w) {
    const uint64_t g = uint64_t(w.gpus());
    Work work;
    work.bytes_read = g * w.SizeBytes();
    work.bytes_written = g * w.SizeBytes();
    work.flops = (g - 1) * w.count();
    work.peer_bytes = g > 1 ? 2 * (g - 1) * w.SizeBytes() / g : 0;
    work.bound = Bound::kPeer;
    work.rate_part.clear();
    return work;
}

MemoryNeeds AllreduceNeeds(const ParamValues& params) {
    return {0, SaturatingAdd(SaturatingMul(params.Number("size"), 2), uint64_t(64) << 20)};
}

MemoryNeeds AllreduceThroughHostNeeds(const ParamValues& params) {
    MemoryNeeds needs = AllreduceNeeds(params);
    needs.host_bytes = SaturatingMul(params.Number("size"), params.Number("gpus") + 1);
    return needs;
}

MemoryNeeds AllreduceGatherNeeds(const ParamValues& params) {
    MemoryNeeds needs = AllreduceNeeds(params);  // GPU 0 holds G - 1 more vectors
    needs.device_bytes = SaturatingAdd(
        needs.device_bytes, SaturatingMul(params.Number("size"), params.Number("gpus") - 1));
    return needs;
}

}  // namespace lessons::allreduce
