// Chapter 10, attention forward: the CPU side. O = softmax(Q·Kᵀ / √d) · V for each of B·H heads,
// Q, K, V and O laid out [B][H][N][d] (row-major, d contiguous), held as bf16 bits (the catalogue
// and the reference compile without CUDA). The reference works in double on exactly the bf16
// values the GPU reads. CUDA-free.
#pragma once

#include <cstdint>
#include <vector>

namespace lessons::attention {

// One output row (query `row` of one head) in double, and what its tolerance is made of.
struct AttentionReferenceRow {
    std::vector<double> o;          // d values: Σ_j p_j · v_j
    std::vector<double> magnitude;  // d values: Σ_j p_j · |v_j| (the scale of rounding errors)
    double max_abs_score = 0;       // the largest |s_j| = |q·k_j| / √d over the keys it sees
};

// The reference of query `row` (0 ≤ row < n) of one head: q, k, v point at that head's n × d
// matrices (bf16 bits, row-major). Causal: key j is seen only when j ≤ row.
AttentionReferenceRow AttentionReferenceAt(const uint16_t* q, const uint16_t* k, const uint16_t* v,
                                           int n, int d, bool causal, int row);

}  // namespace lessons::attention
