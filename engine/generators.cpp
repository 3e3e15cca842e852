#include "generators.h"

#include <algorithm>
#include <cstring>

#include "errors.h"

namespace lessons {
namespace {

constexpr uint64_t kChunk = uint64_t(1) << 20;

// Every chunk of every buffer gets its own stream, so that any thread can make any chunk.
// The start state is hashed from (seed, chunk): SplitMix64 advances its state by a constant,
// so starting chunk c + 1 one constant after chunk c would replay chunk c's numbers shifted
// by one.
SplitMix64 ChunkStream(uint64_t seed, int64_t chunk) {
    SplitMix64 mix(seed ^ (static_cast<uint64_t>(chunk) * 0xD1B54A32D192ED03ull));
    return SplitMix64(mix.Next() ^ 0x5851F42D4C957F2Dull * (seed + 1));
}

void FillRandomChunk(SplitMix64& rng, char* out, uint64_t n) {
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

// Maps any byte onto the 254 values that are neither '\r' nor '\n'.
char NoBreak(unsigned char b) {
    if (b == '\r' || b == '\n') return static_cast<char>(b + 100);
    return static_cast<char>(b);
}

void FillDenseChunk(SplitMix64& rng, char* out, uint64_t n) {
    static const char kPrintable[] = "abcdefghijklmnopqrstuvwxyz0123456789 ,.;";
    uint64_t i = 0;
    uint64_t bits = 0;
    int bits_left = 0;
    while (i < n) {
        if (bits_left < 16) {
            bits = rng.Next();
            bits_left = 64;
        }
        const int length = static_cast<int>(bits & 3);  // 0..3 bytes of text, then "\r\n"
        bits >>= 2;
        bits_left -= 2;
        for (int k = 0; k < length && i < n; ++k) {
            out[i++] = kPrintable[(bits & 0x3f) % (sizeof kPrintable - 1)];
            bits >>= 4;
            bits_left -= 4;
        }
        if (i < n) out[i++] = '\r';
        if (i < n) out[i++] = '\n';
    }
}

// Calls fill(rng, begin, n) for every chunk of [0, count), in parallel, each chunk with its
// own stream. A set `cancel` flag skips the remaining chunks and throws Cancelled (after the
// parallel loop: an exception must not leave an OpenMP region).
template <typename F>
void ForEachChunk(uint64_t count, uint64_t seed, const std::atomic<bool>* cancel, F&& fill) {
    const int64_t chunks = static_cast<int64_t>((count + kChunk - 1) / kChunk);
    std::atomic<bool> stopped{false};
#pragma omp parallel for schedule(static)
    for (int64_t c = 0; c < chunks; ++c) {
        if (cancel && (stopped.load(std::memory_order_relaxed) || cancel->load())) {
            stopped.store(true, std::memory_order_relaxed);
            continue;
        }
        const uint64_t begin = static_cast<uint64_t>(c) * kChunk;
        SplitMix64 rng = ChunkStream(seed, c);
        fill(rng, begin, std::min(kChunk, count - begin));
    }
    if (stopped.load()) throw Cancelled();
}

}  // namespace

void FillSplitText(DataKind kind, uint64_t seed, char* out, uint64_t size,
                   const std::atomic<bool>* cancel) {
    ForEachChunk(size, seed, cancel, [&](SplitMix64& rng, uint64_t begin, uint64_t n) {
        char* chunk = out + begin;
        switch (kind) {
            case DataKind::kRandom:
                FillRandomChunk(rng, chunk, n);
                break;
            case DataKind::kDense:
                FillDenseChunk(rng, chunk, n);
                break;
            case DataKind::kOnes:
                std::memset(chunk, '1', n);
                break;  // text of '1's, no breaks
            case DataKind::kNone:
                FillRandomChunk(rng, chunk, n);
                for (uint64_t i = 0; i < n; ++i)
                    chunk[i] = NoBreak(static_cast<unsigned char>(chunk[i]));
                break;
        }
    });
}

void FillFloats(DataKind kind, uint64_t seed, float* out, uint64_t count,
                const std::atomic<bool>* cancel) {
    ForEachChunk(count, seed, cancel, [&](SplitMix64& rng, uint64_t begin, uint64_t n) {
        float* chunk = out + begin;
        if (kind == DataKind::kOnes) {
            std::fill(chunk, chunk + n, 1.0f);
            return;
        }
        for (uint64_t i = 0; i < n; ++i) {
            // 24 random bits: every value is exact in a float.
            const auto bits = static_cast<float>(rng.Next() >> 40);
            chunk[i] = bits * (2.0f / 16777216.0f) - 1.0f;
        }
    });
}

}  // namespace lessons
