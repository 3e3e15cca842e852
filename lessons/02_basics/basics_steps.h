// Chapter 2's step kinds, one per experiment: what a row of its table says about how the step
// runs. Data only (the catalogue compiles without CUDA); basics_harness.cu implements each
// where the GPU is linked. Each kernel step runs the kernel of its source's family that
// implements the value of the lesson's parameter (`variant`, `divergence`, `stride`).
#pragma once

namespace lessons::basics {

// y = x^T A, by the `variant` of where x is read from; the kernel alone is timed.
struct VecMat {};

// The 128-way switch, by the `divergence` of each warp; the kernel alone is timed.
struct Divergence {};

// c = a + b, lanes `stride` floats apart, the arrays `offset` floats past a boundary.
struct Add {};

// One host-to-device copy from the `memory` chosen, timed as the host waits for it.
struct Transfer {
    static constexpr bool kLibrary = true;  // cudaMemcpy: the driver and the copy engine choose how
};

}  // namespace lessons::basics
