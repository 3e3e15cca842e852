// The starting point of chapter 8's first exercises (8.1 to 8.3), which no step uses: a block's
// BM × BN tile of C computed one element at a time, straight from global memory, with fp32 FMAs.
// Right, and slow. Device code only, and nothing NVRTC lacks: the exercises' prelude holds this
// file after TcProblem's declaration (kernels/tc/tc_gpu.cuh), so a starting file calls it where
// the student's kernel will stand.
#pragma once

#include <cuda_bf16.h>

#include "tc/tc_gpu.cuh"

namespace lessons::tc {

// The elements of C's tile at (row0, col0) that lie inside C, each computed by thread
// threadIdx.x + i · blockDim.x alone: C = A·B with A (m × k) and Bᵀ (n × k) row-major.
template <int BM, int BN>
__device__ void NaiveTcTile(const TcProblem& p, int row0, int col0) {
    for (int e = threadIdx.x; e < BM * BN; e += blockDim.x) {
        const int row = row0 + e / BN, col = col0 + e % BN;
        if (row >= p.m || col >= p.n) continue;
        float sum = 0.0f;
        for (int k = 0; k < p.k; ++k)
            sum += __bfloat162float(p.a[size_t(row) * p.lda + k]) *
                   __bfloat162float(p.bt[size_t(col) * p.ldb + k]);
        p.c[size_t(row) * p.ldc + col] = __float2bfloat16_rn(sum);
    }
}

}  // namespace lessons::tc
