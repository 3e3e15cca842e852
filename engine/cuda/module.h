// A kernel compiled at run time (a student's, by NVRTC), loaded from its CUBIN with the CUDA
// driver API into the runtime's context of the current device. The driver's calls come from the
// runtime (cudaGetDriverEntryPointByVersion), so nothing links libcuda and a machine without a
// driver still starts. .cu files only, like cuda_util.h.
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <string>

#include "../exercise_kinds.h"
#include "../lesson.h"

namespace lessons::cuda {

class LoadedKernel {
public:
    // Loads `cubin` (cuModuleLoadData) and finds `symbol` in it; `name` is how messages call
    // it. Throws UsageError with no GPU, CudaError when the driver refuses the image (built for
    // another GPU, ...) or lacks the symbol.
    LoadedKernel(const std::string& cubin, const std::string& symbol, const std::string& name);
    ~LoadedKernel();
    LoadedKernel(const LoadedKernel&) = delete;
    LoadedKernel& operator=(const LoadedKernel&) = delete;

    // Registers, shared memory, the most threads a block of it may have, and the occupancy at
    // `block` threads with `dynamic_smem` bytes of dynamic shared memory a block, as
    // QueryKernelAttributes gives them for a linked kernel.
    KernelAttributes Attributes(int block, unsigned dynamic_smem = 0) const;
    // UsageError when `block` threads are more than the kernel can take (its registers).
    void CheckBlock(int block) const;
    // cuLaunchKernel on `stream` with a one-dimensional grid and `shared_bytes` of dynamic
    // shared memory per block (over 48 KiB: the kernel's limit raised first); `args` as
    // cudaLaunchKernel takes them. Throws CudaError when the launch is refused.
    void Launch(unsigned blocks, unsigned block, cudaStream_t stream, void** args,
                unsigned shared_bytes = 0) const;
    // The same with a grid and a block of up to three dimensions (GEMM's tiles of C).
    void Launch(dim3 grid, dim3 block, cudaStream_t stream, void** args,
                unsigned shared_bytes = 0) const;
    // Before launching in clusters: UsageError when the GPU has no thread block clusters (before
    // sm_90) or cannot hold one cluster of `cluster` blocks of `block` threads with
    // `shared_bytes` of dynamic shared memory each at once (the message says which),
    // UnavailableError when the driver cannot launch clusters. Gives the kernel the permissions
    // the shape needs (over 48 KiB, over 8 blocks). Asks the driver: call it once, not per launch.
    void CheckClusters(unsigned block, unsigned cluster, unsigned shared_bytes) const;
    // A one-dimensional grid of `blocks` (a multiple of `cluster`) in clusters of `cluster`
    // blocks (cuLaunchKernelEx), `shared_bytes` of dynamic shared memory a block, after
    // CheckClusters passed for the shape. Throws CudaError when the launch is refused.
    void LaunchClusters(unsigned blocks, unsigned block, unsigned cluster, cudaStream_t stream,
                        void** args, unsigned shared_bytes) const;

private:
    // Raises the kernel's dynamic shared memory limit to `shared_bytes` where it is over 48 KiB.
    void AllowShared(unsigned shared_bytes) const;

    void* m_module = nullptr;    // CUmodule
    void* m_function = nullptr;  // CUfunction
    std::string m_name;
    mutable unsigned m_allowed_shared = 48 * 1024;  // the dynamic shared memory a launch may ask
    mutable bool m_non_portable = false;            // clusters over 8 blocks allowed
};

// A student's kernel (an exercise) loaded for a step's harness: UsageError when `threads` a block
// are more than its registers allow.
std::shared_ptr<const LoadedKernel> LoadStudentKernel(const StudentKernel& kernel, int threads);
// Its registers, shared memory and occupancy at `threads` a block (the page's attributes line).
KernelAttributes StudentKernelAttributes(const StudentKernel& kernel, int threads,
                                         unsigned dynamic_smem = 0);

}  // namespace lessons::cuda
