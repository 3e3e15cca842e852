// Chapter 5's CPU reference: the product in double, row by row (OpenMP over the rows of C).
#include <cmath>
#include <cstddef>

#include "gemm_cpu.h"

namespace lessons::gemm {

void GemmReference(const float* a, const float* b, int m, int n, int k, double* c,
                   double* magnitude) {
#pragma omp parallel for schedule(dynamic, 4)
    for (int row = 0; row < m; ++row) {
        double* crow = c + size_t(row) * size_t(n);
        double* mrow = magnitude + size_t(row) * size_t(n);
        for (int col = 0; col < n; ++col) crow[col] = mrow[col] = 0.0;
        for (int i = 0; i < k; ++i) {
            const double av = a[size_t(row) * size_t(k) + size_t(i)];
            const float* brow = b + size_t(i) * size_t(n);
            for (int col = 0; col < n; ++col) {
                crow[col] += av * double(brow[col]);
                mrow[col] += std::fabs(av) * std::fabs(double(brow[col]));
            }
        }
    }
}

ReferenceElement GemmReferenceAt(const float* a, const float* b, int n, int k, int row, int col) {
    ReferenceElement e;
    for (int i = 0; i < k; ++i) {
        const double av = a[size_t(row) * size_t(k) + size_t(i)];
        const double bv = b[size_t(i) * size_t(n) + size_t(col)];
        e.value += av * bv;
        e.magnitude += std::fabs(av) * std::fabs(bv);
    }
    return e;
}

}  // namespace lessons::gemm
