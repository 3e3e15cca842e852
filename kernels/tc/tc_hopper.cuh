// Chapter 8, tensor cores on Hopper: what the Hopper steps share. Device side: shared-memory
// matrix descriptors and the warpgroup multiply (wgmma, sm_90a), mbarriers, the TMA copy, and
// the epilogue that rounds the fp32 accumulators to bf16. Host side: tensor maps, made through
// the driver entry point that the CUDA runtime hands out (the program links no libcuda and
// starts without a GPU), and the launch of the TMA steps (PlanTmaLaunch), which the harness
// also launches a student's kernel of those steps with.
//
// The shared-memory layout every Hopper step uses: a tile of R rows × 64 k-elements of bf16, each
// row 128 bytes, "128-byte swizzled": within each group of 8 rows (1024 bytes) the eight 16-byte
// chunks of row r are stored in the order chunk ^ (r % 8). Eight consecutive rows' chunk 0 then
// land in eight different bank groups, so neither the copy that writes a column of chunks nor
// the tensor core that reads them is serialised on a bank. TMA writes this layout by itself
// (CU_TENSOR_MAP_SWIZZLE_128B), cp.async has to compute it, and the descriptor tells wgmma.
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <type_traits>
#include <vector>

#include "tc_gpu.cuh"

namespace lessons::tc {

// A tile's k-extent: 64 bf16 = 128 bytes, one swizzle row (a table's bk, checked there).
inline constexpr int kHopperBk = 64;
// Bytes of one R-row tile.
__host__ __device__ constexpr int HopperTileBytes(int rows) {
    return rows * kHopperBk * 2;
}

#if defined(__CUDA_ARCH__)

// ---- Descriptors and the warpgroup multiply ---------------------------------------------------

// The accumulators of an m64nNk16 wgmma, N / 2 floats a thread: as the asm statement's operands
// ("+f"(d[0]), ...) and as the registers of its text ("%0, %1, ..."), for N = 64, 128 and 256
// (Wgmma here, WgmmaRegA in attention_hopper.cuh).
#define LESSONS_WGMMA_D32(d)                                                                       \
    "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),            \
        "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]),    \
        "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), \
        "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), \
        "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
#define LESSONS_WGMMA_D64(d)                                                                       \
    LESSONS_WGMMA_D32(d), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]),         \
        "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), \
        "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), \
        "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), \
        "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
#define LESSONS_WGMMA_D128(d)                                                                      \
    LESSONS_WGMMA_D64(d), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]),         \
        "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), \
        "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), \
        "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), \
        "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), \
        "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]),           \
        "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]),        \
        "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]),        \
        "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]),        \
        "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]),        \
        "+f"(d[127])
#define LESSONS_WGMMA_R32                                                                        \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, " \
    "%20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
#define LESSONS_WGMMA_R64                                                                     \
    LESSONS_WGMMA_R32                                                                         \
    ", %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, " \
    "%49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
#define LESSONS_WGMMA_R128                                                                     \
    LESSONS_WGMMA_R64                                                                          \
    ", %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, "  \
    "%81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, "    \
    "%98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, " \
    "%113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"

// The 64-bit shared-memory matrix descriptor of a 128-byte-swizzled, K-major tile starting at
// `p` (a 1024-byte-aligned tile, or a k-offset of 32 bytes per k16 step into one: the swizzle is
// applied to the absolute address, so moving along k is moving the start address). Fields: the
// start address / 16 (bits 0-13), the leading-dimension byte offset / 16 (16-29; unused for a
// swizzled K-major layout, 1 by convention), the stride byte offset / 16 between consecutive
// groups of 8 rows (32-45: 1024 bytes), and the layout type (62-63: 1 = 128-byte swizzle).
__device__ __forceinline__ uint64_t SwizzledDescriptor(const void* p) {
    const uint32_t addr = static_cast<uint32_t>(__cvta_generic_to_shared(p));
    return uint64_t((addr & 0x3FFFF) >> 4) | (uint64_t(1) << 16) | (uint64_t(1024 >> 4) << 32) |
           (uint64_t(1) << 62);
}

// wgmma's ordering points. Fence: the accumulator registers (and, for A from registers, the
// operands) written by ordinary instructions are ready before the next wgmma reads them.
// Commit: the wgmmas issued so far form one group. Wait<N>: block until at most N groups are
// still running; only then may the accumulators be read, or the shared memory they read be
// overwritten.
__device__ __forceinline__ void WgmmaFence() {
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}
__device__ __forceinline__ void WgmmaCommit() {
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}
template <int N>
__device__ __forceinline__ void WgmmaWait() {
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}

// Keeps the compiler from moving reads or writes of the accumulators across a wgmma fence or
// wait (it does not know that the asynchronous multiply owns them in between).
template <int R>
__device__ __forceinline__ void PinAccumulators(float (&d)[R]) {
#pragma unroll
    for (int i = 0; i < R; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

// D(64 × N, fp32) += A(64 × 16, bf16) · B(16 × N, bf16), both operands from shared memory by
// descriptor, both K-major; issued by all 128 threads of a warpgroup, asynchronous. With
// `accumulate` 0 (wgmma's scale-d) it writes D = A·B, ignoring what the accumulators held. Thread t
// of the warpgroup holds D's rows 16·(t / 32) + (t % 32) / 4 (+ 8) and columns 8j + 2(t % 4)
// (+ 1): d[4j], d[4j + 1] in the first row, d[4j + 2], d[4j + 3] eight rows below.
template <int N>
struct Wgmma;

template <>
struct Wgmma<64> {
    static __device__ __forceinline__ void Run(float (&d)[32], uint64_t desc_a, uint64_t desc_b,
                                               int accumulate = 1) {
        asm volatile(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
            "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {" LESSONS_WGMMA_R32
            "}, %32, %33, p, 1, 1, 0, 0;\n}\n"
            : LESSONS_WGMMA_D32(d)
            : "l"(desc_a), "l"(desc_b), "r"(accumulate));
    }
};

template <>
struct Wgmma<128> {
    static __device__ __forceinline__ void Run(float (&d)[64], uint64_t desc_a, uint64_t desc_b,
                                               int accumulate = 1) {
        asm volatile(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
            "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {" LESSONS_WGMMA_R64
            "}, %64, %65, p, 1, 1, 0, 0;\n}\n"
            : LESSONS_WGMMA_D64(d)
            : "l"(desc_a), "l"(desc_b), "r"(accumulate));
    }
};

template <>
struct Wgmma<256> {
    static __device__ __forceinline__ void Run(float (&d)[128], uint64_t desc_a, uint64_t desc_b,
                                               int accumulate = 1) {
        asm volatile(
            "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
            "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {" LESSONS_WGMMA_R128
            "}, %128, %129, p, 1, 1, 0, 0;\n}\n"
            : LESSONS_WGMMA_D128(d)
            : "l"(desc_a), "l"(desc_b), "r"(accumulate));
    }
};

// ---- mbarriers ---------------------------------------------------------------------------------
// An mbarrier is a 64-bit word in shared memory that counts arrivals (and, for TMA, bytes) for its
// current phase; when both reach zero the phase completes, its parity flips, and it rearms.
// Waiting means asking whether the phase of a given parity has completed.

__device__ __forceinline__ uint32_t SmemAddress(const void* p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void BarrierInit(uint64_t* bar, int arrivals) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(SmemAddress(bar)), "r"(arrivals)
                 : "memory");
}

// Makes the initialised barriers visible to the TMA unit and to the other blocks of the
// cluster (a __syncthreads or cluster barrier must still follow).
__device__ __forceinline__ void BarrierInitFence() {
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

// One arrival that also announces `bytes` more to come from TMA copies in this phase.
__device__ __forceinline__ void BarrierExpectBytes(uint64_t* bar, uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(SmemAddress(bar)),
                 "r"(bytes)
                 : "memory");
}

__device__ __forceinline__ void BarrierArrive(uint64_t* bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(SmemAddress(bar)) : "memory");
}

// An arrival on the barrier at the same offset in block `cta` of the cluster. Plain (release
// at the block's scope, like a local arrival): what it orders is this warp's wgmmas having
// finished reading shared memory, which wgmma.wait_group already guarantees; a release at the
// cluster's scope would also wait for this thread's earlier global stores, in the main loop.
__device__ __forceinline__ void BarrierArriveCluster(uint64_t* bar, uint32_t cta) {
    asm volatile(
        "{\n.reg .b32 remote;\n"
        "mapa.shared::cluster.u32 remote, %0, %1;\n"
        "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}\n" ::"r"(SmemAddress(bar)),
        "r"(cta)
        : "memory");
}

// Spins until the phase of parity `parity` has completed.
__device__ __forceinline__ void BarrierWait(uint64_t* bar, uint32_t parity) {
    asm volatile(
        "{\n.reg .pred done;\n"
        "wait_%=:\n"
        "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
        "@!done bra wait_%=;\n}\n" ::"r"(SmemAddress(bar)),
        "r"(parity)
        : "memory");
}

// ---- TMA ---------------------------------------------------------------------------------------
// The Tensor Memory Accelerator: a unit of each multiprocessor that copies boxes of a tensor
// between global and shared memory on its own; not the DMA engines behind cudaMemcpy and peer
// copies.

// Copies the box at (k0, row0) of the tensor map's matrix into shared memory at `dst`; its
// bytes count against `bar`'s phase. Boxes reaching past the matrix are clipped, and the
// missing elements written as zeros.
__device__ __forceinline__ void TmaLoad(void* dst, const CUtensorMap* map, int k0, int row0,
                                        uint64_t* bar) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(SmemAddress(dst)),
        "l"(reinterpret_cast<uint64_t>(map)), "r"(k0), "r"(row0), "r"(SmemAddress(bar))
        : "memory");
}

// The same box, written at the same shared-memory offset of every block of the cluster in
// `mask`, each completing bytes on its own barrier at `bar`'s offset.
__device__ __forceinline__ void TmaLoadMulticast(void* dst, const CUtensorMap* map, int k0,
                                                 int row0, uint64_t* bar, uint16_t mask) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
        ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(SmemAddress(dst)),
        "l"(reinterpret_cast<uint64_t>(map)), "r"(k0), "r"(row0), "r"(SmemAddress(bar)), "h"(mask)
        : "memory");
}

__device__ __forceinline__ void TmaPrefetchMap(const CUtensorMap* map) {
    asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<uint64_t>(map)) : "memory");
}

// Copies the 64 × 64 box at shared `src` (written 128-byte swizzled) to the matrix of the tensor
// map at column `col0`, row `row0`; the parts outside the matrix are not written. The copies a
// thread issued since its last commit form one bulk group.
__device__ __forceinline__ void TmaStore(const CUtensorMap* map, const void* src, int col0,
                                         int row0) {
    asm volatile(
        "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];\n" ::"l"(
            reinterpret_cast<uint64_t>(map)),
        "r"(col0), "r"(row0), "r"(SmemAddress(src))
        : "memory");
}
__device__ __forceinline__ void TmaStoreCommit() {
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
}
// This thread's bulk stores have read their shared memory (it may be written again).
__device__ __forceinline__ void TmaStoreWaitRead() {
    asm volatile("cp.async.bulk.wait_group.read 0;\n" ::: "memory");
}
// This thread's bulk stores are complete.
__device__ __forceinline__ void TmaStoreWait() {
    asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
}

// A barrier for the `threads` threads of a few warps (id 1..15; 0 is __syncthreads').
__device__ __forceinline__ void NamedBarrier(int id, int threads) {
    asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

// ---- Registers between the roles ---------------------------------------------------------------
// A multiprocessor has 65536 registers; a block of one producer and two consumer warpgroups
// starts with an equal share per thread, 168 (the compiler holds the whole kernel to that
// count). setmaxnreg moves them: the producer's warpgroup gives most back (it only issues
// copies), the consumers take them for their 128 accumulators and the rest. Counts are
// multiples of 8, and 128 · (40 + 2 · 232) ≤ 65536.
__device__ __forceinline__ void ProducerRegisters() {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
}
__device__ __forceinline__ void ConsumerRegisters() {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
}

// ---- cp.async and shared memory ---------------------------------------------------------------

// Copies 16 bytes from global `src` to shared `dst` without passing through registers; only the
// first `bytes` (0 to 16) are read, the rest written as zeros (the edges of A and B).
__device__ __forceinline__ void CpAsync16(void* dst, const void* src, int bytes) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(SmemAddress(dst)),
                 "l"(src), "r"(bytes)
                 : "memory");
}
__device__ __forceinline__ void CpAsyncCommit() {
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}
template <int N>
__device__ __forceinline__ void CpAsyncWait() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

// Shared memory written by this thread's ordinary stores or cp.async (the generic proxy)
// becomes visible to the tensor cores and the TMA unit (the async proxy); a barrier must
// still follow so that it is every thread's writes.
__device__ __forceinline__ void FenceProxyAsync() {
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

// The dynamic shared memory rounded up to 1024 bytes: a 128-byte-swizzled tile starts on a
// 1024-byte boundary (the swizzle repeats every 8 rows of 128 bytes). Blocks ask for 1 KB more.
__device__ __forceinline__ uint8_t* AlignedDynamicSmem(uint8_t* raw) {
    const uint32_t a = SmemAddress(raw);
    return raw + ((1024 - (a & 1023)) & 1023);
}

// ---- A warpgroup's k-tile ---------------------------------------------------------------------

// A warpgroup's accumulators, kMi rows of 64 × BN (the layout Wgmma describes), set to zero.
template <int BN, int kMi>
__device__ __forceinline__ void ZeroAccumulators(float (&acc)[kMi][BN / 2]) {
#pragma unroll
    for (int i = 0; i < kMi; ++i)
#pragma unroll
        for (int j = 0; j < BN / 2; ++j) acc[i][j] = 0.0f;
}

// Issues one k-tile's products into them (lesson 8.3's loop): for each k16 step of the
// kHopperBk-wide tiles, one wgmma per 64 rows, A's rows from the swizzled tile at `a_s` (the
// warpgroup's first row) and Bᵀ's from `b_s`; fenced before, committed as one group after, and
// not waited for (the caller chooses when: WgmmaWait).
template <int BN, int kMi>
__device__ __forceinline__ void WgmmaKTile(float (&acc)[kMi][BN / 2], const uint8_t* a_s,
                                           const uint8_t* b_s) {
    WgmmaFence();
#pragma unroll
    for (int kk = 0; kk < kHopperBk / 16; ++kk)
#pragma unroll
        for (int i = 0; i < kMi; ++i)
            Wgmma<BN>::Run(acc[i], SwizzledDescriptor(a_s + i * 64 * 128 + kk * 32),
                           SwizzledDescriptor(b_s + kk * 32));
    WgmmaCommit();
}

// ---- The epilogue ------------------------------------------------------------------------------

// Rounds a warpgroup's 64 × N accumulators (the layout Wgmma describes) to bf16 and stores the
// ones inside the m × n matrix C, whose row `row0`, column `col0` is the tile's corner. Each
// thread stores pairs of neighbours (4 bytes; ldc is a multiple of 8, so pairs are aligned).
template <int N>
__device__ __forceinline__ void StoreAccumulators(const float (&d)[N / 2], __nv_bfloat16* c,
                                                  int ldc, int m, int n, int row0, int col0) {
    const int t = threadIdx.x % 128;
    const int row = row0 + (t / 32) * 16 + (t % 32) / 4, col = col0 + 2 * (t % 4);
    const bool inside = row0 + 64 <= m && col0 + N <= n;
#pragma unroll
    for (int j = 0; j < N / 8; ++j) {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int r = row + 8 * h, cc = col + 8 * j;
            const __nv_bfloat162 v = __floats2bfloat162_rn(d[4 * j + 2 * h], d[4 * j + 2 * h + 1]);
            __nv_bfloat16* p = c + size_t(r) * ldc + cc;
            if (inside || (r < m && cc + 1 < n)) {
                *reinterpret_cast<__nv_bfloat162*>(p) = v;
            } else if (r < m && cc < n) {
                *p = v.x;
            }
        }
    }
}

// All of a warpgroup's accumulators, kMi pieces of 64 rows, the first at row `row0`.
template <int BN, int kMi>
__device__ __forceinline__ void StoreAccumulators(const float (&acc)[kMi][BN / 2], __nv_bfloat16* c,
                                                  int ldc, int m, int n, int row0, int col0) {
#pragma unroll
    for (int i = 0; i < kMi; ++i) StoreAccumulators<BN>(acc[i], c, ldc, m, n, row0 + i * 64, col0);
}

#endif  // __CUDA_ARCH__

// ---- Host: tensor maps ----------------------------------------------------------------------

// A tensor map of a rows × cols row-major bf16 matrix with row stride `ld` elements (A and Bᵀ:
// cols = k; C: cols = n), read or written in boxes of `box_rows` × 64 (128 bytes, the most a
// 128-byte swizzle allows), 128-byte swizzled in shared memory; elements outside the matrix
// read as zero and are not written. cudaSuccess, or why not.
// The driver's encoder comes from the runtime (cudaGetDriverEntryPointByVersion), once.
inline cudaError_t EncodeMatrixMap(CUtensorMap* map, const __nv_bfloat16* base, int rows, int cols,
                                   int ld, int box_rows) {
    static const PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
        void* fn = nullptr;
        cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000,
                                             cudaEnableDefault, &found) != cudaSuccess ||
            found != cudaDriverEntryPointSuccess)
            fn = nullptr;
        return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
    }();
    if (!encode) return cudaErrorNotSupported;
    const cuuint64_t dims[2] = {cuuint64_t(cols), cuuint64_t(rows)};         // innermost first
    const cuuint64_t strides[1] = {cuuint64_t(ld) * sizeof(__nv_bfloat16)};  // of dimension 1
    const cuuint32_t box[2] = {cuuint32_t(kHopperBk), cuuint32_t(box_rows)};
    const cuuint32_t element_strides[2] = {1, 1};
    const CUresult r = encode(
        map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<__nv_bfloat16*>(base), dims, strides,
        box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
        CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;
}

// The TMA steps' kernels: the tensor maps of A and Bᵀ (by value, __grid_constant__), then C.
using TmaKernelFn = void (*)(CUtensorMap, CUtensorMap, __nv_bfloat16*, int m, int n, int k,
                             int ldc);
// Those that also store C by TMA: the tensor maps of A, Bᵀ and C.
using TmaStoreKernelFn = void (*)(CUtensorMap, CUtensorMap, CUtensorMap, __nv_bfloat16*, int m,
                                  int n, int k, int ldc);

// How a TMA step's kernel is launched for one problem: its tensor maps (C's only for a kernel
// that stores C by TMA), grid, block, cluster and dynamic shared memory. LaunchTma launches the
// step's own kernel with it, the tensor-core harness a student's kernel of the step.
struct TmaLaunchPlan {
    CUtensorMap map_a{}, map_b{}, map_c{};
    dim3 grid;
    unsigned threads = 0;
    unsigned cluster = 1;  // blocks per cluster along x; 1: launched without clusters
    size_t smem = 0;
};

// How many blocks of `kernel` (compiled for tile `t`, `smem` bytes of dynamic shared memory)
// stay resident together on `device`: one per multiprocessor, or, in clusters, as many
// clusters as the GPU places at once (a GPC's odd multiprocessor stays idle). Found once per
// kernel and device: the occupancy query costs more host time than the launch.
inline cudaError_t ResidentTmaBlocks(const TcTile& t, const void* kernel, size_t smem, int device,
                                     int* blocks) {
    struct Found {
        const void* kernel;
        int device, blocks;
    };
    static std::mutex mutex;
    static std::vector<Found> found;
    {
        const std::lock_guard<std::mutex> lock(mutex);
        for (const Found& f : found)
            if (f.kernel == kernel && f.device == device) {
                *blocks = f.blocks;
                return cudaSuccess;
            }
    }
    int n = 0;
    cudaError_t e = cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device);
    if (e == cudaSuccess && t.cluster > 1) {
        cudaLaunchConfig_t config = {};
        config.gridDim = dim3(unsigned(n / t.cluster * t.cluster));
        config.blockDim = dim3(unsigned(t.threads));
        config.dynamicSmemBytes = smem;
        cudaLaunchAttribute cluster[1];
        cluster[0].id = cudaLaunchAttributeClusterDimension;
        cluster[0].val.clusterDim.x = unsigned(t.cluster);
        cluster[0].val.clusterDim.y = cluster[0].val.clusterDim.z = 1;
        config.attrs = cluster;
        config.numAttrs = 1;
        int clusters = 0;
        e = cudaOccupancyMaxActiveClusters(&clusters, kernel, &config);
        n = clusters * t.cluster;
    }
    if (e == cudaSuccess && n == 0) e = cudaErrorInvalidConfiguration;
    if (e != cudaSuccess) return e;
    const std::lock_guard<std::mutex> lock(mutex);
    found.push_back({kernel, device, n});
    *blocks = n;
    return cudaSuccess;
}

// The plan for the step's kernel `kernel` compiled for tile `t` with `smem` bytes of dynamic
// shared memory (its limit is raised here): the tensor maps read A in boxes of BM rows and Bᵀ
// in boxes of BN / cluster rows (each block of a cluster copies its slice of Bᵀ's tile, which
// the TMA unit multicasts to all), and, with `map_c`, write C in boxes of 64 × 64. One block
// per BM × BN tile of C, laid out as C is, or, persistent, one block per multiprocessor (fewer
// when fewer do as well; ResidentTmaBlocks), in clusters of t.cluster blocks.
inline cudaError_t PlanTmaLaunch(const TcTile& t, const void* kernel, size_t smem, bool map_c,
                                 const TcProblem& p, TmaLaunchPlan* plan) {
    cudaError_t e = EncodeMatrixMap(&plan->map_a, p.a, p.m, p.k, p.lda, t.bm);
    if (e == cudaSuccess)
        e = EncodeMatrixMap(&plan->map_b, p.bt, p.n, p.k, p.ldb, t.bn / t.cluster);
    if (e == cudaSuccess && map_c) e = EncodeMatrixMap(&plan->map_c, p.c, p.m, p.n, p.ldc, 64);
    if (e == cudaSuccess)
        e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem));
    if (e != cudaSuccess) return e;
    plan->threads = unsigned(t.threads);
    plan->cluster = unsigned(t.cluster);
    plan->smem = smem;
    const int tiles_m = (p.m + t.bm - 1) / t.bm, tiles_n = (p.n + t.bn - 1) / t.bn;
    if (!t.persistent) {
        plan->grid = dim3(unsigned(tiles_n), unsigned(tiles_m));
        return cudaSuccess;
    }
    const int units = (tiles_m + t.cluster - 1) / t.cluster * tiles_n;
    if (t.ablation == TcAblation::kTilePerBlock) {  // a persistent kernel's blocks, one unit each
        plan->grid = dim3(unsigned(units * t.cluster));
        return cudaSuccess;
    }
    int device = 0, blocks = 0;
    e = cudaGetDevice(&device);
    if (e == cudaSuccess) e = ResidentTmaBlocks(t, kernel, smem, device, &blocks);
    if (e != cudaSuccess) return e;
    // Each cluster takes every `clusters`-th unit of work (a cluster's tiles): with W rounds
    // needed anyway, ceil(units / W) clusters do the same W rounds as all of them would, and the
    // others need not start (e.g. 512 tiles on 132 multiprocessors: 4 rounds, so 128 blocks).
    const int most = std::max(1, blocks / t.cluster), rounds = (units + most - 1) / most;
    plan->grid = dim3(unsigned((units + rounds - 1) / rounds * t.cluster));
    return cudaSuccess;
}

// Launches a TMA step's kernel `K` compiled for tile T with `kSmem` bytes of dynamic shared
// memory, as PlanTmaLaunch plans it (C's tensor map made when K takes one).
template <TcTile T, auto K, size_t kSmem>
cudaError_t LaunchTma(const TcProblem& p, cudaStream_t stream) {
    constexpr bool kStoresByTma = std::is_same_v<decltype(K), TmaStoreKernelFn>;
    TmaLaunchPlan plan;
    const cudaError_t e =
        PlanTmaLaunch(T, reinterpret_cast<const void*>(K), kSmem, kStoresByTma, p, &plan);
    if (e != cudaSuccess) return e;
    cudaLaunchConfig_t config = {};
    config.gridDim = plan.grid;
    config.blockDim = dim3(plan.threads);
    config.dynamicSmemBytes = plan.smem;
    config.stream = stream;
    cudaLaunchAttribute cluster[1];
    if (plan.cluster > 1) {
        cluster[0].id = cudaLaunchAttributeClusterDimension;
        cluster[0].val.clusterDim.x = plan.cluster;
        cluster[0].val.clusterDim.y = cluster[0].val.clusterDim.z = 1;
        config.attrs = cluster;
        config.numAttrs = 1;
    }
    if constexpr (kStoresByTma)
        return cudaLaunchKernelEx(&config, K, plan.map_a, plan.map_b, plan.map_c, p.c, p.m, p.n,
                                  p.k, p.ldc);
    else
        return cudaLaunchKernelEx(&config, K, plan.map_a, plan.map_b, p.c, p.m, p.n, p.k, p.ldc);
}

// A Hopper step's dynamic shared memory: `T.stages` k-tiles of A and B, 1 KB for the 1024-byte
// alignment the 128-byte swizzle wants, and `extra` bytes after them (the stages' barriers, C's
// staging areas).
template <TcTile T>
constexpr size_t HopperStageSmem(size_t extra) {
    return size_t(T.stages) * (HopperTileBytes(T.bm) + HopperTileBytes(T.bn)) + 1024 + extra;
}

// The descriptor of a TMA step's kernel `K` (named `name`) for tile T, with `kSmem` bytes of
// dynamic shared memory, launched by LaunchTma on compute capability 9.0.
template <TcTile T, auto K, size_t kSmem>
TcKernel TmaKernel(const char* name) {
    return {T, name, reinterpret_cast<const void*>(K), kSmem, &LaunchTma<T, K, kSmem>, 90};
}

}  // namespace lessons::tc
