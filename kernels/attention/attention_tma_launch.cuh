// Chapter 10's Hopper steps (wgmma-tma, warp-specialized): the launch of a kernel that takes the
// tensor maps of Q, K and V (host code only). A block owns kHopperRows query rows of one head.
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "attention_gpu.cuh"
#include "attention_hopper.cuh"
#include "attention_launch.cuh"

namespace lessons::attention {

// The dynamic shared memory of a block's HopperTiles<D, BC, STAGES> (attention_hopper.cuh): Q's
// tile, STAGES stages of a K and a V tile, 1 KB to align them, and the mbarriers (Q's, and
// `barriers` a stage).
constexpr size_t HopperTilesBytes(int d, int bc, int stages, int barriers) {
    return size_t(TileBytes(kHopperRows, d)) + size_t(stages) * 2 * TileBytes(bc, d) + 1024 +
           (1 + barriers * stages) * sizeof(uint64_t);
}

// Encodes the maps (Q by kHopperRows rows, K and V by BC), allows the kernel kSmem bytes of
// dynamic shared memory and launches it on ceil(n / kHopperRows) × B·H blocks of kThreads.
template <auto kKernel, int D, int BC, int kThreads, size_t kSmem>
cudaError_t LaunchTma(const AttentionProblem& p, cudaStream_t stream) {
    // TMA's coordinates are 32-bit: the B·H·N rows must fit (far more than a GPU holds).
    if (p.d != D || int64_t(p.heads) * p.n > INT32_MAX) return cudaErrorInvalidValue;
    const int rows = p.heads * p.n;
    CUtensorMap map_q{}, map_k{}, map_v{};
    cudaError_t e = tc::EncodeMatrixMap(&map_q, p.q, rows, D, D, kHopperRows);
    if (e == cudaSuccess) e = tc::EncodeMatrixMap(&map_k, p.k, rows, D, D, BC);
    if (e == cudaSuccess) e = tc::EncodeMatrixMap(&map_v, p.v, rows, D, D, BC);
    if (e == cudaSuccess)
        e = cudaFuncSetAttribute(kKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
    if (e != cudaSuccess) return e;
    const dim3 grid(unsigned((p.n + kHopperRows - 1) / kHopperRows), unsigned(p.heads));
    kKernel<<<grid, kThreads, kSmem, stream>>>(map_q, map_k, map_v, p);
    return cudaGetLastError();
}

// The descriptor of such a kernel (sm_90a: compute capability 9.0).
template <auto kKernel, int D, int BC, int kThreads, size_t kSmem>
AttentionKernel TmaAttentionKernel(const char* tile, const char* name) {
    return RowsKernel<kKernel, D, kThreads, kHopperRows, kSmem, 90,
                      &LaunchTma<kKernel, D, BC, kThreads, kSmem>>(tile, name);
}

}  // namespace lessons::attention
