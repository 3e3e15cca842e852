// The starting point of chapter 10's fused exercises (10.2 to 10.6), which no step uses: one query
// row of one head computed by one thread alone, straight from global memory, reading K twice
// (once for the row's max score, once for the weights). Right, and slow. Device code only, and
// nothing NVRTC lacks: the exercises' prelude holds this file after the chapter's device helpers
// (kernels/attention/attention_device.cuh), so a starting file calls it where the student's
// kernel will stand.
#pragma once

#include <cuda_bf16.h>

#include "attention/attention_device.cuh"
#include "attention/attention_gpu.cuh"

namespace lessons::attention {

// Row `row` of head blockIdx.y of O = softmax(Q·Kᵀ · scale) · V, Q, K, V and O [B·H][N][D] bf16;
// a row past N is skipped, and with the causal mask the row sees keys 0..row.
template <int D>
__device__ void NaiveAttentionRow(const AttentionProblem& p, int row) {
    if (row >= p.n) return;
    const size_t head = static_cast<size_t>(blockIdx.y) * p.n * D;
    const __nv_bfloat16 *q = p.q + head + size_t(row) * D, *k = p.k + head, *v = p.v + head;
    const int keys = p.causal ? row + 1 : p.n;
    auto score = [&](int j) {
        float s = 0.0f;
        for (int e = 0; e < D; ++e)
            s += __bfloat162float(q[e]) * __bfloat162float(k[size_t(j) * D + e]);
        return s * p.scale;
    };
    // Pass 1: the row's max score. Pass 2: the weights, their sum and the weighted V rows.
    float m = NegInfinity();
    for (int j = 0; j < keys; ++j) m = fmaxf(m, score(j));
    float o[D];
    for (int e = 0; e < D; ++e) o[e] = 0.0f;
    float l = 0.0f;
    for (int j = 0; j < keys; ++j) {
        const float w = __expf(score(j) - m);
        l += w;
        for (int e = 0; e < D; ++e) o[e] += w * __bfloat162float(v[size_t(j) * D + e]);
    }
    for (int e = 0; e < D; ++e) p.o[head + size_t(row) * D + e] = __float2bfloat16_rn(o[e] / l);
}

}  // namespace lessons::attention
