// Chapter 6, the roofline: what every element of the step computes, on the host (the
// reference) and, with the same operations in the same order, on the GPU.
#pragma once

#include <cmath>
#include <cstdint>

namespace lessons::roofline {

// The constants of the two chains: a -> a * kScale + kBias, b -> b * kScale - kBias. Both
// converge to +-10, so no value overflows however many FMAs run.
inline constexpr float kScale = 0.999f;
inline constexpr float kBias = 0.01f;

// `fmas` fused multiply-adds per element (half in each of two independent chains, so two are
// in flight per thread), then one add: 2 * fmas + 1 flops.
inline float IntensityReference(float x, int fmas) {
    float a = x, b = -x;
    for (int k = 0; k < fmas / 2; ++k) {
        a = std::fmaf(a, kScale, kBias);
        b = std::fmaf(b, kScale, -kBias);
    }
    return a + b;
}

}  // namespace lessons::roofline
