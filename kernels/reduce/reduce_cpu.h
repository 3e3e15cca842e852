// Chapter 3, reduction: sum an array of floats. The CPU step and the reference.
#pragma once

#include <cstdint>

namespace lessons::reduce {

struct ReferenceSum {
    double sum = 0;        // the exact-as-possible answer
    double magnitude = 0;  // sum of |x|: the scale of float rounding errors
};

// Sums in double, in fixed 1 Mi-element chunks combined in order: the same answer with any
// number of threads.
ReferenceSum SumReference(const float* x, uint64_t n);

// The CPU sum: an OpenMP reduction with `threads` threads, accumulated in double.
double SumOpenMP(const float* x, uint64_t n, int threads);

}  // namespace lessons::reduce
