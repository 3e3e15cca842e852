// Chapter 2's choices: which kernel (or host memory) a lesson runs. Named once, here: the
// lessons offer these names as their choices (lessons.cpp; the first is the default), and each
// kernel a kernel file registers names the choice it implements. No CUDA: the catalogue reads
// it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace lessons::basics {

// Global vs shared: where every thread reads the vector x from.
enum class VecMatVariant { kShared, kGlobal, kSharedOneThread };
inline constexpr std::array<const char*, 3> kVecMatNames{"shared", "global", "shared-one-thread"};
constexpr const char* VecMatName(VecMatVariant variant) {
    return kVecMatNames[static_cast<size_t>(variant)];
}

// Branch divergence: into how many paths each warp splits (the case a thread takes: CaseOf()).
inline constexpr std::array<const char*, 6> kDivergenceNames{"none",  "2-way",  "4-way",
                                                             "8-way", "16-way", "32-way"};
inline constexpr std::array<unsigned, 6> kDivergenceWays{1, 2, 4, 8, 16, 32};
// The choice that names a split into `ways` paths; null when none does.
constexpr const char* DivergenceName(unsigned ways) {
    for (size_t i = 0; i < kDivergenceWays.size(); ++i)
        if (kDivergenceWays[i] == ways) return kDivergenceNames[i];
    return nullptr;
}

// Coalescing: the distance in floats between the elements of neighbouring lanes.
inline constexpr std::array<unsigned, 6> kStrides{1, 2, 4, 8, 16, 32};
inline constexpr unsigned kMaxOffset = 32;  // floats a buffer may start past its allocation

// Pinned transfers: how the host buffer is allocated.
enum class HostMemory { kPinned, kRegistered, kPageable };
inline constexpr std::array<const char*, 3> kMemoryNames{"pinned", "registered", "pageable"};

}  // namespace lessons::basics
