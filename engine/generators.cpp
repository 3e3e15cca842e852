#include "generators.h"

#include <omp.h>

#include <algorithm>
#include <cstring>

#include "errors.h"

namespace lessons {
namespace {

// Every chunk of every buffer gets its own stream, so that any thread can make any chunk.
// The start state is hashed from (seed, chunk): SplitMix64 advances its state by a constant,
// so starting chunk c + 1 one constant after chunk c would replay chunk c's numbers shifted
// by one.
SplitMix64 ChunkStream(uint64_t seed, int64_t chunk) {
    SplitMix64 mix(seed ^ (static_cast<uint64_t>(chunk) * 0xD1B54A32D192ED03ull));
    return SplitMix64(mix.Next() ^ 0x5851F42D4C957F2Dull * (seed + 1));
}

}  // namespace

void GenerateChunks(uint64_t count, uint64_t seed,
                    const std::function<void(SplitMix64& rng, uint64_t begin, uint64_t n)>& fill,
                    const std::atomic<bool>* cancel) {
    const int64_t chunks = static_cast<int64_t>((count + kGeneratorChunk - 1) / kGeneratorChunk);
    // At most one thread per processor, whatever the environment asks for.
    const int threads = std::max(1, std::min(omp_get_max_threads(), omp_get_num_procs()));
#pragma omp parallel for schedule(static) num_threads(threads)
    for (int64_t c = 0; c < chunks; ++c) {
        if (cancel && cancel->load(std::memory_order_relaxed)) continue;  // drain quickly
        const uint64_t begin = static_cast<uint64_t>(c) * kGeneratorChunk;
        SplitMix64 rng = ChunkStream(seed, c);
        fill(rng, begin, std::min(kGeneratorChunk, count - begin));
    }
    if (cancel && cancel->load()) throw Cancelled();
}

void FillRandomBytes(SplitMix64& rng, char* out, uint64_t n) {
    uint64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const uint64_t r = rng.Next();
        std::memcpy(out + i, &r, 8);
    }
    if (i < n) {
        const uint64_t r = rng.Next();
        std::memcpy(out + i, &r, n - i);
    }
}

void FillUniformFloats(uint64_t seed, float* out, uint64_t count, const std::atomic<bool>* cancel) {
    FillEach(seed, out, count, &UniformFloat, cancel);
}

}  // namespace lessons
