#include "gemm_chapter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "checked.h"
#include "generators.h"

namespace lessons::gemm {

double GemmTolerance(int k, bool tf32) {
    const double root = std::sqrt(double(std::max(k, 1)));
    const double fp32 = 8.0 * std::ldexp(1.0, -24) * root;
    return tf32 ? fp32 + 16.0 * std::ldexp(1.0, -11) / root : fp32;
}

GemmWorkload::GemmWorkload(const WorkloadSpec& spec)
    : m_m(static_cast<int>(spec.params.Number("m"))),
      m_n(static_cast<int>(spec.params.Number("n"))),
      m_k(static_cast<int>(spec.params.Number("k"))),
      m_a(size_t(m_m) * size_t(m_k)),
      m_b(size_t(m_k) * size_t(m_n)) {
    if (spec.params.Choice("data") == "ones") {
        std::fill(m_a.begin(), m_a.end(), 1.0f);
        std::fill(m_b.begin(), m_b.end(), 1.0f);
    } else {
        // Two streams from one seed: A from the seed, B from a derived one.
        FillUniformFloats(spec.seed, m_a.data(), m_a.size(), spec.cancel);
        FillUniformFloats(SplitMix64(spec.seed).Next(), m_b.data(), m_b.size(), spec.cancel);
        // "large": A times 2^40 (exact): large magnitudes, far from overflow.
        if (spec.params.Choice("data") == "large")
            for (float& v : m_a) v = std::ldexp(v, 40);
    }
    ChooseCheckedElements(
        m_m, m_n, m_k, spec.seed ^ 0x5EED5A3F1Eull,
        [&](double* value, double* magnitude) {
            GemmReference(m_a.data(), m_b.data(), m_m, m_n, m_k, value, magnitude);
        },
        [&](int row, int col) {
            return GemmReferenceAt(m_a.data(), m_b.data(), m_n, m_k, row, col);
        },
        &m_full, &m_checked, &m_reference);
}

uint64_t GemmWorkloadHostBytes(uint64_t m, uint64_t n, uint64_t k) {
    const uint64_t inputs =
        SaturatingMul(SaturatingAdd(SaturatingMul(m, k), SaturatingMul(k, n)), sizeof(float));
    const uint64_t cells = SaturatingMul(m, n);
    // Full check: the reference, its magnitudes and the checked indices (8 + 8 + 8 + 16 per
    // element while it is built); sampled: a few thousand elements.
    const uint64_t reference =
        SaturatingMul(cells, k) <= kFullCheckMacs || cells <= 2 * uint64_t(kSampledElements)
            ? SaturatingMul(cells, 40)
            : uint64_t(kSampledElements + 300) * 24;
    return SaturatingAdd(inputs, reference);
}

Check CheckGemm(const GemmWorkload& work, const float* c, bool tf32) {
    Check check;
    const double eps = GemmTolerance(work.k(), tf32);
    const uint64_t cells = uint64_t(work.m()) * uint64_t(work.n());
    const auto where = [&](uint64_t at) {
        return "C[" + std::to_string(at / uint64_t(work.n())) + "][" +
               std::to_string(at % uint64_t(work.n())) + "]";
    };
    uint64_t not_finite = 0, first_bad = 0;
    for (uint64_t i = 0; i < cells; ++i)
        if (!std::isfinite(c[i]) && not_finite++ == 0) first_bad = i;
    double worst = 0;  // the largest error / tolerance
    uint64_t wrong = 0;
    std::string first_wrong;
    for (size_t s = 0; s < work.checked().size(); ++s) {
        const uint64_t at = work.checked()[s];
        const ReferenceElement& ref = work.reference()[s];
        const double error = std::fabs(double(c[at]) - ref.value);
        const double tolerance = eps * ref.magnitude;
        if (!(error <= tolerance)) {  // NaN compares false: it fails here too
            if (wrong++ == 0) {
                char msg[200];
                std::snprintf(msg, sizeof msg,
                              " = %.9g, expected %.9g (off by %.3g, tolerance %.3g)", double(c[at]),
                              ref.value, error, tolerance);
                first_wrong = where(at) + msg;
            }
        }
        if (tolerance > 0)
            worst = std::max(worst, error / tolerance);
        else if (error > 0)
            worst = INFINITY;
    }
    check.values = {{"checked_elements", double(work.checked().size())},
                    {"tolerance_relative", eps},
                    {"worst_error_vs_tolerance", worst},
                    {"not_finite", double(not_finite)}};
    check.ok = not_finite == 0 && wrong == 0;
    if (not_finite)
        check.message = std::to_string(not_finite) + " elements of C are NaN or Inf, the first " +
                        where(first_bad);
    else if (wrong)
        check.message = std::to_string(wrong) + " of " + std::to_string(work.checked().size()) +
                        " checked elements wrong; " + first_wrong;
    return check;
}

Check GemmStep::Verify() const {
    ReadBack();
    return CheckGemm(m_work, m_c.data(), m_tf32);
}

Work GemmWork(uint64_t m, uint64_t n, uint64_t k, bool tf32) {
    Work w;
    w.bytes_read = (m * k + k * n) * sizeof(float);
    w.bytes_written = m * n * sizeof(float);
    w.flops = 2 * m * n * k;
    w.bound = tf32 ? Bound::kTf32 : Bound::kFp32;
    return w;
}

MemoryNeeds GemmGpuNeeds(const ParamValues& params) {
    const uint64_t m = params.Number("m"), n = params.Number("n"), k = params.Number("k");
    const uint64_t floats =
        SaturatingAdd(SaturatingAdd(SaturatingMul(m, k), SaturatingMul(k, n)), SaturatingMul(m, n));
    // The host copy of C for the check; on the device, A, B, C and 64 MiB for cuBLAS.
    return {SaturatingMul(SaturatingMul(m, n), sizeof(float)),
            SaturatingAdd(SaturatingMul(floats, sizeof(float)), uint64_t(64) << 20)};
}

}  // namespace lessons::gemm
