// Chapter 8, tensor cores: the CPU side. bf16 held as its 16 bits (the catalogue and the CPU
// reference compile without CUDA), conversions that round as the GPU does, and the reference
// in double for the "TN" layout of tc_gpu.cuh: A m × k row-major, Bᵀ n × k row-major.
#pragma once

#include <cstdint>

namespace lessons::tc {

// A bf16 is the upper half of a float: sign, 8 exponent bits, 7 stored mantissa bits.
float Bf16ToFloat(uint16_t bits);
// Rounds to the nearest bf16, ties to even (as __float2bfloat16_rn); NaN stays NaN.
uint16_t FloatToBf16(float x);

struct TcReferenceElement {
    double value = 0;      // the sum of A[row][i] · Bᵀ[col][i], in double (exact products)
    double magnitude = 0;  // the sum of |A[row][i] · Bᵀ[col][i]|: the scale of rounding errors
};

// Every element of C, m × n row-major (rows in parallel with OpenMP). A and Bᵀ are compact
// (leading dimension k).
void TcReference(const uint16_t* a, const uint16_t* bt, int m, int n, int k, double* value,
                 double* magnitude);

// One element of C.
TcReferenceElement TcReferenceAt(const uint16_t* a, const uint16_t* bt, int k, int row, int col);

}  // namespace lessons::tc
