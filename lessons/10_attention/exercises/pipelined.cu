// Exercise 10.5: a cp.async pipeline for K and V. The harness launches ceil(N / BR) × B·H blocks
// of 2 · BR threads (a warp per 16 query rows), each with (BR + 2 · STAGES · 64) · D bf16 of
// dynamic shared memory (extern __shared__): room for a Q tile and STAGES stages, each a K and
// a V tile of 64 keys. Q, K, V and O are [B·H][N][D] bf16; scale = 1/√D.
// As it stands each thread computes one row alone from global memory: right, and slow. Start
// from your kernel of lesson 10.4 (or the lesson's own), then fill the K and V tiles with
// cp.async, STAGES − 1 tiles ahead of the one being multiplied. The prelude has the earlier
// steps' pieces the lesson's kernel calls (kernels/attention/attention_device.cuh): the swizzled Q
// tile and fragments (LoadSwizzledQ), the two products on swizzled tiles (SwizzledQk,
// SwizzledPv), the softmax on the fragments (FragmentSoftmax) and the stores (StoreFragmentRows).
constexpr int D = 128, BR = 128, STAGES = 2;

__global__ void __launch_bounds__(BR * 2) attention_pipelined_kernel(const AttentionProblem p) {
    // The prelude's NaiveAttentionRow (lessons/10_attention/attention_naive.cuh): replace this
    // loop.
    for (int r = threadIdx.x; r < BR; r += blockDim.x) NaiveAttentionRow<D>(p, blockIdx.x * BR + r);
}
