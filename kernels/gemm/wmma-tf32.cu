// Tensor cores through WMMA, in TF32 (sm_80 and later).
// The SIMT steps issue one FMA per thread per instruction. A tensor core multiplies whole
// 16 × 8 by 8 × 16 tiles per warp instruction (wmma::mma_sync), several times the fp32 FMA
// rate, at a price: A and B are rounded to TF32 (10-bit mantissa, about 3 decimal digits;
// sums stay fp32). The tiles are double-buffered through registers, not copied with cp.async
// as in double buffering: each element is rounded to TF32 on its way into shared memory, and
// cp.async cannot change what it copies. Each warp keeps its WM × WN block of C in accumulator
// fragments. What keeps the tensor cores fed is said where it is done (the lesson's text has
// the measurements). Shared memory is dynamic: the widest tile needs more than the 48 KB a
// static allocation may have.
#include <mma.h>

#include "gemm_gpu.cuh"
#include "gemm_tile_io.cuh"
#include "gemm_tiles.h"
#include "kernel_table.h"

namespace lessons::gemm {

namespace wmma = nvcuda::wmma;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
// The fragments are loaded with the shared-memory form of the WMMA load. nvcc 13.0 compiles
// wmma::load_matrix_sync of a TF32 fragment to the generic wmma.load even when the pointer is
// into shared memory (for f16 fragments it finds .shared itself): SASS LD with 64-bit
// addresses, which the warp waits for like a global load. Stating .shared gives LDS, fewer
// registers, and almost no long-scoreboard stalls.
// wmma::load_matrix_sync of a fragment in shared memory, as the PTX instruction it stands for
// with the state space said: wmma.load.{a,b}.sync.aligned.row.m16n16k8.shared.tf32. Its four
// registers are the fragment's elements in the order the C++ fragment stores them (x[0..3]),
// which is how the CUDA header's own load fills a fragment.
using FragmentA = wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major>;
using FragmentB = wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major>;

__device__ __forceinline__ void Set(float (&x)[4], unsigned r0, unsigned r1, unsigned r2,
                                    unsigned r3) {
    x[0] = __uint_as_float(r0);
    x[1] = __uint_as_float(r1);
    x[2] = __uint_as_float(r2);
    x[3] = __uint_as_float(r3);
}

// Whether a fragment is A's (else B's): which of the two loads it takes.
template <class Fragment>
constexpr bool kIsFragmentA = false;
template <>
constexpr bool kIsFragmentA<FragmentA> = true;

template <class Fragment>
__device__ __forceinline__ void LoadShared(Fragment& f, const float* p, unsigned ldm) {
    const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(p));
    unsigned r0, r1, r2, r3;
    if constexpr (kIsFragmentA<Fragment>)
        asm volatile("wmma.load.a.sync.aligned.row.m16n16k8.shared.tf32 {%0,%1,%2,%3}, [%4], %5;"
                     : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
                     : "r"(s), "r"(ldm)
                     : "memory");
    else
        asm volatile("wmma.load.b.sync.aligned.row.m16n16k8.shared.tf32 {%0,%1,%2,%3}, [%4], %5;"
                     : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
                     : "r"(s), "r"(ldm)
                     : "memory");
    Set(f.x, r0, r1, r2, r3);
}
#endif

template <int BM, int BN, int WARPS_M, int WARPS_N, int MIN_BLOCKS>
__global__ void __launch_bounds__(32 * WARPS_M * WARPS_N, MIN_BLOCKS)
    gemm_wmma_tf32_kernel(int m, int n, int k, const float* a, const float* b, float* c) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    // B's rows are padded by 8 floats, so the 32 lanes of a B fragment read 32 different banks
    // (with 4, two lanes share a bank).
    constexpr int kThreads = 32 * WARPS_M * WARPS_N, BK = 16, kLda = BK + 4, kLdb = BN + 8;
    constexpr int WM = BM / WARPS_M, WN = BN / WARPS_N, FM = WM / 16, FN = WN / 16;
    constexpr int kLoadsA = BM * BK / 4 / kThreads, kLoadsB = BK * BN / 4 / kThreads;
    static_assert(kLoadsA * kThreads * 4 == BM * BK && kLoadsB * kThreads * 4 == BK * BN, "");
    extern __shared__ __align__(128) float wmma_smem[];
    auto as = reinterpret_cast<float(*)[BM][kLda]>(wmma_smem);                  // [2][BM][kLda]
    auto bs = reinterpret_cast<float(*)[BK][kLdb]>(wmma_smem + 2 * BM * kLda);  // [2][BK][kLdb]
    auto stage =                                                                // edge tiles of C
        reinterpret_cast<float(*)[16 * 16]>(wmma_smem + 2 * BM * kLda + 2 * BK * kLdb);
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int wr = (warp / WARPS_N) * WM, wc = (warp % WARPS_N) * WN;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    // The same for the whole block: its tiles lie inside A and B, rows 16-byte aligned. Such a
    // block loads its tiles without per-element bounds checks.
    const bool inside = (k & 3) == 0 && (n & 3) == 0 && row0 + BM <= m && col0 + BN <= n;

    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[FM][FN];
#pragma unroll
    for (int i = 0; i < FM; ++i)
#pragma unroll
        for (int j = 0; j < FN; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

    float4 pa[kLoadsA], pb[kLoadsB];
    auto fetch = [&](int k0) {
        const bool plain = inside && k0 + BK <= k;  // no element of this tile is outside
        auto load = [plain](const float* p, int rows, int cols, int r, int col) {
            return plain ? *reinterpret_cast<const float4*>(p + size_t(r) * cols + col)
                         : Load4(p, rows, cols, r, col);
        };
#pragma unroll
        for (int l = 0; l < kLoadsA; ++l) {
            const int i = tid + l * kThreads;
            pa[l] = load(a, m, k, row0 + i / (BK / 4), k0 + (i % (BK / 4)) * 4);
        }
#pragma unroll
        for (int l = 0; l < kLoadsB; ++l) {
            const int i = tid + l * kThreads;
            pb[l] = load(b, k, n, k0 + i / (BN / 4), col0 + (i % (BN / 4)) * 4);
        }
    };
    auto tf32 = [](float4 v) {
        return make_float4(wmma::__float_to_tf32(v.x), wmma::__float_to_tf32(v.y),
                           wmma::__float_to_tf32(v.z), wmma::__float_to_tf32(v.w));
    };
    auto land = [&](int buf) {
#pragma unroll
        for (int l = 0; l < kLoadsA; ++l) {
            const int i = tid + l * kThreads;
            *reinterpret_cast<float4*>(&as[buf][i / (BK / 4)][(i % (BK / 4)) * 4]) = tf32(pa[l]);
        }
#pragma unroll
        for (int l = 0; l < kLoadsB; ++l) {
            const int i = tid + l * kThreads;
            *reinterpret_cast<float4*>(&bs[buf][i / (BN / 4)][(i % (BN / 4)) * 4]) = tf32(pb[l]);
        }
    };

    fetch(0);
    land(0);
    __syncthreads();
    int cur = 0;
    for (int k0 = 0; k0 < k; k0 += BK) {
        const bool more = k0 + BK < k;
        if (more) fetch(k0 + BK);
#pragma unroll
        for (int kk = 0; kk < BK; kk += 8) {
            FragmentA fa[FM];
            FragmentB fb[FN];
#pragma unroll
            for (int i = 0; i < FM; ++i) LoadShared(fa[i], &as[cur][wr + i * 16][kk], kLda);
#pragma unroll
            for (int j = 0; j < FN; ++j) LoadShared(fb[j], &bs[cur][kk][wc + j * 16], kLdb);
#pragma unroll
            for (int i = 0; i < FM; ++i)
#pragma unroll
                for (int j = 0; j < FN; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
        }
        if (more) land(cur ^ 1);
        __syncthreads();
        cur ^= 1;
    }

#pragma unroll
    for (int i = 0; i < FM; ++i)
#pragma unroll
        for (int j = 0; j < FN; ++j) {
            const int row = row0 + wr + i * 16, col = col0 + wc + j * 16;
            if (row + 16 <= m && col + 16 <= n && (n & 3) == 0) {
                wmma::store_matrix_sync(c + size_t(row) * n + col, acc[i][j], n,
                                        wmma::mem_row_major);
                continue;
            }
            // An edge tile: through shared memory, then only the elements inside C.
            wmma::store_matrix_sync(stage[warp], acc[i][j], 16, wmma::mem_row_major);
            __syncwarp();
            for (int e = lane; e < 256; e += 32)
                if (row + e / 16 < m && col + e % 16 < n)
                    c[size_t(row + e / 16) * n + col + e % 16] = stage[warp][e];
            __syncwarp();
        }
#else
    (void)m, (void)n, (void)k, (void)a, (void)b, (void)c;  // needs sm_80: the host refuses
#endif
}

namespace {

// The shared memory of a block: two A tiles, two B tiles, a 16 × 16 staging tile per warp.
template <int BM, int BN, int WARPS_M, int WARPS_N>
constexpr size_t WmmaSmemBytes() {
    return sizeof(float) * (2 * BM * (16 + 4) + 2 * 16 * (BN + 8) + WARPS_M * WARPS_N * 16 * 16);
}

// A tile's warps: BM / WM × BN / WN, each with a WM × WN tile of C.
// Registers per thread for sm_90 (ptxas, nvcc 13.0, no spills), in the order of kTilesWmmaTf32:
// 234, 221, 128 and 99.
LESSONS_KERNEL_TABLE(kGemmWmmaTf32, kTilesWmmaTf32, [name = "gemm_wmma_tf32_kernel"]<GemmTile T>() {
    static_assert(T.bk == 16 && T.stages == 0, "the kernel's k-step is 16, double-buffered");
    constexpr int kWarpsM = T.bm / T.wm, kWarpsN = T.bn / T.wn;
    static_assert(32 * kWarpsM * kWarpsN == T.threads, "one warp per warp tile");
    return TiledKernel<T, &gemm_wmma_tf32_kernel<T.bm, T.bn, kWarpsM, kWarpsN, T.min_blocks>,
                       WmmaSmemBytes<T.bm, T.bn, kWarpsM, kWarpsN>()>(name, 80);
});

}  // namespace

}  // namespace lessons::gemm
