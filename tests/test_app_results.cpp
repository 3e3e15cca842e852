// What the page shows of the results (model/results_view.h): the results table's columns, and
// the recorded results embedded for machines without a GPU.
#include <gtest/gtest.h>

#include <algorithm>

#include "catalog.h"
#include "model/compare.h"
#include "model/results_view.h"
#include "report.h"
#include "worker/controller.h"

using namespace lessons;
using namespace lessons::app;

TEST(AppTable, ColumnsComeFromTheFieldTableAndTheChaptersParameters) {
    const Chapter& split = *Catalog().FindChapter("split");
    const std::vector<ResultColumn> en = ResultColumns(Catalog(), split, "en");
    std::vector<std::string> headers;
    for (const ResultColumn& c : en) headers.push_back(c.header);
    std::vector<std::string> expected = {"lesson",       "Data size",       "Data",
                                         "Host threads", "Block size",      "Output of the offsets",
                                         "Load width",   "Test for \\r\\n", "Early exits",
                                         "GPUs"};
    for (const ResultField& f : ResultFields())
        if (f.header_en && std::string_view(f.name) != "lesson") expected.push_back(f.header_en);
    EXPECT_EQ(headers, expected);
    for (const char* h : {"median ms", "GB/s", "GFLOP/s", "% ceiling", "check"})
        EXPECT_NE(std::find(headers.begin(), headers.end(), h), headers.end()) << h;

    const std::vector<ResultColumn> zh = ResultColumns(Catalog(), split, "zh");
    ASSERT_EQ(zh.size(), en.size());
    EXPECT_EQ(zh[0].header, "课");
    EXPECT_EQ(zh[1].header, "数据规模");

    const Lesson& lesson = *Catalog().FindLesson("split/one-thread-per-pair");
    RunResult r;
    r.lesson = lesson.number;
    r.id = lesson.id;
    r.params.Set("block", ParamValue::Number(512));
    r.params.Set("size", ParamValue::Number(64u << 20));
    r.median_ms = 1.5;
    for (const ResultColumn& c : en) {
        const ResultField* f = FindResultField(c.key);
        // A parameter the result does not carry shows "-".
        const bool param = c.key.rfind("param:", 0) == 0;
        const std::string want = c.key == "lesson"        ? lesson.label  // never its number
                                 : c.key == "param:block" ? "512"
                                 : c.key == "param:size"  ? "64 MiB"
                                 : param                  ? "-"
                                                          : f->text(r);
        EXPECT_EQ(c.text(r), want) << c.key;
    }
}

TEST(AppRecorded, EmbeddedResultsAreGpuLessonsFromTheReferenceGpu) {
    std::string problems;
    const auto recorded = LoadRecordedResults(&problems);
    EXPECT_TRUE(problems.empty()) << problems;
    ASSERT_FALSE(recorded.empty());
    for (const RunResult& r : recorded) {
        EXPECT_EQ(r.kind, StepKind::kGpu);
        EXPECT_TRUE(r.recorded);
        EXPECT_TRUE(r.verified);
        EXPECT_FALSE(r.Device().empty());
        EXPECT_TRUE(r.Number("size") || (r.Number("m") && r.Number("n")) ||
                    (r.Number("b") && r.Number("h") && r.Number("n")))
            << r.id << ": recorded before parameters were named";
        EXPECT_NE(Catalog().FindLesson(r.id), nullptr)
            << r.id << ": the catalogue knows every id recorded, old ones too";
    }
}

namespace {

RunResult Timed(double median, double min, double max) {
    RunResult r;
    r.median_ms = median;
    r.min_ms = min;
    r.max_ms = max;
    return r;
}

}  // namespace

// Two results whose min-max spreads overlap cannot be told apart: "within noise".
TEST(AppCompare, WithinNoiseWhenTheSpreadsOverlap) {
    EXPECT_TRUE(WithinNoise(Timed(61.8, 22.6, 102), Timed(51.1, 40, 70)));
    EXPECT_TRUE(WithinNoise(Timed(10, 9, 11), Timed(12, 11, 13))) << "touching ends overlap";
    EXPECT_FALSE(WithinNoise(Timed(10, 9, 11), Timed(12, 11.5, 13)));
    EXPECT_FALSE(WithinNoise(Timed(50, 45, 60), Timed(20, 18, 24)));
    EXPECT_TRUE(WithinNoise(Timed(5, 0, 0), Timed(5, 0, 0))) << "no spread: the medians";
    EXPECT_FALSE(WithinNoise(Timed(5, 0, 0), Timed(6, 0, 0)));
}

// Results with their medians' confidence intervals are within noise only when the intervals
// overlap: min-max spreads that overlap (one slow outlier) no longer hide a clear speed-up, and
// more samples, which narrow the intervals, can settle a question.
TEST(AppCompare, WithinNoiseOnlyWhenTheMediansIntervalsOverlap) {
    auto with_interval = [](double median, double min, double max, double lo, double hi) {
        RunResult r = Timed(median, min, max);
        r.median_lo_ms = lo;
        r.median_hi_ms = hi;
        r.median_level = 0.96;
        return r;
    };
    // Spreads 40-90 and 45-100 overlap; the intervals 49-51 and 59-61 do not.
    EXPECT_FALSE(
        WithinNoise(with_interval(50, 40, 90, 49, 51), with_interval(60, 45, 100, 59, 61)));
    EXPECT_FALSE(
        CompareResults(with_interval(50, 40, 90, 49, 51), with_interval(60, 45, 100, 59, 61))
            .noise);
    EXPECT_TRUE(WithinNoise(with_interval(50, 40, 90, 45, 56), with_interval(60, 45, 100, 55, 65)));
    EXPECT_TRUE(WithinNoise(with_interval(50, 40, 90, 45, 55), with_interval(60, 45, 100, 55, 65)))
        << "touching ends overlap";
    // Many samples of two distributions a little apart: few samples cannot tell them apart, many
    // can (the min-max spreads overlap at every count).
    auto sampled = [](double centre, int n) {
        RunResult r;
        for (int i = 0; i < n; ++i)  // evenly spread over centre +- 10%
            r.samples_ms.push_back(centre * (0.9 + 0.2 * (i + 0.5) / n));
        r.median_ms = Median(r.samples_ms);
        r.min_ms = *std::min_element(r.samples_ms.begin(), r.samples_ms.end());
        r.max_ms = *std::max_element(r.samples_ms.begin(), r.samples_ms.end());
        SetMedianInterval(r);
        return r;
    };
    EXPECT_TRUE(WithinNoise(sampled(100, 6), sampled(104, 6)));
    EXPECT_FALSE(WithinNoise(sampled(100, 400), sampled(104, 400)));
}

// A comparison of a live result with a recorded one names where the recorded one was made.
TEST(AppCompare, LiveAgainstRecordedIsNamed) {
    RunResult live = Timed(500, 480, 520), recorded = Timed(3, 2.9, 3.1);
    live.kind = StepKind::kCpu;
    live.devices = {"Intel Xeon"};
    recorded.kind = StepKind::kGpu;
    recorded.recorded = true;
    recorded.devices = {"NVIDIA H100 80GB HBM3"};
    const Speedup s = CompareResults(recorded, live);
    EXPECT_TRUE(s.mixed);
    EXPECT_FALSE(s.noise);
    EXPECT_NEAR(s.ratio, 500.0 / 3, 1e-9);
    EXPECT_EQ(s.recorded_on, "H100");
    recorded.devices = {"NVIDIA H200", "NVIDIA H200"};
    EXPECT_EQ(ShortDevice(recorded), "2x H200");
    live.recorded = true;
    EXPECT_FALSE(CompareResults(recorded, live).mixed) << "both recorded";
}

// The summary names each row's ceiling and the time its rate is taken over.
TEST(AppCompare, CeilingAndTimeBaseAreNamed) {
    RunResult r = Timed(19.9, 19, 21);
    r.work.bound = Bound::kRead;
    r.pct_of_ceiling = 99;
    EXPECT_EQ(CeilingShortName("en", r), "read bandwidth");
    EXPECT_EQ(CeilingShortName("zh", r), "读带宽");
    r.work.bound = Bound::kBf16;
    EXPECT_EQ(CeilingShortName("en", r), "cuBLAS's bf16 rate");
    r.ceiling_note = "no bf16 ceiling: compared with the fp32 peak";
    EXPECT_EQ(CeilingShortName("en", r), "the fp32 peak") << "the ceiling it was compared with";
    r.pct_of_ceiling.reset();
    EXPECT_EQ(CeilingShortName("en", r), "") << "no share, no ceiling";
    // 1 GiB: copies and kernel make the 19.9 ms; the rate is over the kernel's 0.34 ms.
    r.parts = {{"h2d", 19.2}, {"kernel", 0.34}, {"d2h", 0.36}};
    r.rate_ms = 0.34;
    EXPECT_TRUE(RateIsKernelOnly(r));
    r.rate_ms = r.median_ms;
    EXPECT_FALSE(RateIsKernelOnly(r)) << "the rate is over the whole run";
    r.parts.clear();
    r.rate_ms = 0.34;
    EXPECT_FALSE(RateIsKernelOnly(r)) << "no kernel part reported";
}
