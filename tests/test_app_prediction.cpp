// "Predict, then measure" (model/prediction.h) and the chapter summary, drawn on the page from
// the worker's ceilings or, without a GPU, from the recorded ones.
#include <gtest/gtest.h>

#include "app_fixture.h"
#include "catalog.h"
#include "model/prediction.h"
#include "recordings.h"
#include "units.h"
#include "words/words_student.h"

using namespace app_test;

TEST_F(AppLogic, ThePredictionIsComputedLiveFromTheWorkersCeilingsAndTheSettings) {
    OpenOnTheGpuAt1GiB("split/one-thread-per-pair");
    EXPECT_TRUE(probe.rects.count("prediction")) << "a GPU lesson's page has the box";
    const std::vector<std::string>& p = probe.prediction;
    // 1 GiB read at 3150 GB/s: 0.341 ms; 1 GiB over PCIe at 55 GB/s: 19.5 ms.
    EXPECT_TRUE(Has(p,
                    "Work at these settings: 1 GiB read, 0 B written; over PCIe 1 GiB in, 8 B "
                    "out"))
        << Lines(p);
    EXPECT_TRUE(Has(p,
                    "Ceilings measured on Fake H100 by the worker: read 3150 GB/s, copy 3000 "
                    "GB/s, H2D 55 GB/s, D2H 50 GB/s"))
        << Lines(p);
    EXPECT_TRUE(Has(p, "Lower bound: kernel 0.341 ms (1 GiB at 3150 GB/s); H2D 19.5 ms"))
        << Lines(p);
    EXPECT_TRUE(Has(p, "copies and kernel in turn")) << Lines(p);
    // Little's law: 2 B x 132 x 8 blocks x 256 threads / (600 cycles at 1980 MHz = 303 ns).
    EXPECT_TRUE(
        Has(p,
            "2 B per thread x 270336 resident threads (this kernel: 132 SMs x 8 blocks x 256 "
            "threads)"))
        << Lines(p);
    EXPECT_TRUE(Has(p, "/ 303 ns = 1784 GB/s at most")) << Lines(p);
    EXPECT_TRUE(Has(p, "600 cycles at the 1980 MHz SM clock")) << Lines(p);
    EXPECT_TRUE(Has(p, "Measured: not yet")) << Lines(p);

    // A smaller size changes the prediction at once, without running anything.
    ui.run.params["size"] = ParamValue::Number(uint64_t(1) << 20);
    Frames(2);
    EXPECT_TRUE(Has(probe.prediction, "1 MiB read")) << Lines(probe.prediction);
    ui.run.params["size"] = ParamValue::Number(uint64_t(1) << 30);
    Click("run");
    Frames(2);
    // The fake worker times 50 ms for the whole run: the bound is 19.52 + 0.341 + ~0 ms.
    const double bound = 1073741824.0 / 55e9 * 1e3 + 1073741824.0 / 3150e9 * 1e3 + 8 / 50e9 * 1e3;
    EXPECT_TRUE(Has(probe.prediction,
                    "Measured: whole run 50.0 ms, " + Fixed(50 / bound, 2) + "\xC3\x97 the bound"))
        << Lines(probe.prediction);
    EXPECT_TRUE(Has(probe.prediction, "The measured 20 GB/s implies")) << Lines(probe.prediction);

    // In Chinese too.
    ui.settings.language = "zh";
    Frames(2);
    EXPECT_TRUE(Has(probe.prediction, "下界：内核 0.341 ms（以 3150 GB/s 处理 1 GiB）"))
        << Lines(probe.prediction);
    EXPECT_TRUE(Has(probe.prediction, "实测：整次运行 50.0 ms")) << Lines(probe.prediction);
    // A CPU lesson's box takes the student's guess and says why the model has no bound.
    Open("split/openmp");
    EXPECT_TRUE(probe.rects.count("guess_input"));
    EXPECT_TRUE(Has(probe.prediction, "CPU 步骤：没有可用来预测的 GPU 上限。"))
        << Lines(probe.prediction);
}

TEST_F(AppLogic, WithoutAGpuThePredictionUsesTheRecordedCeilingLabelledAsSuch) {
    Open("reduce/v0-interleaved-global");
    ui.run.params["size"] = ParamValue::Number(uint64_t(1) << 30);
    Frames(3);
    const RunResult* recorded =
        ShownResult(*controller, registry, Named("reduce/v0-interleaved-global"), ui.run);
    ASSERT_TRUE(recorded && recorded->recorded && recorded->ceiling);
    // The default "Recorded on" is the reference GPU (the H200); the box reads the ceilings
    // recorded with its results (assets/info), named as recorded, with the day.
    const std::string reference(lessons::kReferenceGpu);
    EXPECT_EQ(recorded->Device(), reference);
    const CeilingSource source = CeilingsFromRecordedInfo(RecordedDeviceInfo(reference));
    ASSERT_TRUE(source.known) << "assets/info holds the reference GPU's device information";
    EXPECT_TRUE(Has(probe.prediction, "No GPU here: the ceilings recorded on " + reference +
                                          " on " + source.date + ": read " +
                                          Fixed(source.ceilings.read_gbps, 0) + " GB/s, copy " +
                                          Fixed(source.ceilings.copy_gbps, 0) + " GB/s"))
        << Lines(probe.prediction);
    const double bound = 1073741824.0 / source.ceilings.read_gbps / 1e6;
    EXPECT_TRUE(Has(probe.prediction, "Measured: kernel " + app::Ms(*recorded->Part("kernel")) +
                                          " ms, " + Fixed(*recorded->Part("kernel") / bound, 2)))
        << Lines(probe.prediction);
    // The recorded SM count and clock give Little's law without a GPU.
    EXPECT_TRUE(Has(probe.prediction, "Bytes in flight (Little's law)")) << Lines(probe.prediction);
    EXPECT_FALSE(Has(probe.prediction, "Little's law needs the GPU's SM count"))
        << Lines(probe.prediction);
    // The overlapped chunks are compared with the host-to-device copy, recorded too.
    Open("split/overlapped-chunks");
    Frames(2);
    EXPECT_TRUE(Has(probe.prediction, "H2D " + Fixed(source.ceilings.h2d_gbps, 0) + " GB/s"))
        << Lines(probe.prediction);
    EXPECT_FALSE(Has(probe.prediction, "? GB/s")) << Lines(probe.prediction);
}

// The tensor-core steps are held to the TF32 ceiling, which the reference GPU's recorded device
// information carries (measured with cuBLAS in that run): without a GPU the box predicts cuBLAS
// TF32 from it and says which peak it is; cuBLAS SGEMM stays on the fp32 peak.
TEST_F(AppLogic, WithoutAGpuTheTensorCoreStepsArePredictedFromTheRecordedTf32Ceiling) {
    SelectLesson(ui, registry, "gemm/cublas-tf32");
    for (const char* d : {"m", "n", "k"}) ui.run.params[d] = ParamValue::Number(4096);
    Frames(3);
    const RunResult* tf32_run =
        ShownResult(*controller, registry, Named("gemm/cublas-tf32"), ui.run);
    ASSERT_TRUE(tf32_run && tf32_run->recorded) << "recorded on the reference GPU";
    EXPECT_EQ(tf32_run->work.bound, Bound::kTf32);
    const CeilingSource source =
        CeilingsFromRecordedInfo(RecordedDeviceInfo(std::string(lessons::kReferenceGpu)));
    const double tf32 = source.ceilings.tf32_gflops;
    EXPECT_GT(tf32, 100000);
    EXPECT_TRUE(Has(probe.prediction, "TF32 ceiling: " + Fixed(tf32, 0) + " GFLOP/s (cuBLAS"))
        << Lines(probe.prediction);
    EXPECT_TRUE(Has(probe.prediction, "137.44G flop at " + Fixed(tf32, 0) + " GFLOP/s"))
        << Lines(probe.prediction);
    SelectLesson(ui, registry, "gemm/cublas-sgemm");
    Frames(2);
    EXPECT_FALSE(Has(probe.prediction, "TF32 ceiling")) << Lines(probe.prediction);
    EXPECT_TRUE(Has(probe.prediction,
                    "137.44G flop at " + Fixed(source.ceilings.fp32_gflops, 0) + " GFLOP/s"))
        << Lines(probe.prediction);
}

TEST_F(AppLogic, TheChapterSummaryHasEveryStepWithSpeedupsAndTheSeedFigures) {
    ImGui::GetIO().DisplaySize = ImVec2(1500, 2400);  // the summary below the charts is in view
    Open("reduce/v0-interleaved-global");
    ui.run.params["size"] = ParamValue::Number(uint64_t(1) << 30);
    Key(kKeyC);  // the CPU sum runs live (50 ms in the fake worker); the GPU steps are recorded
    Frames(3);
    const Chapter& chapter = *registry.FindChapter("reduce");
    const Lesson* base = nullptr;
    std::vector<SummaryRow> rows = SummaryRows(
        registry, chapter,
        [&](const Lesson& l) { return ShownResult(*controller, registry, l, ui.run); }, &base);
    ASSERT_EQ(rows.size(), registry.LessonsOf(chapter).size());
    ASSERT_GE(rows.size(), 8u);  // the CPU sum, v0 to v5, CUB, and any lesson added since
    EXPECT_EQ(base, &Named("reduce/cpu-sum"));
    ASSERT_TRUE(rows[0].result && !rows[0].result->recorded);
    EXPECT_FALSE(rows[0].vs_previous);
    EXPECT_FALSE(rows[0].vs_first) << "the first step is the baseline";
    for (size_t i = 1; i < 8; ++i) {
        ASSERT_TRUE(rows[i].result && rows[i].result->recorded) << rows[i].lesson->id;
        const RunResult* prev = rows[i - 1].result;
        ASSERT_TRUE(rows[i].vs_previous && rows[i].vs_first);
        EXPECT_DOUBLE_EQ(*rows[i].vs_previous, prev->median_ms / rows[i].result->median_ms);
        EXPECT_DOUBLE_EQ(*rows[i].vs_first, 50.0 / rows[i].result->median_ms);
    }
    EXPECT_EQ(rows[1].lesson->seed.text_en, "0.970 ms (2^20 floats, block 1024)");
    // Without the live CPU step (another size), the cumulative speed-up is over the first GPU
    // step.
    rows = SummaryRows(
        registry, chapter,
        [&](const Lesson& l) {
            return l.id == "reduce/cpu-sum" ? nullptr
                                            : ShownResult(*controller, registry, l, ui.run);
        },
        &base);
    EXPECT_EQ(base, &Named("reduce/v0-interleaved-global"));
    EXPECT_FALSE(rows[1].vs_first);
    ASSERT_TRUE(rows[7].vs_first);
    EXPECT_DOUBLE_EQ(*rows[7].vs_first, rows[1].result->median_ms / rows[7].result->median_ms);
    EXPECT_EQ(rows[1].lesson->seed.source, "seed 003");
    // Drawn on the page, open or walked.
    probe.open_all = true;
    Frames(2);
    EXPECT_TRUE(probe.rects.count("summary_table"));
    EXPECT_EQ(probe.summary_rows, static_cast<int>(rows.size()));
}

// Predict, then measure, for real: the student types a guess (a time, or a speed-up over the
// previous lesson), kept per lesson in the settings; the page then shows it beside the model's
// bound and, once run, the measurement.
TEST_F(AppLogic, TheStudentsGuessStandsBesideTheModelsBoundAndTheMeasurement) {
    OpenOnTheGpuAt1GiB("split/one-thread-per-pair");
    EXPECT_TRUE(probe.guess_row.empty()) << "no guess yet";
    Click("guess_input");
    for (const char ch : std::string("30")) ImGui::GetIO().AddInputCharacter(ch);
    Frames(2);
    Click("title");  // the field loses the focus
    ASSERT_EQ(ui.settings.guesses.count("split/one-thread-per-pair"), 1u);
    EXPECT_EQ(ui.settings.guesses["split/one-thread-per-pair"], (Guess{30, false}));
    // The bound of the whole run (the result times no kernel part): 1 GiB over PCIe at 55 GB/s,
    // then the kernel at 3150 GB/s, then 8 B back.
    const double bound = 1073741824.0 / 55e9 * 1e3 + 1073741824.0 / 3150e9 * 1e3 + 8 / 50e9 * 1e3;
    ASSERT_EQ(probe.guess_row.size(), 3u);
    EXPECT_EQ(probe.guess_row[0], "30.0 ms");
    EXPECT_EQ(probe.guess_row[1], lessons::app::Ms(bound) + " ms");
    EXPECT_EQ(probe.guess_row[2], "not yet");
    Click("run");
    Frames(2);
    EXPECT_EQ(probe.guess_row[2], "50.0 ms") << "the fake worker times 50 ms";
    // As a speed-up over the previous lesson (a CPU step: the model has no bound for it).
    Click("guess_speedup");
    EXPECT_TRUE(ui.settings.guesses["split/one-thread-per-pair"].speedup);
    EXPECT_EQ(probe.guess_row[0], "30.0\xC3\x97");
    EXPECT_EQ(probe.guess_row[1], "no model");
    EXPECT_NE(probe.guess_row[2].find("\xC3\x97"), std::string::npos) << probe.guess_row[2];
    ui.settings.language = "zh";
    Frames(2);
    EXPECT_EQ(probe.guess_row[1], "无模型");
    // Another lesson has its own field; coming back shows this one's guess again.
    Open("split/openmp");
    EXPECT_TRUE(probe.guess_row.empty());
    EXPECT_STREQ(ui.guess_text, "");
    Open("split/one-thread-per-pair");
    EXPECT_STREQ(ui.guess_text, "30");
    EXPECT_TRUE(ui.guess_speedup);
    Click("guess_clear");
    EXPECT_EQ(ui.settings.guesses.count("split/one-thread-per-pair"), 0u);
}

// "Hide answers" hides every measured figure of the lesson (its bar and speed-up, the
// prediction's measurement, its roofline point, its text's measured sections) until it runs
// here or the student presses Reveal; the reveal is the lesson's own.
TEST_F(AppLogic, HideAnswersHidesTheLessonsMeasuredFiguresUntilItRunsOrIsRevealed) {
    probe.open_all = true;
    SelectLesson(ui, registry, "gemm/double-buffering");  // recorded results, no GPU here
    Frames(3);
    auto current_bar = [&] {
        for (const chart::Bar& b : probe.step_bars)
            if (b.highlight) return b;
        return chart::Bar{};
    };
    EXPECT_FALSE(probe.measured_hidden);
    EXPECT_GT(current_bar().value, 0);
    EXPECT_TRUE(Has(probe.prediction, "Measured: kernel")) << Lines(probe.prediction);
    const int points = probe.roof_points;
    ui.settings.hide_answers = true;
    Frames(3);
    EXPECT_TRUE(probe.measured_hidden);
    EXPECT_EQ(current_bar().value, 0);
    EXPECT_EQ(current_bar().tooltip, kMeasuredHiddenNote.en);
    EXPECT_TRUE(probe.step_headline.empty()) << probe.step_headline;
    EXPECT_FALSE(Has(probe.prediction, "Measured:")) << Lines(probe.prediction);
    EXPECT_TRUE(Has(probe.prediction, kMeasuredHiddenNote.en)) << Lines(probe.prediction);
    EXPECT_LT(probe.roof_points, points) << "its roofline point is not drawn";
    Click("reveal_measured");
    EXPECT_FALSE(probe.measured_hidden);
    EXPECT_GT(current_bar().value, 0);
    EXPECT_TRUE(Has(probe.prediction, "Measured: kernel")) << Lines(probe.prediction);
    Key(kKeyRight);
    EXPECT_TRUE(probe.measured_hidden) << "the next lesson keeps its own hidden";
    // A lesson that runs here is revealed by its run.
    SelectLesson(ui, registry, "split/openmp");
    Frames(3);
    EXPECT_TRUE(probe.measured_hidden);
    Key(kKeyR);
    Frames(3);
    EXPECT_FALSE(probe.measured_hidden);
}

// The ceilings recorded with a GPU's results (assets/info): every one of them, the SM count and
// clock for Little's law, labelled as recorded, with the day; nothing from a null object.
TEST(AppPrediction, TheRecordedDeviceInfoGivesEveryCeilingAndTheClock) {
    const lessons::Json info = lessons::RecordedDeviceInfo("NVIDIA H100 80GB HBM3");
    ASSERT_TRUE(info.is_object()) << "assets/info/h100.json is embedded";
    const CeilingSource s = CeilingsFromRecordedInfo(info);
    EXPECT_TRUE(s.known);
    EXPECT_FALSE(s.measured);
    EXPECT_EQ(s.device, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(s.date, "2026-11-27");
    const lessons::Json& c = info["devices"][0]["ceilings"];
    EXPECT_DOUBLE_EQ(s.ceilings.read_gbps, c["read_gbps"].get<double>());
    EXPECT_DOUBLE_EQ(s.ceilings.copy_gbps, c["copy_gbps"].get<double>());
    EXPECT_DOUBLE_EQ(s.ceilings.h2d_gbps, c["h2d_gbps"].get<double>());
    EXPECT_GT(s.ceilings.d2h_gbps, 0);
    EXPECT_GT(s.ceilings.fp32_gflops, 0);
    EXPECT_EQ(s.sm_count, 132);
    EXPECT_GT(s.clock_khz, 0);
    EXPECT_GT(s.max_threads_per_sm, 0);
    // Every figure recorded: no "?" to explain; one missing: it is "?", and said why.
    const lessons::Lesson& lesson = *lessons::Catalog().FindLesson("reduce/v1-shared-memory");
    const lessons::ParamValues params = ResolveParams(lesson.params, RunSettings{});
    const auto whole = PredictionLines("en", lesson, lessons::Catalog().ChapterOf(lesson), params,
                                       s, nullptr, nullptr);
    for (const std::string& l : whole)
        EXPECT_EQ(l.find("where none was recorded"), std::string::npos) << l;
    CeilingSource partial = s;
    partial.ceilings.copy_gbps = 0;
    bool explained = false;
    for (const std::string& l : PredictionLines("en", lesson, lessons::Catalog().ChapterOf(lesson),
                                                params, partial, nullptr, nullptr))
        explained |= l.find("copy ? GB/s") != std::string::npos &&
                     l.find("(? where none was recorded)") != std::string::npos;
    EXPECT_TRUE(explained);
    EXPECT_FALSE(CeilingsFromRecordedInfo(lessons::Json()).known);
    EXPECT_FALSE(CeilingsFromRecordedInfo(lessons::Json::parse("[1, 2]")).known);
    EXPECT_TRUE(lessons::RecordedDeviceInfo("no such GPU").is_null());
}
