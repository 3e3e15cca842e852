// Chapter 8's CPU parts: bf16 rounding as the GPU does it, the reference against hand-computed
// products, the tolerance (the worst rounding of C to bf16 passes, a perturbed element fails)
// and the check's rules (NaN or Inf anywhere fails); the catalogue's tile choices.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "catalog.h"
#include "tc/tc_cpu.h"
#include "tc/tc_tiles.h"
#include "tc_chapter.h"
#include "tc_steps.h"

using namespace lessons;
using namespace lessons::tc;

namespace {

WorkloadSpec Spec(uint64_t m, uint64_t n, uint64_t k, uint64_t seed = 7,
                  const char* data = "random") {
    WorkloadSpec spec;
    spec.params.Set("m", ParamValue::Number(m));
    spec.params.Set("n", ParamValue::Number(n));
    spec.params.Set("k", ParamValue::Number(k));
    spec.params.Set("data", ParamValue::Choice(data));
    spec.seed = seed;
    return spec;
}

// C as a correct kernel would store it: the reference of every element rounded once to bf16.
std::vector<uint16_t> RoundedReference(const TcWorkload& w) {
    std::vector<double> value(size_t(w.m()) * size_t(w.n())), magnitude(value.size());
    TcReference(w.a(), w.bt(), w.m(), w.n(), w.k(), value.data(), magnitude.data());
    std::vector<uint16_t> c(value.size());
    for (size_t i = 0; i < c.size(); ++i) c[i] = FloatToBf16(float(value[i]));
    return c;
}

}  // namespace

TEST(TcCpu, Bf16RoundsToNearestEven) {
    EXPECT_EQ(FloatToBf16(1.0f), 0x3F80);
    EXPECT_EQ(Bf16ToFloat(0x3F80), 1.0f);
    EXPECT_EQ(FloatToBf16(-2.0f), 0xC000);
    // 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: ties go to the even one, 1.
    EXPECT_EQ(FloatToBf16(1.0f + std::ldexp(1.0f, -8)), 0x3F80);
    // 1 + 3·2^-8 lies halfway between 1 + 2^-7 and 1 + 2^-6: the even one is 1 + 2^-6.
    EXPECT_EQ(FloatToBf16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3F82);
    EXPECT_EQ(FloatToBf16(1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20)), 0x3F81);
    EXPECT_TRUE(std::isnan(Bf16ToFloat(FloatToBf16(std::nanf("")))));
    EXPECT_TRUE(std::isinf(Bf16ToFloat(FloatToBf16(3.4e38f))));  // rounds past the largest
    // Every bf16 value survives the round trip through float.
    for (uint32_t b = 0; b < 0x10000; ++b) {
        if ((b & 0x7F80u) != 0x7F80u) {
            ASSERT_EQ(FloatToBf16(Bf16ToFloat(uint16_t(b))), b) << b;
        }
    }
}

TEST(TcCpu, ReferenceIsTheDotProductOfRowsOfAAndBt) {
    // A = [[1, 2], [3, -4]], Bᵀ = [[0.5, 0.25], [-1, 2]]: C = A·B = [[1, 3], [0.5, -11]].
    const std::vector<uint16_t> a = {FloatToBf16(1), FloatToBf16(2), FloatToBf16(3),
                                     FloatToBf16(-4)};
    const std::vector<uint16_t> bt = {FloatToBf16(0.5f), FloatToBf16(0.25f), FloatToBf16(-1),
                                      FloatToBf16(2)};
    std::vector<double> c(4), mag(4);
    TcReference(a.data(), bt.data(), 2, 2, 2, c.data(), mag.data());
    EXPECT_EQ(c, (std::vector<double>{1, 3, 0.5, -11}));
    EXPECT_EQ(mag, (std::vector<double>{1, 5, 2.5, 11}));
    const TcReferenceElement e = TcReferenceAt(a.data(), bt.data(), 2, 1, 1);
    EXPECT_EQ(e.value, -11);
    EXPECT_EQ(e.magnitude, 11);
}

TEST(TcCpu, TheWorstRoundingOfCPassesAndALargerErrorFails) {
    // An element whose exact value is 1 + 2^-8 (k = 1: no accumulation error at all) stored as
    // bf16 is 1: off by 2^-8 relative, the most rounding to 8 significant bits can err. It
    // passes; one more bf16 step (1 - 2^-8, off by twice that) fails.
    TcReferenceElement ref{1.0 + std::ldexp(1.0, -8), 1.0 + std::ldexp(1.0, -8)};
    const double tol = TcTolerance(ref, 1);
    EXPECT_LE(std::fabs(double(Bf16ToFloat(FloatToBf16(float(ref.value)))) - ref.value), tol);
    EXPECT_GT(std::fabs(double(Bf16ToFloat(0x3F7F)) - ref.value), tol);
    // The accumulation term grows like sqrt(k).
    EXPECT_DOUBLE_EQ(TcAccumulationTolerance(4096) / TcAccumulationTolerance(16), 16.0);
    EXPECT_DOUBLE_EQ(TcAccumulationTolerance(1), 16.0 * std::ldexp(1.0, -24));
}

TEST(TcCpu, CorrectlyRoundedCPassesAndAPerturbedElementFails) {
    for (const auto& [m, n, k] : {std::tuple{17, 33, 65}, {64, 48, 1000}, {1, 1, 1}}) {
        const TcWorkload w(Spec(m, n, k));
        ASSERT_TRUE(w.full_check());
        std::vector<uint16_t> c = RoundedReference(w);
        const Check ok = CheckTc(w, c.data());
        EXPECT_TRUE(ok.ok) << ok.message;
        // One element moved by a product of typical size (a kernel that drops one step of k
        // there): more than the tolerance at these k, so it fails and is named.
        const size_t at = c.size() / 2;
        const double v = double(Bf16ToFloat(c[at]));
        c[at] = FloatToBf16(float(v + (v >= 0 ? 0.5 : -0.5)));
        const Check bad = CheckTc(w, c.data());
        EXPECT_FALSE(bad.ok);
        EXPECT_NE(bad.message.find("C[" + std::to_string(at / size_t(n)) + "]"), std::string::npos)
            << bad.message;
    }
}

TEST(TcCpu, NanOrInfAnywhereFails) {
    const TcWorkload w(Spec(40, 40, 40));
    std::vector<uint16_t> c = RoundedReference(w);
    ASSERT_TRUE(CheckTc(w, c.data()).ok);
    for (uint16_t bad : {uint16_t(0x7FC0), uint16_t(0xFFFF), uint16_t(0x7F80), uint16_t(0xFF80)}) {
        std::vector<uint16_t> d = c;
        d[1234] = bad;
        const Check check = CheckTc(w, d.data());
        EXPECT_FALSE(check.ok) << bad;
        EXPECT_NE(check.message.find("NaN or Inf"), std::string::npos) << check.message;
    }
}

TEST(TcCpu, LargeShapesAreSampledWithEdgesAndFullScanForNan) {
    const TcWorkload w(Spec(600, 700, 520));
    EXPECT_FALSE(w.full_check());
    EXPECT_GE(w.checked().size(), size_t(kSampledElements));
    const uint64_t cells = uint64_t(600) * 700;
    // The corners are always checked (edge tiles end there).
    for (uint64_t corner : {uint64_t(0), uint64_t(699), cells - 700, cells - 1})
        EXPECT_TRUE(std::binary_search(w.checked().begin(), w.checked().end(), corner)) << corner;
    // Each sampled reference equals the full reference at that element.
    std::vector<double> value(cells), magnitude(cells);
    TcReference(w.a(), w.bt(), 600, 700, 520, value.data(), magnitude.data());
    for (size_t s = 0; s < w.checked().size(); s += 97) {
        EXPECT_DOUBLE_EQ(w.reference()[s].value, value[w.checked()[s]]);
        EXPECT_DOUBLE_EQ(w.reference()[s].magnitude, magnitude[w.checked()[s]]);
    }
    // A NaN in an element no sample looks at still fails.
    std::vector<uint16_t> c(cells);
    for (uint64_t i = 0; i < cells; ++i) c[i] = FloatToBf16(float(value[i]));
    ASSERT_TRUE(CheckTc(w, c.data()).ok);
    uint64_t unsampled = 1;
    while (std::binary_search(w.checked().begin(), w.checked().end(), unsampled)) ++unsampled;
    c[unsampled] = 0x7FC0;
    EXPECT_FALSE(CheckTc(w, c.data()).ok);
}

// All ones: every element of C is k. Exact in bf16 up to k = 256; beyond, C holds k rounded to
// bf16 (k = 257 is stored as 256) and that still passes, while a C one off a small k fails.
TEST(TcCpu, OnesGiveKInEveryElement) {
    for (int k : {1, 65, 256, 257, 1000}) {
        const TcWorkload w(Spec(19, 23, k, 7, "ones"));
        for (int i = 0; i < 19 * k; ++i) ASSERT_EQ(w.a()[i], FloatToBf16(1.0f));
        for (int i = 0; i < 23 * k; ++i) ASSERT_EQ(w.bt()[i], FloatToBf16(1.0f));
        std::vector<uint16_t> c(19 * 23, FloatToBf16(float(k)));
        const Check ok = CheckTc(w, c.data());
        EXPECT_TRUE(ok.ok) << k << ": " << ok.message;
        if (k <= 128) {  // a step of 1 is more than the tolerance there
            c[7] = FloatToBf16(float(k - 1));
            EXPECT_FALSE(CheckTc(w, c.data()).ok) << k;
        }
    }
}

TEST(TcCpu, DataIsBf16FromTheSeedAndTheWorkCountsTwoBytesAnElement) {
    const TcWorkload a(Spec(33, 17, 65, 1)), b(Spec(33, 17, 65, 1)), c(Spec(33, 17, 65, 2));
    EXPECT_TRUE(std::equal(a.a(), a.a() + 33 * 65, b.a()));
    EXPECT_FALSE(std::equal(a.a(), a.a() + 33 * 65, c.a()));
    EXPECT_FALSE(std::equal(a.a(), a.a() + 17 * 65, a.bt())) << "A and Bᵀ from different streams";
    for (int i = 0; i < 33 * 65; ++i) {
        const float v = Bf16ToFloat(a.a()[i]);
        ASSERT_TRUE(v >= -1.0f && v <= 1.0f) << v;
    }
    const Work w = TcWork(4096, 4096, 4096);
    EXPECT_EQ(w.flops, 2ull * 4096 * 4096 * 4096);
    EXPECT_EQ(w.bytes_read, 2ull * 4096 * 4096 * 2);
    EXPECT_EQ(w.bytes_written, 4096ull * 4096 * 2);
    EXPECT_EQ(w.bound, Bound::kBf16);
    EXPECT_EQ(PaddedLd(1), 8u);
    EXPECT_EQ(PaddedLd(8), 8u);
    EXPECT_EQ(PaddedLd(4099), 4104u);
}

// (Whatever chapters follow it: a chapter added after this one changes nothing here.)
TEST(TcCpu, EveryStepIsHeldToTheBf16Ceiling) {
    const Registry& catalog = Catalog();
    const Chapter* chapter = catalog.FindChapter("tensor-cores");
    ASSERT_NE(chapter, nullptr);
    const auto lessons = catalog.LessonsOf(*chapter);
    ASSERT_FALSE(lessons.empty());
    EXPECT_EQ(lessons.back()->id, "tensor-cores/cublas-bf16");
    EXPECT_TRUE(lessons.back()->library);
    ParamValues p;
    for (const char* d : {"m", "n", "k"}) p.Set(d, ParamValue::Number(256));
    for (const Lesson* l : lessons) {
        EXPECT_EQ(l->kind, StepKind::kGpu) << l->id;
        ParamValues q = p;
        if (const ParamSpec* tile = l->FindParam("tile")) {
            ASSERT_FALSE(tile->choices.empty()) << l->id;
            q.Set("tile", ParamValue::Choice(tile->choices.front()));
            // The choices are the tables' names, in order, the first the default.
            EXPECT_EQ(tile->Default().choice, tile->choices.front()) << l->id;
        }
        const std::optional<Work> w = EstimateWork(*l, *chapter, q);
        ASSERT_TRUE(w) << l->id;
        EXPECT_EQ(w->bound, Bound::kBf16) << l->id;
    }
}
