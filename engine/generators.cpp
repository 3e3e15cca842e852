#include "generators.h"

#include <algorithm>
#include <cstring>

namespace lessons {
namespace {

constexpr uint64_t kChunk = uint64_t(1) << 20;

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

}  // namespace

void FillSplitText(DataKind kind, uint64_t seed, char* out, uint64_t size) {
    const int64_t chunks = static_cast<int64_t>((size + kChunk - 1) / kChunk);
#pragma omp parallel for schedule(static)
    for (int64_t c = 0; c < chunks; ++c) {
        const uint64_t begin = static_cast<uint64_t>(c) * kChunk;
        const uint64_t n = std::min(kChunk, size - begin);
        SplitMix64 rng(seed * 0x100000001B3ull + static_cast<uint64_t>(c) * 0x9E3779B97F4A7C15ull + 1);
        char* chunk = out + begin;
        switch (kind) {
            case DataKind::kRandom: FillRandomChunk(rng, chunk, n); break;
            case DataKind::kDense: FillDenseChunk(rng, chunk, n); break;
            case DataKind::kNone:
                FillRandomChunk(rng, chunk, n);
                for (uint64_t i = 0; i < n; ++i) chunk[i] = NoBreak(static_cast<unsigned char>(chunk[i]));
                break;
        }
    }
}

}  // namespace lessons
