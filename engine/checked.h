// Checked arithmetic for memory estimates: a result that does not fit in 64 bits saturates at
// the largest value, which no memory check accepts, instead of wrapping to a small number that
// every check would pass (9n + 16 for n near 2^61).
#pragma once

#include <cstdint>
#include <limits>

namespace lessons {

constexpr uint64_t kSaturated = std::numeric_limits<uint64_t>::max();

constexpr uint64_t SaturatingAdd(uint64_t a, uint64_t b) {
    return a > kSaturated - b ? kSaturated : a + b;
}

constexpr uint64_t SaturatingMul(uint64_t a, uint64_t b) {
    return b != 0 && a > kSaturated / b ? kSaturated : a * b;
}

}  // namespace lessons
