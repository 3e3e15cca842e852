// The student's progress a teacher can read (issue 41, items 5 and 7): the file's model
// (lessons/progress.h), kept safely (a lock, a corrupt file set aside and never lost), and the
// GUI's use of it: checks and predictions recorded, marks in the lesson list, a skipped
// prediction said, a scored one kept, the export.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <dirent.h>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "app_fixture.h"
#include "model/progress_book.h"
#include "progress.h"
#include "words/words_student.h"

using namespace app_test;

namespace {

std::string Slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> FilesIn(const std::string& dir) {
    std::vector<std::string> out;
    if (DIR* d = opendir(dir.c_str())) {
        while (const dirent* e = readdir(d))
            if (e->d_name[0] != '.') out.push_back(e->d_name);
        closedir(d);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string NewDir() {
    char dir[] = "/tmp/cuda-lessons-progress-test-XXXXXX";
    return mkdtemp(dir) ? dir : "/tmp";
}

bool Contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

TEST(Progress, AChecksRecordKeepsTheFirstPassAndTheBestSpeed) {
    Progress p;
    CheckRecord wrong;
    wrong.cases_failed = 2;
    wrong.cases_total = 9;
    RecordCheck(p, "gemv/warp-per-row", wrong, "2026-11-29T08:00:00Z");
    ExerciseProgress e = p.exercises["gemv/warp-per-row"];
    EXPECT_EQ(e.checks, 1);
    EXPECT_FALSE(e.correct);
    EXPECT_EQ(e.last_speed, "not judged");
    EXPECT_EQ(e.last_cases_failed, 2);
    // Right and slow, then right and fast.
    CheckRecord slow{true, 0, 9, true, false, 2.0, 1.0};
    RecordCheck(p, "gemv/warp-per-row", slow, "2026-11-29T08:10:00Z");
    CheckRecord fast{true, 0, 9, true, true, 1.05, 1.0};
    RecordCheck(p, "gemv/warp-per-row", fast, "2026-11-29T08:20:00Z");
    // A wrong one afterwards keeps what was earned.
    RecordCheck(p, "gemv/warp-per-row", wrong, "2026-11-29T08:30:00Z");
    e = p.exercises["gemv/warp-per-row"];
    EXPECT_EQ(e.checks, 4);
    EXPECT_TRUE(e.correct);
    EXPECT_EQ(e.correct_at, "2026-11-29T08:10:00Z");
    EXPECT_TRUE(e.speed_met);
    EXPECT_EQ(e.speed_met_at, "2026-11-29T08:20:00Z");
    EXPECT_DOUBLE_EQ(e.best_ratio, 1.05);
    EXPECT_DOUBLE_EQ(e.yours_ms, 1.05);
    EXPECT_FALSE(e.last_correct);
    EXPECT_EQ(e.last_at, "2026-11-29T08:30:00Z");
    // A speed "met" without a right answer is no speed verdict.
    Progress q;
    RecordCheck(q, "x", CheckRecord{false, 1, 9, true, true, 1, 1}, "t");
    EXPECT_FALSE(q.exercises["x"].speed_met);
}

// A check passes where every case is right and the step's change (lessons/kernel_change.h) is
// in the kernel: a right start without it is kept as right, not passed.
TEST(Progress, ARightKernelWithoutTheStepsChangeIsNotPassed) {
    Progress p;
    CheckRecord start{true, 0, 12, true, true, 1.0, 1.0};
    start.change = "missing";
    RecordCheck(p, "split/shared-memory", start, "t1");
    ExerciseProgress e = p.exercises["split/shared-memory"];
    EXPECT_FALSE(e.correct);
    EXPECT_TRUE(e.last_correct);
    EXPECT_EQ(e.last_change, "missing");
    CheckRecord done = start;
    done.change = "found";
    RecordCheck(p, "split/shared-memory", done, "t2");
    e = p.exercises["split/shared-memory"];
    EXPECT_TRUE(e.correct);
    EXPECT_EQ(e.correct_at, "t2");
    EXPECT_EQ(e.last_change, "found");
    // Kept in the file, and read back; a value of another kind is named.
    size_t skipped = 0;
    const Progress back = ProgressFromJson(ToJson(p), &skipped);
    EXPECT_EQ(back.exercises.at("split/shared-memory").last_change, "found");
    nlohmann::ordered_json bad = ToJson(p);
    bad["exercises"][0]["last_change"] = "maybe";
    const Progress bad_back = ProgressFromJson(bad, &skipped);
    EXPECT_EQ(skipped, 1u);
    EXPECT_TRUE(bad_back.exercises.empty());
}

TEST(Progress, APredictionIsScoredByHowFarOffItIs) {
    EXPECT_DOUBLE_EQ(*OffBy(2, 1), 2.0);
    EXPECT_DOUBLE_EQ(*OffBy(1, 4), 4.0);
    EXPECT_DOUBLE_EQ(*OffBy(3, 3), 1.0);
    EXPECT_FALSE(OffBy(0, 1));
    EXPECT_FALSE(OffBy(1, NAN));
    Progress p;
    RecordPrediction(p, "a", 30, "ms", "t1");
    EXPECT_TRUE(ScorePrediction(p, "a", 50, "t2"));
    EXPECT_FALSE(ScorePrediction(p, "a", 50, "t3")) << "the same score is not written again";
    EXPECT_NEAR(*p.predictions["a"].off_by, 50.0 / 30, 1e-12);
    EXPECT_EQ(p.predictions["a"].scored_at, "t2");
    RecordPrediction(p, "a", 30, "ms", "t4");  // unchanged: its score stays
    EXPECT_TRUE(p.predictions["a"].off_by);
    RecordPrediction(p, "a", 60, "ms", "t5");  // a new guess: scored anew
    EXPECT_FALSE(p.predictions["a"].off_by);
    EXPECT_EQ(p.predictions["a"].made_at, "t5");
    RecordSkip(p, "b", "t6");
    EXPECT_TRUE(p.predictions["b"].skipped);
    EXPECT_FALSE(ScorePrediction(p, "b", 1, "t7")) << "a skipped prediction has no score";
    RecordPrediction(p, "c", -1, "ms", "t");
    RecordPrediction(p, "c", 1, "s", "t");
    EXPECT_EQ(p.predictions.count("c"), 0u) << "no guess of another shape is kept";
    ForgetPrediction(p, "a");
    EXPECT_EQ(p.predictions.count("a"), 0u);
}

TEST(Progress, TheFileIsWrittenReadAndExportedForATeacher) {
    const std::string dir = NewDir();
    const std::string path = dir + "/sub/progress.json";
    std::string notice;
    UpdateProgress(
        path,
        [](Progress& p) {
            RecordCheck(p, "gemv/warp-per-row", CheckRecord{true, 0, 9, true, true, 1.0, 1.0},
                        "2026-11-29T08:00:00Z");
            RecordPrediction(p, "split/one-thread-per-pair", 30, "ms", "2026-11-29T08:01:00Z");
            ScorePrediction(p, "split/one-thread-per-pair", 50, "2026-11-29T08:02:00Z");
            RecordSkip(p, "reduce/cub", "2026-11-29T08:03:00Z");
        },
        &notice);
    EXPECT_EQ(notice, "");
    std::string problem;
    const Progress p = ReadProgress(path, &problem);
    EXPECT_EQ(problem, "");
    ASSERT_EQ(p.exercises.size(), 1u);
    ASSERT_EQ(p.predictions.size(), 2u);
    EXPECT_TRUE(p.exercises.at("gemv/warp-per-row").speed_met);
    const auto label = [](const std::string& id) { return id == "reduce/cub" ? "3.9" : "?"; };
    const std::string csv = ProgressCsv(p, "ada", label);
    EXPECT_TRUE(csv.starts_with("student,lesson,label,exercise_correct,correct_at,speed_met,"))
        << csv;
    EXPECT_TRUE(Contains(csv, "ada,gemv/warp-per-row,?,yes,2026-11-29T08:00:00Z,yes,")) << csv;
    EXPECT_TRUE(Contains(csv, "ada,reduce/cub,3.9,,,,,,,,,,,,,,,yes,2026-11-29T08:03:00Z,")) << csv;
    EXPECT_TRUE(Contains(csv, ",30,ms,50,1.66667,no,2026-11-29T08:01:00Z,2026-11-29T08:02:00Z"))
        << csv;
    // Every row has the header's columns (the last four: the lesson's Parsons problem).
    std::istringstream lines(csv);
    for (std::string line; std::getline(lines, line);)
        EXPECT_EQ(std::count(line.begin(), line.end(), ','), 23) << line;
    EXPECT_EQ(ProgressCsv(Progress{}, "a,b", {}).find("a,b"), std::string::npos);
    const nlohmann::ordered_json j = ProgressExport(p, "ada", label);
    EXPECT_EQ(j["student"], "ada");
    EXPECT_EQ(j["exercises"][0]["lesson"], "gemv/warp-per-row");
    EXPECT_EQ(j["exercises"][0]["correct"], true);
    EXPECT_EQ(j["predictions"][0]["label"], "3.9");
    EXPECT_EQ(j["predictions"][0]["skipped"], true);
    EXPECT_NEAR(j["predictions"][1]["off_by"].get<double>(), 50.0 / 30, 1e-9);
    std::system(("rm -rf '" + dir + "'").c_str());  // NOLINT: the test's own folder
}

TEST(Progress, ACorruptFileIsSetAsideNeverLost) {
    const std::string dir = NewDir();
    const std::string path = dir + "/progress.json";
    for (const std::string& bad :
         {std::string("{\"format\": \"cuda-lessons progress 1\", \"exercises\": [tru"),
          std::string("[1, 2, 3]"), std::string("\x01\x02 not json")}) {
        std::ofstream(path) << bad;
        std::string problem;
        bool corrupt = false;
        EXPECT_TRUE(ReadProgress(path, &problem, &corrupt).empty());
        EXPECT_TRUE(corrupt) << bad;
        EXPECT_TRUE(Contains(problem, path)) << problem;
        std::string notice;
        UpdateProgress(
            path, [](Progress& p) { RecordSkip(p, "reduce/cub", "t"); }, &notice);
        EXPECT_TRUE(Contains(notice, "set aside as " + path + ".corrupt-")) << notice;
        // The damaged bytes are kept as they were, under a name of their own.
        bool kept = false;
        for (const std::string& f : FilesIn(dir))
            if (f.starts_with("progress.json.corrupt-") && Slurp(dir + "/" + f) == bad) kept = true;
        EXPECT_TRUE(kept) << bad;
        EXPECT_EQ(ReadProgress(path, nullptr).predictions.size(), 1u)
            << "a new file, with the change";
    }
    // Three files set aside, none overwritten (names made unique within one second).
    size_t aside = 0;
    for (const std::string& f : FilesIn(dir)) aside += f.starts_with("progress.json.corrupt-");
    EXPECT_EQ(aside, 3u);
    // One entry of the wrong shape: the file is set aside whole; the good entries carry over.
    std::ofstream(path) << R"({"format": "cuda-lessons progress 1", "exercises": [
        {"lesson": "gemv/warp-per-row", "correct": true, "checks": 2},
        {"lesson": "gemm/naive", "correct": "very"}], "predictions": []})";
    std::string notice;
    UpdateProgress(
        path, [](Progress&) {}, &notice);
    EXPECT_TRUE(Contains(notice, "1 entry of the wrong shape")) << notice;
    EXPECT_TRUE(Contains(notice, "with the entries that could be read")) << notice;
    const Progress p = ReadProgress(path, nullptr);
    EXPECT_EQ(p.exercises.size(), 1u);
    EXPECT_TRUE(p.exercises.at("gemv/warp-per-row").correct);
    std::system(("rm -rf '" + dir + "'").c_str());  // NOLINT: the test's own folder
}

TEST(Progress, ProgramsRecordingAtOnceLoseNothing) {
    const std::string dir = NewDir();
    const std::string path = dir + "/progress.json";
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < 10; ++i)
                UpdateProgress(
                    path,
                    [&](Progress& p) {
                        RecordCheck(p, "lesson-" + std::to_string(t), CheckRecord{}, "t");
                    },
                    nullptr);
        });
    for (std::thread& t : threads) t.join();
    const Progress p = ReadProgress(path, nullptr);
    ASSERT_EQ(p.exercises.size(), 4u);
    for (const auto& [id, e] : p.exercises) EXPECT_EQ(e.checks, 10) << id;
    std::system(("rm -rf '" + dir + "'").c_str());  // NOLINT: the test's own folder
}

TEST(Progress, ThePathIsInTheDataFolder) {
    const auto env = [](std::map<std::string, const char*> vars) {
        return [vars](const char* name) -> const char* {
            const auto it = vars.find(name);
            return it == vars.end() ? nullptr : it->second;
        };
    };
    EXPECT_EQ(ProgressPath(env({{"XDG_DATA_HOME", "/data"}, {"HOME", "/home/u"}})),
              "/data/cuda-lessons/progress.json");
    EXPECT_EQ(ProgressPath(env({{"XDG_DATA_HOME", "rel"}, {"HOME", "/home/u"}})),
              "/home/u/.local/share/cuda-lessons/progress.json");
    EXPECT_EQ(ProgressPath(env({})), "");
}

// The GUI: a check kept as it finishes, with its mark in the lesson list; a guess kept once the
// field is left and scored once measured; a skip said; the export; a corrupt file set aside.
class AppProgress : public AppLogic {
protected:
    Progress File() { return ReadProgress(progress_dir + "/progress.json", nullptr); }
};

TEST_F(AppProgress, APassedCheckIsKeptAndMarkedInTheLessonList) {
    RestartWithGpu(2);
    const Lesson& lesson = *registry.FindLesson("gemv/warp-per-row");
    controller->CheckKernel(lesson, ui.run, "WRONG kernel\n");
    Frames(3);
    EXPECT_EQ(File().exercises.at(lesson.id).checks, 1);
    EXPECT_FALSE(File().exercises.at(lesson.id).correct);
    EXPECT_EQ(probe.progress_marks.count(lesson.id), 0u) << "no mark for a failed check";
    controller->CheckKernel(lesson, ui.run, "SLOW but fine\n");
    Frames(3);
    EXPECT_TRUE(File().exercises.at(lesson.id).correct);
    EXPECT_FALSE(File().exercises.at(lesson.id).speed_met);
    EXPECT_EQ(probe.progress_marks[lesson.id], "passed");
    controller->CheckKernel(lesson, ui.run, "fine\n");
    Frames(3);
    const ExerciseProgress e = File().exercises.at(lesson.id);
    EXPECT_EQ(e.checks, 3);
    EXPECT_TRUE(e.speed_met);
    EXPECT_DOUBLE_EQ(e.yours_ms, 1.05);
    EXPECT_DOUBLE_EQ(e.step_ms, 1.0);
    EXPECT_EQ(probe.progress_marks[lesson.id], "passed-fast");
    // Without a GPU a check is not one: nothing is kept.
    RestartWithGpu(2, false);
    controller->CheckKernel(lesson, ui.run, "fine\n");
    Frames(3);
    EXPECT_EQ(File().exercises.at(lesson.id).checks, 3);
}

TEST_F(AppProgress, AGuessIsKeptScoredAndASkipIsSaid) {
    const std::string id = "split/one-thread-per-pair";
    OpenOnTheGpuAt1GiB(id);
    Click("guess_input");
    for (const char ch : std::string("30")) ImGui::GetIO().AddInputCharacter(ch);
    Frames(2);
    EXPECT_EQ(File().predictions.count(id), 0u) << "not while the field is typed in";
    Click("title");  // the field loses the focus
    Frames(2);
    ASSERT_EQ(File().predictions.count(id), 1u);
    EXPECT_DOUBLE_EQ(File().predictions.at(id).value, 30);
    EXPECT_EQ(File().predictions.at(id).unit, "ms");
    EXPECT_EQ(probe.progress_marks[id], "predicted");
    Click("run");
    Frames(3);
    // The fake worker times 50 ms: "off by 1.67x", on the page and in the file.
    EXPECT_EQ(probe.guess_scored, "You predicted 30.0 ms, measured 50.0 ms: off by 1.67\xC3\x97.");
    ASSERT_TRUE(File().predictions.at(id).off_by);
    EXPECT_NEAR(*File().predictions.at(id).off_by, 50.0 / 30, 1e-9);
    EXPECT_DOUBLE_EQ(*File().predictions.at(id).measured, 50);
    ui.settings.language = "zh";
    Frames(2);
    EXPECT_EQ(probe.guess_scored, "你预测 30.0 ms，测得 50.0 ms：相差 1.67 倍。");
    ui.settings.language = "en";
    Frames(2);
    // Cleared: forgotten.
    Click("guess_clear");
    Frames(2);
    EXPECT_EQ(File().predictions.count(id), 0u);
    // Another lesson skipped: the page says so, the file and the list keep it.
    const std::string other = "split/naive-scan";
    Open(other);
    Frames(2);
    Click("guess_skip");
    Frames(2);
    EXPECT_TRUE(probe.guess_skipped);
    ASSERT_EQ(File().predictions.count(other), 1u);
    EXPECT_TRUE(File().predictions.at(other).skipped);
    EXPECT_EQ(probe.progress_marks[other], "skipped");
    // A guess after all replaces the skip.
    Click("guess_input");
    for (const char ch : std::string("5")) ImGui::GetIO().AddInputCharacter(ch);
    Frames(2);
    Click("title");
    Frames(2);
    EXPECT_FALSE(File().predictions.at(other).skipped);
    EXPECT_DOUBLE_EQ(File().predictions.at(other).value, 5);
}

// Before the run the student may pick one of four choices built from the model's bound: 1x, 2x,
// 5x and 10x its time; the pick is their guess, kept and scored like a typed one.
TEST_F(AppProgress, AGuessCanBePickedFromFourChoicesBuiltFromTheBound) {
    const std::string id = "split/one-thread-per-pair";
    OpenOnTheGpuAt1GiB(id);
    for (const char* choice :
         {"guess_choice_1", "guess_choice_2", "guess_choice_5", "guess_choice_10"})
        EXPECT_TRUE(probe.rects.count(choice)) << choice;
    // The whole run's bound: 1 GiB over PCIe at 55 GB/s, the kernel at 3150 GB/s, 8 B back.
    const double bound = 1073741824.0 / 55e9 * 1e3 + 1073741824.0 / 3150e9 * 1e3 + 8 / 50e9 * 1e3;
    Click("guess_choice_5");
    Frames(2);
    ASSERT_EQ(ui.settings.guesses.count(id), 1u);
    EXPECT_NEAR(ui.settings.guesses[id].value, 5 * bound, 1e-9 * bound);
    EXPECT_FALSE(ui.settings.guesses[id].speedup);
    EXPECT_FALSE(probe.rects.count("guess_choice_5")) << "the choices are for before a guess";
    ASSERT_EQ(File().predictions.count(id), 1u);
    EXPECT_NEAR(File().predictions.at(id).value, 5 * bound, 1e-9 * bound);
    // A CPU step has no bound: no choices.
    Open("split/naive-scan");
    Frames(2);
    EXPECT_FALSE(probe.rects.count("guess_choice_1"));
}

// A Parsons order (lessons/parsons.h) is checked apart from the exercise: its answer is its own,
// no exercise check is kept for it, each attempt is kept as one (wrong, did not compile, solved,
// not checked) and a solved problem is marked in the lesson list.
TEST_F(AppProgress, AParsonsOrderIsCheckedApartFromTheExerciseKeptAndMarked) {
    RestartWithGpu(2);
    const Lesson& lesson = *registry.FindLesson("gemv/warp-per-row");
    controller->CheckParsons(lesson, ui.run, "WRONG kernel\n");
    Frames(3);
    ASSERT_NE(controller->Parsons(lesson), nullptr);
    EXPECT_TRUE(controller->Parsons(lesson)->check_done);
    EXPECT_FALSE(controller->Parsons(lesson)->check_passed);
    EXPECT_EQ(controller->Exercise(lesson), nullptr) << "the exercise's answer is its own";
    EXPECT_EQ(File().exercises.count(lesson.id), 0u) << "an order is no check of the exercise";
    EXPECT_EQ(File().parsons.at(lesson.id).attempts, 1);
    EXPECT_EQ(File().parsons.at(lesson.id).last_result, "wrong");
    EXPECT_EQ(probe.progress_marks.count(lesson.id), 0u) << "no mark for a wrong order";
    controller->CheckParsons(lesson, ui.run, "BAD line\n");
    Frames(3);
    EXPECT_EQ(File().parsons.at(lesson.id).last_result, "did not compile");
    controller->CheckParsons(lesson, ui.run, "fine\n");
    Frames(3);
    EXPECT_TRUE(File().parsons.at(lesson.id).solved);
    EXPECT_EQ(File().parsons.at(lesson.id).attempts, 3);
    EXPECT_EQ(probe.progress_marks[lesson.id], "parsons");
    // Without a GPU: compiled, not checked, and kept as such (the problem stays solved).
    RestartWithGpu(2, false);
    controller->CheckParsons(lesson, ui.run, "fine\n");
    Frames(3);
    EXPECT_EQ(File().parsons.at(lesson.id).last_result, "not checked");
    EXPECT_TRUE(File().parsons.at(lesson.id).solved);
    EXPECT_EQ(File().exercises.count(lesson.id), 0u);
}

// A check kept by `cuda-lessons-cli check` while the GUI is open shows once a lesson opens.
TEST_F(AppProgress, AChecksKeptByTheCliShowsAsALessonOpens) {
    Open("split/naive-scan");
    Frames(2);
    EXPECT_EQ(probe.progress_marks.count("gemv/warp-per-row"), 0u);
    UpdateProgress(
        progress_dir + "/progress.json",
        [](Progress& p) {
            RecordCheck(p, "gemv/warp-per-row", CheckRecord{true, 0, 9, true, false, 2, 1}, "t");
        },
        nullptr);
    Open("gemv/warp-per-row");
    Frames(2);
    EXPECT_EQ(probe.progress_marks["gemv/warp-per-row"], "passed");
}

TEST_F(AppProgress, TheExportWritesCsvAndJsonForATeacher) {
    ChangeProgress(
        &ui.progress,
        [](Progress& p) {
            RecordCheck(p, "gemv/warp-per-row", CheckRecord{true, 0, 9, true, true, 1, 1}, "t");
        },
        nullptr);
    ui.export_dir = progress_dir + "/exports";
    Frames(2);
    Click("export_progress");
    Frames(1);
    const std::vector<std::string> files = FilesIn(ui.export_dir);
    ASSERT_EQ(files.size(), 2u);
    EXPECT_TRUE(files[0].starts_with("progress-") && files[0].ends_with(".csv")) << files[0];
    EXPECT_TRUE(files[1].ends_with(".json")) << files[1];
    const std::string csv = Slurp(ui.export_dir + "/" + files[0]);
    const std::string label = registry.FindLesson("gemv/warp-per-row")->label;
    EXPECT_TRUE(Contains(csv, ",gemv/warp-per-row," + label + ",yes,t,yes,t,1,1,1,")) << csv;
    const auto j = nlohmann::json::parse(Slurp(ui.export_dir + "/" + files[1]));
    EXPECT_EQ(j["exercises"][0]["label"], label);
    ASSERT_FALSE(ui.messages.empty());
    EXPECT_TRUE(Contains(ui.messages.back().en, "Exported your progress (1 exercises"))
        << ui.messages.back().en;
    EXPECT_FALSE(ui.messages.back().zh.empty());
}

TEST_F(AppProgress, ACorruptFileIsSetAsideAndTheAppGoesOn) {
    const std::string path = progress_dir + "/progress.json";
    std::ofstream(path) << "{ this is not json";
    std::vector<ProgressNotice> notices;
    LoadProgress(&ui.progress, &notices, path);
    ASSERT_EQ(notices.size(), 1u);
    EXPECT_TRUE(Contains(notices[0].en, "Your progress file was damaged")) << notices[0].en;
    EXPECT_TRUE(Contains(notices[0].en, "set aside as " + path + ".corrupt-")) << notices[0].en;
    EXPECT_TRUE(Contains(notices[0].zh, "你的进度文件已损坏")) << notices[0].zh;
    bool kept = false;
    for (const std::string& f : FilesIn(progress_dir))
        kept |= f.starts_with("progress.json.corrupt-") &&
                Slurp(progress_dir + "/" + f) == "{ this is not json";
    EXPECT_TRUE(kept);
    // The app goes on and records.
    ChangeProgress(
        &ui.progress, [](Progress& p) { RecordSkip(p, "reduce/cub", "t"); }, &notices);
    EXPECT_EQ(File().predictions.size(), 1u);
    Frames(2);
}

TEST_F(AppProgress, EveryNewWordHasBothLanguages) {
    for (const Word* w :
         {&kGuessScored, &kGuessSkip, &kGuessPick, &kGuessChoice, &kGuessSkipHint, &kGuessSkipped,
          &kMarkPassed, &kMarkPredicted, &kTipPassedFast, &kTipPassedSlow, &kTipPredicted,
          &kTipSkipped, &kExportProgress, &kExportProgressHint}) {
        EXPECT_STRNE(w->en, w->zh);
        EXPECT_GT(std::string(w->zh).size(), 0u);
    }
    ui.settings.language = "zh";
    ClearTranslationMisses();
    Frames(3);
    EXPECT_TRUE(TranslationMisses().empty()) << TranslationMisses().front();
}
