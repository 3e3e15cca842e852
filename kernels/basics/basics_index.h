// Chapter 2's index arithmetic and constants, shared by the kernels and the CPU reference:
// which case of the switch a thread takes (branch divergence) and which element a thread adds
// (coalescing). Compiles as host code and, under nvcc, as host and device code.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define LESSONS_BASICS_HD __host__ __device__
#else
#define LESSONS_BASICS_HD
#endif

namespace lessons::basics {

inline constexpr unsigned kWarp = 32;
inline constexpr unsigned kCases = 128;       // the seed's switch has 128 cases
inline constexpr unsigned kIterations = 256;  // FMAs per element, the same in every case

// Branch divergence: the case of thread g when every warp splits `ways` ways (a power of two up to
// 32). Lane l of warp w takes case (w * ways + l % ways) % 128: with ways = 1 a whole warp
// takes one case; with ways = 32 it is g % 128, the seed's switch (threadIdx.x). Over 128
// warps every case is taken equally often, whatever `ways` is: the same work.
LESSONS_BASICS_HD constexpr unsigned CaseOf(uint64_t g, unsigned ways) {
    const uint64_t warp = g / kWarp;
    const unsigned lane = static_cast<unsigned>(g % kWarp);
    return static_cast<unsigned>((warp * ways + lane % ways) % kCases);
}

// Case k repeats v = v * CaseScale(k) + CaseOffset(k) kIterations times: a contraction with
// a different fixed point per case, so the cases are different code and a wrong case shows.
LESSONS_BASICS_HD constexpr float CaseScale(unsigned k) {
    return 1.0f - 1.0f / static_cast<float>(1024 + 8 * k);
}
LESSONS_BASICS_HD constexpr float CaseOffset(unsigned k) {
    return static_cast<float>(static_cast<int>(k) - 64) / 65536.0f;
}

// Coalescing: the element thread g adds when neighbouring lanes are `stride` floats apart.
// Threads go in tiles of 32 * stride: lane l of the tile's warp w takes element
// l * stride + w of the tile, so the tile's warps cover it exactly once. stride = 1 is
// add_coalesced; stride = 32 with 1024-thread blocks is the seed's add_striped.
LESSONS_BASICS_HD constexpr uint64_t StridedIndex(uint64_t g, unsigned stride) {
    const uint64_t tile = uint64_t(kWarp) * stride;
    const uint64_t j = g % tile;
    return g - j + (j % kWarp) * stride + j / kWarp;
}

// Threads coalescing launches for n elements: whole tiles.
LESSONS_BASICS_HD constexpr uint64_t StridedThreads(uint64_t n, unsigned stride) {
    const uint64_t tile = uint64_t(kWarp) * stride;
    return (n + tile - 1) / tile * tile;
}

}  // namespace lessons::basics
