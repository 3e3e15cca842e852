// Seeded data generators. The same (kind, seed, size) gives the same bytes on every machine
// and with any number of threads: the buffer is made in 1 MiB chunks, each from its own
// stream derived from the seed and the chunk's index. A set `cancel` flag, checked before
// every chunk, stops the generation with Cancelled (8 GiB takes seconds).
#pragma once

#include <atomic>
#include <cstdint>

#include "lesson.h"

namespace lessons {

// Text for the split chapter:
//  random: uniform random bytes, so '\r' and '\n' each appear with probability 1/256 (the
//          seed's test file) and a "\r\n" pair about once every 64 KiB;
//  dense:  lines of 0 to 3 printable bytes, each ended by "\r\n": the worst case for
//          anything that serialises on the number of hits;
//  none:   random bytes that are never '\r' or '\n'.
void FillSplitText(DataKind kind, uint64_t seed, char* out, uint64_t size,
                   const std::atomic<bool>* cancel = nullptr);

// Floats for the reduction chapter:
//  random: uniform in [-1, 1), so sums cancel and rounding errors show;
//  ones:   all 1.0f, whose sum is exact in float up to 2^24 elements.
void FillFloats(DataKind kind, uint64_t seed, float* out, uint64_t count,
                const std::atomic<bool>* cancel = nullptr);

// A small fast generator (splitmix64), for chunk streams and tests.
class SplitMix64 {
public:
    explicit SplitMix64(uint64_t seed) : m_state(seed) {}
    uint64_t Next() {
        uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }

private:
    uint64_t m_state;
};

}  // namespace lessons
