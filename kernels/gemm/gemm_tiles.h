// Chapter 5, GEMM: the names of the compiled tile configurations of each tiled step, the
// choices of its `tile` parameter (the catalogue, compiled without CUDA, and the kernels share
// them). A name reads: threads per block, block tile BM×BN×BK, then what a thread computes
// (TM×TN) or the warp tile (wWM×WN), and for lesson 39 the pipeline's stages (sN). The first
// of each is the default.
#pragma once

#include <array>

namespace lessons::gemm {

constexpr std::array<const char*, 4> kTiles34 = {"256t-16x16x64", "1024t-32x32x32", "256t-16x16x16",
                                                 "64t-8x8x8"};
constexpr std::array<const char*, 4> kTiles35 = {"512t-128x64x8-16x1", "512t-64x64x8-8x1",
                                                 "256t-64x64x8-16x1", "256t-32x32x8-4x1"};
constexpr std::array<const char*, 4> kTiles36 = {"256t-64x64x16-4x4", "128t-64x128x8-8x8",
                                                 "64t-64x64x8-8x8", "256t-128x128x8-8x8"};
constexpr std::array<const char*, 4> kTiles37 = {"256t-128x128x16-8x8", "256t-64x64x16-4x4",
                                                 "256t-128x128x8-8x8", "128t-64x128x8-8x8"};
constexpr std::array<const char*, 4> kTiles38 = {"256t-128x128x16-w64x32", "256t-128x128x8-w64x32",
                                                 "128t-128x64x16-w64x32", "128t-64x128x8-w32x64"};
constexpr std::array<const char*, 4> kTiles39 = {
    "256t-128x256x8-w64x64-s3", "256t-128x256x8-w64x64-s2", "256t-128x128x8-w32x64-s2",
    "128t-64x128x8-w32x64-s3"};
constexpr std::array<const char*, 4> kTiles41 = {"128t-128x128x16-w64x64", "256t-128x256x16-w64x64",
                                                 "256t-128x128x16-w64x32", "128t-64x64x16-w32x32"};

}  // namespace lessons::gemm
