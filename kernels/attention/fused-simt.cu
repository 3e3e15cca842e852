// One kernel, no N × N matrix: each block owns a tile of query rows and streams K and V through
// shared memory in tiles of 32 keys, keeping for each row the running max, the running sum and
// the output accumulator (the online softmax of chapter 9) in registers. Everything is fp32 on
// the CUDA cores: a warp owns ROWS query rows; lane j scores key j of the tile, and each lane then
// accumulates d/32 columns of the output. Correct, and slow: it does attention's flops without
// the tensor cores, which do the two matrix products of the unfused step many times faster.
#include "attention_device.cuh"
#include "attention_gpu.cuh"
#include "attention_launch.cuh"

namespace lessons::attention {

template <int D, int WARPS, int ROWS>
__global__ void __launch_bounds__(WARPS * 32)
    attention_fused_simt_kernel(const AttentionProblem p) {
    constexpr int kKeys = 32, E = D / 32, BR = WARPS * ROWS;
    __shared__ float ks[kKeys][D + 1];  // +1: lane j reads row j, and rows fall in other banks
    __shared__ float vs[kKeys][D];
    __shared__ float qs[BR][D];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const size_t head = static_cast<size_t>(blockIdx.y) * p.n * D;
    const int q0 = blockIdx.x * BR;
    const __nv_bfloat16 *q = p.q + head, *k = p.k + head, *v = p.v + head;

    // The block's query rows, scaled by 1/√d (rows past n are zeros, computed and not stored).
    for (int i = threadIdx.x; i < BR * D; i += WARPS * 32) {
        const int row = q0 + i / D;
        qs[i / D][i % D] =
            row < p.n ? __bfloat162float(q[size_t(row) * D + i % D]) * p.scale : 0.0f;
    }
    float o[ROWS][E], m[ROWS], l[ROWS];
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
        m[r] = NegInfinity();
        l[r] = 0.0f;
#pragma unroll
        for (int t = 0; t < E; ++t) o[r][t] = 0.0f;
    }
    // Causal: no key past the block's last row is seen by any of its rows.
    const int end = p.causal ? min(p.n, q0 + BR) : p.n;
    for (int k0 = 0; k0 < end; k0 += kKeys) {
        __syncthreads();  // the previous tile is used up (and, the first time, qs is written)
        for (int i = threadIdx.x; i < kKeys * D; i += WARPS * 32) {
            const int key = k0 + i / D;
            const bool in = key < p.n;
            ks[i / D][i % D] = in ? __bfloat162float(k[size_t(key) * D + i % D]) : 0.0f;
            vs[i / D][i % D] = in ? __bfloat162float(v[size_t(key) * D + i % D]) : 0.0f;
        }
        __syncthreads();

        // Lane j: the score of key k0 + j for each of the warp's rows.
        float s[ROWS];
#pragma unroll
        for (int r = 0; r < ROWS; ++r) s[r] = 0.0f;
#pragma unroll 8
        for (int e = 0; e < D; ++e) {
            const float kv = ks[lane][e];
#pragma unroll
            for (int r = 0; r < ROWS; ++r) s[r] += qs[warp * ROWS + r][e] * kv;  // a broadcast
        }
        const int key = k0 + lane;
#pragma unroll
        for (int r = 0; r < ROWS; ++r) {
            const int row = q0 + warp * ROWS + r;
            const bool seen = key < p.n && (!p.causal || key <= row);
            float tile_max = seen ? s[r] : NegInfinity();
#pragma unroll
            for (int off = 16; off > 0; off /= 2)
                tile_max = fmaxf(tile_max, __shfl_xor_sync(0xffffffffu, tile_max, off));
            const float m_new = fmaxf(m[r], tile_max);
            // m_new is finite once a key was seen (key 0 is seen by every row in the first tile).
            const float base = m_new == NegInfinity() ? 0.0f : m_new;
            const float rescale = __expf(m[r] - base);  // exp(-inf) = 0 the first time
            const float pr = seen ? __expf(s[r] - base) : 0.0f;
            float sum = pr;
#pragma unroll
            for (int off = 16; off > 0; off /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, off);
            l[r] = l[r] * rescale + sum;
            m[r] = m_new;
#pragma unroll
            for (int t = 0; t < E; ++t) o[r][t] *= rescale;
            s[r] = pr;  // now the weight of the lane's key
        }
        // o += P·V: key j's weight from lane j, times the lane's d/32 columns of V's row j.
#pragma unroll 4
        for (int j = 0; j < kKeys; ++j) {
            float vv[E];
#pragma unroll
            for (int t = 0; t < E; ++t) vv[t] = vs[j][lane + 32 * t];
#pragma unroll
            for (int r = 0; r < ROWS; ++r) {
                const float pj = __shfl_sync(0xffffffffu, s[r], j);
#pragma unroll
                for (int t = 0; t < E; ++t) o[r][t] += pj * vv[t];
            }
        }
    }
    __nv_bfloat16* out = p.o + head;
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
        const int row = q0 + warp * ROWS + r;
        if (row >= p.n) continue;
        const float inv = 1.0f / l[r];
#pragma unroll
        for (int t = 0; t < E; ++t)
            out[size_t(row) * D + lane + 32 * t] = __float2bfloat16_rn(o[r][t] * inv);
    }
}

namespace {

template <int D, int WARPS, int ROWS>
AttentionKernel Config(const char* tile) {
    return RowsKernel<&attention_fused_simt_kernel<D, WARPS, ROWS>, D, WARPS * 32, WARPS * ROWS, 0,
                      75>(tile, "attention_fused_simt_kernel");
}

}  // namespace

// The tiles: "w<warps>-r<rows a warp>", a block owning warps × rows query rows.
const AttentionKernel kFusedSimt[] = {
    Config<128, 4, 4>("w4-r4"), Config<64, 4, 4>("w4-r4"),  Config<128, 4, 2>("w4-r2"),
    Config<64, 4, 2>("w4-r2"),  Config<128, 8, 2>("w8-r2"), Config<64, 8, 2>("w8-r2"),
};

LESSONS_KERNELS(kFusedSimt);

}  // namespace lessons::attention
