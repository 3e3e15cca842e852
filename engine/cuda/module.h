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
    // `block` threads, as QueryKernelAttributes gives them for a linked kernel.
    KernelAttributes Attributes(int block) const;
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

private:
    void* m_module = nullptr;    // CUmodule
    void* m_function = nullptr;  // CUfunction
    std::string m_name;
    mutable unsigned m_allowed_shared = 48 * 1024;  // the dynamic shared memory a launch may ask
};

// A student's kernel (an exercise) loaded for a step's harness: UsageError when `threads` a block
// are more than its registers allow.
std::shared_ptr<const LoadedKernel> LoadStudentKernel(const StudentKernel& kernel, int threads);
// Its registers, shared memory and occupancy at `threads` a block (the page's attributes line).
KernelAttributes StudentKernelAttributes(const StudentKernel& kernel, int threads);

}  // namespace lessons::cuda
