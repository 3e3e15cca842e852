// Exercise 10.2: one fused kernel with the online softmax. The harness launches
// ceil(N / (WARPS · ROWS)) × B·H blocks of WARPS · 32 threads; block (x, y) owns query rows
// x · WARPS · ROWS onwards of head y (Q, K, V and O are [B·H][N][D] bf16; scale = 1/√D).
// As it stands each thread computes one row alone, straight from global memory, and reads K twice
// (once for the max, once for the sum): right, and slow. Make it one pass over K with a running
// max and sum, and share the K and V tiles of a block through shared memory.
constexpr int D = 128, WARPS = 4, ROWS = 4;

__global__ void __launch_bounds__(WARPS * 32)
    attention_fused_simt_kernel(const AttentionProblem p) {
    constexpr int BR = WARPS * ROWS;
    // The prelude's NaiveAttentionRow (lessons/10_attention/attention_naive.cuh): replace this
    // loop.
    for (int r = threadIdx.x; r < BR; r += blockDim.x) NaiveAttentionRow<D>(p, blockIdx.x * BR + r);
}
