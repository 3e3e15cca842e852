// The two products of chapter 10's Hopper steps, issued by a warpgroup on the tiles of
// HopperTiles (attention_hopper.cuh): S = Q·Kᵀ with both operands from shared memory, and
// O += P·V with P from registers. wgmma-tma.cu writes them out in its kernel (exercise 10.7 asks
// for them); warp-specialized.cu calls them, and so may exercise 10.8, whose prelude holds this
// file after attention_hopper.cuh (10.7's does not).
#pragma once

#include <cstdint>

#include "attention_hopper.cuh"

namespace lessons::attention {

#if defined(__CUDA_ARCH__)

// S = Q·Kᵀ for warpgroup w's 64 query rows and the BC keys in stage s, into sc: D / 16 steps of
// k16 (4 a panel of 64), both operands K-major; what sc held is overwritten by the first step
// (wgmma's scale-d 0), so the scores need no zeroing. Issued as one wgmma group.
template <int D, int BC, int STAGES>
__device__ __forceinline__ void IssueQk(const HopperTiles<D, BC, STAGES>& t, float (&sc)[BC / 2],
                                        int w, int s) {
    using Tiles = HopperTiles<D, BC, STAGES>;
    const uint8_t *const q = t.QRows(w), *const k = t.K(s);
    tc::PinAccumulators(sc);
    tc::WgmmaFence();
#pragma unroll
    for (int kk = 0; kk < D / 16; ++kk)
        tc::Wgmma<BC>::Run(
            sc, tc::SwizzledDescriptor(q + (kk / 4) * Tiles::kQPanel + (kk % 4) * 32),
            tc::SwizzledDescriptor(k + (kk / 4) * Tiles::kKvPanel + (kk % 4) * 32), kk > 0);
    tc::WgmmaCommit();
}

// O += P·V for the BC keys in stage s: BC / 16 steps of k16 over the keys, P from registers
// (pf, PackP's), V as it lies (MN-major, 2048 bytes a step). Issued as one wgmma group.
template <int D, int BC, int STAGES>
__device__ __forceinline__ void IssuePv(const HopperTiles<D, BC, STAGES>& t, float (&o)[D / 2],
                                        unsigned (&pf)[BC / 16][4], int s) {
    const uint8_t* const v = t.V(s);
    PinOperands(pf);
    tc::PinAccumulators(o);
    tc::WgmmaFence();
#pragma unroll
    for (int kk = 0; kk < BC / 16; ++kk)
        WgmmaRegA<D>::Run(
            o, pf[kk], MnMajorDescriptor(v + kk * 16 * 128, HopperTiles<D, BC, STAGES>::kKvPanel));
    tc::WgmmaCommit();
}

#endif  // __CUDA_ARCH__

}  // namespace lessons::attention
