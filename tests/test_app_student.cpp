// The student's path (model/student.h and the page): the lesson list's filter, progress marks
// and their settings, the first-run page, parameters carried only within a chapter, the
// recorded settings a lesson opens at without a GPU, panes opened at their top, and buttons
// that cannot act here saying why.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "app_fixture.h"
#include "model/student.h"
#include "words/words_student.h"

using namespace app_test;

TEST(AppStudent, TheFilterMatchesLabelsFromTheirStartTitlesAndIds) {
    const auto finds_58 = [](const char* query) {
        return MatchesFilter(query, "5.8", "Double buffering", "gemm/double-buffering");
    };
    // No words; the label from its start; the title in any case; the id; every word, each found
    // somewhere.
    for (const char* query : {"", "   ", "5", "DOUBLE", "gemm/", "gemm buffer"})
        EXPECT_TRUE(finds_58(query)) << query;
    EXPECT_FALSE(finds_58("gemm pinned")) << "a word found nowhere";
    EXPECT_FALSE(MatchesFilter("5", "1.5", "Pinned host memory", "split/pinned-memory"))
        << "a number matches a label from its start";
    EXPECT_TRUE(MatchesFilter("5.1", "5.10", "x", "gemm/x"));
    EXPECT_FALSE(MatchesFilter("5.1", "5.2", "x", "gemm/x"));
    EXPECT_TRUE(MatchesFilter("共享", "3.3", "v1：共享内存", "reduce/v1-shared-memory"))
        << "a Chinese title";
    EXPECT_FALSE(MatchesFilter("zzz", "3.3", "v1：共享内存", "reduce/v1-shared-memory"));
}

TEST(AppStudent, ProgressCountsEachMarkAndForgetsLessonsTheCatalogueDoesNotHave) {
    const Registry& reg = Catalog();
    const std::vector<const Lesson*> chapter = reg.LessonsOf(reg.chapters().front());
    ASSERT_GE(chapter.size(), 3u);
    Settings s;
    EXPECT_EQ(CountProgress(chapter, s).Fraction(), 0.0f);
    s.visited = {chapter[0]->id, chapter[1]->id, "split/no-such-lesson"};
    s.ran = {chapter[1]->id};
    s.answered = {chapter[2]->id};
    const ChapterProgress p = CountProgress(chapter, s);
    EXPECT_EQ(p.lessons, static_cast<int>(chapter.size()));
    EXPECT_EQ(p.visited, 2);
    EXPECT_EQ(p.ran, 1);
    EXPECT_EQ(p.answered, 1);
    EXPECT_FLOAT_EQ(p.Fraction(), 4.0f / float(3 * chapter.size()));
    ForgetUnknownLessons(reg, &s);
    EXPECT_EQ(s.visited, (std::set<std::string>{chapter[0]->id, chapter[1]->id}));
    s.visited.insert(chapter[0]->label);  // a label is not an id: forgotten too
    ForgetUnknownLessons(reg, &s);
    EXPECT_EQ(s.visited.size(), 2u);
    EXPECT_EQ(ChapterProgress{}.Fraction(), 0.0f) << "an empty chapter";
}

TEST(AppStudent, ProgressAndTheFirstRunPageRoundTripThroughTheSettingsFile) {
    const std::string path = ::testing::TempDir() + "/settings_progress.json";
    Settings s;
    s.first_run_closed = true;
    s.visited = {"split/naive-scan", "gemm/double-buffering"};
    s.ran = {"split/naive-scan"};
    s.answered = {"gemm/double-buffering"};
    ASSERT_TRUE(SaveSettings(path, s, nullptr));
    std::string problem;
    const Settings t = LoadSettings(path, &problem);
    EXPECT_TRUE(problem.empty()) << problem;
    EXPECT_TRUE(t.first_run_closed);
    EXPECT_EQ(t.visited, s.visited);
    EXPECT_EQ(t.ran, s.ran);
    EXPECT_EQ(t.answered, s.answered);
    EXPECT_FALSE(LoadSettings("/nonexistent/settings.json", nullptr).first_run_closed)
        << "a first start shows the first-run page";
}

TEST(AppStudent, ACorruptProgressListIsIgnoredWithAMessageAndTheRestKept) {
    const std::string path = ::testing::TempDir() + "/settings_progress_bad.json";
    // Not a list; entries that are not ids; an id too long; the rest of the file is sound.
    nlohmann::json j = {
        {"language", "zh"},
        {"visited", 5},
        {"run", {"split/naive-scan", 7, nullptr, "", std::string(5000, 'x')}},
        {"answered", nlohmann::json::array({nlohmann::json::object({{"nested", true}})})}};
    std::ofstream(path) << j.dump();
    std::string problem;
    Settings s = LoadSettings(path, &problem);
    EXPECT_EQ(s.language, "zh") << "the other settings are kept";
    EXPECT_TRUE(s.visited.empty());
    EXPECT_EQ(s.ran, (std::set<std::string>{"split/naive-scan"}));
    EXPECT_TRUE(s.answered.empty());
    EXPECT_NE(problem.find("visited: not a list"), std::string::npos) << problem;
    EXPECT_NE(problem.find("run: 4 entries"), std::string::npos) << problem;
    EXPECT_NE(problem.find("answered: 1 entry"), std::string::npos) << problem;
    // More ids than any catalogue has: the first kMaxProgressIds are read, with a message.
    nlohmann::json many = nlohmann::json::array();
    for (size_t i = 0; i < kMaxProgressIds + 50; ++i) many.push_back("l" + std::to_string(i));
    std::ofstream(path) << nlohmann::json{{"visited", many}}.dump();
    problem.clear();
    s = LoadSettings(path, &problem);
    EXPECT_EQ(s.visited.size(), kMaxProgressIds);
    EXPECT_NE(problem.find("more than"), std::string::npos) << problem;
    // A wrong type for the first-run flag: the file's values are not trusted (as for every
    // other flag), with a message, and nothing crashes.
    std::ofstream(path) << R"({"first_run_closed": "yes", "language": "zh"})";
    problem.clear();
    s = LoadSettings(path, &problem);
    EXPECT_FALSE(s.first_run_closed);
    EXPECT_FALSE(problem.empty());
}

TEST(AppStudent, ParametersCarryOverOnlyWithinAChapter) {
    RunSettings run;
    KeptParams kept;
    run.params["size"] = ParamValue::Number(8 << 20);
    CarryParams("split", "split", &run, &kept);
    EXPECT_EQ(run.params["size"].number, 8u << 20) << "within a chapter: kept";
    CarryParams("split", "gemv", &run, &kept);
    EXPECT_TRUE(run.params.empty()) << "a chapter never visited opens at its defaults";
    run.params["m"] = ParamValue::Number(8192);
    CarryParams("gemv", "gemm", &run, &kept);
    EXPECT_FALSE(run.params.count("m")) << "GEMV's m does not become GEMM's";
    CarryParams("gemm", "split", &run, &kept);
    EXPECT_EQ(run.params["size"].number, 8u << 20) << "back in a chapter: its own values";
    CarryParams("split", "gemv", &run, &kept);
    EXPECT_EQ(run.params["m"].number, 8192u);
}

TEST_F(AppLogic, GemvSizesDoNotLeakIntoGemmOnThePage) {
    worker_has_gpu = true;  // every lesson live: no recorded settings to open at
    controller->RestartWorker();
    Frames(3);
    const Lesson& gemv = Named("gemv/thread-per-row");
    const Lesson& gemm = Named("gemm/naive");
    SelectLesson(ui, registry, gemv.id);
    Frames(2);
    ui.run.params["m"] = ParamValue::Number(1024);
    ui.run.params["n"] = ParamValue::Number(2048);
    SelectLesson(ui, registry, gemm.id);
    Frames(2);
    const ParamSpec* m = gemm.FindParam("m");
    ASSERT_NE(m, nullptr);
    EXPECT_NE(ResolveParam(*m, ui.run).number, 1024u);
    EXPECT_NE(ResolveParam(*gemm.FindParam("n"), ui.run).number, 2048u);
    SelectLesson(ui, registry, gemv.id);
    Frames(2);
    EXPECT_EQ(ui.run.params["m"].number, 1024u) << "GEMV's own values come back";
}

// The values every recorded result of `chapter`'s lessons shown from recordings was made at,
// for parameter `name`.
std::set<uint64_t> RecordedValues(const Controller& c, const Registry& reg,
                                  const std::string& chapter, const std::string& name) {
    std::set<uint64_t> out;
    for (const StoredResult& s : c.results()) {
        const Lesson* l = reg.FindLesson(s.result.lesson);
        if (s.origin == Origin::kRecorded && l && l->chapter == chapter &&
            c.Mode(*l) == LessonMode::kRecorded)
            if (const ParamValue* v = s.result.params.Find(name)) out.insert(v->number);
    }
    return out;
}

TEST_F(AppLogic, WithoutAGpuEveryLessonOpensWithAChartAtRecordedSettings) {
    for (const Lesson& l : registry.lessons()) {
        SelectLesson(ui, registry, l.id);
        Frames(2);
        EXPECT_GT(ChartPoints(*controller, registry, l, ui.run), 0)
            << l.label << " opens on an empty chart";
        if (controller->Mode(l) == LessonMode::kRecorded) {
            EXPECT_NE(ShownResult(*controller, registry, l, ui.run), nullptr)
                << l.label << " is shown from recordings but has none at the page's settings";
        }
    }
}

TEST_F(AppLogic, TheFirstLessonOpensAtTheSizeItsChapterWasRecordedAt) {
    const Lesson& first = registry.lessons().front();
    const ParamSpec* size = DataSizeParam(first);
    ASSERT_NE(size, nullptr);
    SelectLesson(ui, registry, "basics/global-vs-shared");
    Frames(2);
    SelectLesson(ui, registry, first.id);
    Frames(2);
    const uint64_t shown = ResolveParam(*size, ui.run).number;
    EXPECT_NE(shown, size->Default().number) << "its default has no recordings";
    EXPECT_TRUE(RecordedValues(*controller, registry, first.chapter, size->name).count(shown));
    // Within the chapter, the student's own value stays on a lesson that runs live.
    ui.run.params[size->name] = ParamValue::Number(8 << 20);
    SelectLesson(ui, registry, registry.LessonsOf(registry.ChapterOf(first))[1]->id);
    Frames(2);
    EXPECT_EQ(ResolveParam(*size, ui.run).number, 8u << 20);
}

TEST_F(AppLogic, AMultiGpuChapterOpensWithTheGpuCountItWasRecordedWith) {
    for (const Lesson& l : registry.lessons()) {
        const ParamSpec* gpus = GpuCountParam(l);
        if (!gpus || controller->Mode(l) != LessonMode::kRecorded) continue;
        const std::set<uint64_t> recorded =
            RecordedValues(*controller, registry, l.chapter, gpus->name);
        if (recorded.empty() || recorded.count(gpus->Default().number)) continue;
        SelectLesson(ui, registry, "split/naive-scan");
        Frames(2);
        SelectLesson(ui, registry, l.id);
        Frames(2);
        EXPECT_TRUE(recorded.count(ResolveParam(*gpus, ui.run).number))
            << l.label << " opens with " << ResolveParam(*gpus, ui.run).number << " GPUs";
        return;
    }
    GTEST_SKIP() << "no lesson recorded only with another GPU count than its default";
}

TEST_F(AppLogic, WithAGpuNothingSwitchesToRecordedSettings) {
    RestartWithGpu(3);
    // A chapter not visited yet (the fixture opened the first): its GPU lessons run here.
    const Lesson& gpu = Named("reduce/v1-shared-memory");
    ASSERT_NE(gpu.chapter, registry.lessons().front().chapter);
    SelectLesson(ui, registry, gpu.id);
    Frames(2);
    const ParamSpec* size = DataSizeParam(gpu);
    EXPECT_EQ(ResolveParam(*size, ui.run).number, size->Default().number);
}

TEST_F(AppLogic, ANewLessonOpensAtTheTopOfItsTextAndCode) {
    Open("split/naive-scan");
    for (const char* pane : {"text_pane", "code_pane"}) ScrollAt(Center(pane), 20, -5);
    Frames(2);
    ASSERT_GT(probe.text_scroll_y, 0) << "the text pane scrolled down";
    ASSERT_GT(probe.code_scroll_y, 0) << "the code pane scrolled down";
    Key(kKeyRight);
    EXPECT_EQ(ui.settings.lesson, registry.lessons()[1].id);
    EXPECT_EQ(probe.text_scroll_y, 0);
    EXPECT_EQ(probe.code_scroll_y, 0);
}

TEST_F(AppLogic, TheFirstRunPageOpensWithF1OrAQuestionMarkAndClosingItIsRemembered) {
    EXPECT_FALSE(ui.first_run_page);
    Key(kKeyF1);
    EXPECT_TRUE(ui.first_run_page);
    EXPECT_TRUE(probe.rects.count("first_run_page"));
    Key(kKeyEscape);
    EXPECT_FALSE(ui.first_run_page);
    EXPECT_TRUE(ui.settings.first_run_closed);
    ImGui::GetIO().AddInputCharacter('?');
    Frames(2);
    EXPECT_TRUE(ui.first_run_page);
    Key(kKeyF1);
    EXPECT_FALSE(ui.first_run_page) << "F1 closes it too";
    Click("help");
    EXPECT_TRUE(ui.first_run_page) << "the lesson list's help button";
    // "Start with lesson 1.1" opens the first lesson and closes the page.
    Open("reduce/v1-shared-memory");
    ui.first_run_page = true;
    Frames(2);
    Click("first_run_start");
    EXPECT_FALSE(ui.first_run_page);
    EXPECT_EQ(ui.settings.lesson, registry.lessons().front().id);
}

TEST_F(AppLogic, ButtonsThatCannotActHereAreDisabledAndKeysSayWhy) {
    const Lesson& gpu = Named("reduce/v1-shared-memory");
    ASSERT_EQ(controller->Mode(gpu), LessonMode::kRecorded);
    Open(gpu.id);
    EXPECT_FALSE(CannotRunWhy("en", *controller, registry, gpu).empty());
    EXPECT_NE(CannotRunWhy("en", *controller, registry, gpu).find("no NVIDIA GPU found"),
              std::string::npos);
    EXPECT_NE(CannotRunWhy("zh", *controller, registry, gpu).find("未找到 NVIDIA GPU"),
              std::string::npos)
        << "the worker's reason rendered from its id";
    sent.clear();
    Click("run");
    Click("sweep_blocks");
    EXPECT_TRUE(Runs().empty()) << "disabled";
    ui.messages.clear();
    Key(kKeyR);
    Key(kKeyS);  // opens the block-size sweep recorded at these settings (test_app_charts_panel)
    EXPECT_TRUE(Runs().empty());
    ASSERT_EQ(ui.messages.size(), 1u);
    EXPECT_NE(ui.messages[0].en.find("no NVIDIA GPU found"), std::string::npos)
        << ui.messages[0].en;
    EXPECT_NE(ui.messages[0].zh.find("未找到 NVIDIA GPU"), std::string::npos) << ui.messages[0].zh;
    // The prediction box never asks for a Run that cannot run.
    probe.open_all = true;
    ui.run.params["size"] = ParamValue::Number(3 << 20);  // nothing recorded at 3 MiB
    Frames(2);
    Key(kKeyS);  // no recorded sweep to show here: S says why
    ASSERT_EQ(ui.messages.size(), 2u);
    EXPECT_NE(ui.messages[1].en.find("no NVIDIA GPU found"), std::string::npos)
        << ui.messages[1].en;
    for (const std::string& line : probe.prediction)
        EXPECT_EQ(line.find(Tr("en", kPredPressRun)), std::string::npos) << line;
    // A CPU lesson runs: no reason, and the box says how to measure it.
    const Lesson& cpu = Named("split/openmp");
    EXPECT_TRUE(CannotRunWhy("en", *controller, registry, cpu).empty());
}

// The roofline page's "Measure the ceilings again" without a GPU: disabled, with the reason on
// hover, instead of restarting a worker that has nothing to measure.
TEST_F(AppLogic, MeasuringTheCeilingsAgainIsDisabledWithoutAGpu) {
    const Lesson& roofline = Named("roofline/roofline");
    ASSERT_EQ(controller->Mode(roofline), LessonMode::kRecorded);
    ImGui::GetIO().DisplaySize = ImVec2(1500, 2400);  // the whole roofline below the inset
    Open(roofline.id);
    probe.open_all = true;
    Frames(2);
    const int before = workers_started;
    Click("measure_ceilings");
    EXPECT_EQ(workers_started, before) << "a disabled button started a worker";
    EXPECT_FALSE(CannotRunWhy("en", *controller, registry, roofline).empty());
}

// The evidence section asks the worker for the step's counters and lists them, labelled with
// where they come from and why they are not live; beside the previous step's once that one
// has been asked; a refusal is said, not an empty table.
TEST_F(AppLogic, TheEvidenceSectionShowsTheCountersTheWorkerSends) {
    ImGui::GetIO().DisplaySize = ImVec2(1500, 4000);
    const Lesson& step = Named("gemv/warp-per-row");
    Open(step.id);
    probe.open_all = true;
    Frames(2);
    sent.clear();
    Click("profile_recorded");
    Frames(3);
    ASSERT_FALSE(sent.empty());
    EXPECT_EQ(sent.back()["op"], "profile");
    EXPECT_EQ(sent.back()["recorded"], true);
    const Controller::ProfileAnswer* answer = controller->Profile(step);
    ASSERT_NE(answer, nullptr);
    EXPECT_FALSE(answer->pending);
    ASSERT_FALSE(answer->profile.is_null());
    // Its focus (the shuffles) has a counter of its own: listed first, highlighted.
    ASSERT_GT(NcuMetrics(step).size(), 3u);
    EXPECT_EQ(probe.evidence_rows, 3);
    EXPECT_EQ(probe.evidence_highlighted, 1);
    // The previous step asked too: four columns (with the ratio), and the rows stay.
    controller->RequestProfile(*registry.FindLesson(step.previous), ui.run, true);
    Frames(3);
    EXPECT_EQ(probe.evidence_rows, 3);
    EXPECT_EQ(probe.evidence_highlighted, 1);
    // Another step opened and its recorded profile asked for.
    auto ask_recorded = [&](const Lesson& lesson) {
        Open(lesson.id);
        Frames(2);
        Click("profile_recorded");
    };
    // A profile whose fields are all of the wrong type is drawn, not thrown on.
    ask_recorded(Named("gemv/thread-per-row"));
    ASSERT_NO_THROW(Frames(3));
    EXPECT_EQ(probe.evidence_rows, 1);
    EXPECT_EQ(probe.evidence_highlighted, 0);
    // A chapter with nothing recorded: the error, no rows.
    const Lesson& basics = Named("basics/coalescing");
    ask_recorded(basics);
    Frames(3);
    ASSERT_NE(controller->Profile(basics), nullptr);
    EXPECT_TRUE(controller->Profile(basics)->profile.is_null());
    EXPECT_NE(controller->Profile(basics)->error.find("no counters"), std::string::npos);
    EXPECT_EQ(probe.evidence_rows, 0);
}

TEST_F(AppLogic, ALessonRunHereAndOneMarkedAnsweredShowInTheSettings) {
    Open("split/openmp");
    EXPECT_TRUE(ui.settings.visited.count("split/openmp"));
    EXPECT_FALSE(ui.settings.ran.count("split/openmp"));
    Click("run");
    Frames(2);
    ASSERT_EQ(Compares().size(), 1u) << "1.2 and 1.3, timed in turn";
    EXPECT_TRUE(ui.settings.ran.count("split/openmp"));
    EXPECT_TRUE(ui.settings.ran.count("split/even-positions")) << "the previous lesson ran too";
    EXPECT_FALSE(ui.settings.ran.count("split/naive-scan"));
    // The mark is at the end of the text, under its questions: scrolled to, then clicked.
    ScrollAt(Center("text_pane"), 60, -10);
    Frames(2);
    Click("answered");
    EXPECT_TRUE(ui.settings.answered.count("split/openmp"));
    Click("answered");
    EXPECT_FALSE(ui.settings.answered.count("split/openmp"));
}

TEST_F(AppLogic, TheFilterHidesLessonsThatDoNotMatch) {
    const std::string filter = "gemm/";
    std::snprintf(ui.lesson_filter, sizeof ui.lesson_filter, "%s", filter.c_str());
    Frames(2);
    for (const Lesson& l : registry.lessons())
        EXPECT_EQ(probe.rects.count("lesson_" + l.id) > 0, l.id.rfind(filter, 0) == 0) << l.id;
}

TEST(AppStudent, AKeysNoticeIsShownInChineseWithItsReason) {
    // A refused key leaves an English notice; the status bar says it in the page's language.
    const std::string en = Fmt(kWhyNoRun.en, "no GPU here");
    EXPECT_EQ(Say("zh", en), Fmt(kWhyNoRun.zh, Say("zh", "no GPU here").c_str()));
    const std::string chapter = Fmt(kWhyNoChapterRun.en, "no GPU here");
    EXPECT_EQ(Say("zh", chapter), Fmt(kWhyNoChapterRun.zh, Say("zh", "no GPU here").c_str()));
    EXPECT_EQ(Say("zh", kWhyNoBlock.en), kWhyNoBlock.zh);
}

TEST(AppStudent, EveryWordOfTheStudentsPathHasBothLanguages) {
    ExpectTranslatedAndInTheAtlas(kStudentWords);
}

// Tune: the worker's tuning of a step on this machine, its runs shown as a sweep, the page set
// to the values found (and auto-run measuring them); a lesson opens at the values tuned for
// this machine where the page holds the declared default, and says so.
TEST_F(AppLogic, TuneSetsThePageToWhatItFoundAndLessonsOpenAtTheirTunings) {
    const Lesson& openmp = Named("split/openmp");
    Open(openmp.id);
    Frames(2);
    sent.clear();
    Click("tune");
    Frames(3);
    std::vector<Json> tunes;
    for (const Json& r : sent)
        if (r["op"] == "tune") tunes.push_back(r);
    ASSERT_EQ(tunes.size(), 1u);
    EXPECT_EQ(tunes[0]["lesson"], openmp.id);
    EXPECT_FALSE(tunes[0]["params"].contains("threads")) << "what tune varies is left out";
    const Controller::TuneAnswer* a = controller->TuningOf(openmp);
    ASSERT_TRUE(a && a->tuning) << (a ? a->error : "no answer");
    EXPECT_EQ(a->saved_to, "/data/tunings.json");
    EXPECT_EQ(ResolveParam(*openmp.FindParam("threads"), ui.run).number, 1u);
    EXPECT_EQ(probe.tuned, "threads 1");
    int swept = 0;
    for (const StoredResult& s : controller->results()) swept += s.swept == "threads";
    EXPECT_EQ(swept, 3) << "the tuning's runs are a sweep along the thread count";
    // A lesson with nothing to tune (one thread, no block size): the button is disabled.
    Open("split/naive-scan");
    Frames(2);
    sent.clear();
    Click("tune");
    for (const Json& r : sent) EXPECT_NE(r["op"], "tune");
}

TEST_F(AppLogic, ALessonOpensAtTheValuesTunedForThisMachine) {
    char pattern[] = "/tmp/lessons-tunings-XXXXXX";
    const std::string dir = mkdtemp(pattern);
    setenv("XDG_DATA_HOME", dir.c_str(), 1);
    Tuning t;
    t.id = "split/openmp";
    t.machine = "CPU: Fake CPU";
    t.values.Set("threads", ParamValue::Number(1));
    t.best_ms = 1;
    t.default_ms = 2;
    t.when = "2026-11-27T10:00:00Z";
    SaveTuning(TuningsPath(), t);
    Tuning other = t;  // another machine's: not taken here
    other.machine = "CPU: Another CPU";
    other.values.Set("threads", ParamValue::Number(2));
    SaveTuning(TuningsPath(), other);
    Open("split/openmp");
    Frames(3);
    unsetenv("XDG_DATA_HOME");
    EXPECT_EQ(controller->MachineFor(Named("split/openmp")), "CPU: Fake CPU");
    EXPECT_EQ(ui.user_tunings.size(), 2u) << TuningsPath();
    EXPECT_EQ(ResolveParam(*Named("split/openmp").FindParam("threads"), ui.run).number, 1u);
    EXPECT_NE(probe.tuned.find("CPU: Fake CPU"), std::string::npos) << probe.tuned;
    EXPECT_NE(probe.tuned.find("threads 1"), std::string::npos) << probe.tuned;
    // The note follows the page's language (it was kept as English text once made).
    ui.settings.language = "zh";
    Frames(2);
    EXPECT_EQ(probe.tuned.rfind("按为 CPU: Fake CPU 调优的值打开", 0), 0u) << probe.tuned;
    ui.settings.language = "en";
}
