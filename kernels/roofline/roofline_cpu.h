// Chapter 6, the roofline: what every element of the step computes, on the host (the
// reference) and, with the same operations in the same order, on the GPU.
#pragma once

#include <cmath>
#include <cstdint>

namespace lessons::roofline {

// The two chains start at x and x / 2: a -> a * kScaleA + kBiasA, b -> b * kScaleB + kBiasB.
// They converge to +10 and -10 at different speeds, so the output depends on x and on the
// number of FMAs, and no value overflows however many run.
inline constexpr float kScaleA = 0.999f;
inline constexpr float kBiasA = 0.01f;
inline constexpr float kScaleB = 0.998f;
inline constexpr float kBiasB = -0.02f;

// `fmas` fused multiply-adds per element (half in each of two independent chains, so two are
// in flight per thread), then one add; with the multiply that starts the second chain,
// 2 * fmas + 2 flops.
inline float IntensityReference(float x, int fmas) {
    float a = x, b = x * 0.5f;
    for (int k = 0; k < fmas / 2; ++k) {
        a = std::fmaf(a, kScaleA, kBiasA);
        b = std::fmaf(b, kScaleB, kBiasB);
    }
    return a + b;
}

}  // namespace lessons::roofline
