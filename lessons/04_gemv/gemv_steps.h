// Chapter 4's step kinds: what a row of its table says about how the step runs. Data only (the
// catalogue compiles without CUDA); gemv_harness.cu implements each where the GPU is linked.
#pragma once

namespace lessons::gemv {

// The kernel its source file registers, launched with the row's block size; a source with
// ablation toggles registers one variant per combination of their values (VariantAt).
struct Kernel {};

// cuBLAS's cublasSgemv.
struct Cublas {
    static constexpr bool kLibrary = true;
};

}  // namespace lessons::gemv
