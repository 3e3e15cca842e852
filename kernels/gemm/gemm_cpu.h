// Chapter 5, GEMM: the CPU reference. C = A·B with A m × k and B k × n, row-major, summed in
// double; beside each element, the sum of |a|·|b| over its products, the scale of the
// rounding error any float evaluation of that element may make.
#pragma once

#include <cstdint>

namespace lessons::gemm {

struct ReferenceElement {
    double value = 0;
    double magnitude = 0;  // sum over i of |A[row][i]| · |B[i][col]|
};

// Every element of C (rows in parallel with OpenMP): c and magnitude hold m × n doubles.
void GemmReference(const float* a, const float* b, int m, int n, int k, double* c,
                   double* magnitude);

// One element of C.
ReferenceElement GemmReferenceAt(const float* a, const float* b, int n, int k, int row, int col);

}  // namespace lessons::gemm
