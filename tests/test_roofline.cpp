// The roofline's math and points (app/roofline.h), without a window.
#include <gtest/gtest.h>

#include "catalog.h"
#include "roofline.h"
#include "ui.h"

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

// The page and the inset drawn in an ImGui context without a window, from recorded results
// (no worker: one that cannot start).
namespace {

class NoWorker : public WorkerLink {
public:
    bool Start(std::string* error) override {
        *error = "no worker in this test";
        return false;
    }
    bool Running() const override { return false; }
    bool Send(const Json&) override { return false; }
    std::vector<Json> Drain() override { return {}; }
};

RunResult Recorded(int number, uint64_t flops, Bound bound, double ceiling) {
    const Lesson& l = *Catalog().FindLesson(number);
    RunResult r;
    r.lesson = number;
    r.id = l.id;
    r.title = l.title;
    r.chapter = l.chapter;
    r.kind = StepKind::kGpu;
    r.verified = true;
    r.recorded = true;
    r.params.Set("size", ParamValue::Number(uint64_t(1) << 30));
    r.work.bytes_read = uint64_t(1) << 30;
    r.work.flops = flops;
    r.work.bound = bound;
    r.median_ms = r.rate_ms = 0.5;
    r.ceiling = ceiling;
    r.devices = {"NVIDIA H100 80GB HBM3"};
    r.timestamp = "2026-11-22T06:00:00Z";
    return r;
}

}  // namespace

TEST(RooflinePage, DrawsEveryPointOnThePageAndTwoInTheInset) {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1500, 940);
    io.DeltaTime = 1.0f / 60;
    UiState ui;
    ui.settings.scale = 1;
    ui.fonts = BuildFonts(1.0f, UiTexts(Catalog()));
    unsigned char* pixels;
    int w, h;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    ui.fonts_dirty = false;
    const uint64_t n = uint64_t(1) << 28;  // floats in 1 GiB
    Controller c(Catalog(), [] { return std::make_unique<NoWorker>(); },
                 {Recorded(23, n, Bound::kRead, 3100), Recorded(24, n, Bound::kRead, 3100),
                  Recorded(25, n, Bound::kRead, 3100), Recorded(43, n * 129, Bound::kFp32, 51000),
                  Recorded(4, 0, Bound::kCopy, 3000)});
    c.Start();
    auto frame = [&] {
        c.Update();
        ImGui::NewFrame();
        DrawUi(ui, c, Catalog());
        ImGui::Render();
    };
    SelectLesson(ui, Catalog(), 43);
    frame();
    frame();
    EXPECT_EQ(ui.machine.roof_points, 4) << "lessons 23, 24, 25 and 43; lesson 4 has no flops";
    for (const char* r : {"roofline_chart", "measure_ceilings", "bench_chapter", "run_benchmark"})
        EXPECT_TRUE(ui.rects.count(r)) << r;
    SelectLesson(ui, Catalog(), 25);
    frame();
    frame();
    EXPECT_TRUE(ui.rects.count("roofline_inset"));
    EXPECT_EQ(ui.machine.roof_points, 2) << "lesson 25 and its previous lesson, 24";
    SelectLesson(ui, Catalog(), 4);
    frame();
    frame();
    EXPECT_FALSE(ui.rects.count("roofline_inset")) << "no flops: no inset chart";
    EXPECT_TRUE(ui.rects.count("roofline_section"));
    ImGui::DestroyContext();
}
