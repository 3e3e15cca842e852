// Chapter 4's reference, tolerance, check and estimates (no GPU needed).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "catalog.h"
#include "checked.h"
#include "errors.h"
#include "gemv/gemv_cpu.h"
#include "gemv_chapter.h"
#include "lesson.h"
#include "session.h"

using namespace lessons;
using namespace lessons::gemv;

namespace {

WorkloadSpec Spec(uint64_t m, uint64_t n, const char* data, uint64_t seed = 1) {
    WorkloadSpec spec;
    spec.params.Set("m", ParamValue::Number(m));
    spec.params.Set("n", ParamValue::Number(n));
    spec.params.Set("data", ParamValue::Choice(data));
    spec.seed = seed;
    return spec;
}

// A step whose output is set by the test.
class FixedStep : public GemvStep {
public:
    FixedStep(const Workload& w, std::vector<float> y) : GemvStep(w), m_y(std::move(y)) {}
    Sample Run() override { return {}; }

protected:
    const float* Output() const override { return m_y.data(); }

private:
    std::vector<float> m_y;
};

}  // namespace

TEST(GemvReference, HandComputedSmallCases) {
    // [1 2 3; 4 5 6] · [1 0 -1] = [-2 -2]; magnitudes |1|+0+|-3| = 4 and 4+0+6 = 10.
    const float a[] = {1, 2, 3, 4, 5, 6};
    const float x[] = {1, 0, -1};
    double y[2], mag[2];
    GemvReference(a, x, 2, 3, y, mag);
    EXPECT_EQ(y[0], -2.0);
    EXPECT_EQ(y[1], -2.0);
    EXPECT_EQ(mag[0], 4.0);
    EXPECT_EQ(mag[1], 10.0);

    // 1 × 1: 3 · -0.5.
    const float a1[] = {3}, x1[] = {-0.5f};
    GemvReference(a1, x1, 1, 1, y, mag);
    EXPECT_EQ(y[0], -1.5);
    EXPECT_EQ(mag[0], 1.5);

    // m × 1: every row times the one x.
    const float col[] = {1, -2, 0.25f};
    const float x2[] = {4};
    double y3[3], mag3[3];
    GemvReference(col, x2, 3, 1, y3, mag3);
    EXPECT_EQ(y3[0], 4.0);
    EXPECT_EQ(y3[1], -8.0);
    EXPECT_EQ(y3[2], 1.0);
    EXPECT_EQ(mag3[1], 8.0);

    // 1 × n: a dot product, computed in double (a float sum would lose the 1).
    const float big[] = {16777216.0f, 1.0f, -16777216.0f};
    const float ones[] = {1, 1, 1};
    GemvReference(big, ones, 1, 3, y, mag);
    EXPECT_EQ(y[0], 1.0);
}

TEST(GemvWorkload, RandomDataAndOnes) {
    const GemvWorkload w(Spec(3, 5, "random", 7));
    for (uint64_t i = 0; i < 15; ++i) {
        EXPECT_GE(w.a()[i], -1.0f);
        EXPECT_LT(w.a()[i], 1.0f);
    }
    bool x_differs = false;
    for (uint64_t j = 0; j < 5; ++j) x_differs = x_differs || w.x()[j] != w.a()[j];
    EXPECT_TRUE(x_differs) << "x has its own random stream";
    for (uint64_t i = 0; i < 3; ++i) {
        double s = 0;
        for (uint64_t j = 0; j < 5; ++j) s += double(w.a()[i * 5 + j]) * double(w.x()[j]);
        EXPECT_DOUBLE_EQ(w.y()[i], s);
    }
    const GemvWorkload same(Spec(3, 5, "random", 7)), other(Spec(3, 5, "random", 8));
    EXPECT_EQ(same.a()[4], w.a()[4]) << "the seed fixes the data";
    EXPECT_NE(other.a()[4], w.a()[4]);

    const GemvWorkload ones(Spec(4, 1001, "ones"));
    for (double y : ones.y()) EXPECT_EQ(y, 1001.0);
    EXPECT_EQ(ones.SizeBytes(), (4u * 1001u + 1001u) * sizeof(float));
}

TEST(GemvTolerance, ExactForOnesUpTo2To24AndScaledByN) {
    EXPECT_EQ(GemvTolerance(1001, 1001, true), 0.0);
    EXPECT_EQ(GemvTolerance(double(1 << 24), uint64_t(1) << 24, true), 0.0);
    const uint64_t past = (uint64_t(1) << 24) + 1;
    EXPECT_GT(GemvTolerance(double(past), past, true), 0.0);
    // 2^-23 x magnitude x (sqrt(n) + 16)
    EXPECT_DOUBLE_EQ(GemvTolerance(10.0, 100, false), std::ldexp(10.0, -23) * 26);
    EXPECT_DOUBLE_EQ(GemvTolerance(10.0, 10000, false), std::ldexp(10.0, -23) * 116);
    // Losing one product of a row of 8192 random values is caught: |a x| averages 1/4 and
    // the magnitude about n/4, where the tolerance is about a tenth of that.
    EXPECT_LT(GemvTolerance(8192 / 4.0, 8192, false), 0.25 / 8);
}

TEST(GemvCheck, RightAnswersPassAndWrongOnesFail) {
    const double ref[] = {1.0, -2.0, 3.0};
    const double mag[] = {4.0, 4.0, 4.0};
    const double tol = GemvTolerance(4.0, 10, false);
    const float good[] = {1.0f, -2.0f, 3.0f};
    GemvCheckResult r = CheckGemv(good, ref, mag, 3, 10, false);
    EXPECT_TRUE(r.ok);
    EXPECT_EQ(r.wrong_rows, 0u);
    EXPECT_EQ(r.max_error, 0.0);
    EXPECT_TRUE(r.message.empty());

    // An error just inside the tolerance passes; the same error past it fails.
    const float inside[] = {float(1.0 + tol / 2), -2.0f, 3.0f};
    EXPECT_TRUE(CheckGemv(inside, ref, mag, 3, 10, false).ok);
    const float off[] = {1.0f, -2.0f, 3.01f};
    r = CheckGemv(off, ref, mag, 3, 10, false);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.wrong_rows, 1u);
    EXPECT_EQ(r.first_wrong, 2u);
    EXPECT_NE(r.message.find("row 2"), std::string::npos) << r.message;
    EXPECT_GT(r.worst_ratio, 1.0);

    // Ones: exact, so an error of one in the last place fails.
    const double ref_ones[] = {5.0};
    const double mag_ones[] = {5.0};
    const float close[] = {std::nextafter(5.0f, 6.0f)};
    EXPECT_FALSE(CheckGemv(close, ref_ones, mag_ones, 1, 5, true).ok);
    const float exact[] = {5.0f};
    EXPECT_TRUE(CheckGemv(exact, ref_ones, mag_ones, 1, 5, true).ok);
}

TEST(GemvCheck, NanAndInfFail) {
    const double ref[] = {1.0, 2.0};
    const double mag[] = {1e30, 1e30};  // a tolerance so large that only NaN and inf can fail
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    for (float bad : {nan, inf, -inf}) {
        const float y[] = {1.0f, bad};
        const GemvCheckResult r = CheckGemv(y, ref, mag, 2, 100, false);
        EXPECT_FALSE(r.ok) << bad;
        EXPECT_EQ(r.first_wrong, 1u);
        EXPECT_TRUE(std::isinf(r.max_error)) << bad;
    }
    // The same through a step's Verify, with the values a result carries.
    const GemvWorkload w(Spec(2, 3, "ones"));
    FixedStep step(w, {3.0f, nan});
    const Check check = step.Verify();
    EXPECT_FALSE(check.ok);
    EXPECT_NE(check.message.find("1 of 2 rows wrong"), std::string::npos) << check.message;
    // Said with its form, so the student reads it in Chinese too.
    EXPECT_EQ(check.message_id, kGemvWrongRows.id);
    RegisterMessageForms({kGemvWrongRows});  // as the catalogue does for chapter 4
    const std::string zh =
        Render(Message{check.message_id, check.message_args, check.message}, "zh");
    EXPECT_NE(zh.find("2 行中有 1 行不对；第一行是第 1 行"), std::string::npos) << zh;
    FixedStep right(w, {3.0f, 3.0f});
    EXPECT_TRUE(right.Verify().ok);
}

TEST(GemvWork, BytesOfAOnceXAndYAndTwoFlopsPerElement) {
    const Work work = GemvWork(17, 33);
    EXPECT_EQ(work.bytes_read, (17u * 33u + 33u) * 4u);
    EXPECT_EQ(work.bytes_written, 17u * 4u);
    EXPECT_EQ(work.flops, 2u * 17u * 33u);
    EXPECT_EQ(work.bound, Bound::kRead);
}

// The page predicts from the chapter's work rule without running, and a run reports the same
// rule (Session::Run): GemvWork, for every lesson of the chapter.
TEST(GemvWork, ThePagesEstimateIsTheStepsWork) {
    const Work ran = GemvWork(17, 33);
    for (const Lesson* l : Catalog().LessonsOf(*Catalog().FindChapter("gemv"))) {
        const std::string& id = l->id;
        ParamValues p = ResolveParams(*l, {});
        p.Set("m", ParamValue::Number(17));
        p.Set("n", ParamValue::Number(33));
        const std::optional<Work> estimate = EstimateWork(*l, Catalog().ChapterOf(*l), p);
        ASSERT_TRUE(estimate) << id;
        EXPECT_EQ(estimate->bytes_read, ran.bytes_read) << id;
        EXPECT_EQ(estimate->bytes_written, ran.bytes_written) << id;
        EXPECT_EQ(estimate->flops, ran.flops) << id;
        EXPECT_EQ(estimate->bound, ran.bound) << id;
    }
    const Work huge = GemvWork(kMaxDimension, kMaxDimension);
    EXPECT_EQ(huge.bytes_read, (kMaxDimension * kMaxDimension + kMaxDimension) * 4);
    EXPECT_EQ(huge.flops, 2 * kMaxDimension * kMaxDimension);
    EXPECT_EQ(GemvWork(uint64_t(1) << 40, uint64_t(1) << 40).bytes_read, kSaturated);
}

TEST(GemvEstimates, SaturateInsteadOfWrapping) {
    EXPECT_EQ(GemvWorkloadHostBytes(3, 5), 3u * 5u * 4u + 5u * 4u + 3u * 16u);
    const uint64_t big = uint64_t(1) << 20;
    EXPECT_EQ(GemvWorkloadHostBytes(big, big), big * big * 4 + big * 20);
    EXPECT_EQ(GemvWorkloadHostBytes(kMaxDimension, kMaxDimension), kSaturated);
    EXPECT_EQ(GemvWorkloadHostBytes(uint64_t(1) << 40, uint64_t(1) << 40), kSaturated);
    ParamValues p;
    p.Set("m", ParamValue::Number(uint64_t(1) << 40));
    p.Set("n", ParamValue::Number(uint64_t(1) << 40));
    EXPECT_EQ(GemvGpuNeeds(p).device_bytes, kSaturated);
    p.Set("m", ParamValue::Number(2));
    p.Set("n", ParamValue::Number(3));
    EXPECT_EQ(GemvGpuNeeds(p).device_bytes, (6u + 5u) * 4u + (1u << 20));
}

TEST(GemvCatalog, LessonsParametersAndDescription) {
    const Registry& r = Catalog();
    const std::vector<const Lesson*> gemv = r.LessonsOf(*r.FindChapter("gemv"));
    ASSERT_GE(gemv.size(), 4u);
    for (const Lesson* l : gemv) {
        const std::string& id = l->id;
        EXPECT_EQ(l->chapter, "gemv");
        EXPECT_EQ(l->kind, StepKind::kGpu);
        for (const char* name : {"m", "n", "data"}) ASSERT_NE(l->FindParam(name), nullptr);
        EXPECT_EQ(l->FindParam("m")->Default().number, 8192u);
        EXPECT_EQ(l->FindParam("block") != nullptr, !l->library) << id;
        EXPECT_FALSE(l->text_en.empty());
        EXPECT_FALSE(l->text_zh.empty());
    }
    EXPECT_TRUE(r.FindLesson("gemv/cublas")->library);
    const ParamSpec& m = *r.FindLesson("gemv/thread-per-row")->FindParam("m");
    for (uint64_t ok : {1ull, 2ull, 3ull, 17ull, 4099ull, 2147483647ull})
        EXPECT_EQ(m.Reject(ParamValue::Number(ok)), "") << ok;
    for (uint64_t bad : {0ull, 2147483648ull}) {
        const std::string why = m.Reject(ParamValue::Number(bad));
        EXPECT_NE(why.find("m"), std::string::npos) << why;
    }
    EXPECT_THROW(m.Parse("0"), UsageError);
    ParamValues p;
    p.Set("m", ParamValue::Number(3));
    p.Set("n", ParamValue::Number(4099));
    p.Set("data", ParamValue::Choice("ones"));
    const std::string text = r.FindChapter("gemv")->describe(p);
    EXPECT_NE(text.find("m = 3"), std::string::npos) << text;
    EXPECT_NE(text.find("n = 4099"), std::string::npos) << text;
}
