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
    : AllreduceWorkload(spec.params.Number("size") / sizeof(float),
                        static_cast<int>(spec.params.Number("gpus")),
                        spec.params.Choice("data") == "ones", spec.seed, spec.cancel) {}

AllreduceWorkload::AllreduceWorkload(uint64_t count, int gpus_int, bool ones, uint64_t seed,
                                     const std::atomic<bool>* cancel)
    : m_count(count), m_exact(ones), m_seed(seed) {
    const uint64_t gpus = uint64_t(std::max(gpus_int, 1));
    m_reference.reset(new float[m_count ? m_count : 1]);
    std::vector<double> sum(ones ? 0 : m_count, 0.0);
    for (uint64_t g = 0; g < gpus; ++g) {
        m_inputs.emplace_back(new float[m_count ? m_count : 1]);
        float* x = m_inputs.back().get();
        if (ones) {
            std::fill(x, x + m_count, 1.0f);
            continue;
        }
        FillUniformFloats(seed + g * 0x9E3779B97F4A7C15ull, x, m_count, cancel);
        for (uint64_t i = 0; i < m_count; ++i) sum[i] += x[i];
    }
    for (uint64_t i = 0; i < m_count; ++i)
        m_reference[i] = ones ? float(gpus) : static_cast<float>(sum[i]);
}

uint64_t AllreduceWorkloadHostBytes(uint64_t size_bytes, uint64_t gpus) {
    // The inputs, the reference and the double sums made on the way.
    return SaturatingMul(size_bytes, SaturatingAdd(gpus, 3));
}

Check CheckAllreduce(const AllreduceWorkload& w, const std::vector<std::vector<float>>& results,
                     int first) {
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
                              "GPU %zu, element %llu: %.9g, expected %.9g (allowed error %.3g)",
                              g + size_t(first), static_cast<unsigned long long>(i), double(got[i]),
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
    return AllreduceWorkOf(w.count(), uint64_t(w.gpus()));
}

Work AllreduceWorkOf(uint64_t count, uint64_t g) {
    const uint64_t bytes = count * sizeof(float);
    Work work;
    work.bytes_read = g * bytes;
    work.bytes_written = g * bytes;
    work.flops = g > 0 ? (g - 1) * count : 0;
    work.peer_bytes = g > 1 ? 2 * (g - 1) * bytes / g : 0;
    work.bound = Bound::kPeer;
    work.rate_part.clear();
    return work;
}

MemoryNeeds AllreduceNeeds(const ParamValues& params) {
    return {0, SaturatingAdd(SaturatingMul(params.Number("size"), 2), uint64_t(64) << 20)};
}

MemoryNeeds AllreduceRanksNeeds(const ParamValues& params) {
    MemoryNeeds needs = AllreduceNeeds(params);
    const uint64_t gpus = params.Number("gpus");
    needs.host_bytes = SaturatingMul(gpus, AllreduceWorkloadHostBytes(params.Number("size"), gpus));
    return needs;
}

AlphaBetaFit FitAlphaBeta(const std::vector<std::pair<uint64_t, double>>& points, int gpus) {
    AlphaBetaFit fit;
    if (gpus < 2) {
        fit.why = "one GPU moves nothing: the model needs 2 GPUs or more";
        return fit;
    }
    // T = a + b S, weighted by 1 / T^2 (relative error): minimise sum ((a + b S - T) / T)^2.
    double sw = 0, sx = 0, sxx = 0, sy = 0, sxy = 0;
    std::vector<uint64_t> sizes;
    for (const auto& [bytes, ms] : points) {
        if (!(ms > 0) || !std::isfinite(ms)) continue;
        const double w = 1.0 / (ms * ms), x = double(bytes);
        sw += w;
        sx += w * x;
        sxx += w * x * x;
        sy += w * ms;
        sxy += w * x * ms;
        if (std::find(sizes.begin(), sizes.end(), bytes) == sizes.end()) sizes.push_back(bytes);
    }
    if (sizes.size() < 2) {
        fit.why = "the fit needs times at two sizes or more";
        return fit;
    }
    const double det = sw * sxx - sx * sx;
    if (!(det > 0)) {
        fit.why = "the sizes do not determine a line";
        return fit;
    }
    const double b = (sw * sxy - sx * sy) / det;  // ms per byte
    const double a = (sy - b * sx) / sw;          // ms
    if (!(b > 0) || !(a >= 0)) {
        fit.why = "the times do not grow with the size as the model says (a " +
                  std::string(b > 0 ? "negative start-up time" : "time that falls with size") + ")";
        return fit;
    }
    const double g = gpus;
    fit.alpha_us = a / (2 * (g - 1)) * 1e3;
    fit.beta_gbps = 2 * (g - 1) / g / b / 1e6;  // bytes per ms -> GB/s
    for (const auto& [bytes, ms] : points)
        if (ms > 0)
            fit.worst_error = std::max(fit.worst_error, std::fabs(a + b * double(bytes) - ms) / ms);
    fit.ok = true;
    return fit;
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
