// Chapter 10: how the fused steps launch their kernels and describe them (host code only; the
// exercises' preludes leave it out). A block owns `rows` query rows of one head: the grid is
// ceil(n / rows) × B·H blocks.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "attention_gpu.cuh"
#include "kernel_table.h"

namespace lessons::attention {

using AttentionLaunch = cudaError_t (*)(const AttentionProblem& p, cudaStream_t stream);

// Launches kKernel(p) on ceil(n / kRows) × B·H blocks of kThreads threads, kSmem bytes of dynamic
// shared memory each.
template <auto kKernel, int kThreads, int kRows, size_t kSmem>
cudaError_t LaunchRows(const AttentionProblem& p, cudaStream_t stream) {
    const dim3 grid(unsigned((p.n + kRows - 1) / kRows), unsigned(p.heads));
    kKernel<<<grid, kThreads, kSmem, stream>>>(p);
    return cudaGetLastError();
}

// The descriptor of kKernel, the instance of the kernel template `name` for head dimension D and
// the `tile` parameter's choice `tile`, launched by kLaunch (LaunchRows by default).
template <auto kKernel, int D, int kThreads, int kRows, size_t kSmem, int kMinCc,
          AttentionLaunch kLaunch = &LaunchRows<kKernel, kThreads, kRows, kSmem>>
AttentionKernel RowsKernel(const char* tile, const char* name) {
    return {tile,  D,       name,  reinterpret_cast<const void*>(kKernel), kThreads, kRows,
            kSmem, kLaunch, kMinCc};
}

// The tiles of the steps that load a K and a V tile of 64 keys a time without a pipeline (10.3,
// 10.4): head dimension d and query rows a block (a warp per 16), the `tile` choice
// "<rows>x64". A file registers its kernel template's instances for them with
// LESSONS_MMA_TILE_KERNELS (below).
struct MmaTile {
    int d, rows;
};
inline constexpr MmaTile kMmaTiles[] = {{128, 128}, {64, 128}, {128, 64}, {64, 64}};

// The descriptor of kKernel, the instance for tile T of such a step's kernel template `name`:
// 2 · T.rows threads, Q's tile and a K and a V tile of 64 keys in dynamic shared memory, sm_80.
template <auto kKernel, MmaTile T>
AttentionKernel MmaTileKernel(const char* name) {
    constexpr size_t kSmem = size_t(T.rows * T.d + 2 * 64 * T.d) * sizeof(__nv_bfloat16);
    return RowsKernel<kKernel, T.d, T.rows * 2, T.rows, kSmem, 80>(
        T.rows == 128 ? "128x64" : "64x64", name);
}

}  // namespace lessons::attention

// The descriptors of `kernel`'s instances for kMmaTiles, in their order, registered under the file.
#define LESSONS_MMA_TILE_KERNELS(descriptors, kernel)                                  \
    LESSONS_KERNEL_TABLE(                                                              \
        descriptors, ::lessons::attention::kMmaTiles,                                  \
        [name = #kernel]<::lessons::attention::MmaTile T>() {                          \
            return ::lessons::attention::MmaTileKernel<&kernel<T.d, T.rows>, T>(name); \
        })
