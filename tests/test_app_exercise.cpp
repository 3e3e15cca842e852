// The Exercise tab and what stands behind it without a window: the student's file (opened,
// saved as typed, read back after a restart, re-read when another editor changes it, kept
// aside on Start over, refused when it is not a text file), the controller's compile and run
// of a student's kernel (answers read field by field, results kept as yours and never as the
// step's, the time limit that restarts the worker), and the tab drawn and clicked.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "app_fixture.h"
#include "exercise.h"
#include "model/exercise_file.h"
#include "words/words_exercise.h"
#include "words/words_parsons.h"

namespace app_test {
namespace {

constexpr const char* kLesson = "gemv/warp-per-row";

std::string TempDir() {
    char pattern[] = "/tmp/lessons-exercise-XXXXXX";
    const char* dir = mkdtemp(pattern);
    EXPECT_NE(dir, nullptr);
    return dir ? dir : "/tmp";
}

std::string ReadAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void WriteAll(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// ---- the student's file ---------------------------------------------------------------

TEST(ExerciseFile, StartsFromTheStartingFileAndIsReadBackAfterARestart) {
    const std::string dir = TempDir();
    const std::string path = ExercisePath(dir, kLesson);
    EXPECT_EQ(path, dir + "/gemv-warp-per-row.cu");
    ExerciseFile f;
    std::string problem;
    ASSERT_TRUE(OpenExercise(&f, path, "start\n", &problem)) << problem;
    EXPECT_EQ(f.text, "start\n");
    EXPECT_EQ(ReadAll(path), "start\n") << "the starting file is written at once";
    f.text += "mine\n";
    EXPECT_TRUE(f.Dirty());
    ASSERT_TRUE(SaveExercise(&f, &problem)) << problem;
    EXPECT_FALSE(f.Dirty());
    ExerciseFile again;  // a new session of the GUI
    ASSERT_TRUE(OpenExercise(&again, path, "start\n", &problem));
    EXPECT_EQ(again.text, "start\nmine\n");
}

TEST(ExerciseFile, AnotherEditorsChangeIsReadAgain) {
    const std::string dir = TempDir();
    ExerciseFile f;
    std::string problem;
    ASSERT_TRUE(OpenExercise(&f, ExercisePath(dir, kLesson), "start\n", &problem));
    EXPECT_FALSE(ReloadIfChanged(&f, &problem)) << "nothing changed";
    usleep(20000);  // a modification time of its own
    WriteAll(f.path, "from my editor\n");
    EXPECT_TRUE(ReloadIfChanged(&f, &problem)) << problem;
    EXPECT_EQ(f.text, "from my editor\n");
    EXPECT_FALSE(f.Dirty());
    EXPECT_FALSE(ReloadIfChanged(&f, &problem)) << "read once";
}

TEST(ExerciseFile, StartOverKeepsTheStudentsTextBesideIt) {
    const std::string dir = TempDir();
    ExerciseFile f;
    std::string problem;
    ASSERT_TRUE(OpenExercise(&f, ExercisePath(dir, kLesson), "start\n", &problem));
    f.text = "hours of work\n";
    SaveExercise(&f, &problem);
    const std::string kept = ResetExercise(&f, "start\n", &problem);
    EXPECT_EQ(kept, f.path + ".bak");
    EXPECT_EQ(ReadAll(kept), "hours of work\n");
    EXPECT_EQ(ReadAll(f.path), "start\n");
    EXPECT_EQ(f.text, "start\n");
}

TEST(ExerciseFile, AFileThatIsNotTextIsNeitherReadNorWrittenOver) {
    const std::string dir = TempDir();
    std::string problem;
    // Binary (a NUL), not UTF-8, too large, a FIFO: each refused with its reason, the editor
    // holding the starting file, the file left as it is.
    const std::string binary = std::string("__global__ void k() {}\n") + '\0' + "x";
    const std::pair<std::string, std::string> cases[] = {
        {binary, "NUL"},
        {"caf\xe9\n", "UTF-8"},
        {std::string(kMaxExerciseFileBytes + 1, 'x'), "KiB"}};
    for (const auto& [content, why] : cases) {
        const std::string path = dir + "/case.cu";
        WriteAll(path, content);
        ExerciseFile f;
        problem.clear();
        EXPECT_FALSE(OpenExercise(&f, path, "start\n", &problem));
        EXPECT_NE(problem.find(why), std::string::npos) << problem;
        EXPECT_EQ(f.text, "start\n");
        f.text = "typed\n";
        EXPECT_TRUE(SaveExercise(&f, &problem));  // kept in memory only
        EXPECT_EQ(ReadAll(path), content) << "never written over";
    }
    const std::string fifo = dir + "/fifo.cu";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    ExerciseFile f;
    EXPECT_FALSE(OpenExercise(&f, fifo, "start\n", &problem));  // does not hang
    EXPECT_NE(problem.find("not a regular file"), std::string::npos) << problem;
}

TEST(ExerciseFile, TheDataFolderFollowsXdgDataHome) {
    const std::string dir = TempDir();
    setenv("XDG_DATA_HOME", dir.c_str(), 1);
    EXPECT_EQ(ExercisesDir(), dir + "/cuda-lessons/exercises");
    struct stat st {};
    EXPECT_EQ(stat((dir + "/cuda-lessons/exercises").c_str(), &st), 0);
    unsetenv("XDG_DATA_HOME");
}

// ---- the controller ---------------------------------------------------------------------

TEST(CompileReport, ReadsTheWorkersObjectAndRefusesFieldsOfAnotherType) {
    const Json good = {
        {"status", "error"},
        {"arch", "sm_90"},
        {"diagnostics", {{{"line", 3}, {"column", 5}, {"severity", "error"}, {"message", "x"}}}},
        {"kernel", nullptr}};
    const CompileReport r = CompileReportFromJson(good);
    EXPECT_EQ(r.status, "error");
    ASSERT_EQ(r.diagnostics.size(), 1u);
    EXPECT_EQ(r.diagnostics[0].line, 3);
    EXPECT_FALSE(r.has_kernel);
    for (const Json& bad : {Json::array(), Json{{"arch", "sm_90"}}, Json{{"status", 5}},
                            Json{{"status", "ok"}, {"diagnostics", "x"}},
                            Json{{"status", "ok"}, {"diagnostics", {{{"line", -1}}}}},
                            Json{{"status", "ok"}, {"diagnostics", {{{"line", 1e300}}}}},
                            Json{{"status", "ok"}, {"kernel", {{"registers", "many"}}}}})
        EXPECT_THROW(CompileReportFromJson(bad), std::runtime_error) << bad.dump();
}

// The app with its own data folder (XDG_DATA_HOME), where a student's kernels are kept.
class AppWithData : public AppLogic {
protected:
    void SetUp() override {
        data = TempDir();
        setenv("XDG_DATA_HOME", data.c_str(), 1);
        AppLogic::SetUp();
    }
    void TearDown() override {
        unsetenv("XDG_DATA_HOME");
        AppLogic::TearDown();
    }
    std::string data;
};

class AppExercise : public AppWithData {
protected:
    const Lesson& TheLesson() { return LessonNamed(registry, kLesson); }
    std::vector<Json> Sent(const std::string& op) const {
        std::vector<Json> out;
        for (const Json& r : sent)
            if (r["op"] == op) out.push_back(r);
        return out;
    }
    // The page at the lesson's Exercise tab.
    void OpenTab() {
        SelectLesson(ui, registry, kLesson);
        Frames(2);
        Click("tab_exercise");
        Frames(2);
    }
    void Type(const std::string& text) {
        for (char ch : text) {
            ImGui::GetIO().AddInputCharacter(static_cast<unsigned char>(ch));
            Frame();
        }
    }
};

TEST_F(AppExercise, ACompileIsAnsweredWithTheCompilersMessagesAndNoNotice) {
    controller->SubmitKernel(TheLesson(), ui.run, "ok line\nBAD line\n", false);
    const auto* a = controller->Exercise(TheLesson());
    ASSERT_NE(a, nullptr);
    EXPECT_TRUE(a->pending);
    EXPECT_TRUE(controller->Busy());
    EXPECT_EQ(controller->BusyWith(), "compiling your kernel for lesson 4.2");
    Frames(2);
    EXPECT_FALSE(a->pending);
    ASSERT_TRUE(a->compile);
    EXPECT_EQ(a->compile->status, "error");
    ASSERT_EQ(a->compile->diagnostics.size(), 1u);
    EXPECT_EQ(a->compile->diagnostics[0].line, 2);
    EXPECT_EQ(a->error, "your kernel did not compile");
    EXPECT_TRUE(controller->notices().empty()) << controller->notices().front();
    const Json request = Sent("compile").back();
    EXPECT_EQ(request["lesson"], kLesson);
    EXPECT_EQ(request["kernel"], "ok line\nBAD line\n");
}

TEST_F(AppExercise, ARunComesAfterThePreviousLessonAndTheStepAndIsKeptAsYours) {
    RestartWithGpu(2);
    sent.clear();
    const size_t results = controller->results().size();
    controller->SubmitKernel(TheLesson(), ui.run, "fine\n", true);
    // The previous lesson, the step, then the student's kernel, in one batch.
    ASSERT_EQ(Runs().size(), 3u);
    EXPECT_EQ(Runs()[0]["lesson"], "gemv/thread-per-row");
    EXPECT_EQ(Runs()[1]["lesson"], kLesson);
    EXPECT_FALSE(Runs()[1].contains("kernel"));
    EXPECT_EQ(Runs()[2]["lesson"], kLesson);
    EXPECT_EQ(Runs()[2]["kernel"], "fine\n");
    EXPECT_EQ(Runs()[2]["params"], Runs()[1]["params"]) << "measured at the same settings";
    Frames(2);
    const auto* a = controller->Exercise(TheLesson());
    ASSERT_TRUE(a && a->result);
    EXPECT_TRUE(a->result->yours);
    EXPECT_DOUBLE_EQ(a->result->median_ms, 40);
    EXPECT_EQ(controller->results().size(), results + 2) << "the two steps only";
    for (const StoredResult& s : controller->results()) EXPECT_FALSE(s.result.yours);
    ASSERT_EQ(controller->yours().size(), 1u);
    // The step's own bar stays the step's.
    const StoredResult* step = controller->Latest(TheLesson(), ParamValues{});
    ASSERT_NE(step, nullptr);
    EXPECT_DOUBLE_EQ(step->result.median_ms, 50);
}

// A step whose kernel is a template: the student's kernel is written for one tile, so it and the
// step it is compared with run at that tile, and the comparison shows the step's bar at it,
// whatever tile the page's control shows.
TEST_F(AppExercise, ATemplatedStepsKernelRunsAndIsComparedAtItsFixedChoice) {
    const char* kTiled = "gemm/vectorized-transposed-a";
    const lessons::Exercise* e = FindExercise(kTiled);
    ASSERT_TRUE(e && !e->fixed.empty());
    const std::string fixed = e->fixed.front().value;
    const Lesson& tiled = LessonNamed(registry, kTiled);
    const ParamSpec* tile = tiled.FindParam("tile");
    ASSERT_TRUE(tile && tile->choices.size() > 1);
    const std::string other = tile->choices.front() == fixed ? tile->choices[1] : tile->choices[0];
    RestartWithGpu(2);
    SelectLesson(ui, registry, kTiled);
    SetParam(&ui.run, "tile", ParamValue::Choice(other));
    Frames(2);
    Click("tab_exercise");
    Frames(2);
    sent.clear();
    controller->SubmitKernel(tiled, ui.run, "fine\n", true);
    ASSERT_EQ(Runs().size(), 3u);
    EXPECT_EQ(Runs()[1]["params"]["tile"], fixed) << "the step, at the kernel's tile";
    EXPECT_EQ(Runs()[2]["params"]["tile"], fixed) << "yours";
    EXPECT_EQ(ResolveParam(*tile, ui.run).choice, other) << "the page's control is left alone";
    Frames(3);
    EXPECT_DOUBLE_EQ(probe.exercise_yours_ms, 40);
    EXPECT_EQ(probe.exercise_bars, 3) << "the previous lesson, the step at " << fixed << ", yours";
}

TEST_F(AppExercise, AKernelPastTheTimeLimitRestartsTheWorkerAndSaysSo) {
    RestartWithGpu(2);
    const int started = workers_started;
    controller->SetKernelTimeLimit(1);
    worker->hang_kernels = true;
    FakeWorker* hung = worker;
    controller->SubmitKernel(TheLesson(), ui.run, "while (true) {}\n", true);
    Frames(2);
    const auto* a = controller->Exercise(TheLesson());
    ASSERT_TRUE(a->pending);
    EXPECT_EQ(hung->kills, 0);
    usleep(1'100'000);  // the limit, 1 s after the compile's answer
    Frames(3);          // killed (the fake is gone with it), and a new worker started
    EXPECT_EQ(workers_started, started + 1) << "a new worker";
    EXPECT_FALSE(a->pending);
    EXPECT_TRUE(a->timed_out);
    ASSERT_FALSE(controller->notices().empty());
    EXPECT_NE(controller->notices().back().find("ran longer than the limit of 1 s"),
              std::string::npos)
        << controller->notices().back();
    EXPECT_EQ(Say("zh", controller->notices().back()).find("limit"), std::string::npos)
        << "said in Chinese too";
    // Not a crash: more hung kernels never stop the worker for good.
    for (int i = 0; i < 4; ++i) {
        worker->hang_kernels = true;
        controller->SubmitKernel(TheLesson(), ui.run, "while (true) {}\n", true);
        Frames(2);
        usleep(1'100'000);
        Frames(3);
    }
    Frames(2);
    EXPECT_EQ(workers_started, started + 5);
    EXPECT_EQ(controller->WorkerState(), "idle");
}

TEST_F(AppExercise, AWorkerThatDiesWhileRunningTheKernelIsNamedInTheAnswer) {
    RestartWithGpu(2);
    worker->hang_kernels = true;
    controller->SubmitKernel(TheLesson(), ui.run, "*(int*)0 = 1;\n", true);
    Frames(2);
    worker->Push({{"type", "worker_exit"}, {"code", 3}, {"signal", 0}});
    Frames(2);
    const auto* a = controller->Exercise(TheLesson());
    EXPECT_FALSE(a->pending);
    EXPECT_NE(a->error.find("exit code 3"), std::string::npos) << a->error;
}

TEST_F(AppExercise, TheTabEditsSavesAndMarksTheCompilersLines) {
    OpenTab();
    EXPECT_EQ(ui.machine.tab, 3);
    const std::string path = ExercisePath(data + "/cuda-lessons/exercises", kLesson);
    EXPECT_EQ(ui.exercise.file.path, path);
    EXPECT_EQ(ReadAll(path), StartingFile(*FindExercise(kLesson)));
    // Click into the editor, type a line that does not compile.
    Click("exercise_editor");
    EXPECT_TRUE(ImGui::GetIO().WantTextInput) << "the editor takes the keys";
    Type("BAD\n");
    EXPECT_NE(ui.exercise.file.text.find("BAD\n"), std::string::npos);
    EXPECT_TRUE(ui.exercise.file.Dirty());
    Wait(0.6);  // a pause in typing: saved
    EXPECT_FALSE(ui.exercise.file.Dirty());
    EXPECT_NE(ReadAll(path).find("BAD\n"), std::string::npos);
    Click("exercise_compile");
    Frames(2);
    EXPECT_EQ(probe.exercise_compile, "error");
    EXPECT_EQ(probe.exercise_marked_lines, 1);
    ASSERT_TRUE(probe.rects.count("exercise_first_diagnostic"));
    // Run mine needs a GPU where the lesson runs: without one it is disabled.
    sent.clear();
    Click("exercise_run");
    EXPECT_TRUE(Sent("run").empty());
}

// A message about another file (the check appended to the student's file, an included
// header) names that file's lines: the editor marks none of the student's for it, and its chip
// names the file (issue 45, M1).
TEST_F(AppExercise, AMessageAboutAnotherFileMarksNoneOfTheStudentsLines) {
    OpenTab();
    ui.exercise.file.text = "ok line\n// ELSEWHERE\n";
    Click("exercise_compile");
    Frames(2);
    const auto* a = controller->Exercise(TheLesson());
    ASSERT_TRUE(a && a->compile);
    ASSERT_EQ(a->compile->diagnostics.size(), 1u);
    EXPECT_EQ(a->compile->diagnostics[0].file, "exercise-check");
    EXPECT_FALSE(a->compile->diagnostics[0].InStudentFile());
    EXPECT_EQ(probe.exercise_marked_lines, 0) << "line 1 of the check is not the student's line 1";
}

// Without a GPU a kernel that compiles is not called right: "compiled, not checked".
TEST_F(AppExercise, CompiledWithoutAGpuSaysItIsNotChecked) {
    OpenTab();
    ui.exercise.file.text = "ok line\n";
    Click("exercise_compile");
    Frames(2);
    EXPECT_EQ(probe.exercise_compile, "ok");
    EXPECT_TRUE(probe.exercise_not_checked);
}

// A compile whose answer is lost (a reply too long for the GUI to read is dropped) still ends
// with a status in the tab (issue 45, M10).
TEST_F(AppExercise, ALostCompileAnswerStillEndsWithAStatus) {
    OpenTab();
    worker->drop_compile_answer = true;
    Click("exercise_compile");
    Frames(2);
    const auto* a = controller->Exercise(TheLesson());
    ASSERT_NE(a, nullptr);
    EXPECT_FALSE(a->pending);
    EXPECT_FALSE(a->error.empty()) << "the tab says the answer was lost";
}

// Another lesson's exercise opens at its line 1, wherever the last editor was scrolled.
TEST_F(AppExercise, AnotherExerciseOpensAtItsFirstLine) {
    OpenTab();
    ui.exercise.file.text = std::string(200, '\n');
    Frames(2);
    const ImVec4 editor = probe.rects["exercise_editor"];  // its top: the text is taller
    ScrollAt(ImVec2((editor.x + editor.z) / 2, editor.y + 20), 5, -10);
    Frames(2);
    ASSERT_GT(probe.editor_scroll_y, 0);
    const Exercise* other = nullptr;
    for (const Exercise& e : Exercises())
        if (e.lesson != kLesson) other = &e;
    ASSERT_NE(other, nullptr);
    SelectLesson(ui, registry, other->lesson);
    Frames(2);
    ui.machine.select_tab = 3;
    Frames(3);
    EXPECT_EQ(probe.editor_scroll_y, 0);
}

TEST_F(AppExercise, TheEditorsTextOutlivesAWorkerThatDies) {
    OpenTab();
    Click("exercise_editor");
    Type("// mine\n");
    const std::string typed = ui.exercise.file.text;
    const int started = workers_started;
    worker->Push({{"type", "worker_exit"}, {"code", 3}, {"signal", 0}});
    Frames(3);
    EXPECT_EQ(workers_started, started + 1) << "a new worker";
    EXPECT_EQ(ui.exercise.file.text, typed);
    Wait(0.6);
    EXPECT_EQ(ReadAll(ui.exercise.file.path), typed) << "and saved";
}

TEST_F(AppExercise, HintsOneAtATimeAndTheSolutionBehindAButton) {
    OpenTab();
    const Exercise& e = *FindExercise(kLesson);
    for (size_t i = 0; i < e.hints.size(); ++i) {
        EXPECT_EQ(ui.exercise.hints_shown, static_cast<int>(i));
        Click("exercise_hint");
    }
    EXPECT_EQ(ui.exercise.hints_shown, static_cast<int>(e.hints.size()));
    Frames(1);
    EXPECT_FALSE(probe.rects.count("exercise_hint")) << "no more hints to show";
    EXPECT_FALSE(ui.exercise.solution);
    Click("exercise_solution");
    EXPECT_TRUE(ui.exercise.solution);
}

TEST_F(AppExercise, AnotherEditorsSaveIsReadAndCompiled) {
    OpenTab();
    sent.clear();
    usleep(20000);
    WriteAll(ui.exercise.file.path, "from my editor\nBAD\n");
    Wait(1.0);  // the file is looked at every 0.75 s
    EXPECT_EQ(ui.exercise.file.text, "from my editor\nBAD\n");
    ASSERT_EQ(Sent("compile").size(), 1u);
    EXPECT_EQ(Sent("compile")[0]["kernel"], "from my editor\nBAD\n");
    EXPECT_EQ(ui.exercise.note, kReloadedFromEditor.en);
}

TEST_F(AppExercise, TheStudentsTextSurvivesTheGuisRestart) {
    OpenTab();
    Click("exercise_editor");
    Type("// kept\n");
    SaveExerciseNow(ui);  // what closing the window does
    UiState fresh;        // the next session
    fresh.probe = &probe;
    fresh.fonts = ui.fonts;
    fresh.settings.scale = 1;
    fresh.fonts_dirty = false;
    ui = std::move(fresh);
    OpenTab();
    EXPECT_NE(ui.exercise.file.text.find("// kept\n"), std::string::npos);
}

TEST_F(AppExercise, EveryWordOfTheExercisesHasBothLanguagesInTheAtlas) {
    ExpectTranslatedAndInTheAtlas(kExerciseWords);
    ui.settings.language = "zh";
    ClearTranslationMisses();
    OpenTab();
    controller->SubmitKernel(TheLesson(), ui.run, "BAD\n", false);
    Frames(3);
    EXPECT_TRUE(TranslationMisses().empty()) << TranslationMisses().front();
}

// The check's verdicts (the speed target, the step's change) come from the worker, in the page's
// language: every CJK character of the sources that write them is in the atlas's texts (two of
// the instruction families' characters were in no other text, and were drawn as "?").
TEST(AppCheckWords, EveryChineseCharacterOfTheChecksVerdictsIsInTheAtlas) {
    // The code points of `s` from U+2E80 (CJK and its punctuation) up.
    const auto cjk = [](std::string_view s) {
        std::set<uint32_t> out;
        for (size_t i = 0; i < s.size();) {
            const auto c = static_cast<unsigned char>(s[i]);
            const int n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
            uint32_t cp = n == 1 ? c : c & (0x7F >> n);
            for (int k = 1; k < n && i + k < s.size(); ++k)
                cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
            if (cp >= 0x2E80) out.insert(cp);
            i += static_cast<size_t>(n);
        }
        return out;
    };
    std::set<uint32_t> atlas;
    for (std::string_view t : UiTexts(Catalog())) atlas.merge(cjk(t));
    for (const char* file : {"/cli/check.cpp", "/lessons/kernel_change.cpp"}) {
        std::ifstream in(std::string(LESSONS_SOURCE_DIR) + file);
        ASSERT_TRUE(in) << file;
        std::stringstream text;
        text << in.rdbuf();
        const std::set<uint32_t> used = cjk(text.str());
        EXPECT_GT(used.size(), 20u) << file << ": its Chinese texts were not found";
        for (uint32_t cp : used) EXPECT_TRUE(atlas.count(cp)) << file << ": U+" << std::hex << cp;
    }
}

TEST(AppParsons, EveryWordOfTheParsonsProblemsHasBothLanguagesInTheAtlas) {
    ExpectTranslatedAndInTheAtlas(kParsonsWords);
}

class AppCheck : public AppWithData {
protected:
    const Lesson& TheLesson() { return LessonNamed(registry, "gemv/warp-per-row"); }
    // `kernel` checked (two frames for the fake worker's answer): the lesson's exercise answer.
    const auto* Checked(const std::string& kernel) {
        controller->CheckKernel(TheLesson(), ui.run, kernel);
        Frames(2);
        return controller->Exercise(TheLesson());
    }
};

// "Check my kernel" with a GPU: every case listed as it comes, the failed one with its first
// mismatch, and the verdict: passed only where every case passed.
TEST_F(AppCheck, CasesAreListedWithTheFirstMismatchAndAFailureIsNoPass) {
    RestartWithGpu(2);
    sent.clear();
    controller->CheckKernel(TheLesson(), ui.run, "WRONG kernel\n");
    EXPECT_EQ(controller->BusyWith(), "checking your kernel for lesson 4.2");
    EXPECT_EQ(controller->BusyWith("zh"), "检查你为第 4.2 课写的 kernel");
    ASSERT_FALSE(sent.empty());
    EXPECT_EQ(sent.back()["op"], "check");
    EXPECT_EQ(sent.back()["kernel"], "WRONG kernel\n");
    Frames(2);
    const auto* a = controller->Exercise(TheLesson());
    ASSERT_NE(a, nullptr);
    EXPECT_FALSE(a->pending);
    EXPECT_TRUE(a->checking);
    ASSERT_EQ(a->cases.size(), 3u);
    EXPECT_TRUE(a->cases[0].passed);
    EXPECT_FALSE(a->cases[2].passed);
    EXPECT_EQ(a->cases[2].message, "y[8192] = 0, expected 8195");
    EXPECT_EQ(a->cases[2].name_zh, "8193 x 8195（中）");
    EXPECT_TRUE(a->check_done);
    EXPECT_TRUE(a->checked);
    EXPECT_FALSE(a->check_passed);
    // A wrong kernel's speed is not judged.
    ASSERT_TRUE(a->speed);
    EXPECT_FALSE(a->speed->judged);
    EXPECT_FALSE(a->speed->passed);
    EXPECT_EQ(a->speed->why_not, "a hidden case failed");
    // A right one passes, and meets the speed target (1.05 ms beside the step's 1 ms).
    a = Checked("fine\n");
    ASSERT_EQ(a->cases.size(), 3u) << "the newest check's cases only";
    EXPECT_TRUE(a->check_passed);
    ASSERT_TRUE(a->speed);
    EXPECT_TRUE(a->speed->judged);
    EXPECT_TRUE(a->speed->passed);
    EXPECT_DOUBLE_EQ(a->speed->yours_ms, 1.05);
    EXPECT_DOUBLE_EQ(a->speed->step_ms, 1.0);
    EXPECT_TRUE(a->timing.empty()) << "the timing is over once the summary came";
    // Right and slow: correctness passes, speed does not; shown apart.
    a = Checked("SLOW but fine\n");
    EXPECT_TRUE(a->check_passed);
    ASSERT_TRUE(a->speed);
    EXPECT_TRUE(a->speed->judged);
    EXPECT_FALSE(a->speed->passed);
    EXPECT_EQ(a->speed->verdict, "") << "an older worker's summary has no verdict";
    // A worker that times the two kernels in turn: its verdict and its words, both languages.
    a = Checked("TURNS and SLOW\n");
    ASSERT_TRUE(a->speed);
    EXPECT_FALSE(a->speed->passed);
    EXPECT_EQ(a->speed->verdict, "slower");
    EXPECT_EQ(a->speed->text_zh, "速度：你的 2.000 ms：未达到 —— 慢了 100%");
    a = Checked("TURNS\n");
    ASSERT_TRUE(a->speed);
    EXPECT_TRUE(a->speed->passed);
    EXPECT_EQ(a->speed->verdict, "within-noise");
    EXPECT_TRUE(a->speed->text.ends_with("within noise of the target")) << a->speed->text;
    // The page draws both verdicts in either language, every word translated.
    ui.settings.language = "zh";
    ClearTranslationMisses();
    SelectLesson(ui, registry, "gemv/warp-per-row");
    Frames(2);
    Click("tab_exercise");
    Frames(3);
    EXPECT_TRUE(TranslationMisses().empty()) << TranslationMisses().front();
    // A compile afterwards is no check: its answer does not show the old cases.
    controller->SubmitKernel(TheLesson(), ui.run, "fine\n", false);
    Frames(2);
    a = controller->Exercise(TheLesson());
    EXPECT_FALSE(a->checking);
    EXPECT_TRUE(a->cases.empty());
}

// Without a GPU: compiled, not checked, in both languages, and never a pass.
// A right kernel without the step's change (lessons/kernel_change.h: a start left as it is) is
// no pass: the check's words for the change come with it, in both languages.
TEST_F(AppCheck, ARightKernelWithoutTheStepsChangeIsNotPassed) {
    RestartWithGpu(2);
    const auto* a = Checked("START kernel\n");
    ASSERT_NE(a, nullptr);
    EXPECT_TRUE(a->checked);
    for (const auto& k : a->cases) EXPECT_TRUE(k.passed) << k.name;
    EXPECT_FALSE(a->check_passed);
    EXPECT_TRUE(a->change_judged);
    EXPECT_FALSE(a->change_present);
    EXPECT_NE(a->change_text.find("NOT found"), std::string::npos) << a->change_text;
    EXPECT_NE(a->change_text_zh.find("未找到"), std::string::npos) << a->change_text_zh;
    EXPECT_STREQ(Tr("en", kCheckRightNoChange),
                 "Not passed yet: all %d hidden cases are right, but the step's change is not in "
                 "your kernel (below).");
    // The same kernel with the change passes.
    a = Checked("fine\n");
    EXPECT_TRUE(a->check_passed);
    EXPECT_TRUE(a->change_present);
    EXPECT_NE(a->change_text.find("-- found"), std::string::npos) << a->change_text;
}

TEST_F(AppCheck, WithoutAGpuItSaysCompiledNotCheckedAndNeverPasses) {
    const auto* a = Checked("fine\n");
    ASSERT_NE(a, nullptr);
    EXPECT_FALSE(a->pending);
    ASSERT_TRUE(a->compile);
    EXPECT_EQ(a->compile->status, "ok");
    EXPECT_TRUE(a->check_done);
    EXPECT_FALSE(a->checked);
    EXPECT_FALSE(a->check_passed);
    EXPECT_TRUE(a->cases.empty());
    EXPECT_EQ(a->not_checked, "compiled, not checked: needs a GPU (no GPU here)");
    EXPECT_EQ(a->not_checked_zh, "已编译，未检查：需要 GPU（没有 GPU）");
    ASSERT_TRUE(a->speed) << "the speed target says it was not judged";
    EXPECT_FALSE(a->speed->judged);
    EXPECT_EQ(a->speed->why_not, "needs a GPU (no GPU here)");
    EXPECT_STREQ(Tr("en", kCheckNotChecked), "Compiled, not checked: needs a GPU.");
    EXPECT_STREQ(Tr("zh", kCheckNotChecked), "已编译，未检查：需要 GPU。");
}

// A kernel that does not compile: the compiler's answer, no cases, no verdict.
TEST_F(AppCheck, AKernelThatDoesNotCompileIsNotChecked) {
    RestartWithGpu(2);
    const auto* a = Checked("BAD\n");
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(a->compile->status, "error");
    EXPECT_EQ(a->error, "your kernel did not compile");
    EXPECT_FALSE(a->check_done);
    EXPECT_FALSE(a->check_passed);
}

}  // namespace
}  // namespace app_test
