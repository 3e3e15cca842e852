// Chapter 9, softmax and RMSNorm over rows (x row-major m × n): the double-precision reference
// every step is checked against, and the CPU step. CUDA-free.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace lessons::softmax {

// RMSNorm's epsilon, added to the mean of the squares (the value PyTorch's callers usually use).
constexpr double kRmsEps = 1e-6;

// bf16 (bits) <-> float, on the host: round to nearest even; NaN stays NaN.
inline uint16_t FloatToBf16Bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40);
    u += 0x7fffu + ((u >> 16) & 1u);
    return static_cast<uint16_t>(u >> 16);
}
inline float Bf16BitsToFloat(uint16_t b) {
    const uint32_t u = uint32_t(b) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// The reference of one row of n values, in double: y_j = exp(x_j - max) / sum_k exp(x_k - max).
// Returns the row's max (the check's tolerance grows with x_j - max).
double SoftmaxReferenceRow(const float* x, uint64_t n, double* y);

// The reference of one row: y_j = x_j / sqrt(mean(x^2) + kRmsEps) * w_j, in double.
void RmsNormReferenceRow(const float* x, const float* w, uint64_t n, double* y);

// The CPU step (lesson 9.1): three passes over each row (max, sum of exponentials, normalise),
// in float as a GPU would, rows shared among `threads` OpenMP threads. When `round_bf16`, each
// result is rounded to the nearest bf16 value (the bf16 dtype's output), kept in a float.
void SoftmaxCpuThreePass(const float* x, float* y, uint64_t m, uint64_t n, int threads,
                         bool round_bf16);

}  // namespace lessons::softmax
