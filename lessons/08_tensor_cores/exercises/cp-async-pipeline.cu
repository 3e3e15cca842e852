// Exercise 8.2: a cp.async pipeline. The same product as 8.1 (A and Bᵀ in bf16, row strides
// multiples of 8, C in bf16, fp32 sums), for the tile below. The harness launches
// ceil(m / BM) · ceil(n / BN) blocks in ONE dimension, of 256 threads, each with
// STAGES · (BM + BN) · BK bf16 of dynamic shared memory (147,456 bytes: extern __shared__); which
// tile of C block b computes is up to the kernel (the step walks them in groups of GROUP_M rows
// of tiles, so that blocks running together share tiles of B in L2).
// As it stands each block takes tile b in row order and every thread computes elements of C one
// at a time from global memory: right, and slow. Start from your kernel of exercise 8.1 at this
// tile, then keep STAGES tiles of A and Bᵀ in flight with cp.async, wait for the oldest with
// cp.async.wait_group, and lay the tiles out so ldmatrix reads them without bank conflicts.
constexpr int BM = 128, BN = 256, BK = 64, WM = 64, WN = 64, STAGES = 3, GROUP_M = 8;

__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32)
    tc_cp_async_pipeline_kernel(const TcProblem p) {
    static_assert(BK % 16 == 0 && STAGES >= 2 && GROUP_M >= 1, "a pipeline of k16 steps");
    const int tiles_n = (p.n + BN - 1) / BN;
    const int row0 = (blockIdx.x / tiles_n) * BM, col0 = (blockIdx.x % tiles_n) * BN;
    // The prelude's NaiveTcTile (lessons/08_tensor_cores/tc_naive.cuh): replace this call.
    NaiveTcTile<BM, BN>(p, row0, col0);
}
