// Chapter 4, GEMV (y = A·x, A row-major m × n): the CPU reference every step is checked against.
#pragma once

#include <cstdint>

namespace lessons::gemv {

// y[i] = sum_j a[i*n + j] * x[j] and magnitude[i] = sum_j |a[i*n + j] * x[j]|, in double, one
// row per OpenMP iteration (the same answer with any number of threads). The magnitude is the
// scale of the rounding errors a float dot product of that row can make.
void GemvReference(const float* a, const float* x, uint64_t m, uint64_t n, double* y,
                   double* magnitude);

}  // namespace lessons::gemv
