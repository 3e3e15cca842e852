// The reference every reduction step is checked against: double accumulation in fixed
// chunks, so that the answer does not depend on the thread count.
#include <algorithm>
#include <cmath>
#include <vector>

#include "reduce_cpu.h"

namespace lessons::reduce {

ReferenceSum SumReference(const float* x, uint64_t n) {
    constexpr uint64_t kChunk = uint64_t(1) << 20;
    const int64_t chunks = static_cast<int64_t>((n + kChunk - 1) / kChunk);
    std::vector<double> sums(static_cast<size_t>(chunks)), mags(static_cast<size_t>(chunks));
#pragma omp parallel for schedule(static)
    for (int64_t c = 0; c < chunks; ++c) {
        const uint64_t begin = static_cast<uint64_t>(c) * kChunk;
        const uint64_t end = std::min(n, begin + kChunk);
        double s = 0, m = 0;
        for (uint64_t i = begin; i < end; ++i) {
            s += x[i];
            m += std::fabs(static_cast<double>(x[i]));
        }
        sums[static_cast<size_t>(c)] = s;
        mags[static_cast<size_t>(c)] = m;
    }
    ReferenceSum r;
    for (size_t c = 0; c < sums.size(); ++c) {
        r.sum += sums[c];
        r.magnitude += mags[c];
    }
    return r;
}

}  // namespace lessons::reduce
