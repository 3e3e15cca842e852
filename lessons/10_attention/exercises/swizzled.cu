// Exercise 10.4: swizzled tiles and ldmatrix.trans. The harness launches ceil(N / BR) × B·H
// blocks of 2 · BR threads (a warp per 16 query rows), each with (BR + 2 · 64) · D bf16 of dynamic
// shared memory (extern __shared__): room for a Q tile and a K and a V tile of 64 keys.
// Q, K, V and O are [B·H][N][D] bf16; scale = 1/√D.
// As it stands each thread computes one row alone from global memory: right, and slow. Start
// from your kernel of lesson 10.3 (or the lesson's own), then keep V as it lies in shared memory
// and read it with ldmatrix.trans, and swizzle every tile so that no ldmatrix waits on a bank.
// The prelude has 10.3's online softmax on the fragments and its stores of O (FragmentSoftmax,
// StoreFragmentRows, in kernels/attention/attention_device.cuh), which the lesson's kernel calls.
constexpr int D = 128, BR = 128;

__global__ void __launch_bounds__(BR * 2) attention_swizzled_kernel(const AttentionProblem p) {
    // The prelude's NaiveAttentionRow (lessons/10_attention/attention_naive.cuh): replace this
    // loop.
    for (int r = threadIdx.x; r < BR; r += blockDim.x) NaiveAttentionRow<D>(p, blockIdx.x * BR + r);
}
