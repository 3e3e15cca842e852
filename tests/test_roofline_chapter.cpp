// Chapter 6's host parts: the reference chains, the elements the check compares, the check
// itself and the work a step reports.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "catalog.h"
#include "roofline/roofline_cpu.h"
#include "roofline_chapter.h"

using namespace lessons;
using namespace lessons::roofline;

TEST(RooflineChapter, CheckedIndicesCoverBothEndsOnceEach) {
    for (uint64_t n : {0ull, 1ull, 2ull, 3ull, 31ull, 1023ull, 1024ull, 1025ull, 2047ull, 2048ull,
                       2049ull, 65537ull, 1000003ull, 268435456ull}) {
        const std::vector<uint64_t> idx = CheckedIndices(n);
        EXPECT_TRUE(std::is_sorted(idx.begin(), idx.end())) << n;
        EXPECT_EQ(std::adjacent_find(idx.begin(), idx.end()), idx.end()) << n << ": twice";
        if (n == 0) {
            EXPECT_TRUE(idx.empty());
            continue;
        }
        EXPECT_EQ(idx.front(), 0u) << n;
        EXPECT_EQ(idx.back(), n - 1) << n;
        EXPECT_LT(idx.back(), n);
        if (n <= 2048) {
            EXPECT_EQ(idx.size(), n) << n << ": small arrays are checked whole";
        }
        EXPECT_LE(idx.size(), 2048u + 65537u) << n;
    }
}

TEST(RooflineChapter, ReferenceIsBoundedAndCheckFindsOneWrongBit) {
    EXPECT_EQ(IntensityReference(0.5f, 0), 0.75f);  // no FMAs: x + x / 2
    EXPECT_TRUE(std::isfinite(IntensityReference(1.0f, 1 << 20)));
    EXPECT_NEAR(IntensityReference(1.0f, 1 << 20), 0.0f, 1e-3);  // both chains at +-10

    WorkloadSpec spec;
    spec.params.Set("size", ParamValue::Number(5000 * sizeof(float)));
    spec.params.Set("data", ParamValue::Choice("random"));
    const RooflineWorkload w(spec);
    const auto idx = CheckedIndices(w.count());
    std::vector<float> out;
    for (uint64_t i : idx) out.push_back(IntensityReference(w.data()[i], 64));
    EXPECT_TRUE(CheckOutputs(w, 64, idx, out).ok);
    EXPECT_FALSE(CheckOutputs(w, 32, idx, out).ok) << "another FMA count gives other values";
    uint32_t bits;
    std::memcpy(&bits, &out[1500], sizeof bits);
    bits ^= 1u;
    std::memcpy(&out[1500], &bits, sizeof bits);
    const Check bad = CheckOutputs(w, 64, idx, out);
    EXPECT_FALSE(bad.ok);
    EXPECT_NE(bad.message.find("element " + std::to_string(idx[1500])), std::string::npos)
        << bad.message;
    out.pop_back();
    EXPECT_FALSE(CheckOutputs(w, 64, idx, out).ok) << "a missing value is wrong";
}

TEST(RooflineChapter, WorkAndBound) {
    const Work low = IntensityWork(1000, 2);
    EXPECT_EQ(low.bytes_read, 4000u);
    EXPECT_EQ(low.bytes_written, 4000u);
    EXPECT_EQ(low.flops, 6000u);  // x / 2, 2 FMAs, 1 add: 1 + 2 x 2 + 1 per element
    EXPECT_EQ(low.bound, Bound::kCopy);
    EXPECT_EQ(IntensityWork(1000, 64).bound, Bound::kFp32);  // 130 / 8 = 16.25 flop/B
    EXPECT_EQ(IntensityWork(1000, 32).bound, Bound::kCopy);  // 66 / 8 = 8.25
    EXPECT_EQ(IntensityWork(0, 64).bound, Bound::kCopy);     // nothing to do
}

TEST(RooflineChapter, ItsLessonIsRegisteredAndDrawsTheWholeRoofline) {
    const Lesson* l = Catalog().FindLesson("roofline/roofline");
    ASSERT_NE(l, nullptr);
    EXPECT_EQ(Catalog().FindLesson("43"), l) << "its old number still finds it";
    EXPECT_EQ(l->kind, StepKind::kGpu);
    EXPECT_TRUE(Catalog().ChapterOf(*l).whole_roofline);
    const ParamSpec* fmas = l->FindParam("fmas");
    ASSERT_NE(fmas, nullptr);
    EXPECT_EQ(fmas->Reject(ParamValue::Number(3)).empty(), false);
    EXPECT_EQ(fmas->Reject(ParamValue::Number(4096)), "");
    EXPECT_EQ(fmas->Reject(ParamValue::Number(8192)).empty(), false);
}
