// Exercise 5.8: double buffering with cp.async. The harness runs the step's tile
// 256t-128x256x8-w64x64-s3: blocks of THREADS = 256 threads in one dimension,
// ceil(n / BN) × ceil(m / BM) of them, no dynamic shared memory (STAGES copies of both tiles,
// 37,248 bytes at three stages, fit in static shared memory). Each of the 8 warps owns a
// WM × WN = 64 × 64 tile of the block's BM × BN = 128 × 256. Load4 and Store4
// (gemm_tile_io.cuh) are declared for you; Copy4, Copy16, CommitCopies and WaitCopies below are
// the step's own cp.async helpers.
// This is step 5.7's kernel grown to this tile: a thread computes TM × TN = 16 × 8 outputs of
// its warp's tile, in 4 × 4 pieces 16 rows and 32 columns apart, the lanes sitting 4 × 8 in
// the warp tile (this step's lane map, given). As it stands it is right, but every tile goes
// load, __syncthreads, compute, __syncthreads: while a tile comes from global memory nobody
// computes. Keep STAGES copies of the tiles in shared memory and copy the next ones with
// cp.async while the current one is computed on, one __syncthreads per tile.
// The step's own kernel also reads the next k-slice's A and B values into a second set of
// registers while this slice's FMAs run, takes the partial tile of k first (no bounds test on k
// in its main loop) and runs the FMAs in a serpentine order; none of that is needed here.
constexpr int BM = 128, BN = 256, BK = 8, WM = 64, WN = 64, THREADS = 256, STAGES = 3,
              MIN_BLOCKS = 1;

// cp.async (sm_80 and later) copies global to shared memory without passing through registers,
// so a copy in flight holds no register. The A tile, stored transposed, is copied one float at
// a time (a 4-byte copy can land anywhere); B in 16-byte pieces. Older GPUs copy through
// registers, synchronously: the same results, without the overlap.

// Copies 4 bytes from global to shared memory (the shared address `dst`), or writes zeros
// there without reading `src` where `full` is false. Before sm_80: a load, then a store whose
// "memory" clobber keeps the compiler from moving shared-memory accesses across it.
__device__ __forceinline__ void Copy4(unsigned dst, const float* src, bool full) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(src),
                 "r"(full ? 4 : 0));
#else
    const float v = full ? *src : 0.0f;
    asm volatile("st.shared.f32 [%0], %1;\n" ::"r"(dst), "f"(v) : "memory");
#endif
}

// The same for 16 bytes (both addresses 16-byte aligned).
__device__ __forceinline__ void Copy16(unsigned dst, const float* src, bool full) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src),
                 "r"(full ? 16 : 0));
#else
    const float4 v = full ? *reinterpret_cast<const float4*>(src) : make_float4(0, 0, 0, 0);
    asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};\n" ::"r"(dst), "f"(v.x), "f"(v.y),
                 "f"(v.z), "f"(v.w)
                 : "memory");
#endif
}

// Closes the group of copies issued since the last call.
__device__ __forceinline__ void CommitCopies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

// Waits until at most `kPending` of this thread's groups are still in flight.
template <int kPending>
__device__ __forceinline__ void WaitCopies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
#endif
}

__global__ void __launch_bounds__(THREADS, MIN_BLOCKS)
    gemm_double_buffering_kernel(int m, int n, int k, const float* __restrict__ a,
                                 const float* __restrict__ b, float* __restrict__ c) {
    constexpr int TM = WM / 4, TN = WN / 8;
    static_assert((BM / WM) * (BN / WN) * 32 == THREADS, "one warp per warp tile");
    static_assert(TM % 4 == 0 && TN % 4 == 0 && STAGES >= 2, "thread tile in groups of 4");
    __shared__ __align__(16) float as[BK][BM + 4];  // transposed, padded: as[kk][row]
    __shared__ __align__(16) float bs[BK][BN];
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int ty = (lane / 16) * 2 + lane % 2, tx = (lane / 2) % 8;  // the lane's place, 4 × 8
    const int wm = (warp / (BN / WN)) * WM, wn = (warp % (BN / WN)) * WN;  // the warp's tile
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float sum[TM][TN] = {};
    float fa[TM], fb[TN];
    for (int k0 = 0; k0 < k; k0 += BK) {
#pragma unroll
        for (int i = tid; i < BM * BK / 4; i += THREADS) {
            const int r = i / (BK / 4), kc = (i % (BK / 4)) * 4;
            const float4 v = Load4(a, m, k, row0 + r, k0 + kc);
            as[kc + 0][r] = v.x;
            as[kc + 1][r] = v.y;
            as[kc + 2][r] = v.z;
            as[kc + 3][r] = v.w;
        }
#pragma unroll
        for (int i = tid; i < BK * BN / 4; i += THREADS) {
            const int r = i / (BN / 4), cc = (i % (BN / 4)) * 4;
            *reinterpret_cast<float4*>(&bs[r][cc]) = Load4(b, k, n, k0 + r, col0 + cc);
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
            for (int g = 0; g < TM / 4; ++g) {  // rows wm + g * 16 + ty * 4 .. + 3
                const float4 v = *reinterpret_cast<const float4*>(&as[kk][wm + g * 16 + ty * 4]);
                fa[g * 4 + 0] = v.x, fa[g * 4 + 1] = v.y, fa[g * 4 + 2] = v.z, fa[g * 4 + 3] = v.w;
            }
#pragma unroll
            for (int h = 0; h < TN / 4; ++h) {  // columns wn + h * 32 + tx * 4 .. + 3
                const float4 v = *reinterpret_cast<const float4*>(&bs[kk][wn + h * 32 + tx * 4]);
                fb[h * 4 + 0] = v.x, fb[h * 4 + 1] = v.y, fb[h * 4 + 2] = v.z, fb[h * 4 + 3] = v.w;
            }
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) sum[i][j] += fa[i] * fb[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int h = 0; h < TN / 4; ++h)
            Store4(c, m, n, row0 + wm + (i / 4) * 16 + ty * 4 + i % 4, col0 + wn + h * 32 + tx * 4,
                   make_float4(sum[i][h * 4], sum[i][h * 4 + 1], sum[i][h * 4 + 2],
                               sum[i][h * 4 + 3]));
}
