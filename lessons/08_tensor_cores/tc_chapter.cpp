#include "tc_chapter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

#include "checked.h"
#include "exercise.h"
#include "generators.h"
#include "resources.h"

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
    FillEach(
        seed, out, count, [](SplitMix64& rng) { return FloatToBf16(UniformFloat(rng)); }, cancel);
}

}  // namespace

TcWorkload::TcWorkload(const WorkloadSpec& spec)
    : SampledProduct(spec.params), m_a(size_t(m_m) * size_t(m_k)), m_bt(size_t(m_n) * size_t(m_k)) {
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
    Choose(
        spec.seed ^ 0x7C0BF16A5Eull,
        [&](double* value, double* magnitude) {
            TcReference(m_a.data(), m_bt.data(), m_m, m_n, m_k, value, magnitude);
        },
        [&](int row, int col) { return TcReferenceAt(m_a.data(), m_bt.data(), m_k, row, col); });
}

uint64_t TcWorkloadHostBytes(uint64_t m, uint64_t n, uint64_t k) {
    const uint64_t inputs =
        SaturatingMul(SaturatingAdd(SaturatingMul(m, k), SaturatingMul(n, k)), sizeof(uint16_t));
    return SaturatingAdd(inputs, CheckedElementsHostBytes(m, n, k));
}

Check CheckTc(const TcWorkload& work, const uint16_t* c) {
    const int k = work.k();
    return CheckProduct(
        work.m(), work.n(), work.checked(), work.reference(),
        [c](uint64_t i) { return (c[i] & 0x7F80u) == 0x7F80u; },  // NaN or Inf
        [c](uint64_t i) { return double(Bf16ToFloat(c[i])); },
        [k](const TcReferenceElement& ref) { return TcTolerance(ref, k); },
        TcAccumulationTolerance(k), 6);
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

std::string HopperDevicePart() {
    return EmbeddedPart("kernels/tc/tc_hopper.cuh", "inline constexpr int kHopperBk",
                        "#endif  // __CUDA_ARCH__", "the Hopper exercises' prelude");
}

}  // namespace lessons::tc
