// The roofline's math and points (app/roofline.h), without a window.
#include <gtest/gtest.h>

#include "roofline.h"

using namespace lessons;
using namespace lessons::app;

TEST(Roofline, AttainableIsTheLowerOfPeakAndSlope) {
    EXPECT_DOUBLE_EQ(Attainable(60000, 3000, 0.25), 750);   // lesson 25: memory-bound
    EXPECT_DOUBLE_EQ(Attainable(60000, 3000, 100), 60000);  // compute-bound
    EXPECT_DOUBLE_EQ(Attainable(60000, 3000, 20), 60000);   // exactly at the ridge
    EXPECT_DOUBLE_EQ(Attainable(60000, 3000, 19.999), 3000 * 19.999);
    EXPECT_DOUBLE_EQ(Attainable(0, 3000, 2), 6000) << "no peak known: the slope";
    EXPECT_DOUBLE_EQ(Attainable(60000, 0, 2), 60000) << "no bandwidth known: the peak";
    EXPECT_DOUBLE_EQ(Ridge(60000, 3000), 20);
    EXPECT_DOUBLE_EQ(Ridge(0, 3000), 0);
    EXPECT_DOUBLE_EQ(Ridge(60000, 0), 0);
    // At the ridge both sides agree; left of it the slope, right of it the peak.
    const double ridge = Ridge(51000, 3350);
    EXPECT_NEAR(Attainable(51000, 3350, ridge), 51000, 1e-9);
    EXPECT_LT(Attainable(51000, 3350, ridge * 0.99), 51000);
}

TEST(Roofline, RoofFromTheWorkersInfo) {
    const Json devices = Json::parse(R"([{"name":"NVIDIA H100 80GB HBM3","ceilings":{
        "read_gbps":3150.5,"copy_gbps":3001,"fp32_gflops":51200,"h2d_gbps":54}}])");
    const Roof roof = RoofFromInfo(devices);
    EXPECT_EQ(roof.device, "NVIDIA H100 80GB HBM3");
    EXPECT_DOUBLE_EQ(roof.read_gbps, 3150.5);
    EXPECT_DOUBLE_EQ(roof.copy_gbps, 3001);
    EXPECT_DOUBLE_EQ(roof.fp32_gflops, 51200);
    EXPECT_DOUBLE_EQ(roof.Bandwidth(), 3150.5);
    EXPECT_FALSE(roof.recorded);
    EXPECT_FALSE(RoofFromInfo(Json::array()).Any());
    EXPECT_FALSE(
        RoofFromInfo(Json::parse(R"([{"name":"x","ceilings":{"read_gbps":null}}])")).Any());
}

namespace {

StoredResult Result(int lesson, const std::string& chapter, uint64_t bytes, uint64_t flops,
                    Bound bound, double ms, bool recorded, int sequence, uint64_t block = 256) {
    StoredResult s;
    RunResult& r = s.result;
    r.lesson = lesson;
    r.id = chapter + "/" + std::to_string(lesson);
    r.chapter = chapter;
    r.kind = StepKind::kGpu;
    r.verified = true;
    r.recorded = recorded;
    r.params.Set("block", ParamValue::Number(block));
    r.work.bytes_read = bytes;
    r.work.flops = flops;
    r.work.bound = bound;
    r.rate_ms = ms;
    r.median_ms = ms;
    r.devices = {"GPU"};
    s.sequence = sequence;
    s.origin = recorded ? Origin::kRecorded : Origin::kRun;
    return s;
}

}  // namespace

TEST(Roofline, PointsAtTheirIntensityWithTheirShareOfTheRoof) {
    Roof roof;
    roof.read_gbps = 3000;
    roof.copy_gbps = 2500;
    roof.fp32_gflops = 60000;
    std::vector<StoredResult> results = {
        // 1 GB read, 0.25 G flops in 1 ms: 1000 GB/s, 250 GFLOP/s; roof 0.25 x 3000 = 750.
        Result(25, "reduce", 1000000000, 250000000, Bound::kRead, 1.0, false, 1),
        // Copy-bound: its roof is the copy slope.
        Result(43, "roofline", 1000000000, 625000000, Bound::kCopy, 0.5, false, 2),
        // No arithmetic: not a point.
        Result(4, "split", 1000000000, 0, Bound::kCopy, 1.0, true, 3),
        // An older run of lesson 25 at the same parameters: replaced by the newer one.
        Result(25, "reduce", 1000000000, 250000000, Bound::kRead, 2.0, false, 0),
    };
    StoredResult wrong = Result(24, "reduce", 1000, 250, Bound::kRead, 1.0, false, 4);
    wrong.result.verified = false;
    results.push_back(wrong);
    StoredResult cpu = Result(19, "reduce", 1000, 250, Bound::kNone, 1.0, false, 5);
    cpu.result.kind = StepKind::kCpu;
    results.push_back(cpu);

    int none = 0;
    std::string chapters;
    const auto points = RooflinePoints(results, roof, &none, &chapters);
    ASSERT_EQ(points.size(), 2u);
    EXPECT_EQ(none, 1);
    EXPECT_EQ(chapters, "split");
    const RooflinePoint& p25 = points[0];
    EXPECT_EQ(p25.lesson, 25);
    EXPECT_DOUBLE_EQ(p25.intensity, 0.25);
    EXPECT_NEAR(p25.gflops, 250, 1e-9);
    EXPECT_NEAR(p25.gbps, 1000, 1e-9);
    EXPECT_NEAR(p25.roof_gflops, 750, 1e-9);
    EXPECT_NEAR(p25.pct_of_roof, 100.0 / 3, 1e-9);
    const RooflinePoint& p43 = points[1];
    EXPECT_DOUBLE_EQ(p43.intensity, 0.625);
    EXPECT_NEAR(p43.gflops, 1250, 1e-9);
    EXPECT_NEAR(p43.roof_gflops, 0.625 * 2500, 1e-9) << "a copy-bound step under the copy slope";
    EXPECT_NEAR(p43.pct_of_roof, 80, 1e-9);

    // Another block size is another point.
    results.push_back(
        Result(25, "reduce", 1000000000, 250000000, Bound::kRead, 1.0, false, 6, 512));
    EXPECT_EQ(RooflinePoints(results, roof).size(), 3u);
}

TEST(Roofline, RecordedRoofFromTheCeilingsResultsCarry) {
    std::vector<StoredResult> results = {
        Result(25, "reduce", 1000, 250, Bound::kRead, 1.0, true, 1),
        Result(4, "split", 1000, 0, Bound::kCopy, 1.0, true, 2),
        Result(43, "roofline", 1000, 16125, Bound::kFp32, 1.0, true, 3),
        Result(24, "reduce", 1000, 250, Bound::kRead, 1.0, false, 4),  // live: not recorded
    };
    results[0].result.ceiling = 3100;
    results[1].result.ceiling = 2990;
    results[2].result.ceiling = 51000;
    results[3].result.ceiling = 9999;
    const Roof roof = RoofFromResults(results);
    EXPECT_TRUE(roof.recorded);
    EXPECT_DOUBLE_EQ(roof.read_gbps, 3100);
    EXPECT_DOUBLE_EQ(roof.copy_gbps, 2990);
    EXPECT_DOUBLE_EQ(roof.fp32_gflops, 51000);
    EXPECT_EQ(roof.device, "GPU");
}
