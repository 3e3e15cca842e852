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
    : SampledProduct(spec.params), m_a(size_t(m_m) * size_t(m_k)), m_b(size_t(m_k) * size_t(m_n)) {
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
    Choose(
        spec.seed ^ 0x5EED5A3F1Eull,
        [&](double* value, double* magnitude) {
            GemmReference(m_a.data(), m_b.data(), m_m, m_n, m_k, value, magnitude);
        },
        [&](int row, int col) {
            return GemmReferenceAt(m_a.data(), m_b.data(), m_n, m_k, row, col);
        });
}

uint64_t GemmWorkloadHostBytes(uint64_t m, uint64_t n, uint64_t k) {
    const uint64_t inputs =
        SaturatingMul(SaturatingAdd(SaturatingMul(m, k), SaturatingMul(k, n)), sizeof(float));
    return SaturatingAdd(inputs, CheckedElementsHostBytes(m, n, k));
}

Check CheckGemm(const GemmWorkload& work, const float* c, bool tf32) {
    const double eps = GemmTolerance(work.k(), tf32);
    return CheckProduct(
        work.m(), work.n(), work.checked(), work.reference(),
        [c](uint64_t i) { return !std::isfinite(c[i]); }, [c](uint64_t i) { return double(c[i]); },
        [eps](const ReferenceElement& ref) { return eps * ref.magnitude; }, eps, 9);
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
