// Chapter 10: how the fused steps launch their kernels and describe them (host code only; the
// exercises' preludes leave it out). A block owns `rows` query rows of one head: the grid is
// ceil(n / rows) × B·H blocks.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "attention_gpu.cuh"

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

}  // namespace lessons::attention
