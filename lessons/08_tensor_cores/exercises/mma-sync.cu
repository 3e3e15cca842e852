// Exercise 8.1: the tensor cores through mma.sync. C = A·B with A (m × k) and Bᵀ (n × k) in bf16,
// row-major with row strides lda and ldb (multiples of 8, the padding zero), C (m × n, stride
// ldc) in bf16, summed in fp32. The harness launches ceil(n / BN) × ceil(m / BM) blocks of
// (BM / WM) · (BN / WN) · 32 = 128 threads for the tile below, no dynamic shared memory.
// As it stands every thread computes BM · BN / 128 elements of C one at a time, with scalar
// loads from global memory and fp32 FMAs: right, and slow. Give each warp a WM × WN tile of C in
// registers, copy BM × BK of A and BN × BK of Bᵀ to shared memory, and multiply with ldmatrix and
// mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32.
constexpr int BM = 128, BN = 128, BK = 32, WM = 64, WN = 64;

__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32)
    tc_mma_sync_kernel(const TcProblem p) {
    static_assert(BK % 16 == 0 && WM % 16 == 0 && WN % 8 == 0, "m16n8k16 tiles");
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    // The prelude's NaiveTcTile (lessons/08_tensor_cores/tc_naive.cuh): replace this call.
    NaiveTcTile<BM, BN>(p, row0, col0);
}
