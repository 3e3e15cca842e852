// The double-precision reference of one row (softmax_cpu.h). The max is subtracted before the
// exponential, so large inputs (±80 and more) cannot overflow even in double's cousin, float.
#include <algorithm>
#include <cmath>

#include "softmax_cpu.h"

namespace lessons::softmax {

double SoftmaxReferenceRow(const float* x, uint64_t n, double* y) {
    double max = -HUGE_VAL;
    for (uint64_t j = 0; j < n; ++j) max = std::max(max, double(x[j]));
    double sum = 0;
    for (uint64_t j = 0; j < n; ++j) {
        y[j] = std::exp(double(x[j]) - max);
        sum += y[j];
    }
    for (uint64_t j = 0; j < n; ++j) y[j] /= sum;
    return max;
}

void RmsNormReferenceRow(const float* x, const float* w, uint64_t n, double* y) {
    double squares = 0;
    for (uint64_t j = 0; j < n; ++j) squares += double(x[j]) * double(x[j]);
    const double scale = 1.0 / std::sqrt(squares / double(n) + kRmsEps);
    for (uint64_t j = 0; j < n; ++j) y[j] = double(x[j]) * scale * double(w[j]);
}

}  // namespace lessons::softmax
