// Exercise 8.3: the warpgroup multiply (wgmma, sm_90a). The same product as 8.1 (A and Bᵀ in
// bf16, row strides multiples of 8, C in bf16, fp32 sums), for the tile below. The harness
// launches ceil(n / BN) × ceil(m / BM) blocks of 128 · WARPGROUPS = 256 threads, each with
// STAGES · (BM + BN) · 128 + 1024 bytes of dynamic shared memory (extern __shared__; the extra
// 1024 let you align the tiles to 1024 bytes, which AlignedDynamicSmem does). The helpers the
// step uses are declared for you (kernels/tc/tc_hopper.cuh's device part): CpAsync16,
// CpAsyncCommit, CpAsyncWait<N>, FenceProxyAsync, SwizzledDescriptor, WgmmaFence, WgmmaCommit,
// WgmmaWait<N>, Wgmma<N>::Run, StoreAccumulators<N>, AlignedDynamicSmem.
// As it stands every thread computes elements of C one at a time from global memory: right, and
// slow. Copy STAGES k-tiles of 64 ahead with cp.async in the 128-byte swizzled layout, and let
// each warpgroup multiply its 64-row slices with wgmma, both operands from shared memory.
constexpr int BM = 128, BN = 256, STAGES = 3, WARPGROUPS = 2;

__global__ void __launch_bounds__(128 * WARPGROUPS, 1) tc_wgmma_kernel(TcProblem p) {
    static_assert(BM % (64 * WARPGROUPS) == 0 && STAGES >= 2, "64-row slices, a pipeline");
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    // The prelude's NaiveTcTile (lessons/08_tensor_cores/tc_naive.cuh): replace this call.
    NaiveTcTile<BM, BN>(p, row0, col0);
}
