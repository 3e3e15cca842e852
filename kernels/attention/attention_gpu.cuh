// Chapter 10, attention forward: what the steps' kernels share (device code only). Q, K, V and O
// are bf16, laid out [B][H][N][d] (d contiguous); scores, softmax and the output are accumulated
// in fp32 and O is rounded to bf16 once. Each kernel file registers, beside its kernels, what the
// harness needs to launch and query them (LESSONS_KERNELS).
#pragma once

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "kernel_family.h"

namespace lessons::attention {

struct AttentionProblem {
    int heads = 0;  // B·H: one n × d matrix of each of Q, K, V, O per head
    int n = 0;      // sequence length, ≥ 1
    int d = 0;      // head dimension: 64 or 128
    bool causal = false;
    float scale = 0;  // 1/√d
    const __nv_bfloat16* q = nullptr;
    const __nv_bfloat16* k = nullptr;
    const __nv_bfloat16* v = nullptr;
    __nv_bfloat16* o = nullptr;
};

// A fused kernel: one compiled configuration (tile, head dimension) of a step.
struct AttentionKernel {
    const char* tile;     // the `tile` parameter's choice it implements
    int d;                // the head dimension it is compiled for
    const char* name;     // the __global__ function's name
    const void* kernel;   // its address, for attribute queries
    int threads;          // per block
    int rows;             // query rows a block owns: the grid is ceil(n / rows) × B·H blocks
    size_t dynamic_smem;  // bytes per block
    cudaError_t (*launch)(const AttentionProblem& p, cudaStream_t stream);
    int min_cc;  // the lowest compute capability (major · 10 + minor) that runs it
};

// The unfused step (lesson 10.1): S = Q·Kᵀ/√d and O = P·V by cuBLAS, the row softmax between
// them by its own kernel, in place in S (B·H·N·N bf16, which the harness allocates).
struct UnfusedAttention {
    const char* name;  // the softmax kernel's name
    // The softmax kernel instance a launch uses at (n, block), for attribute queries.
    const void* (*pick)(int n, int block);
    // "" on success, else what failed (or why this build has no cuBLAS).
    std::string (*create)(void** state, cudaStream_t stream);
    std::string (*run)(void* state, const AttentionProblem& p, __nv_bfloat16* s, int block,
                       cudaStream_t stream);
    void (*destroy)(void* state);
    std::string (*unavailable)();
};

}  // namespace lessons::attention
