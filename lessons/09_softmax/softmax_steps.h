// Chapter 9's step kinds: what a row of its table says about how the step runs. Data only (the
// catalogue compiles without CUDA); softmax_harness.cu implements each where the GPU is linked.
#pragma once

namespace lessons::softmax {

// The softmax kernel its source file registers (one per dtype), launched with the row's block
// size.
struct Kernel {};

// The RMSNorm kernel its source registers: the same harness, with the weight vector, and
// RMSNorm's check.
struct RmsNorm {};

// cuDNN's cudnnSoftmaxForward, loaded at run time.
struct Cudnn {
    static constexpr bool kLibrary = true;
};

}  // namespace lessons::softmax
