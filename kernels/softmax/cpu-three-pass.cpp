// The CPU step: three passes over each row, the definition written out. Pass 1 finds the row's
// max, pass 2 adds exp(x - max), pass 3 divides. Subtracting the max keeps every exponential in
// (0, 1], so ±80 inputs do not overflow float. Rows are independent: OpenMP shares them out.
#include <algorithm>
#include <cmath>

#include "softmax_cpu.h"

namespace lessons::softmax {

void SoftmaxCpuThreePass(const float* x, float* y, uint64_t m, uint64_t n, int threads,
                         bool round_bf16) {
    const long long rows = static_cast<long long>(m);
#pragma omp parallel for num_threads(threads) schedule(static)
    for (long long i = 0; i < rows; ++i) {
        const float* r = x + uint64_t(i) * n;
        float* o = y + uint64_t(i) * n;
        float max = -INFINITY;
        for (uint64_t j = 0; j < n; ++j) max = std::max(max, r[j]);
        float sum = 0.0f;
        for (uint64_t j = 0; j < n; ++j) sum += std::exp(r[j] - max);
        const float inv = 1.0f / sum;
        for (uint64_t j = 0; j < n; ++j) {
            const float v = std::exp(r[j] - max) * inv;
            o[j] = round_bf16 ? Bf16BitsToFloat(FloatToBf16Bits(v)) : v;
        }
    }
}

}  // namespace lessons::softmax
