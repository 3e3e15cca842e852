// Chapter 4's step kinds: what a row of its table says about how the step runs. Data only (the
// catalogue compiles without CUDA); gemv_harness.cu implements each where the GPU is linked.
#pragma once

namespace lessons::gemv {

// How the step's kernel lays its threads over the rows of A (a student's kernel for its exercise is
// launched with the same grid and arguments).
enum class RowLayout {
    kThreadPerRow,  // (a, x, y, m, n), one thread a row
    kWarpPerRow,    // (a, x, y, m, n), one warp a row
    kGroupPerRow,   // (a, x, y, m, n, group_log2), a group of 2^group_log2 lanes a row
};

// The kernel its source file registers, launched with the row's block size; a source with
// ablation toggles registers one variant per combination of their values (VariantAt).
struct Kernel {
    RowLayout layout = RowLayout::kThreadPerRow;
};

// cuBLAS's cublasSgemv.
struct Cublas {
    static constexpr bool kLibrary = true;
};

}  // namespace lessons::gemv
