// The roofline's math and points (app/roofline.h), without a window.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "catalog.h"
#include "charts/roofline.h"
#include "panels/ui.h"
#include "probe.h"

using namespace lessons;
using namespace lessons::app;

namespace {

// The device facts of an info reply whose device list is `devices`.
DeviceFacts Info(const Json& devices) {
    return DeviceFactsFromInfo(Json{{"type", "info"}, {"devices", devices}});
}

}  // namespace

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
    const Roof roof = RoofFromInfo(Info(devices));
    EXPECT_EQ(roof.device, "NVIDIA H100 80GB HBM3");
    EXPECT_DOUBLE_EQ(roof.read_gbps, 3150.5);
    EXPECT_DOUBLE_EQ(roof.copy_gbps, 3001);
    EXPECT_DOUBLE_EQ(roof.fp32_gflops, 51200);
    EXPECT_DOUBLE_EQ(roof.Bandwidth(), 3150.5);
    EXPECT_FALSE(roof.recorded);
    EXPECT_FALSE(RoofFromInfo(Info(Json::array())).Any());
    EXPECT_FALSE(
        RoofFromInfo(Info(Json::parse(R"([{"name":"x","ceilings":{"read_gbps":null}}])"))).Any());
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
    // A run on two GPUs carries their summed read bandwidth; another GPU's run its own roof.
    results.push_back(Result(27, "reduce", 1000, 250, Bound::kRead, 1.0, true, 5));
    results.back().result.devices = {"GPU", "GPU"};
    results.back().result.ceiling = 6200;
    results.push_back(Result(26, "reduce", 1000, 250, Bound::kRead, 1.0, true, 6));
    results.back().result.devices = {"Other GPU"};
    results.back().result.ceiling = 4800;
    const Roof roof = RoofFromResults(results);
    EXPECT_TRUE(roof.recorded);
    EXPECT_DOUBLE_EQ(roof.read_gbps, 3100);
    EXPECT_DOUBLE_EQ(roof.copy_gbps, 2990);
    EXPECT_DOUBLE_EQ(roof.fp32_gflops, 51000);
    EXPECT_EQ(roof.device, "GPU");
}

// The TF32 roof: from the worker's info once measured, from the TF32 ceiling recorded results
// carry, else from the fastest recorded TF32 run; a tensor-core point sits under it.
TEST(Roofline, Tf32RoofAndTheTensorCorePointsUnderIt) {
    const Json devices = Json::parse(R"([{"name":"H100","ceilings":{
        "read_gbps":3000,"copy_gbps":2800,"fp32_gflops":60000,"tf32_gflops":400000}}])");
    EXPECT_DOUBLE_EQ(RoofFromInfo(Info(devices)).tf32_gflops, 400000);

    // 4096^3 in 0.4 ms: 343.6 TFLOP/s at intensity 682.7.
    const uint64_t flops = 137438953472, bytes = 201326592;
    std::vector<StoredResult> results = {
        Result(42, "gemm", bytes, flops, Bound::kTf32, 0.4, true, 1),
        Result(41, "gemm", bytes, flops, Bound::kTf32, 2.0, true, 2),
        Result(40, "gemm", bytes, flops, Bound::kFp32, 2.7, true, 3),
    };
    results[2].result.ceiling = 60000;
    // Recorded before results carried it: the fastest TF32 run stands for it, labelled so.
    results[0].result.gflops = double(flops) / 0.4e-3 * 1e-9;
    results[1].result.gflops = double(flops) / 2.0e-3 * 1e-9;
    Roof roof = RoofFromResults(results);
    EXPECT_NEAR(roof.tf32_gflops, double(flops) / 0.4e-3 * 1e-9, 1e-6);
    EXPECT_TRUE(roof.tf32_from_rates);
    EXPECT_DOUBLE_EQ(roof.fp32_gflops, 60000);
    // A recorded TF32 ceiling wins over the rates; an fp32 fallback (with its note) is not one.
    results[1].result.ceiling = 60000;
    results[1].result.ceiling_note = "no TF32 ceiling (...): compared with the fp32 FMA peak";
    roof = RoofFromResults(results);
    EXPECT_TRUE(roof.tf32_from_rates);
    results[0].result.ceiling = 420000;
    roof = RoofFromResults(results);
    EXPECT_DOUBLE_EQ(roof.tf32_gflops, 420000);
    EXPECT_FALSE(roof.tf32_from_rates);

    // Points: TF32 steps under the TF32 roof, fp32 ones under fp32.
    roof.read_gbps = 3000;
    roof.copy_gbps = 2800;
    const auto points = RooflinePoints(results, roof);
    ASSERT_EQ(points.size(), 3u);
    for (const RooflinePoint& p : points) {
        const double peak = p.lesson == 40 ? 60000 : 420000;
        EXPECT_NEAR(p.roof_gflops, std::min(peak, p.intensity * 2800), 1e-6) << p.lesson;
        EXPECT_LE(p.gflops, p.roof_gflops) << p.lesson << " sits under its roof";
        EXPECT_NEAR(p.pct_of_roof, 100 * p.gflops / p.roof_gflops, 1e-9);
    }
    EXPECT_DOUBLE_EQ(PeakFor(roof, Bound::kTf32), 420000);
    EXPECT_DOUBLE_EQ(PeakFor(roof, Bound::kFp32), 60000);
    Roof no_tf32 = roof;
    no_tf32.tf32_gflops = 0;
    EXPECT_DOUBLE_EQ(PeakFor(no_tf32, Bound::kTf32), 60000) << "unknown: the fp32 roof";

    // A live GPU whose info has no TF32 figure yet takes the one this session's runs carry.
    const Json untested = Json::parse(R"([{"name":"H100","ceilings":{
        "read_gbps":3000,"copy_gbps":2800,"fp32_gflops":60000,"tf32_gflops":null}}])");
    std::vector<StoredResult> live = {
        Result(42, "gemm", bytes, flops, Bound::kTf32, 0.4, false, 4)};
    EXPECT_DOUBLE_EQ(CurrentRoof(Info(untested), live).tf32_gflops, 0);
    live[0].result.ceiling = 410000;
    EXPECT_DOUBLE_EQ(CurrentRoof(Info(untested), live).tf32_gflops, 410000);
    EXPECT_FALSE(CurrentRoof(Info(untested), live).recorded);
    EXPECT_DOUBLE_EQ(CurrentRoof(Info(devices), live).tf32_gflops, 400000)
        << "the info's own first";
    EXPECT_TRUE(CurrentRoof(Info(Json::array()), results).recorded);
}

namespace {

// A worker that cannot start: the controller keeps to recorded results.
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

}  // namespace

// The recorded H100 results (assets/reference): the tensor-core steps, recorded before the TF32
// ceiling, adopt their bound in the controller; the roof's TF32 figure is above the fp32 peak
// and every TF32 point sits under it.
TEST(Roofline, RecordedReferenceResultsGiveATf32RoofAboveFp32) {
    Controller c(
        Catalog(), [] { return std::make_unique<NoWorker>(); }, LoadRecordedResults(nullptr));
    const Roof roof = CurrentRoof(Info(Json::array()), c.results());
    const int wmma = Catalog().FindLesson("gemm/wmma-tf32")->number;
    const int cublas = Catalog().FindLesson("gemm/cublas-tf32")->number;
    ASSERT_GT(roof.fp32_gflops, 0);
    ASSERT_GT(roof.tf32_gflops, 2 * roof.fp32_gflops);
    int tf32_points = 0;
    for (const RooflinePoint& p : RooflinePoints(c.results(), roof)) {
        if (p.lesson != wmma && p.lesson != cublas) continue;
        ++tf32_points;
        EXPECT_LE(p.gflops, p.roof_gflops * 1.0000001) << p.lesson << " " << p.intensity;
    }
    EXPECT_GT(tf32_points, 0);
    for (const StoredResult& s : c.results())
        if (s.result.lesson == wmma || s.result.lesson == cublas) {
            EXPECT_EQ(s.result.work.bound, Bound::kTf32) << s.result.lesson;
            // A percentage only of the TF32 ceiling the run measured, never of fp32's.
            if (s.result.pct_of_ceiling) {
                ASSERT_TRUE(s.result.ceiling);
                EXPECT_GT(*s.result.ceiling, 2 * roof.fp32_gflops) << s.result.lesson;
                EXPECT_LE(*s.result.pct_of_ceiling, 100.0) << s.result.lesson;
            }
        }
}

// The page and the inset drawn in an ImGui context without a window, from recorded results
// (no worker: one that cannot start).
namespace {

RunResult Recorded(const char* id, uint64_t flops, Bound bound, double ceiling) {
    const Lesson& l = *Catalog().FindLesson(id);
    RunResult r;
    r.lesson = l.number;
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
    Probe probe;
    ui.probe = &probe;
    ui.settings.scale = 1;
    ui.fonts = BuildFonts(1.0f, UiTexts(Catalog()));
    unsigned char* pixels;
    int w, h;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    ui.fonts_dirty = false;
    const uint64_t n = uint64_t(1) << 28;  // floats in 1 GiB
    Controller c(Catalog(), [] { return std::make_unique<NoWorker>(); },
                 {Recorded("reduce/v3-unrolled-last-warp", n, Bound::kRead, 3100),
                  Recorded("reduce/v4-warp-shuffle", n, Bound::kRead, 3100),
                  Recorded("reduce/v5-vectorized-one-pass", n, Bound::kRead, 3100),
                  Recorded("roofline/roofline", n * 129, Bound::kFp32, 51000),
                  Recorded("split/one-thread-per-pair", 0, Bound::kCopy, 3000)});
    c.Start();
    auto frame = [&] {
        c.Update();
        ImGui::NewFrame();
        DrawUi(ui, c, Catalog());
        ImGui::Render();
    };
    SelectLesson(ui, Catalog(), "roofline/roofline");
    frame();
    frame();
    EXPECT_EQ(probe.roof_points, 4) << "reduce v3, v4, v5 and the roofline's own; 1.4 has no flops";
    for (const char* r : {"roofline_chart", "measure_ceilings", "bench_chapter", "run_benchmark"})
        EXPECT_TRUE(probe.rects.count(r)) << r;
    SelectLesson(ui, Catalog(), "reduce/v5-vectorized-one-pass");
    frame();
    frame();
    EXPECT_TRUE(probe.rects.count("roofline_inset"));
    EXPECT_EQ(probe.roof_points, 2) << "the lesson and its previous one";
    SelectLesson(ui, Catalog(), "split/one-thread-per-pair");
    frame();
    frame();
    EXPECT_FALSE(probe.rects.count("roofline_inset")) << "no flops: no inset chart";
    EXPECT_TRUE(probe.rects.count("roofline_section"));
    ImGui::DestroyContext();
}

// One colour per chapter: the first eight from the Okabe-Ito palette, later ones generated.
// No chapter takes an earlier one's colour (chapters 9 and 10 are coming), and the first
// twelve stay far enough apart to be told from each other on the chart.
TEST(Roofline, EachChapterHasItsOwnColour) {
    std::set<ImU32> colours;
    for (int chapter = 1; chapter <= 32; ++chapter) colours.insert(ChapterColor(chapter));
    EXPECT_EQ(colours.size(), 32u);
    EXPECT_EQ(ChapterColor(1), IM_COL32(230, 159, 0, 255)) << "Okabe-Ito orange";
    EXPECT_EQ(ChapterColor(2), IM_COL32(86, 180, 233, 255)) << "Okabe-Ito sky blue";
    EXPECT_EQ(ChapterColor(8), IM_COL32(190, 190, 190, 255)) << "grey in place of black";
    auto channel = [](ImU32 c, int shift) { return static_cast<double>((c >> shift) & 0xff); };
    for (int a = 1; a <= 12; ++a)
        for (int b = a + 1; b <= 12; ++b) {
            const ImU32 x = ChapterColor(a), y = ChapterColor(b);
            double d2 = 0;
            for (int shift : {IM_COL32_R_SHIFT, IM_COL32_G_SHIFT, IM_COL32_B_SHIFT})
                d2 += (channel(x, shift) - channel(y, shift)) *
                      (channel(x, shift) - channel(y, shift));
            EXPECT_GT(std::sqrt(d2), 60.0) << "chapters " << a << " and " << b;
            EXPECT_EQ((x >> IM_COL32_A_SHIFT) & 0xff, 0xffu);
        }
    EXPECT_EQ(ChapterColor(0) >> IM_COL32_A_SHIFT, 0xffu) << "a colour even for no chapter";
    EXPECT_EQ(ChapterColor(-3) >> IM_COL32_A_SHIFT, 0xffu);
}

// A label goes to the first place that covers nothing and stays inside; where every place
// covers something, to the inside one that covers least.
TEST(Roofline, LabelsArePlacedClearOfThePoints) {
    const ImVec4 bounds(0, 0, 100, 100);
    const std::vector<ImVec4> points = {ImVec4(10, 10, 20, 20), ImVec4(50, 50, 60, 60)};
    bool clear = false;
    ImVec2 at = PlaceLabel({ImVec2(5, 5), ImVec2(95, 5), ImVec2(30, 30)}, ImVec2(10, 8), points,
                           bounds, &clear);
    EXPECT_EQ(at.x, 30) << "(5, 5) covers a point, (95, 5) leaves the plot";
    EXPECT_TRUE(clear);
    at = PlaceLabel({ImVec2(12, 12), ImVec2(48, 48), ImVec2(95, 95)}, ImVec2(10, 5), points, bounds,
                    &clear);
    EXPECT_FALSE(clear);
    EXPECT_EQ(at.x, 48) << "the inside place covering the least (8 x 3 px)";
    at = PlaceLabel({}, ImVec2(10, 5), points, bounds, &clear);
    EXPECT_FALSE(clear);
}
