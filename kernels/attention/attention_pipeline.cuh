// Chapter 10's helpers for its later steps (sm_80 and later): cp.async, which copies 16 bytes
// from global to shared memory without passing through registers while the thread goes on, its
// groups, and ex2.approx, the special-function unit's 2^x. Device code only, and nothing NVRTC
// lacks: the exercises' prelude holds this file after attention_device.cuh.
#pragma once

#include <cuda_bf16.h>

namespace lessons::attention {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
// Copies `bytes` (16 or 0) from global `src` to shared address `dst` and fills the rest of the
// 16 with zeros: a row past n is 16 zeros, and `src` is not read.
__device__ __forceinline__ void CpAsync16(unsigned dst, const void* src, int bytes) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(bytes)
                 : "memory");
}

// Closes the copies this thread issued since the last commit into one group.
__device__ __forceinline__ void CpAsyncCommit() {
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}

// Waits until at most N of this thread's groups are still in flight; a __syncthreads() must
// follow before other threads read what the finished groups wrote.
template <int N>
__device__ __forceinline__ void CpAsyncWait() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

// 2^x on the special-function unit (one MUFU.EX2), subnormal results flushed to zero; 2^-inf
// is 0. exp2f and __expf without fast math add a range check and two multiplies around it.
__device__ __forceinline__ float Exp2(float x) {
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
    return y;
}
#endif

}  // namespace lessons::attention
