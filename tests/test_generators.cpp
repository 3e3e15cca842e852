#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <string>
#include <vector>

#include "errors.h"
#include "generators.h"
#include "split/split_cpu.h"
#include "split_chapter.h"

using namespace lessons;
using lessons::split::FillSplitText;
using lessons::split::TextKind;

namespace {

std::vector<char> Make(TextKind kind, uint64_t seed, uint64_t n) {
    std::vector<char> v(n);
    FillSplitText(kind, seed, v.data(), n);
    return v;
}

}  // namespace

TEST(Generators, SameSeedSameBytesAnyThreadCount) {
    const uint64_t n = (3u << 20) + 12345;  // several chunks and a partial one
    for (TextKind kind : {TextKind::kRandom, TextKind::kDense, TextKind::kNone}) {
        omp_set_num_threads(1);
        const std::vector<char> one = Make(kind, 7, n);
        omp_set_num_threads(2);
        const std::vector<char> two = Make(kind, 7, n);
        EXPECT_EQ(one, two) << static_cast<int>(kind);
        EXPECT_NE(one, Make(kind, 8, n))
            << "another seed gives other data: " << static_cast<int>(kind);
    }
}

TEST(Generators, RandomHasBreakCharactersAboutOneIn256) {
    const uint64_t n = 8u << 20;
    const std::vector<char> v = Make(TextKind::kRandom, 1, n);
    uint64_t cr = 0, lf = 0;
    for (char c : v) {
        cr += c == '\r';
        lf += c == '\n';
    }
    const double expected = double(n) / 256;  // 32768; binomial sd about 180
    EXPECT_NEAR(double(cr), expected, 0.03 * expected);
    EXPECT_NEAR(double(lf), expected, 0.03 * expected);
    // A pair about once every 65536 bytes: ~128 in 8 MiB.
    const uint64_t pairs = split::SplitReference(v.data(), n).size();
    EXPECT_GT(pairs, 80u);
    EXPECT_LT(pairs, 190u);
}

TEST(Generators, DenseIsFullOfBreaksAndNoneHasNone) {
    const uint64_t n = (1u << 20) + 3;
    const std::vector<char> dense = Make(TextKind::kDense, 3, n);
    // Lines of 0-3 bytes plus "\r\n": on average one break every 3.5 bytes.
    EXPECT_GT(split::SplitReference(dense.data(), n).size(), n / 5);
    const std::vector<char> none = Make(TextKind::kNone, 3, n);
    for (char c : none) ASSERT_TRUE(c != '\r' && c != '\n');
}

TEST(Generators, ZeroAndTinySizes) {
    char byte = 'x';
    FillSplitText(TextKind::kRandom, 1, &byte, 0);
    EXPECT_EQ(byte, 'x') << "size 0 writes nothing";
    for (uint64_t n = 1; n < 20; ++n) {
        std::vector<char> v(n + 1, 'Z');
        FillSplitText(TextKind::kDense, 1, v.data(), n);
        EXPECT_EQ(v[n], 'Z') << "writes exactly n bytes, n = " << n;
    }
}

TEST(Generators, ChunksAreNotShiftedCopiesOfEachOther) {
    // 4 MiB = 4 chunks of 1 MiB: no 64-byte window of one chunk may reappear in the next.
    const uint64_t chunk = 1u << 20;
    const std::vector<char> v = Make(TextKind::kRandom, 1, 4 * chunk);
    for (uint64_t c = 0; c + 1 < 4; ++c) {
        const std::string next(v.begin() + (c + 1) * chunk, v.begin() + (c + 2) * chunk);
        const std::string probe(v.begin() + c * chunk + 4096, v.begin() + c * chunk + 4096 + 64);
        EXPECT_EQ(next.find(probe), std::string::npos)
            << "chunk " << c + 1 << " repeats chunk " << c;
    }
}

TEST(Generators, RandomFloatsSumLikeIndependentDraws) {
    // 2^24 uniform values in [-1, 1): the sum has standard deviation sqrt(n / 3), about 2365.
    const uint64_t n = 1u << 24;
    std::vector<float> x(n);
    FillUniformFloats(1, x.data(), n);
    double sum = 0;
    for (float v : x) sum += v;
    EXPECT_LT(std::abs(sum), 6 * 2365.0);
}

TEST(Generators, ASetCancelFlagStopsGeneration) {
    const uint64_t n = (4u << 20) + 7;
    std::atomic<bool> cancel{true};
    std::vector<char> text(n, 'x');
    EXPECT_THROW(FillSplitText(TextKind::kRandom, 1, text.data(), n, &cancel), Cancelled);
    EXPECT_EQ(std::count(text.begin(), text.end(), 'x'), static_cast<std::ptrdiff_t>(n))
        << "no chunk is made once the flag is set";
    std::vector<float> floats(n, 7.0f);
    EXPECT_THROW(FillUniformFloats(1, floats.data(), n, &cancel), Cancelled);
    EXPECT_EQ(std::count(floats.begin(), floats.end(), 7.0f), static_cast<std::ptrdiff_t>(n));
    // A clear flag changes nothing: the same bytes as without one.
    cancel = false;
    FillSplitText(TextKind::kDense, 3, text.data(), n, &cancel);
    EXPECT_EQ(text, Make(TextKind::kDense, 3, n));
}
