// Chapter 9, softmax and RMSNorm over rows: what the steps' kernels share (device code only).
// Each kernel file registers, beside its kernel, what the harness needs to launch and query it
// (LESSONS_KERNELS): one descriptor per dtype.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "kernel_family.h"
#include "softmax_device.cuh"

namespace lessons::softmax {

// A hand-written step, for one dtype: y = softmax(x) (or RMSNorm(x)·w) over each row of x,
// row-major m × n (m, n >= 1), launched with `block` threads per block (a power of two, 32 to
// 1024). x, y and w are float or __nv_bfloat16 as `bf16` says; w is RMSNorm's weight (n values),
// null for softmax.
struct SoftmaxKernel {
    const char* name;  // the kernel template's name
    bool bf16;         // the dtype it implements
    // The kernel instance the launch uses at (n, block, variant), for attribute queries.
    const void* (*pick)(int n, int block, int variant);
    // `variant`: the step's variant choice (`variant_param`) as a number, 0 for "auto" (or none).
    cudaError_t (*launch)(const void* x, void* y, const void* w, int m, int n, int block,
                          int variant, cudaStream_t stream);
    int smem_per_thread = 0;  // dynamic shared memory the launch gives each thread, in bytes
    // Device memory the launch needs besides x and y (lesson 9.7's split: a pair per part of a
    // row), given in place of w; null: none.
    size_t (*workspace)(int m, int n) = nullptr;
    // The lesson's choice that picks among the kernel's variants ("lanes": threads a row;
    // "cluster": blocks a row), whose values are "auto" or numbers; null: none.
    const char* variant_param = nullptr;
    // The dynamic shared memory each block of the launch at (n, block, variant) has, in bytes,
    // where it is not `smem_per_thread` a thread (a cluster's part of the row, a staged w): what
    // the kernel's attributes (blocks an SM, occupancy) are asked at; null: smem_per_thread's.
    size_t (*dynamic_smem)(int n, int block, int variant) = nullptr;
};

// ---- host helpers of the launchers ----

// The most threads a block of `kernel` may have on the current GPU (its registers decide), and
// how many such blocks of `block` threads an SM holds at once; 0 when the GPU cannot say. Asked
// once per kernel, block size and GPU, then remembered: a launch inside the timed region must not
// wait on the driver's attribute queries.
struct LaunchFacts {
    int max_threads = 0;
    int blocks_per_sm = 0;
    int sms = 0;
};
inline LaunchFacts FactsOf(const void* kernel, int block) {
    static std::mutex mutex;
    static std::map<std::tuple<const void*, int, int>, LaunchFacts> known;
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) return {};
    const std::lock_guard<std::mutex> lock(mutex);
    const auto key = std::make_tuple(kernel, block, device);
    if (auto it = known.find(key); it != known.end()) return it->second;
    LaunchFacts f;
    cudaFuncAttributes a{};
    if (cudaFuncGetAttributes(&a, kernel) != cudaSuccess ||
        cudaDeviceGetAttribute(&f.sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) {
        cudaGetLastError();  // clear it: the launch reports its own
        return {};
    }
    f.max_threads = a.maxThreadsPerBlock;
    if (f.max_threads >= block && cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                                      &f.blocks_per_sm, kernel, block, 0) != cudaSuccess) {
        cudaGetLastError();
        f.blocks_per_sm = 0;
    }
    known[key] = f;
    return f;
}

// Of a kernel's instances by K (elements or chunks a thread keeps in registers; `instance(k)` for
// k = 1, 2, 4, ..., max_k), the one with the smallest K that covers `per_thread`, or a smaller
// one when that one's registers leave no room for `block` threads: a row beyond an instance's
// registers is re-read, never wrong.
template <typename Instance>
const void* ChooseK(long long per_thread, int max_k, int block, Instance instance) {
    int k = 1;
    while (k < per_thread && k < max_k) k *= 2;
    for (; k > 1; k /= 2)
        if (FactsOf(instance(k), block).max_threads >= block) return instance(k);
    return instance(1);
}

// ---- the cuDNN step (lesson 9.9): cudnnSoftmaxForward, loaded at run time ----

// Empty when cuDNN was found and loaded, else why not and what to install.
std::string CudnnUnavailable();
// Where it was loaded from and its version, or why it is unavailable.
std::string CudnnDescribe();
// A cuDNN handle on `stream` with x and y described as m × n rows; every call returns "" on
// success, else what failed.
std::string CudnnCreate(void** state, int m, int n, bool bf16, cudaStream_t stream);
std::string CudnnRun(void* state, const void* x, void* y);
void CudnnDestroy(void* state);

}  // namespace lessons::softmax
