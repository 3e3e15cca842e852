// Exercise 10.3: the fused kernel on the tensor cores. The harness launches ceil(N / BR) × B·H
// blocks of 2 · BR threads (a warp per 16 query rows), each with (BR + 2 · 64) · D bf16 of dynamic
// shared memory (extern __shared__): room for a Q tile and a K and a V tile of 64 keys.
// Q, K, V and O are [B·H][N][D] bf16; scale = 1/√D.
// As it stands each thread computes one row alone from global memory: right, and slow. Compute
// both products with mma.sync m16n8k16 instead: Q's fragments in registers, K and V tiles of 64
// keys through shared memory, the scores softmaxed in registers (the online softmax of 10.2) and
// fed to P·V as they are.
constexpr int D = 128, BR = 128;

__global__ void __launch_bounds__(BR * 2) attention_mma_sync_kernel(const AttentionProblem p) {
    // The prelude's NaiveAttentionRow (lessons/10_attention/attention_naive.cuh): replace this
    // loop.
    for (int r = threadIdx.x; r < BR; r += blockDim.x) NaiveAttentionRow<D>(p, blockIdx.x * BR + r);
}
