#include "gemv_chapter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "checked.h"
#include "generators.h"

namespace lessons::gemv {

GemvWorkload::GemvWorkload(const WorkloadSpec& spec)
    : m_m(spec.params.Number("m")),
      m_n(spec.params.Number("n")),
      m_ones(spec.params.Choice("data") == "ones") {
    const uint64_t count = m_m * m_n;  // fits: the memory check came first
    m_a.reset(new float[std::max<uint64_t>(count, 1)]);
    m_x.reset(new float[std::max<uint64_t>(m_n, 1)]);
    if (m_ones) {
        std::fill(m_a.get(), m_a.get() + count, 1.0f);
        std::fill(m_x.get(), m_x.get() + m_n, 1.0f);
    } else {
        FillUniformFloats(spec.seed, m_a.get(), count, spec.cancel);
        // x from its own stream, so that it is not a copy of A's first row.
        FillUniformFloats(spec.seed ^ 0x9e3779b97f4a7c15ull, m_x.get(), m_n, spec.cancel);
        // "large": A times 2^40 (exact): large magnitudes, far from overflow.
        if (spec.params.Choice("data") == "large")
            for (uint64_t i = 0; i < count; ++i) m_a[i] = std::ldexp(m_a[i], 40);
    }
    m_y.resize(m_m);
    m_magnitude.resize(m_m);
    GemvReference(m_a.get(), m_x.get(), m_m, m_n, m_y.data(), m_magnitude.data());
}

uint64_t GemvWorkloadHostBytes(uint64_t m, uint64_t n) {
    const uint64_t a = SaturatingMul(SaturatingMul(m, n), sizeof(float));
    return SaturatingAdd(SaturatingAdd(a, SaturatingMul(n, sizeof(float))),
                         SaturatingMul(m, 2 * sizeof(double)));
}

double GemvTolerance(double magnitude, uint64_t n, bool ones) {
    if (ones && n <= (uint64_t(1) << 24)) return 0;
    return std::ldexp(magnitude, -23) * (std::sqrt(double(n)) + 16);
}

GemvCheckResult CheckGemv(const float* y, const double* reference, const double* magnitude,
                          uint64_t m, uint64_t n, bool ones) {
    GemvCheckResult r;
    const double inf = HUGE_VAL;
    for (uint64_t i = 0; i < m; ++i) {
        const double tolerance = GemvTolerance(magnitude[i], n, ones);
        double error = std::fabs(double(y[i]) - reference[i]);
        if (std::isnan(error)) error = inf;
        r.max_error = std::max(r.max_error, error);
        const double ratio = error == 0 ? 0 : (tolerance > 0 ? error / tolerance : inf);
        r.worst_ratio = std::max(r.worst_ratio, ratio);
        if (error <= tolerance) continue;
        if (r.wrong_rows++ == 0) {
            r.first_wrong = i;
            const auto number = [](const char* format, double v) {
                char text[64];
                std::snprintf(text, sizeof text, format, v);
                return std::string(text);
            };
            r.args = {std::to_string(i), number("%.9g", double(y[i])), number("%.9g", reference[i]),
                      number("%.3g", std::fabs(double(y[i]) - reference[i])),
                      number("%.3g", tolerance)};
        }
    }
    r.ok = r.wrong_rows == 0;
    if (!r.ok) {
        r.args.insert(r.args.begin(), {std::to_string(r.wrong_rows), std::to_string(m)});
        r.message = FillForm(kGemvWrongRows.en, r.args);
    }
    return r;
}

Check GemvStep::Verify() const {
    const GemvCheckResult r = CheckGemv(Output(), m_work.y().data(), m_work.magnitude().data(),
                                        m_work.m(), m_work.n(), m_work.ones());
    Check check;
    check.ok = r.ok;
    if (!r.ok) check.Fail(kGemvWrongRows, r.args);
    check.values = {{"wrong_rows", double(r.wrong_rows)},
                    {"max_error", r.max_error},
                    {"error_over_tolerance", r.worst_ratio}};
    return check;
}

Work GemvWork(uint64_t m, uint64_t n) {
    Work w;
    const uint64_t mn = SaturatingMul(m, n);
    w.bytes_read = SaturatingMul(SaturatingAdd(mn, n), sizeof(float));
    w.bytes_written = SaturatingMul(m, sizeof(float));
    w.flops = SaturatingMul(mn, 2);
    w.bound = Bound::kRead;
    return w;
}

MemoryNeeds GemvGpuNeeds(const ParamValues& params) {
    const uint64_t m = params.Number("m"), n = params.Number("n");
    const uint64_t floats = SaturatingAdd(SaturatingMul(m, n), SaturatingAdd(m, n));
    // The host keeps a pinned copy of y for the check.
    return {SaturatingMul(m, sizeof(float)),
            SaturatingAdd(SaturatingMul(floats, sizeof(float)), uint64_t(1) << 20)};
}

}  // namespace lessons::gemv
