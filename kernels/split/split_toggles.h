// Chapter 1's ablation toggles (toggles.h), on lesson 1.10: each switches off one of the ideas
// the vector-loads step bundles, so that a sweep over it measures that idea's share. Named once,
// here: the step offers these values as its choices (lessons.cpp, today's kernel first: the
// default), and its kernel file registers a kernel for each combination, carrying the values it
// implements (SplitKernel::toggles), by which the harness picks it. No CUDA: the catalogue reads
// it.
#pragma once

#include <string_view>

#include "toggles.h"

namespace lessons::split {

using lessons::Toggle;
using lessons::ToggleValue;
using lessons::ValueOf;

// How the offsets found reach global memory: placed by a block prefix sum and claimed by one
// atomic per block, or one atomic per hit (the earlier steps' output).
enum class Output { kBlock, kPerHit };
inline constexpr Toggle<Output, 2> kOutputToggle{"output", {"block", "per-hit"}};

// How wide a thread's loads are: two 16-byte vectors, or the same 32 bytes as eight 4-byte
// words (the same bytes per thread, the same layout, four times the load instructions).
enum class Loads { k16Byte, k4Byte };
inline constexpr Toggle<Loads, 2> kSplitLoadsToggle{"loads", {"16-byte", "4-byte"}};

// How a 4-byte word is searched for "\r\n": one bit test for the whole word, or a compare of
// each byte and the byte after it (the earlier steps' test).
enum class PairTest { kWord, kByte };
inline constexpr Toggle<PairTest, 2> kPairTestToggle{"pair_test", {"word", "byte"}};

// Whether a warp without hits skips its scan and a block without hits leaves at its first
// barrier (early), or every warp scans and every block claims its (possibly empty) range. Only
// the block output has them: under output=per-hit both values run the same code.
enum class Exits { kEarly, kNone };
inline constexpr Toggle<Exits, 2> kExitsToggle{"exits", {"early", "none"}};

// Whether a toggle value is the step as written: the first value of its toggle.
constexpr bool AsWritten(const ToggleValue& t) {
    if (!t.name) return true;
    const ToggleValue firsts[] = {
        ValueOf(kOutputToggle, Output::kBlock), ValueOf(kSplitLoadsToggle, Loads::k16Byte),
        ValueOf(kPairTestToggle, PairTest::kWord), ValueOf(kExitsToggle, Exits::kEarly)};
    for (const ToggleValue& first : firsts)
        if (std::string_view(t.name) == first.name) return std::string_view(t.value) == first.value;
    return false;
}

}  // namespace lessons::split
