// Chapter 8's CPU reference: each element of C a dot product of a row of A and a row of Bᵀ
// (both contiguous in the TN layout), in double. A product of two bf16 values has at most 16
// significant bits, so every product is exact and the only rounding is the double sum's.
#include <cmath>
#include <cstddef>
#include <cstring>
#include <vector>

#include "tc_cpu.h"

namespace lessons::tc {

float Bf16ToFloat(uint16_t bits) {
    const uint32_t u = uint32_t(bits) << 16;
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

uint16_t FloatToBf16(float x) {
    uint32_t u;
    std::memcpy(&u, &x, sizeof u);
    if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu))
        return uint16_t((u >> 16) | 0x0040u);  // a NaN stays a (quiet) NaN
    // Round to nearest, ties to even: add half an ulp of the result, less one when its last
    // kept bit is 0. Overflow to the infinity of the right sign comes out of the carry.
    u += 0x7FFFu + ((u >> 16) & 1u);
    return uint16_t(u >> 16);
}

namespace {

// One dot product in double: a row of A already widened, a row of Bᵀ widened as it is read.
TcReferenceElement Dot(const double* a, const uint16_t* b, int k) {
    TcReferenceElement e;
    for (int i = 0; i < k; ++i) {
        const double p = a[i] * double(Bf16ToFloat(b[i]));
        e.value += p;
        e.magnitude += std::fabs(p);
    }
    return e;
}

void Widen(const uint16_t* in, int k, double* out) {
    for (int i = 0; i < k; ++i) out[i] = double(Bf16ToFloat(in[i]));
}

}  // namespace

void TcReference(const uint16_t* a, const uint16_t* bt, int m, int n, int k, double* value,
                 double* magnitude) {
    // Each thread widens its own row of A once.
#pragma omp parallel
    {
        std::vector<double> row_a(static_cast<size_t>(k));
#pragma omp for schedule(dynamic, 4)
        for (int row = 0; row < m; ++row) {
            Widen(a + size_t(row) * size_t(k), k, row_a.data());
            for (int col = 0; col < n; ++col) {
                const TcReferenceElement e = Dot(row_a.data(), bt + size_t(col) * size_t(k), k);
                value[size_t(row) * size_t(n) + size_t(col)] = e.value;
                magnitude[size_t(row) * size_t(n) + size_t(col)] = e.magnitude;
            }
        }
    }
}

TcReferenceElement TcReferenceAt(const uint16_t* a, const uint16_t* bt, int k, int row, int col) {
    std::vector<double> x(static_cast<size_t>(k));
    Widen(a + size_t(row) * size_t(k), k, x.data());
    return Dot(x.data(), bt + size_t(col) * size_t(k), k);
}

}  // namespace lessons::tc
