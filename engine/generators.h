// Seeded data generators. The same (seed, size) gives the same bytes on every machine and
// with any number of threads: a buffer is made in 1 MiB chunks, each from its own stream
// derived from the seed and the chunk's index. Chapters build their data kinds on these. A set
// `cancel` flag, checked before every chunk, stops a generation with Cancelled (8 GiB takes
// seconds).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>

namespace lessons {

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

// Elements per chunk of GenerateChunks.
constexpr uint64_t kGeneratorChunk = uint64_t(1) << 20;

// Calls fill(rng, begin, n) for every chunk of [0, count), in parallel (OpenMP), each chunk
// with its own stream. Throws Cancelled when `cancel` is set before every chunk is made.
void GenerateChunks(uint64_t count, uint64_t seed,
                    const std::function<void(SplitMix64& rng, uint64_t begin, uint64_t n)>& fill,
                    const std::atomic<bool>* cancel = nullptr);

// n random bytes from `rng`.
void FillRandomBytes(SplitMix64& rng, char* out, uint64_t n);

// Floats uniform in [-1, 1), each from 24 random bits, so every value is exact in a float.
void FillUniformFloats(uint64_t seed, float* out, uint64_t count,
                       const std::atomic<bool>* cancel = nullptr);

}  // namespace lessons
