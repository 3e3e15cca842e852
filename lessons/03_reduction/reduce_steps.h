// Chapter 3's step kinds: what a row of its table says about how the step runs. Data only (the
// catalogue compiles without CUDA); reduce_harness.cu and reduce_multi_harness.cu implement
// each where the GPU is linked.
#pragma once

namespace lessons::reduce {

// Passes of the kernel its source file registers, repeated over the partial sums until one
// value is left, on a grid that fills the GPU. A source with ablation toggles registers one
// variant per combination of their values; the step launches the one the parameters name.
struct Pass {};

// The one-launch kernel its source file registers (a variant per toggle combination, as for
// Pass), on a grid that fills the GPU.
struct OnePass {};

// CUB's DeviceReduce::Sum.
struct Cub {
    static constexpr bool kLibrary = true;
};

// The one-pass kernel, as written, on one share of the floats per GPU; NCCL's all-reduce adds
// the GPUs' sums (its source registers the two phases).
struct MultiGpuNccl {};

}  // namespace lessons::reduce
