// What a GPU step checks before its kernel is launched, said once for the harnesses: the dynamic
// shared memory and block of a tiled step (chapters 5, 8 and 10), the variant of a step with
// ablation toggles at its block, and the attributes a runner reports. `what` names the user's
// choice in the messages ("tile=256t-128x128x8"), `gpu` the GPU ("NVIDIA H200", or "this GPU" where
// none is chosen yet).
#pragma once

#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <vector>

#include "cuda/cuda_util.h"
#include "cuda/module.h"
#include "errors.h"
#include "kernels_of.h"

namespace lessons {

// A kernel with more than 48 KB of dynamic shared memory must say so before it is launched or
// its occupancy asked; a GPU whose SMs have less refuses here.
inline void AllowDynamicSmem(const void* kernel, size_t dynamic_smem, const std::string& what,
                             const std::string& gpu) {
    if (dynamic_smem <= 48 * 1024) return;
    if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             int(dynamic_smem)) != cudaSuccess) {
        cudaGetLastError();
        throw UsageError(what + " needs " + std::to_string(dynamic_smem) +
                         " B of shared memory per block, more than " + gpu +
                         " gives one block; choose another");
    }
}

// A block of `threads` of `kernel` (named `name`) with `dynamic_smem` bytes: more threads than
// the kernel's registers allow in a block, or no block fitting on one SM at all, is refused.
inline void CheckBlockFits(const void* kernel, const char* name, int threads, size_t dynamic_smem,
                           const std::string& what, const std::string& gpu) {
    cudaFuncAttributes attr{};
    LESSONS_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
    if (threads > attr.maxThreadsPerBlock)
        throw UsageError(what + " needs " + std::to_string(threads) + " threads per block, but " +
                         name + " uses " + std::to_string(attr.numRegs) +
                         " registers per thread, which allows at most " +
                         std::to_string(attr.maxThreadsPerBlock) + "; choose another");
    int per_sm = 0;
    LESSONS_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, dynamic_smem));
    if (per_sm == 0)
        throw UsageError(what + " cannot run on " + gpu + ": a block of " +
                         std::to_string(threads) + " threads with " + std::to_string(attr.numRegs) +
                         " registers each and " +
                         std::to_string(attr.sharedSizeBytes + dynamic_smem) +
                         " B of shared memory does not fit on one SM; choose another");
}

// The dynamic shared memory a kernel variant asks for a block of `block` threads: its
// dynamic_smem(block) where it has one, none otherwise.
template <class K>
size_t DynamicSmemOf(const K& k, int block) {
    if constexpr (requires { k.dynamic_smem(block); })
        return k.dynamic_smem(block);
    else
        return 0;
}

// The kernel variant at the parameters' toggle values (VariantAt), checked to launch at their
// block (BlockOf) with the dynamic shared memory it asks for it.
template <class K>
const K& CheckedVariantAt(const std::vector<const K*>& variants, const ParamValues& params) {
    const K& k = VariantAt(variants, params);
    const int block = BlockOf(params);
    cuda::CheckBlockAgainstKernel(k.kernel, k.name, block, DynamicSmemOf(k, block));
    return k;
}

// A runner's attributes: of the kernel variant at the parameters' toggle values, or of a
// student's kernel, at the parameters' block.
template <class K>
AttributesFn VariantAttributes(std::vector<const K*> variants) {
    return [variants = std::move(variants)](const ParamValues& params) {
        const K& k = VariantAt(variants, params);
        const int block = BlockOf(params);
        return cuda::QueryKernelAttributes(k.kernel, k.name, block, DynamicSmemOf(k, block));
    };
}
inline AttributesFn StudentAttributes(std::shared_ptr<const StudentKernel> student) {
    return [student = std::move(student)](const ParamValues& params) {
        return cuda::StudentKernelAttributes(*student, BlockOf(params));
    };
}

// A runner of a step whose kernel is the variant at the parameters' toggle values, checked to
// launch at their block, or of a student's kernel in its place (`student`, when not null: the
// exercise fixes the toggles, so the parameters name the variant it stands for).
// `make(w, c, k, block)` makes the step of the variant `k`.
template <class K, class Make>
StepRunner VariantRunner(std::vector<const K*> variants,
                         std::shared_ptr<const StudentKernel> student, Make make) {
    StepRunner r;
    r.attributes = student ? StudentAttributes(std::move(student)) : VariantAttributes(variants);
    r.make = [variants = std::move(variants), make = std::move(make)](const Workload& w,
                                                                      const StepContext& c) {
        const K& k = CheckedVariantAt(variants, c.params);
        return make(w, c, k, BlockOf(c.params));
    };
    return r;
}

}  // namespace lessons
