// Chapter 1, split lines: the CPU steps and the reference. Each function writes the offset
// after every "\r\n" (i + 2 for a pair at i) to `out`, which must hold SplitCapacity(n)
// values, and returns how many it wrote.
#pragma once

#include <cstdint>
#include <vector>

namespace lessons::split {

// The most offsets a buffer of n bytes can hold: pairs cannot overlap.
inline uint64_t SplitCapacity(uint64_t n) {
    return n / 2 + 1;
}

// The chapter's reference: the plainest scan, in order.
std::vector<uint64_t> SplitReference(const char* buf, uint64_t n);

uint64_t SplitNaive(const char* buf, uint64_t n, uint64_t* out);
uint64_t SplitEvenPositions(const char* buf, uint64_t n, uint64_t* out);
uint64_t SplitOpenMP(const char* buf, uint64_t n, uint64_t* out, int threads);

}  // namespace lessons::split
