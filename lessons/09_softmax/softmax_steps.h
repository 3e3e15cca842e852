// Chapter 9's step kinds: what a row of its table says about how the step runs. Data only (the
// catalogue compiles without CUDA); softmax_harness.cu implements each where the GPU is linked.
#pragma once

namespace lessons::softmax {

// How a student's kernel (the step's exercise, fp32) is launched: the step's own launches pick
// their instance by the row's length, a student's kernel is the one instance its exercise names.
enum class RowLayout {
    kThreadPerRow,  // ceil(m / block) blocks, a thread a row
    kBlockPerRow,   // m blocks, a block a row
    kWarpPerRow,    // ceil(m / (block / 32)) blocks, a warp a row
    // m × C blocks in clusters of C a row (the `cluster` choice, sm_90), each block with its part
    // of the row in dynamic shared memory: ceil(chunks / C) chunks of 16 bytes (SoftmaxClusterOf)
    kClusterPerRow,
};

// The softmax kernel its source file registers (one per dtype), launched with the row's block
// size; a student's kernel (x, y, m, n) is launched by `layout` with `smem_per_thread` bytes of
// dynamic shared memory a thread.
struct Kernel {
    RowLayout layout = RowLayout::kThreadPerRow;
    int smem_per_thread = 0;
};

// The RMSNorm kernel its source registers: the same harness, with the weight vector, and
// RMSNorm's check.
struct RmsNorm {};

// cuDNN's cudnnSoftmaxForward, loaded at run time.
struct Cudnn {
    static constexpr bool kLibrary = true;
};

}  // namespace lessons::softmax
