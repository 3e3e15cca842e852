// Seeded data generators. The same (seed, size) gives the same bytes on every machine and
// with any number of threads: a buffer is made in 1 MiB chunks, each from its own stream
// derived from the seed and the chunk's index. Chapters build their data kinds on these. A set
// `cancel` flag, checked before every chunk, stops a generation with Cancelled (8 GiB takes
// seconds).
#pragma once

#include <atomic>
#include <cmath>
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

// out[i] = draw(rng) for every i in [0, count), made in chunks (GenerateChunks).
template <class T, class Draw>
void FillEach(uint64_t seed, T* out, uint64_t count, Draw draw,
              const std::atomic<bool>* cancel = nullptr) {
    GenerateChunks(
        count, seed,
        [out, draw](SplitMix64& rng, uint64_t begin, uint64_t n) {
            for (uint64_t i = 0; i < n; ++i) out[begin + i] = draw(rng);
        },
        cancel);
}

// A float uniform in [-1, 1) from 24 random bits, so every value is exact in a float.
inline float UniformFloat(SplitMix64& rng) {
    const auto bits = static_cast<float>(rng.Next() >> 40);
    return bits * (2.0f / 16777216.0f) - 1.0f;
}

// A standard normal value (Box-Muller on two draws), in float.
inline float NormalFloat(SplitMix64& rng) {
    const double u1 = (double(rng.Next() >> 11) + 1.0) * 0x1.0p-53;  // (0, 1]
    const double u2 = double(rng.Next() >> 11) * 0x1.0p-53;          // [0, 1)
    return float(std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2));
}

// Floats uniform in [-1, 1) (UniformFloat).
void FillUniformFloats(uint64_t seed, float* out, uint64_t count,
                       const std::atomic<bool>* cancel = nullptr);

}  // namespace lessons
