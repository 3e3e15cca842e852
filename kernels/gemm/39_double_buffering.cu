// Lesson 39: double buffering.
// In lesson 38 every tile goes load, __syncthreads, compute, __syncthreads: while a tile is
// being fetched from global memory nobody computes, and while it is being used nobody fetches.
// Here there are two copies of each shared tile: the loads of tile t + 1 are issued before
// the arithmetic on tile t and land in the other copy, so their latency hides behind the
// FMAs, and one __syncthreads per tile is enough. On sm_80 and later the B tile is copied with
// cp.async (global to shared without passing through registers); the A tile, which is stored
// transposed, and on older GPUs both tiles, are held in registers during the arithmetic.
#include "gemm_gpu.cuh"
#include "gemm_tile_io.cuh"
#include "gemm_tiles.h"

namespace lessons::gemm {

template <int BM, int BN, int BK, int WM, int WN, int THREADS>
__global__ void __launch_bounds__(THREADS, 2)
    gemm_39_double_buffered_kernel(int m, int n, int k, const float* a, const float* b, float* c) {
    static_assert((BM / WM) * (BN / WN) * 32 == THREADS, "one warp per warp tile");
    static_assert((WM / 8) * (WN / 8) == 32, "a thread computes 8 x 8 of its warp's tile");
    static_assert((BM * BK / 4) % THREADS == 0 && (BK * BN / 4) % THREADS == 0, "even loads");
    constexpr int kLoadsA = BM * BK / 4 / THREADS, kLoadsB = BK * BN / 4 / THREADS;
    __shared__ __align__(16) float as[2][BK][BM + 4];  // transposed, padded: as[buf][kk][row]
    __shared__ __align__(16) float bs[2][BK][BN];
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int wr = (warp / (BN / WN)) * WM, wc = (warp % (BN / WN)) * WN;  // the warp's tile
    const int lr = lane / (WN / 8), lc = lane % (WN / 8);  // the thread's place in it
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float sum[8][8] = {};
    float ra[8], rb[8];
    float4 pa[kLoadsA];  // the next A tile, in flight in registers
#if !(defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800)
    float4 pb[kLoadsB];  // and, without cp.async, the next B tile
#endif

    // Issue the global loads of the tile at k0: A into registers, B into buffer `buf` by
    // cp.async where the GPU has it (else into registers too).
    auto fetch = [&](int k0, int buf) {
#pragma unroll
        for (int l = 0; l < kLoadsA; ++l) {
            const int i = tid + l * THREADS, r = i / (BK / 4), kc = (i % (BK / 4)) * 4;
            pa[l] = Load4(a, m, k, row0 + r, k0 + kc);
        }
#pragma unroll
        for (int l = 0; l < kLoadsB; ++l) {
            const int i = tid + l * THREADS, r = i / (BN / 4), cc = (i % (BN / 4)) * 4;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
            if (k0 + r < k && (n & 3) == 0 && col0 + cc + 3 < n) {
                const unsigned dst =
                    static_cast<unsigned>(__cvta_generic_to_shared(&bs[buf][r][cc]));
                asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst),
                             "l"(b + size_t(k0 + r) * n + col0 + cc));
            } else {
                *reinterpret_cast<float4*>(&bs[buf][r][cc]) = Load4(b, k, n, k0 + r, col0 + cc);
            }
#else
            (void)buf;
            pb[l] = Load4(b, k, n, k0 + r, col0 + cc);
#endif
        }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
    };
    // Finish the tile in flight into buffer `buf`: registers to shared memory, and wait for
    // the asynchronous copies.
    auto land = [&](int buf) {
#pragma unroll
        for (int l = 0; l < kLoadsA; ++l) {
            const int i = tid + l * THREADS, r = i / (BK / 4), kc = (i % (BK / 4)) * 4;
            as[buf][kc + 0][r] = pa[l].x;
            as[buf][kc + 1][r] = pa[l].y;
            as[buf][kc + 2][r] = pa[l].z;
            as[buf][kc + 3][r] = pa[l].w;
        }
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
        asm volatile("cp.async.wait_all;\n" ::: "memory");
#else
#pragma unroll
        for (int l = 0; l < kLoadsB; ++l) {
            const int i = tid + l * THREADS, r = i / (BN / 4), cc = (i % (BN / 4)) * 4;
            *reinterpret_cast<float4*>(&bs[buf][r][cc]) = pb[l];
        }
#endif
    };

    fetch(0, 0);
    land(0);
    __syncthreads();
    int cur = 0;
    for (int k0 = 0; k0 < k; k0 += BK) {
        const bool more = k0 + BK < k;
        if (more) fetch(k0 + BK, cur ^ 1);  // buffer cur ^ 1 was released by the last sync
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const float4 va =
                    *reinterpret_cast<const float4*>(&as[cur][kk][wr + h * (WM / 2) + lr * 4]);
                const float4 vb =
                    *reinterpret_cast<const float4*>(&bs[cur][kk][wc + h * (WN / 2) + lc * 4]);
                ra[h * 4 + 0] = va.x, ra[h * 4 + 1] = va.y, ra[h * 4 + 2] = va.z,
                           ra[h * 4 + 3] = va.w;
                rb[h * 4 + 0] = vb.x, rb[h * 4 + 1] = vb.y, rb[h * 4 + 2] = vb.z,
                           rb[h * 4 + 3] = vb.w;
            }
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 8; ++j) sum[i][j] += ra[i] * rb[j];
        }
        if (more) land(cur ^ 1);
        __syncthreads();  // tile t + 1 is in place, and everyone is done with tile t
        cur ^= 1;
    }
#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int row = row0 + wr + (i / 4) * (WM / 2) + lr * 4 + i % 4;
#pragma unroll
        for (int h = 0; h < 2; ++h)
            Store4(c, m, n, row, col0 + wc + h * (WN / 2) + lc * 4,
                   make_float4(sum[i][h * 4], sum[i][h * 4 + 1], sum[i][h * 4 + 2],
                               sum[i][h * 4 + 3]));
    }
}

namespace {

template <int BM, int BN, int BK, int WM, int WN, int THREADS>
cudaError_t Launch(int m, int n, int k, const float* a, const float* b, float* c, int,
                   cudaStream_t s) {
    const dim3 grid(unsigned((n + BN - 1) / BN), unsigned((m + BM - 1) / BM));
    gemm_39_double_buffered_kernel<BM, BN, BK, WM, WN, THREADS>
        <<<grid, THREADS, 0, s>>>(m, n, k, a, b, c);
    return cudaGetLastError();
}

template <int BM, int BN, int BK, int WM, int WN, int THREADS>
GemmKernel Config(const char* config) {
    return {
        config,
        "gemm_39_double_buffered_kernel",
        reinterpret_cast<const void*>(&gemm_39_double_buffered_kernel<BM, BN, BK, WM, WN, THREADS>),
        THREADS,
        0,
        &Launch<BM, BN, BK, WM, WN, THREADS>,
        0};
}

}  // namespace

// Names: threads, block tile BM×BN×BK, warp tile WM×WN; every thread computes 8 × 8.
const GemmKernel kGemm39[kGemmConfigs] = {
    Config<128, 128, 16, 64, 32, 256>(kTiles39[0]),
    Config<128, 128, 8, 64, 32, 256>(kTiles39[1]),
    Config<128, 64, 16, 64, 32, 128>(kTiles39[2]),
    Config<64, 128, 8, 32, 64, 128>(kTiles39[3]),
};

}  // namespace lessons::gemm
