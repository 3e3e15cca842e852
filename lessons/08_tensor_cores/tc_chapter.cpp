#include "tc_chapter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "checked.h"
#include "generators.h"

namespace lessons::tc {

double TcAccumulationTolerance(int k) {
    return 16.0 * std::ldexp(1.0, -24) * std::sqrt(double(std::max(k, 1)));
}

double TcTolerance(const TcReferenceElement& ref, int k) {
    const double acc = TcAccumulationTolerance(k) * ref.magnitude;
    return kBf16Rounding * (std::fabs(ref.value) + acc) + acc;
}

namespace {

// bf16 values from floats uniform in [-1, 1) (24 random bits each), rounded to nearest: the
// matrices are bf16 from the start, as a model's weights are.
void FillBf16(uint64_t seed, uint16_t* out, uint64_t count, const std::atomic<bool>* cancel) {
    GenerateChunks(
        count, seed,
        [out](SplitMix64& rng, uint64_t begin, uint64_t n) {
            for (uint64_t i = 0; i < n; ++i) {
                const auto bits = static_cast<float>(rng.Next() >> 40);
                out[begin + i] = FloatToBf16(bits * (2.0f / 16777216.0f) - 1.0f);
            }
        },
        cancel);
}

}  // namespace

TcWorkload::TcWorkload(const WorkloadSpec& spec)
    : m_m(static_cast<int>(spec.params.Number("m"))),
      m_n(static_cast<int>(spec.params.Number("n"))),
      m_k(static_cast<int>(spec.params.Number("k"))),
      m_a(size_t(m_m) * size_t(m_k)),
      m_bt(size_t(m_n) * size_t(m_k)) {
    if (spec.params.Choice("data") == "ones") {
        // 1.0 is exact in bf16: every element of C is k, rounded to bf16 only where k > 256.
        std::fill(m_a.begin(), m_a.end(), FloatToBf16(1.0f));
        std::fill(m_bt.begin(), m_bt.end(), FloatToBf16(1.0f));
    } else {
        // Two streams from one seed: A from the seed, Bᵀ from a derived one.
        FillBf16(spec.seed, m_a.data(), m_a.size(), spec.cancel);
        FillBf16(SplitMix64(spec.seed).Next(), m_bt.data(), m_bt.size(), spec.cancel);
        // "large": A times 2^40 (exact in bf16): large magnitudes, far from overflow.
        if (spec.params.Choice("data") == "large")
            for (uint16_t& v : m_a) v = FloatToBf16(std::ldexp(Bf16ToFloat(v), 40));
    }
    ChooseCheckedElements(
        m_m, m_n, m_k, spec.seed ^ 0x7C0BF16A5Eull,
        [&](double* value, double* magnitude) {
            TcReference(m_a.data(), m_bt.data(), m_m, m_n, m_k, value, magnitude);
        },
        [&](int row, int col) { return TcReferenceAt(m_a.data(), m_bt.data(), m_k, row, col); },
        &m_full, &m_checked, &m_reference);
}

uint64_t TcWorkloadHostBytes(uint64_t m, uint64_t n, uint64_t k) {
    const uint64_t inputs =
        SaturatingMul(SaturatingAdd(SaturatingMul(m, k), SaturatingMul(n, k)), sizeof(uint16_t));
    const uint64_t cells = SaturatingMul(m, n);
    // Full check: the reference, its magnitudes and the checked indices (8 + 8 + 8 + 16 per
    // element while it is built); sampled: a few thousand elements.
    const uint64_t reference =
        SaturatingMul(cells, k) <= kFullCheckMacs || cells <= 2 * uint64_t(kSampledElements)
            ? SaturatingMul(cells, 40)
            : uint64_t(kSampledElements + 300) * 24;
    return SaturatingAdd(inputs, reference);
}

Check CheckTc(const TcWorkload& work, const uint16_t* c) {
    Check check;
    const uint64_t cells = uint64_t(work.m()) * uint64_t(work.n());
    const auto where = [&](uint64_t at) {
        return "C[" + std::to_string(at / uint64_t(work.n())) + "][" +
               std::to_string(at % uint64_t(work.n())) + "]";
    };
    uint64_t not_finite = 0, first_bad = 0;
    for (uint64_t i = 0; i < cells; ++i)
        if ((c[i] & 0x7F80u) == 0x7F80u && not_finite++ == 0) first_bad = i;  // NaN or Inf
    double worst = 0;  // the largest error / tolerance
    uint64_t wrong = 0;
    std::string first_wrong;
    for (size_t s = 0; s < work.checked().size(); ++s) {
        const uint64_t at = work.checked()[s];
        const TcReferenceElement& ref = work.reference()[s];
        const double got = double(Bf16ToFloat(c[at]));
        const double error = std::fabs(got - ref.value);
        const double tolerance = TcTolerance(ref, work.k());
        if (!(error <= tolerance)) {  // NaN compares false: it fails here too
            if (wrong++ == 0) {
                char msg[200];
                std::snprintf(msg, sizeof msg,
                              " = %.6g, expected %.9g (off by %.3g, tolerance %.3g)", got,
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
                    {"tolerance_relative", TcAccumulationTolerance(work.k())},
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

Check TcStep::Verify() const {
    ReadBack();
    return CheckTc(m_work, m_c.data());
}

Work TcWork(uint64_t m, uint64_t n, uint64_t k) {
    Work w;
    w.bytes_read = (m * k + n * k) * sizeof(uint16_t);
    w.bytes_written = m * n * sizeof(uint16_t);
    w.flops = 2 * m * n * k;
    w.bound = Bound::kBf16;
    return w;
}

MemoryNeeds TcGpuNeeds(const ParamValues& params) {
    const uint64_t m = params.Number("m"), n = params.Number("n"), k = params.Number("k");
    const uint64_t elements =
        SaturatingAdd(SaturatingAdd(SaturatingMul(m, PaddedLd(k)), SaturatingMul(n, PaddedLd(k))),
                      SaturatingMul(m, PaddedLd(n)));
    // The host copy of C for the check; on the device, A, Bᵀ, C and 64 MiB for cuBLAS.
    return {SaturatingMul(SaturatingMul(m, n), sizeof(uint16_t)),
            SaturatingAdd(SaturatingMul(elements, sizeof(uint16_t)), uint64_t(64) << 20)};
}

}  // namespace lessons::tc
