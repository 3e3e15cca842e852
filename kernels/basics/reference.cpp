// Chapter 2's references: the vector-times-matrix product in double, and the closed form of
// the branch-divergence loops. Coalescing and pinned transfers are checked exactly (an add, a
// copy).
#include <cmath>
#include <cstdint>

#include "basics_cpu.h"
#include "basics_index.h"

namespace lessons::basics {

void VecMatReference(const float* a, const float* x, uint64_t rows, uint64_t cols, double* y,
                     double* mag) {
    const int64_t n = static_cast<int64_t>(cols);
#pragma omp parallel for schedule(static)
    for (int64_t j = 0; j < n; ++j) {
        y[j] = 0;
        mag[j] = 0;
    }
    // Row by row, so that a is read in order; columns split among the threads.
    constexpr int64_t kChunk = 4096;
#pragma omp parallel for schedule(static)
    for (int64_t begin = 0; begin < n; begin += kChunk) {
        const int64_t end = begin + kChunk < n ? begin + kChunk : n;
        for (uint64_t i = 0; i < rows; ++i) {
            const double xi = x[i];
            const float* row = a + i * cols;
            for (int64_t j = begin; j < end; ++j) {
                const double p = xi * row[j];
                y[j] += p;
                mag[j] += std::fabs(p);
            }
        }
    }
}

double CaseResult(unsigned k, double v) {
    const double s = CaseScale(k), o = CaseOffset(k);
    const double sr = std::pow(s, double(kIterations));
    return sr * v + o * (1 - sr) / (1 - s);
}

double CaseTolerance(unsigned k, double v) {
    const double fixed = std::fabs(CaseOffset(k) / (1 - double(CaseScale(k))));
    return std::ldexp(double(kIterations) * (std::fabs(v) + fixed + 1), -22);
}

}  // namespace lessons::basics
