// Chapter 2, GPU performance basics: the CPU references of its four problems.
#pragma once

#include <cstdint>

namespace lessons::basics {

// Global vs shared: y[j] = sum_i x[i] * a[i * cols + j] for j < cols (a is rows x cols, row-major),
// in double; mag[j] = sum_i |x[i] * a[i * cols + j]|, the scale of float rounding errors.
void VecMatReference(const float* a, const float* x, uint64_t rows, uint64_t cols, double* y,
                     double* mag);

// Branch divergence: what case k's kIterations FMAs make of v, in closed form (double): with
// s = CaseScale(k), o = CaseOffset(k), v_R = s^R v + o (1 - s^R) / (1 - s).
double CaseResult(unsigned k, double v);
// How far a float evaluation of the loop may be from CaseResult: one rounding of relative
// size 2^-24 per FMA, each bounded by the larger of |v| and the fixed point, with room.
double CaseTolerance(unsigned k, double v);

}  // namespace lessons::basics
