// The lesson page's charts (panels/charts_panel.cpp): the step comparison's bars, whiskers and
// speed-up label, wrong and recorded results, toggles, and the block-size sweep's axis.
#include <gtest/gtest.h>

#include "app_fixture.h"
#include "model/prediction.h"
#include "model/results_view.h"
#include "model/sweeps.h"

using namespace app_test;

namespace {

// The lesson's block-size (`blocks`) or size sweep drawn alone in a frame.
void DrawSweepAlone(UiState& ui, Controller& controller, const Registry& registry,
                    const Lesson& lesson, bool blocks) {
    ImGui::NewFrame();
    ImGui::Begin("sweeps");
    DrawSweeps(ui, controller, registry, lesson, blocks);
    ImGui::End();
    ImGui::Render();
}

}  // namespace

// The speed-up label covers no bar or whisker and stays inside the chart's visible width, in
// a wide window and a narrow one, at presenter scales, in both languages.
TEST_F(AppLogic, SpeedupLabelCoversNoBarAndIsNotClipped) {
    Open("split/openmp");
    Click("run");
    auto intersects = [](const ImVec4& a, const ImVec4& b) {
        return a.x < b.z && a.z > b.x && a.y < b.w && a.w > b.y;
    };
    for (const ImVec2 display : {ImVec2(1500, 940), ImVec2(640, 480), ImVec2(1920, 1080)}) {
        for (const float scale : {1.0f, 2.0f}) {
            ImGui::GetIO().DisplaySize = display;
            ImGui::GetIO().FontGlobalScale = scale;
            Frames(3);
            const chart::BarLayout& l = probe.step_layout;
            ASSERT_EQ(l.annotations.size(), 1u) << display.x << " at " << scale;
            const ImVec4& a = l.annotations[0];
            EXPECT_GE(a.x, l.chart.x) << display.x << " at " << scale;
            EXPECT_LE(a.z, l.chart.z) << display.x << " at " << scale;
            EXPECT_GE(a.y, l.chart.y);
            for (const ImVec4& b : l.bars)
                EXPECT_FALSE(intersects(a, b))
                    << display.x << " at " << scale << ": label " << a.x << "," << a.y << "-" << a.z
                    << "," << a.w << " bar " << b.x << "," << b.y << "-" << b.z << "," << b.w;
        }
    }
    ImGui::GetIO().FontGlobalScale = 1;
}

TEST_F(AppLogic, WrongResultIsNeverPlottedAsValid) {
    worker->wrong_lesson = "split/openmp";
    Open("split/openmp");
    Click("run");
    Frames(2);
    ASSERT_GE(probe.step_bars.size(), 3u);
    EXPECT_TRUE(probe.step_bars[2].invalid);
    EXPECT_TRUE(probe.step_bars[2].annotation.empty()) << "no speedup from a wrong result";
}

TEST_F(AppLogic, RecordedResultsAreComparedOnlyAtTheirOwnSize) {
    ImGui::GetIO().DisplaySize = ImVec2(1500, 2400);  // the prediction and roofline come first
    Open("reduce/v5-vectorized-one-pass");  // opens at its recorded size; then moved to 64 MiB
    ui.run.params["size"] = ParamValue::Number(64u << 20);
    Frames(2);
    ASSERT_GE(probe.step_bars.size(), 8u);
    const std::string cpu = Named("reduce/cpu-sum").label;
    for (const chart::Bar& b : probe.step_bars) {  // 64 MiB: nothing recorded at this size
        EXPECT_EQ(b.value, 0.0) << b.label;
        if (b.label != cpu) {
            EXPECT_NE(b.tooltip.find("recorded at 1 GiB"), std::string::npos) << b.tooltip;
        }
    }
    Click("compare_recorded");
    EXPECT_EQ(ui.run.params["size"], ParamValue::Number(1u << 30));
    for (const chart::Bar& b : probe.step_bars) {
        if (b.label == cpu) continue;  // the CPU lesson has not run at 1 GiB
        EXPECT_GT(b.value, 0.0) << b.label;
        EXPECT_TRUE(b.hatched) << b.label;
        EXPECT_NE(b.tooltip.find("not live"), std::string::npos) << b.label;
    }
}

TEST_F(AppLogic, BlockSweepAxesTickAtTheBlockSizesThatWereRun) {
    RestartWithGpu(2);
    Open("reduce/v0-interleaved-global");
    Key(kKeyS);
    Frames(2);
    DrawSweepAlone(ui, *controller, registry, Named("reduce/v0-interleaved-global"), true);
    EXPECT_EQ(probe.block_ticks, (std::vector<double>{32, 64, 128, 256, 512, 1024}))
        << "not 50, 100, 200, 500";
}

TEST_F(AppLogic, AToggledRunIsDrawnOnlyWhenThePageHasTheSameToggle) {
    RestartWithGpu(3);
    Open("reduce/v5-vectorized-one-pass");
    ui.run.params["loads"] = ParamValue::Choice("scalar");
    Frames(1);
    sent.clear();
    Click("run");  // the vectorized step with scalar loads, and the warp-shuffle step before it
    ASSERT_EQ(Runs().size(), 2u);
    for (const Json& run : Runs())
        if (run["lesson"] == "reduce/v5-vectorized-one-pass") {
            EXPECT_EQ(run["params"]["loads"], "scalar");
        }
    // A lesson's bar, found by its label.
    auto bar = [&](const char* id) {
        for (const chart::Bar& b : probe.step_bars)
            if (b.label == Named(id).label) return b;
        return chart::Bar{};
    };
    const char* v5 = "reduce/v5-vectorized-one-pass";
    EXPECT_GT(bar(v5).value, 0) << "the scalar run, at the page's toggle";
    EXPECT_NE(bar(v5).tooltip.find("loads scalar"), std::string::npos) << bar(v5).tooltip;
    // Back to the lesson as written: the scalar run is not its bar.
    ui.run.params["loads"] = ParamValue::Choice("float4");
    Frames(2);
    EXPECT_EQ(bar(v5).value, 0) << bar(v5).tooltip;
    EXPECT_NE(bar(v5).tooltip.find("not measured at block 512, loads float4"), std::string::npos)
        << bar(v5).tooltip;
    EXPECT_GT(bar("reduce/v4-warp-shuffle").value, 0)
        << "the warp-shuffle step has no such toggle: its run still matches";
    // The block size counts too: a run at another block size is not this page's bar.
    ui.run.params["loads"] = ParamValue::Choice("scalar");
    ui.run.params["block"] = ParamValue::Number(128);
    Frames(2);
    EXPECT_EQ(bar(v5).value, 0);
    ui.run.params["block"] = ParamValue::Number(512);
    Frames(2);
    EXPECT_GT(bar(v5).value, 0);
}

// A sweep's "best" is said to be within noise where its interval meets another point's (review
// row 2: a thread sweep marked 4 threads best on 2 cores among points within each other's
// noise); apart where the intervals are apart, and not judged without intervals. `spread`: each
// median's interval, median / (1 + spread) to median * (1 + spread); 0: none.
class SizeSweep : public AppLogic {
protected:
    std::vector<bool> BestWithinNoise(double spread);
    // Chapter 1's OpenMP step swept over sizes (by the fake worker's `shape`), and its size
    // sweep drawn alone.
    void SweepAndDraw() {
        Open("split/openmp");
        Click("sweep_sizes");
        Frames(2);
        DrawSweepAlone(ui, *controller, registry, Named("split/openmp"), false);
    }
};

std::vector<bool> SizeSweep::BestWithinNoise(double spread) {
    const uint64_t peak = uint64_t(1) << 20;
    worker->shape = [=](RunResult& r) {
        const uint64_t size = r.Number("size").value_or(0);
        r.median_ms = 0.001 * double(size >> 10);
        r.min_ms = r.median_ms * 0.9;
        r.max_ms = r.median_ms * 1.1;
        r.gbps = size == peak ? 3.1 : 0.5;
        r.median_level = spread > 0 ? 0.95 : 0;
        r.median_lo_ms = spread > 0 ? r.median_ms / (1 + spread) : 0;
        r.median_hi_ms = spread > 0 ? r.median_ms * (1 + spread) : 0;
    };
    SweepAndDraw();
    EXPECT_EQ(probe.sweep_best_within_noise.size(), probe.sweep_best_x.size());
    EXPECT_FALSE(probe.sweep_best_within_noise.empty());
    return probe.sweep_best_within_noise;
}

TEST_F(SizeSweep, BestIsWithinNoiseWhereTheIntervalsMeet) {
    for (bool within : BestWithinNoise(9)) EXPECT_TRUE(within) << "0.1x to 10x";
}

TEST_F(SizeSweep, BestStandsApartWhereTheIntervalsAreApart) {
    for (bool within : BestWithinNoise(0.05)) EXPECT_FALSE(within) << "5%";
}

TEST_F(SizeSweep, BestWithoutIntervalsIsNotJudged) {
    for (bool within : BestWithinNoise(0)) EXPECT_FALSE(within);
}

// The size sweep's best mark sits on the highest rate, not on the shortest time (the smallest
// size), and its size axis ticks at powers of two in binary units.
TEST_F(SizeSweep, MarksTheBestRateAndTicksInBinaryUnits) {
    const uint64_t peak = uint64_t(1) << 20;
    worker->shape = [&](RunResult& r) {
        const uint64_t size = r.Number("size").value_or(0);
        r.median_ms = 0.001 * double(size >> 10);  // the smallest size takes the shortest time
        r.min_ms = r.median_ms * 0.9;
        r.max_ms = r.median_ms * 1.1;
        r.gbps = size == peak ? 3.1 : 0.5;
    };
    SweepAndDraw();
    ASSERT_EQ(probe.sweep_best_x.size(), 2u) << "this lesson and the previous one";
    for (double x : probe.sweep_best_x) EXPECT_EQ(x, double(peak));
    ASSERT_FALSE(probe.sweep_x_labels.empty());
    for (const std::string& label : probe.sweep_x_labels) {
        EXPECT_EQ(label.find("e+"), std::string::npos) << label;
        EXPECT_EQ(label.find('.'), std::string::npos) << label << ": a power of two reads whole";
        EXPECT_TRUE(label.find("KiB") != std::string::npos ||
                    label.find("MiB") != std::string::npos || label.find(" B") != std::string::npos)
            << label;
    }
}

// Chapter 7's size sweep: the chapter's alpha-beta model, fitted to the lesson's points, is
// drawn under the chart in the page's language (on one GPU: why it is not fitted; the fit's
// numbers are tested with the catalogue, test_ranks).
TEST_F(AppLogic, AllReduceSizeSweepShowsTheChaptersModel) {
    RestartWithGpu(3);
    worker->shape = [&](RunResult& r) {
        r.median_ms = 0.05 + double(r.Number("size").value_or(0)) / 2.8e6;
        r.min_ms = r.median_ms * 0.99;
        r.max_ms = r.median_ms * 1.01;
        r.gbps = 1;
    };
    SelectLesson(ui, registry, "allreduce/leaving-nvlink");  // far down the lesson list
    Frames(2);
    Click("sweep_sizes");
    Frames(4);
    for (const char* lang : {"en", "zh"}) {
        ui.settings.language = lang;
        probe.size_fit.clear();
        DrawSweepAlone(ui, *controller, registry, Named("allreduce/leaving-nvlink"), false);
        ASSERT_FALSE(probe.sweep_best_x.empty()) << "no size sweep drawn; the last request: "
                                                 << (sent.empty() ? "" : sent.back().dump());
        EXPECT_NE(probe.size_fit.find(lang[0] == 'z' ? "alpha-beta 模型：未拟合"
                                                     : "alpha-beta model: not fitted"),
                  std::string::npos)
            << probe.size_fit;
        EXPECT_NE(probe.size_fit.find("2 GPUs"), std::string::npos) << probe.size_fit;
    }
}

// Results of 42 ms (split/openmp) and 50 ms (the others), their min-max spreads `min` and `max`
// times the median, and the median's 96 % confidence interval `lo` and `hi` times it.
namespace {

std::function<void(RunResult&)> WithIntervals(double min, double max, double lo, double hi) {
    return [=](RunResult& r) {
        r.median_ms = r.id == "split/openmp" ? 42 : 50;
        r.min_ms = r.median_ms * min;
        r.max_ms = r.median_ms * max;
        r.median_lo_ms = r.median_ms * lo;
        r.median_hi_ms = r.median_ms * hi;
        r.median_level = 0.96;
    };
}

}  // namespace

// Overlapping noise intervals (the medians' confidence intervals; the min-max spreads of results
// without them): the headline says "within noise", not "1.19x faster", and one click re-runs
// both lessons timed ten times longer, which takes more samples and narrows the intervals.
TEST_F(AppLogic, OverlappingSpreadsAreWithinNoiseAndReRunAtMoreRepetitions) {
    worker->shape = [](RunResult& r) {
        r.median_ms = r.id == "split/openmp" ? 42 : 50;
        r.min_ms = r.median_ms * 0.8;
        r.max_ms = r.median_ms * 1.3;
    };
    Open("split/openmp");
    Click("run");
    const std::string previous = Named("split/even-positions").label;
    EXPECT_EQ(probe.step_headline, "within noise of lesson " + previous);
    EXPECT_TRUE(probe.step_noise);
    sent.clear();
    Click("rerun_more_reps");
    ASSERT_EQ(Compares().size(), 1u) << "the two CPU steps, timed in turn";
    EXPECT_EQ(Compares()[0]["min_time_s"], kPreciseMinTimeS);
    // Spreads apart: a speed-up again.
    worker->shape = [](RunResult& r) {
        r.median_ms = r.id == "split/openmp" ? 20 : 50;
        r.min_ms = r.median_ms * 0.95;
        r.max_ms = r.median_ms * 1.05;
    };
    Click("run");
    EXPECT_EQ(probe.step_headline, "2.50\xC3\x97 faster than lesson " + previous);
    EXPECT_FALSE(probe.step_noise);
    // The medians' intervals decide where results carry them: spreads that overlap (a slow
    // outlier) around intervals apart are a speed-up...
    worker->shape = WithIntervals(0.8, 1.3, 0.98, 1.02);
    Click("run");
    EXPECT_EQ(probe.step_headline, "1.19\xC3\x97 faster than lesson " + previous);
    EXPECT_FALSE(probe.step_noise);
    // The whiskers are the intervals the verdict is judged by, not the min-max spreads.
    for (const chart::Bar& b : probe.step_bars)
        if (b.highlight) {
            EXPECT_DOUBLE_EQ(b.lo, 42 * 0.98);
            EXPECT_DOUBLE_EQ(b.hi, 42 * 1.02);
        }
    // ...and intervals that overlap are within noise, whatever the spreads.
    worker->shape = WithIntervals(0.95, 1.02, 0.9, 1.1);
    Click("run");
    EXPECT_EQ(probe.step_headline, "within noise of lesson " + previous);
    EXPECT_TRUE(probe.step_noise);
}

// A live result set against a recorded one says so beside the number, on the chart and in
// the summary.
TEST_F(AppLogic, ALiveResultBesideARecordedOneSaysSo) {
    ImGui::GetIO().DisplaySize = ImVec2(1500, 2400);
    Open("reduce/v0-interleaved-global");
    ui.run.params["size"] = ParamValue::Number(uint64_t(1) << 30);  // as recorded
    Click("run");  // the CPU sum before it runs live here
    // Recorded on the reference GPU (kReferenceGpu, "NVIDIA H200"), which "Recorded on" shows.
    EXPECT_NE(probe.step_headline.find("(live vs recorded on H200)"), std::string::npos)
        << probe.step_headline;
    const Chapter& chapter = registry.ChapterOf(Named("reduce/cpu-sum"));
    const std::vector<SummaryRow> rows = SummaryRows(registry, chapter, [&](const Lesson& l) {
        return ShownResult(*controller, registry, l, ui.run);
    });
    ASSERT_GE(rows.size(), 2u);
    ASSERT_TRUE(rows[1].previous && rows[1].result);
    EXPECT_NE(rows[1].previous->recorded, rows[1].result->recorded);
}

// Chapter 2 is four independent experiments: four charts, each with its variants on its own
// axis, no speed-up anywhere, and a summary without speed-ups.
TEST_F(AppLogic, ChapterTwoIsDrawnAsFourExperiments) {
    ImGui::GetIO().DisplaySize = ImVec2(1500, 2400);
    Open("basics/branch-divergence");
    ui.run.params["size"] = ParamValue::Number(uint64_t(256) << 20);  // as recorded
    Frames(2);
    ASSERT_EQ(probe.experiments.size(), 4u);
    EXPECT_TRUE(probe.step_bars.empty()) << "no one chart of every lesson";
    EXPECT_GE(probe.experiments[1].size(), 6u) << "none, 2-way ... 32-way side by side";
    EXPECT_EQ(probe.experiments[3].size(), 3u) << "pageable, pinned, registered";
    for (const auto& bars : probe.experiments)
        for (const chart::Bar& b : bars) {
            EXPECT_TRUE(b.annotation.empty()) << b.label << ": " << b.annotation;
            EXPECT_GT(b.value, 0) << b.label;
        }
    const Chapter& chapter = registry.ChapterOf(Named("basics/branch-divergence"));
    EXPECT_TRUE(chapter.independent_steps);
    for (const SummaryRow& row : SummaryRows(registry, chapter, [&](const Lesson& l) {
             return ShownResult(*controller, registry, l, ui.run);
         })) {
        EXPECT_FALSE(row.vs_previous) << row.lesson->label;
        EXPECT_FALSE(row.vs_first) << row.lesson->label;
    }
    // Every other chapter is a ladder of steps.
    for (const Chapter& c : registry.chapters())
        if (c.id != chapter.id) EXPECT_FALSE(c.independent_steps) << c.id;
}

// The step chart picks a log axis past 20x (chapter 5 spans 1000x) and keeps the student's
// choice for the chapter, across its lessons and after a visit elsewhere.
TEST_F(AppLogic, StepChartTakesLogPastTwentyTimesAndKeepsTheStudentsChoicePerChapter) {
    ImGui::GetIO().DisplaySize = ImVec2(1500, 2400);
    Open("gemm/double-buffering");
    for (const char* p : {"m", "n", "k"}) ui.run.params[p] = ParamValue::Number(4096);
    Frames(2);
    EXPECT_TRUE(probe.step_log) << "recorded GEMM steps span about 1000x";
    EXPECT_TRUE(ui.log_scale) << "the Log checkbox shows it";
    ui.log_scale = false;  // the student unticks Log
    Frames(2);
    EXPECT_FALSE(probe.step_log);
    Open("gemm/warp-tiling");
    Frames(1);
    EXPECT_FALSE(probe.step_log) << "the same chapter: the student's choice";
    Open("split/openmp");
    Frames(2);
    EXPECT_FALSE(probe.step_log) << "nothing measured in chapter 1: linear";
    Open("gemm/double-buffering");
    for (const char* p : {"m", "n", "k"}) ui.run.params[p] = ParamValue::Number(4096);
    Frames(2);
    EXPECT_FALSE(probe.step_log) << "remembered for chapter 5";
}

// Without a GPU, the block-size sweep recorded on the reference GPU is charted, labelled as
// recorded with its device and date, in both languages; a lesson without a recorded sweep says
// why there is no chart instead of asking for a sweep that cannot run.
TEST_F(AppLogic, RecordedBlockSweepIsChartedWithoutAGpu) {
    ImGui::GetIO().DisplaySize = ImVec2(1500, 4000);
    probe.open_all = true;                        // the sweeps are closed at first
    Open(Named("split/one-thread-per-pair").id);  // opens at its recorded 1 GiB
    Frames(2);
    ASSERT_TRUE(probe.sweeps.count("block"));
    const Probe::Sweep en = probe.sweeps["block"];
    EXPECT_EQ(en.param, "block");
    EXPECT_TRUE(en.recorded);
    EXPECT_EQ(en.series, 1) << "the previous lesson (OpenMP) has no block size";
    EXPECT_EQ(en.points, 6) << "32 to 1024 threads";
    EXPECT_EQ(en.spreads, 6) << "each point with its median's interval, from its samples";
    const std::string reference(lessons::kReferenceGpu);  // the default "Recorded on": the H200
    EXPECT_NE(en.note.find(reference), std::string::npos) << en.note;
    EXPECT_EQ(en.note.find("H100"), std::string::npos) << "not the other GPU's: " << en.note;
    // The date is the recording's (assets/reference/h200/split.json), whichever run that is.
    std::string recorded_on;
    std::string problems;
    for (const RunResult& r : LoadRecordedResults(&problems))
        if (r.id.find("one-thread-per-pair") != std::string::npos && r.devices.size() == 1 &&
            r.devices.front() == reference)
            recorded_on = r.timestamp.substr(0, 10);
    ASSERT_EQ(recorded_on.size(), 10u) << "no result of lesson 1.4 recorded on " << reference;
    EXPECT_NE(en.note.find(recorded_on), std::string::npos) << en.note;
    EXPECT_NE(en.note.find("not live"), std::string::npos) << en.note;
    EXPECT_EQ(probe.block_ticks, (std::vector<double>{32, 64, 128, 256, 512, 1024}));
    ui.settings.language = "zh";
    ui.fonts_dirty = false;
    Frames(2);
    EXPECT_NE(probe.sweeps["block"].note.find("录制"), std::string::npos)
        << probe.sweeps["block"].note;
    EXPECT_NE(probe.sweeps["block"].note.find(recorded_on), std::string::npos);
    ui.settings.language = "en";
    // The next lesson: both series recorded.
    Open(Named("split/pinned-memory").id);
    Frames(2);
    EXPECT_EQ(probe.sweeps["block"].series, 2);
    EXPECT_EQ(probe.sweeps["block"].points, 12);
    // At another size nothing was recorded: the note says so and why nothing runs.
    ui.run.params["size"] = ParamValue::Number(64u << 20);
    Frames(2);
    EXPECT_EQ(probe.sweeps["block"].points, 0);
    EXPECT_NE(probe.sweeps["block"].note.find("No sweep of this lesson along"), std::string::npos)
        << probe.sweeps["block"].note;
    EXPECT_EQ(probe.sweeps["block"].note.find("Press"), std::string::npos)
        << "the sweep cannot run here";
}

// A live sweep along a parameter replaces the recorded one at the same settings.
TEST_F(AppLogic, ALiveBlockSweepReplacesTheRecordedOne) {
    EverySectionWithGpu();
    Open(Named("split/one-thread-per-pair").id);
    ui.run.params["size"] = ParamValue::Number(1u << 30);
    Frames(2);
    EXPECT_TRUE(probe.sweeps["block"].recorded) << "no sweep ran here yet: the recorded one";
    Key(kKeyS);
    Frames(3);
    EXPECT_FALSE(probe.sweeps["block"].recorded);
    EXPECT_TRUE(probe.sweeps["block"].note.empty()) << probe.sweeps["block"].note;
    EXPECT_EQ(probe.sweeps["block"].series, 1);
    // A single run at another block size is no sweep point.
    const size_t points = static_cast<size_t>(probe.sweeps["block"].points);
    ui.run.params["block"] = ParamValue::Number(96);
    Click("run");
    Frames(2);
    ui.run.params["block"] = ParamValue::Number(256);
    Frames(2);
    EXPECT_EQ(static_cast<size_t>(probe.sweeps["block"].points), points);
}

// A sweep along a choice (the reduction's shared-memory addressing): recorded values charted as
// bars without a GPU; the "Sweep over" choice lists the lesson's other parameters.
TEST_F(AppLogic, RecordedChoiceSweepIsChartedAsBars) {
    ImGui::GetIO().DisplaySize = ImVec2(1500, 4000);
    probe.open_all = true;
    Open(Named("reduce/21-v1-shared-memory").id);
    Frames(2);
    ASSERT_TRUE(probe.sweeps.count("param"));
    EXPECT_EQ(probe.sweeps["param"].param, "addressing") << "the one with a recorded sweep";
    EXPECT_TRUE(probe.sweeps["param"].recorded);
    EXPECT_EQ(probe.sweeps["param"].points, 3);
    // Labelled with the reference GPU's recording (assets/reference/h200/reduce.json) and its
    // date, read from the recording of that sweep.
    const std::string reference(lessons::kReferenceGpu);
    std::string recorded_on;
    for (const RunResult& r : LoadRecordedResults(nullptr))
        if (r.id.find("v1-shared-memory") != std::string::npos && r.devices.size() == 1 &&
            r.devices.front() == reference && r.params.Find("addressing"))
            recorded_on = r.timestamp.substr(0, 10);
    ASSERT_EQ(recorded_on.size(), 10u) << "no addressing sweep of lesson 2.1 on " << reference;
    EXPECT_NE(probe.sweeps["param"].note.find(reference), std::string::npos)
        << probe.sweeps["param"].note;
    EXPECT_NE(probe.sweeps["param"].note.find(recorded_on), std::string::npos)
        << probe.sweeps["param"].note;
    // Bars: the note says hatched bars, not the line charts' dashed lines (review 2026-11-28, 18).
    EXPECT_NE(probe.sweeps["param"].note.find("hatched bars"), std::string::npos)
        << probe.sweeps["param"].note;
    EXPECT_EQ(probe.sweeps["param"].note.find("dashed"), std::string::npos);
    EXPECT_TRUE(probe.rects.count("sweep_param_run"));
    const std::vector<const ParamSpec*> params =
        SweepableParams(registry, Named("reduce/21-v1-shared-memory"));
    for (const ParamSpec* p : params) {
        EXPECT_NE(p->name, "block");
        EXPECT_NE(p->name, "size");
    }
}

// With a GPU, "Sweep" sends a sweep along the chosen parameter (every choice of the reduction's
// tree addressing) and its points are charted live; a number is swept over its whole range (the
// roofline's FMAs per element: 2 to 4096, doubling).
TEST_F(AppLogic, SweepOverAnyParameterRunsLiveAlongIt) {
    EverySectionWithGpu();
    Open(Named("reduce/21-v1-shared-memory").id);
    Frames(2);
    EXPECT_EQ(probe.sweeps["param"].param, "addressing") << "the lesson's own parameter first";
    EXPECT_EQ(probe.sweeps["param"].points, 0) << "recorded at 2^28 floats only";
    sent.clear();
    Click("sweep_param_run");
    Frames(3);
    const auto sweep =
        std::find_if(sent.begin(), sent.end(), [](const Json& r) { return r["op"] == "sweep"; });
    ASSERT_NE(sweep, sent.end());
    EXPECT_EQ((*sweep)["over"], "addressing");
    EXPECT_EQ((*sweep)["values"], Json({"interleaved", "strided", "sequential"}));
    EXPECT_FALSE((*sweep)["params"].contains("addressing"));
    EXPECT_FALSE(probe.sweeps["param"].recorded);
    EXPECT_EQ(probe.sweeps["param"].points, 3);
    EXPECT_EQ(probe.sweeps["param"].series, 1) << "lesson 3.1 has no tree addressing";

    sent.clear();
    controller->SweepOver(Named("roofline/roofline"), ui.run, "fmas");
    ASSERT_FALSE(sent.empty());
    EXPECT_EQ(sent.back()["over"], "fmas");
    ASSERT_EQ(sent.back()["values"].size(), 12u) << sent.back()["values"].dump();
    EXPECT_EQ(sent.back()["values"].front(), 2);
    EXPECT_EQ(sent.back()["values"].back(), 4096);
    // What the progress bar says.
    EXPECT_NE(controller->BusyWith("en").find("over FMAs per element"), std::string::npos)
        << controller->BusyWith("en");
}

// The roofline page's sweep button: without a GPU it traces the recorded sweep of FMAs per
// element (dashed, labelled); with one it runs the sweep and traces it live.
TEST_F(AppLogic, RooflineSweepButtonTracesTheRoof) {
    ImGui::GetIO().DisplaySize = ImVec2(1500, 1400);
    Open(Named("roofline/roofline").id);
    Frames(2);
    EXPECT_EQ(probe.roof_trace_points, 0) << "traced only once asked for";
    Click("roof_sweep");
    Frames(2);
    EXPECT_TRUE(ui.roof_trace);
    EXPECT_EQ(probe.roof_trace_points, 12) << "2 to 4096 FMAs (64: the benchmark's)";
    EXPECT_TRUE(probe.roof_trace_recorded);
    ui.settings.hide_answers = true;  // a measured figure of the lesson: hidden until revealed
    Frames(2);
    EXPECT_EQ(probe.roof_trace_points, 0);
    ui.settings.hide_answers = false;
    Frames(2);
    EXPECT_FALSE(std::any_of(sent.begin(), sent.end(), [](const Json& r) {
        return r["op"] == "sweep";
    })) << "nothing runs without a GPU";

    worker_has_gpu = true;
    controller->RestartWorker();
    worker->shape = [](RunResult& r) {  // a kernel of 2 x fmas + 2 flops on 8 bytes an element
        const uint64_t fmas = r.Number("fmas").value_or(64);
        r.work.bytes_read = r.work.bytes_written = uint64_t(1) << 29;
        r.work.flops = (uint64_t(1) << 27) * (2 * fmas + 2);
        r.rate_ms = r.median_ms;
    };
    ui.roof_trace = false;
    Frames(3);
    sent.clear();
    Click("roof_sweep");
    Frames(3);
    EXPECT_TRUE(std::any_of(sent.begin(), sent.end(), [](const Json& r) {
        return r["op"] == "sweep" && r["over"] == "fmas";
    }));
    EXPECT_EQ(probe.roof_trace_points, 12);
    EXPECT_FALSE(probe.roof_trace_recorded);
}

// Without a GPU, "Sweep block sizes" (and S) opens the recorded sweep's section instead of doing
// nothing; where nothing was recorded it stays disabled.
TEST_F(AppLogic, SweepBlocksWithoutAGpuOpensTheRecordedSweep) {
    ImGui::GetIO().DisplaySize = ImVec2(1500, 1400);
    Open(Named("split/one-thread-per-pair").id);
    Frames(2);
    EXPECT_FALSE(probe.sweeps.count("block")) << "the section is closed at first";
    EXPECT_TRUE(
        HasRecordedBlockSweep(ui, *controller, registry, Named("split/one-thread-per-pair")));
    Click("sweep_blocks");
    Frames(2);
    ASSERT_TRUE(probe.sweeps.count("block")) << "the click opened the section";
    EXPECT_TRUE(probe.sweeps["block"].recorded);
    EXPECT_EQ(probe.sweeps["block"].points, 6);
    EXPECT_FALSE(
        std::any_of(sent.begin(), sent.end(), [](const Json& r) { return r["op"] == "sweep"; }));
    // The next lesson by key: its section is open already; S keeps it so and sends nothing.
    Key(kKeyS);
    Frames(2);
    EXPECT_TRUE(probe.sweeps.count("block"));
    EXPECT_TRUE(ui.messages.empty()) << ui.messages.front().en;
    // At a size nothing was recorded at, the button is disabled again.
    ui.run.params["size"] = ParamValue::Number(64u << 20);
    Frames(2);
    EXPECT_FALSE(
        HasRecordedBlockSweep(ui, *controller, registry, Named("split/one-thread-per-pair")));
    Key(kKeyS);
    EXPECT_FALSE(ui.messages.empty()) << "S says why it cannot sweep";
}

// One slow outlier (a busy machine) does not flatten the bars: a linear axis holds whiskers up
// to twice the tallest bar, and a longer one is cut at the top with an arrow.
TEST(Chart, AnOutlierWhiskerIsCutNotScaledTo) {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(800, 600);
    unsigned char* pixels;
    int w, h;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    const auto draw = [&](double outlier) {
        ImGui::NewFrame();
        ImGui::SetNextWindowSize(ImVec2(700, 500));
        ImGui::Begin("chart");
        std::vector<chart::Bar> bars(2);
        bars[0].label = "a", bars[0].value = 8, bars[0].lo = 7, bars[0].hi = 9;
        bars[1].label = "b", bars[1].value = 10, bars[1].lo = 9, bars[1].hi = outlier;
        chart::BarLayout layout;
        chart::BarOptions o;
        o.height = 300;
        o.layout = &layout;
        chart::BarChart("bars", bars, o);
        ImGui::End();
        ImGui::EndFrame();
        return layout;
    };
    const chart::BarLayout usual = draw(11), outlier = draw(90);
    const float usual_h = usual.bars[0].w - usual.bars[0].y;
    const float outlier_h = outlier.bars[0].w - outlier.bars[0].y;
    EXPECT_GT(outlier_h, usual_h * 0.5f) << "the bars keep at least half their height";
    EXPECT_GE(outlier.bars[1].y, outlier.chart.y) << "the cut whisker stays inside the chart";
    ImGui::DestroyContext();
}
