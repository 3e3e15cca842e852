// The reference every GEMV step is checked against: each row's dot product in double.
#include <cmath>
#include <cstdint>

#include "gemv_cpu.h"

namespace lessons::gemv {

void GemvReference(const float* a, const float* x, uint64_t m, uint64_t n, double* y,
                   double* magnitude) {
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < static_cast<int64_t>(m); ++i) {
        const float* row = a + static_cast<uint64_t>(i) * n;
        double sum = 0, mag = 0;
        for (uint64_t j = 0; j < n; ++j) {
            const double p = static_cast<double>(row[j]) * static_cast<double>(x[j]);
            sum += p;
            mag += std::fabs(p);
        }
        y[i] = sum;
        magnitude[i] = mag;
    }
}

}  // namespace lessons::gemv
