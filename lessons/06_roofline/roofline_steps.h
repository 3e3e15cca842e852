// Chapter 6's step kind: what its row says about how the step runs. Data only (the catalogue
// compiles without CUDA); roofline_harness.cu implements it where the GPU is linked.
#pragma once

namespace lessons::roofline {

// The kernel its source file registers, `fmas` FMAs per element, on a grid that fills the GPU
// once (a grid-stride loop); the kernel alone is timed.
struct Intensity {};

}  // namespace lessons::roofline
