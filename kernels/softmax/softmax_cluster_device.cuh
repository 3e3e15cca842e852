// Chapter 9's thread block clusters (sm_90), device side, shared by lessons 9.7 (softmax,
// cluster.cu) and 9.8 (RMSNorm, rmsnorm.cu): C blocks (1 to 16) share a row, each keeping its part
// of the row in its shared memory, and each block pushes its part's reduction (a value) into the
// others' shared memory. mbarriers, the bulk copy (TMA) and st.async in PTX; the exponential and
// the warp's merge of (max, sum) pairs; a block's part loaded; a block's value exchanged with the
// cluster. Device code only, and nothing NVRTC lacks: the prelude of 9.7's exercise holds it
// after softmax_device.cuh.
#pragma once

#include "softmax_device.cuh"

namespace lessons::softmax {

// ---- sm_90's asynchronous copies and barriers, in PTX ----
// An mbarrier (a 64-bit word in shared memory) completes its phase when its expected arrivals
// have arrived and the bytes announced with them (expect-tx) have landed; a waiter spins on the
// phase's parity. Addresses are 32-bit shared-memory addresses (this block's, or another block's
// of the cluster through mapa).
__device__ __forceinline__ unsigned SharedAddress(const void* p) {
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void BarrierInit(unsigned bar, unsigned arrivals) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(arrivals) : "memory");
}
// One arrival that also announces `bytes` still to land.
__device__ __forceinline__ void BarrierArriveExpect(unsigned bar, unsigned bytes) {
    asm volatile(
        "{ .reg .b64 state; mbarrier.arrive.expect_tx.shared::cta.b64 state, [%0], %1; }" ::"r"(
            bar),
        "r"(bytes)
        : "memory");
}
// Waits for phase 0 (each barrier here completes once); acquire at cluster scope: another
// block's st.async into this block's shared memory is visible after it.
__device__ __forceinline__ void BarrierWait(unsigned bar) {
    unsigned done = 0;
    while (!done)
        asm volatile(
            "{ .reg .pred p; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], 0; "
            "selp.u32 %0, 1, 0, p; }"
            : "=r"(done)
            : "r"(bar)
            : "memory");
}
// `bytes` (a multiple of 16) from global `src` (16-byte aligned) into shared `dst`, counted on
// `bar` as they land.
__device__ __forceinline__ void BulkLoad(unsigned dst, const void* src, unsigned bytes,
                                         unsigned bar) {
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::
            "r"(dst),
        "l"(src), "r"(bytes), "r"(bar)
        : "memory");
}
// This block's shared address `addr` as block `rank` of the cluster sees its own.
__device__ __forceinline__ unsigned InBlock(unsigned addr, unsigned rank) {
    unsigned out;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(out) : "r"(addr), "r"(rank));
    return out;
}
// A value into another block's `slot`, its bytes counted on that block's barrier `bar`: a float
// (RMSNorm's sum of squares), or a (max, sum) pair (softmax).
__device__ __forceinline__ void PushAsync(unsigned slot, float v, unsigned bar) {
    asm volatile(
        "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];" ::"r"(slot),
        "r"(__float_as_uint(v)), "r"(bar)
        : "memory");
}
__device__ __forceinline__ void PushAsync(unsigned slot, MaxSum p, unsigned bar) {
    asm volatile(
        "st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.f32 [%0], {%1, %2}, [%3];" ::"r"(
            slot),
        "f"(p.max), "f"(p.sum), "r"(bar)
        : "memory");
}

// ---- Pairs ----
// exp(v) for v <= 0 (or -inf) on the special-function unit: one FMUL by log2(e) and one
// ex2.approx.ftz (MUFU.EX2). FastExp (__expf: ex2.approx.f32 without .ftz) adds a compare and
// two multiplies to keep results below 2^-126, which the check's absolute 2^-100 does not need.
// (vectorized.cu has its own: that kernel, 9.5's exercise's solution, is compiled with
// softmax_device.cuh alone.)
__device__ __forceinline__ float SfuExp(float v) {
    float e;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(v * 1.4426950408889634f));
    return e;
}

// The (max, sum) pairs of a warp's 32 lanes as one, every lane gets it: the largest max first
// (shuffles), then each lane's sum rescaled to it by one exponential, then the sums added
// (shuffles). Merging pair by pair (WarpMerge) takes two exponentials at each of the 5 steps.
__device__ __forceinline__ MaxSum WarpPair(MaxSum p) {
    const float max = WarpMax(p.max);
    return {max, WarpSum(p.max == -Infinity() ? 0.0f : p.sum * SfuExp(p.max - max))};
}

// ---- A block's part of the row, and its value for the cluster ----
// Block `rank` of a cluster of C (gridDim.x = m × C) takes chunks [rank × part, + part) of its
// row, part = ceil(chunks / C) chunks of 16 bytes (dynamic shared memory of part × 16 bytes: the
// host's ClusterShapeFor gives each block as much). Each block sends
// one Value (a float, or a MaxSum) to each of the others, into their `slots[its rank]`.
//
// The order that keeps it safe:
//  - thread 0 initialises the load barrier (1 arrival, expect-tx = the part's bytes) and the
//    values' barrier (1 arrival, expect-tx = (C - 1) values), makes the inits visible to the
//    cluster (fence.mbarrier_init), then issues the bulk copies (pieces of 32 KiB);
//  - __syncthreads: no thread waits on a barrier before it is initialised (a thread would see
//    the previous block's barrier in the same shared memory, already complete, and read the part
//    before it landed);
//  - each thread arrives at the cluster barrier (relaxed: it orders nothing else) at once and
//    waits on it only before pushing: no block pushes into a barrier not yet initialised, and
//    the wait is hidden behind the load and the block's own reduction;
//  - a block pushes its value only to the others (its own stays in registers) and leaves only
//    after its own barrier has received C - 1 values: nothing is written into its shared memory
//    after that, and the values it sent land in blocks still waiting for them. No final cluster
//    barrier.
struct ClusterPart {
    unsigned rank, blocks;  // this block's place in the cluster, and the cluster's blocks
    long long row;          // the cluster's row
    int first, count;       // this block's chunks of the row: [first, first + count)
    bool aligned;           // n a multiple of the chunk (16-byte rows)
    unsigned received;      // the barrier the other blocks' values complete
};

// Loads this block's part of its row of x into `chunk` (every thread of the block calls it; on
// return the part is there): one bulk copy for 16-byte rows, else each thread loads the chunks it
// alone reads later (j = threadIdx.x, + blockDim.x, ...), `pad` past the row's end. `barriers`:
// two in the block's shared memory, the part's and the values'.
template <typename Value, typename T>
__device__ __forceinline__ ClusterPart LoadPart(uint4* chunk, const T* x, int n, T pad,
                                                unsigned long long* barriers) {
    constexpr int V = ChunkCount<T>();
    ClusterPart p;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(p.rank));
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(p.blocks));
    p.row = blockIdx.x / p.blocks;
    const int chunks = (n + V - 1) / V;
    const int part = (chunks + static_cast<int>(p.blocks) - 1) / static_cast<int>(p.blocks);
    p.first = min(static_cast<int>(p.rank) * part, chunks);
    p.count = min(p.first + part, chunks) - p.first;
    p.aligned = n % V == 0;
    const bool bulk = p.aligned && p.count > 0;  // 16-byte rows: the part is one bulk copy
    const T* r = x + static_cast<size_t>(p.row) * n;
    const unsigned loaded = SharedAddress(&barriers[0]);
    p.received = SharedAddress(&barriers[1]);
    if (threadIdx.x == 0) {
        if (p.blocks > 1) {
            BarrierInit(p.received, 1);
            BarrierArriveExpect(p.received, (p.blocks - 1) * static_cast<unsigned>(sizeof(Value)));
        }
        if (bulk) BarrierInit(loaded, 1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        if (bulk) {
            const unsigned bytes = static_cast<unsigned>(p.count) * 16u;
            BarrierArriveExpect(loaded, bytes);
            constexpr unsigned kPiece = 32768;
            const char* from = reinterpret_cast<const char*>(r) + static_cast<size_t>(p.first) * 16;
            for (unsigned at = 0; at < bytes; at += kPiece)
                BulkLoad(SharedAddress(chunk) + at, from + at, min(kPiece, bytes - at), loaded);
        }
    }
    if (!p.aligned)  // no bulk copy: each thread loads the chunks it alone reads
        for (int j = threadIdx.x; j < p.count; j += blockDim.x)
            chunk[j] = LoadRaw(r, p.first + j, n, false, pad);
    __syncthreads();  // the barriers are initialised before any thread of the block waits on them
    if (p.blocks > 1) asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
    if (bulk) BarrierWait(loaded);
    return p;
}

// Sends the block's value `own` into every other block's slots[this rank] and waits for theirs
// (every thread of the block calls it, with the same `own`; only where the cluster has more than
// one block). After it, slots[b] holds block b's value for every b but this block's.
template <typename Value>
__device__ __forceinline__ void ExchangeValues(Value* slots, Value own, const ClusterPart& p) {
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");  // all barriers initialised
    const int lane = threadIdx.x % 32;
    if (threadIdx.x < 32 && lane < static_cast<int>(p.blocks) && lane != static_cast<int>(p.rank))
        PushAsync(InBlock(SharedAddress(&slots[p.rank]), lane), own, InBlock(p.received, lane));
    BarrierWait(p.received);  // the other C - 1 values are here
}

}  // namespace lessons::softmax
