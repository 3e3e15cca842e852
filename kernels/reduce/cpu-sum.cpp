// The CPU sum, on one thread or many.
// An OpenMP reduction gives every thread a private double accumulator and adds them at the
// end; threads = 1 is the plain serial loop. Memory bandwidth of the host, not additions,
// is the limit once a few threads run.
#include "reduce_cpu.h"

namespace lessons::reduce {

double SumOpenMP(const float* x, uint64_t n, int threads) {
    double sum = 0;
    const int64_t count = static_cast<int64_t>(n);
#pragma omp parallel for simd num_threads(threads) schedule(static) reduction(+ : sum)
    for (int64_t i = 0; i < count; ++i) sum += x[i];
    return sum;
}

}  // namespace lessons::reduce
