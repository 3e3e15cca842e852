// Chapter 2's CPU side: the index maps the kernels share with the reference, the references,
// the checks (they accept right answers and reject wrong ones) and the parameters' limits.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "basics/basics_choices.h"
#include "basics/basics_cpu.h"
#include "basics/basics_index.h"
#include "basics_chapter.h"
#include "catalog.h"
#include "generators.h"

using namespace lessons;
using namespace lessons::basics;

namespace {

// What the GPU does for one element of the branch-divergence step: the loop in float with fused
// multiply-adds.
float CaseLoop(unsigned k, float v) {
    for (unsigned r = 0; r < kIterations; ++r) v = std::fma(v, CaseScale(k), CaseOffset(k));
    return v;
}

std::vector<float> Floats(uint64_t n, uint64_t seed) {
    std::vector<float> v(n + 1);
    FillUniformFloats(seed, v.data(), n);
    return v;
}

// The chapter's lesson with this slug.
const Lesson& BasicsLesson(const std::string& slug) {
    const Lesson* l = Catalog().FindLesson("basics/" + slug);
    EXPECT_NE(l, nullptr) << slug;
    return *l;
}

}  // namespace

TEST(BasicsIndex, EveryWarpSplitsIntoExactlyItsWaysAndEveryCaseIsEquallyUsed) {
    for (unsigned ways : kDivergenceWays) {
        std::vector<int> uses(kCases, 0);
        for (uint64_t warp = 0; warp < 4 * kCases; ++warp) {
            std::set<unsigned> cases;
            for (uint64_t lane = 0; lane < kWarp; ++lane) {
                const unsigned k = CaseOf(warp * kWarp + lane, ways);
                ASSERT_LT(k, kCases);
                cases.insert(k);
                ++uses[k];
            }
            EXPECT_EQ(cases.size(), ways) << "warp " << warp << " ways " << ways;
        }
        for (unsigned k = 0; k < kCases; ++k)
            EXPECT_EQ(uses[k], 4 * int(kWarp)) << "case " << k << " ways " << ways;
    }
    for (uint64_t g = 0; g < 5000; ++g) EXPECT_EQ(CaseOf(g, 32), g % 128) << "the seed's switch";
    for (uint64_t g = 0; g < 5000; ++g) EXPECT_EQ(CaseOf(g, 1), (g / 32) % 128);
}

TEST(BasicsIndex, StridedIndexCoversEveryElementOnceAtEdgeSizes) {
    for (unsigned stride : kStrides) {
        for (uint64_t n : {0ull, 1ull, 2ull, 3ull, 31ull, 32ull, 33ull, 255ull, 257ull, 1023ull,
                           1025ull, 4099ull, 65537ull}) {
            const uint64_t threads = StridedThreads(n, stride);
            EXPECT_EQ(threads % (kWarp * stride), 0u);
            EXPECT_GE(threads, n);
            EXPECT_LT(threads, n + kWarp * stride);
            std::vector<int> hits(n, 0);
            for (uint64_t g = 0; g < threads; ++g) {
                const uint64_t i = StridedIndex(g, stride);
                ASSERT_LT(i, threads);
                if (i < n) ++hits[i];
            }
            for (uint64_t i = 0; i < n; ++i)
                ASSERT_EQ(hits[i], 1) << "stride " << stride << " n " << n << " element " << i;
        }
    }
}

TEST(BasicsIndex, NeighbouringLanesAreStrideApart) {
    for (unsigned stride : kStrides)
        for (uint64_t g = 0; g < 4096; ++g)
            if (g % kWarp != kWarp - 1) {
                EXPECT_EQ(StridedIndex(g + 1, stride) - StridedIndex(g, stride), stride);
            }
    for (uint64_t g = 0; g < 4096; ++g) EXPECT_EQ(StridedIndex(g, 1), g) << "add_coalesced";
    // The seed's add_striped with 1024-thread blocks: block * 1024 + (t % 32) * 32 + t / 32.
    for (uint64_t block = 0; block < 3; ++block)
        for (uint64_t t = 0; t < 1024; ++t)
            EXPECT_EQ(StridedIndex(block * 1024 + t, 32), block * 1024 + (t % 32) * 32 + t / 32);
}

TEST(BasicsReference, ClosedFormMatchesTheFloatLoopAndTellsCasesApart) {
    const std::vector<float> v = Floats(300, 3);
    for (unsigned k = 0; k < kCases; ++k) {
        for (float x : {v[k], v[k + 128], 1.0f, 0.0f, -1.0f}) {
            const double loop = CaseLoop(k, x);
            EXPECT_LE(std::fabs(loop - CaseResult(k, x)), CaseTolerance(k, x)) << k << " " << x;
            // A thread that took a neighbouring case, or skipped its input, is caught.
            if (k + 1 < kCases) {
                EXPECT_GT(std::fabs(double(CaseLoop(k + 1, x)) - CaseResult(k, x)),
                          CaseTolerance(k, x))
                    << k;
            }
            if (std::fabs(x) > 0.01f) {
                EXPECT_GT(std::fabs(double(CaseLoop(k, 0.0f)) - CaseResult(k, x)),
                          CaseTolerance(k, x))
                    << k << " " << x;
            }
        }
    }
}

TEST(BasicsReference, VecMatKnownValues) {
    // A is 2 x 3: rows (1 2 3) and (4 5 6); x = (1, -1): y = (-3, -3, -3).
    const float a[] = {1, 2, 3, 4, 5, 6};
    const float x[] = {1, -1};
    double y[3], mag[3];
    VecMatReference(a, x, 2, 3, y, mag);
    for (int j = 0; j < 3; ++j) EXPECT_EQ(y[j], -3.0);
    EXPECT_EQ(mag[0], 5.0);
    EXPECT_EQ(mag[2], 9.0);
    EXPECT_EQ(VecMatColumns(1025, 256), 4u);
    EXPECT_EQ(VecMatColumns(255, 256), 0u);
}

TEST(BasicsCheck, VecMatAcceptsTheFloatLoopAndRejectsErrors) {
    for (uint64_t rows : {1ull, 3ull, 256ull, 1000ull}) {
        for (uint64_t cols : {0ull, 1ull, 33ull, 1025ull}) {
            const std::vector<float> a = Floats(rows * cols, rows + cols), x = Floats(rows, 7);
            std::vector<float> y(cols);
            for (uint64_t j = 0; j < cols; ++j) {
                float sum = 0;
                for (uint64_t i = 0; i < rows; ++i) sum = std::fma(x[i], a[i * cols + j], sum);
                y[j] = sum;
            }
            EXPECT_TRUE(CheckVecMat(a.data(), x.data(), rows, cols, y.data()).ok);
            if (cols == 0) continue;
            std::vector<float> bad = y;
            bad[cols / 2] += 0.5f;  // far beyond rounding at any of these row counts
            const Check c = CheckVecMat(a.data(), x.data(), rows, cols, bad.data());
            EXPECT_FALSE(c.ok);
            EXPECT_NE(c.message.find("first at " + std::to_string(cols / 2)), std::string::npos)
                << c.message;
            bad = y;
            bad[0] = std::nanf("");
            EXPECT_FALSE(CheckVecMat(a.data(), x.data(), rows, cols, bad.data()).ok);
        }
    }
}

TEST(BasicsCheck, DivergenceAcceptsEachPatternAndRejectsAnother) {
    const uint64_t n = 4099;
    const std::vector<float> in = Floats(n, 11);
    for (unsigned ways : kDivergenceWays) {
        std::vector<float> out(n);
        for (uint64_t i = 0; i < n; ++i) out[i] = CaseLoop(CaseOf(i, ways), in[i]);
        EXPECT_TRUE(CheckDivergence(in.data(), n, ways, out.data()).ok) << ways;
        const unsigned other = ways == 32 ? 1 : ways * 2;
        const Check c = CheckDivergence(in.data(), n, other, out.data());
        EXPECT_FALSE(c.ok) << ways;
        EXPECT_FALSE(c.message.empty());
    }
    EXPECT_TRUE(CheckDivergence(in.data(), 0, 2, nullptr).ok);
}

TEST(BasicsCheck, AddIsExactAndTransferIsByteForByte) {
    const uint64_t n = 1025;
    const std::vector<float> a = Floats(n, 1), b = Floats(n, 2);
    std::vector<float> c(n);
    for (uint64_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
    EXPECT_TRUE(CheckAdd(a.data(), b.data(), n, c.data()).ok);
    c[n - 1] = std::nextafter(c[n - 1], 2.0f);
    const Check bad = CheckAdd(a.data(), b.data(), n, c.data());
    EXPECT_FALSE(bad.ok);
    EXPECT_NE(bad.message.find("first at 1024"), std::string::npos) << bad.message;
    EXPECT_TRUE(CheckAdd(a.data(), b.data(), 0, c.data()).ok);

    std::vector<float> copy = a;
    EXPECT_TRUE(CheckTransfer(a.data(), copy.data(), n).ok);
    copy[7] = -copy[7];
    EXPECT_FALSE(CheckTransfer(a.data(), copy.data(), n).ok);
}

TEST(BasicsWork, DeclaredWorkAndBounds) {
    const Work v = VecMatWork(256, 1000);
    EXPECT_EQ(v.bytes_read, (256u * 1000 + 256) * 4);
    EXPECT_EQ(v.bytes_written, 4000u);
    EXPECT_EQ(v.flops, 2u * 256 * 1000);
    EXPECT_EQ(v.bound, Bound::kRead);
    EXPECT_EQ(VecMatWork(256, 0).MemoryBytes(), 0u);
    const Work d = DivergenceWork(10);
    EXPECT_EQ(d.flops, 10u * 2 * kIterations);
    EXPECT_EQ(d.bound, Bound::kFp32);
    const Work add = AddWork(10);
    EXPECT_EQ(add.MemoryBytes(), 120u);
    EXPECT_EQ(add.bound, Bound::kCopy);
    const Work t = TransferWork(4096);
    EXPECT_EQ(t.h2d_bytes, 4096u);
    EXPECT_EQ(t.MemoryBytes(), 4096u) << "written into device memory";
    EXPECT_EQ(t.flops, 0u);
    EXPECT_EQ(t.bound, Bound::kH2D);
    EXPECT_EQ(t.rate_part, "h2d");
}

TEST(BasicsWork, BreakEven) {
    EXPECT_DOUBLE_EQ(BreakEvenRuns(300, 100), 3.0);
    EXPECT_DOUBLE_EQ(BreakEvenRuns(-5, 100), 0.0) << "pinning cost nothing extra";
    EXPECT_LT(BreakEvenRuns(300, 0), 0.0) << "nothing saved: never";
    EXPECT_LT(BreakEvenRuns(300, -1), 0.0);
}

TEST(BasicsLessons, ParametersAndTheirLimits) {
    const Lesson& vecmat = BasicsLesson("global-vs-shared");
    EXPECT_EQ(vecmat.chapter, "basics");
    EXPECT_EQ(vecmat.FindParam("variant")->Default().choice, "shared");
    EXPECT_FALSE(vecmat.FindParam("rows")->Reject(ParamValue::Number(0)).empty());
    EXPECT_FALSE(vecmat.FindParam("rows")->Reject(ParamValue::Number(8193)).empty());
    EXPECT_TRUE(vecmat.FindParam("rows")->Reject(ParamValue::Number(8192)).empty());
    const Lesson& divergence = BasicsLesson("branch-divergence");
    EXPECT_EQ(divergence.FindParam("divergence")->choices.size(), kDivergenceWays.size());
    EXPECT_EQ(divergence.FindParam("divergence")->Default().choice, "none");
    const Lesson& add = BasicsLesson("coalescing");
    const ParamSpec* stride = add.FindParam("stride");
    std::vector<uint64_t> strides;
    for (const ParamValue& v : stride->Values()) strides.push_back(v.number);
    EXPECT_EQ(strides, (std::vector<uint64_t>{1, 2, 4, 8, 16, 32}));
    const std::string why = stride->Reject(ParamValue::Number(3));
    EXPECT_NE(why.find("stride"), std::string::npos) << why;
    EXPECT_FALSE(add.FindParam("offset")->Reject(ParamValue::Number(33)).empty());
    const Lesson& transfer = BasicsLesson("pinned-transfers");
    EXPECT_EQ(transfer.FindParam("block"), nullptr) << "a copy has no block size";
    EXPECT_EQ(transfer.FindParam("memory")->choices,
              (std::vector<std::string>{"pinned", "registered", "pageable"}));
    int lessons = 0;
    for (const Lesson& l : Catalog().lessons()) {
        if (l.chapter != "basics") continue;
        ++lessons;
        EXPECT_EQ(l.kind, StepKind::kGpu) << l.id;
        EXPECT_NE(l.source.size(), 0u) << l.id;
        EXPECT_NE(l.text_zh.size(), 0u) << l.id;
    }
    EXPECT_EQ(lessons, 4);
}
