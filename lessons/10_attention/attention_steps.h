// Chapter 10's step kinds: what a row of its table says about how the step runs. Data only (the
// catalogue compiles without CUDA); attention_harness.cu implements each where the GPU is linked.
#pragma once

#include <string>
#include <vector>

#include "params.h"
#include "tile_param.h"

namespace lessons::attention {

// Lesson 10.1: cuBLAS, the row softmax its source registers (UnfusedAttention), cuBLAS. S goes
// through global memory in bf16; the row's `block` is the softmax's block size.
struct Unfused {};

// A fused kernel: one compiled kernel per tile of `tiles` and head dimension (its source
// registers an AttentionKernel for each), chosen by the `tile` parameter, the first by default.
struct Fused {
    std::vector<std::string> tiles;
    std::vector<std::string> notes;
    std::vector<std::string> notes_zh;
    // How the step's kernel, and so a student's kernel for its exercise, is launched: with the
    // AttentionProblem alone (the SIMT and mma.sync steps), or (the Hopper steps, sm_90a) after
    // the TMA tensor maps of Q, K and V, made at each launch as the step's own launch makes
    // them: Q in boxes of the block's query rows, K and V in boxes of the key tile's rows (a
    // tile named "RxC": R query rows a block, C keys a tile), 64 columns each.
    bool tensor_maps = false;
    // A Hopper step's exercise whose prelude also holds the two products of the Hopper steps
    // (kernels/attention/attention_products.cuh: IssueQk, IssuePv), which exercise 10.7 asks
    // for and a later step takes as given.
    bool products_given = false;

    std::vector<ParamSpec> Params() const {
        return {TileParam(
            tiles, notes, notes_zh,
            "each configuration is a separately compiled kernel (the rows a block owns are "
            "template arguments, so the compiler sizes shared memory and keeps the accumulators "
            "in registers)")};
    }
};

}  // namespace lessons::attention
