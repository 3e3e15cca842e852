// What the GUI remembers between runs (model/settings.h): the settings file, ImGui's own ini,
// the window's size, the lesson open last.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <imgui.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <future>
#include <iterator>
#include <map>
#include <string>

#include "catalog.h"
#include "model/exercise_file.h"
#include "model/settings.h"
#include "panels/ui_state.h"

using namespace lessons;
using namespace lessons::app;

TEST(AppSettings, CorruptFileGivesDefaultsAndAMessage) {
    const std::string path = ::testing::TempDir() + "/settings_corrupt.json";
    std::ofstream(path) << "{ this is not json";
    std::string problem;
    const Settings s = LoadSettings(path, &problem);
    EXPECT_EQ(s.language, "en");
    EXPECT_NE(problem.find("not valid JSON"), std::string::npos) << problem;
    std::ofstream(path) << R"({"language": 5})";
    problem.clear();
    LoadSettings(path, &problem);
    EXPECT_FALSE(problem.empty());
}

TEST(AppSettings, SaveAndLoadUnderXdgConfigHome) {
    const std::string dir = ::testing::TempDir() + "/xdg_test";
    setenv("XDG_CONFIG_HOME", dir.c_str(), 1);
    const std::string config = ConfigDir();
    EXPECT_EQ(config, dir + "/cuda-lessons");
    Settings s;
    s.language = "zh";
    s.scale = 2;
    s.lesson = "reduce/v1-shared-memory";
    s.hide_answers = true;
    ASSERT_TRUE(SaveSettings(config + "/settings.json", s, nullptr));
    std::string problem;
    const Settings t = LoadSettings(config + "/settings.json", &problem);
    EXPECT_TRUE(problem.empty());
    EXPECT_EQ(t.language, "zh");
    EXPECT_EQ(t.scale, 2.0f);
    EXPECT_EQ(t.lesson, "reduce/v1-shared-memory") << "the lesson is stored by its id";
    EXPECT_TRUE(t.hide_answers);
}

TEST(AppSettings, ABloatedImGuiIniIsIgnoredAndNotSavedBack) {
    const std::string path = ::testing::TempDir() + "/imgui_bloated.ini";
    std::string section = "[Window][Debug##Default]\nPos=60,60\nSize=400,400\nCollapsed=0\n\n";
    {
        std::ofstream out(path);
        for (int i = 0; i < 200000; ++i) out << "[Window][Bloat " << i << "]\nPos=1,1\n\n";
    }
    std::string problem;
    EXPECT_EQ(ReadImGuiIni(path, &problem), "");
    EXPECT_NE(problem.find("ignored"), std::string::npos) << problem;
    // Small in bytes, too many sections.
    {
        std::ofstream out(path);
        for (int i = 0; i < 1000; ++i) out << "[T][" << i << "]\n";
    }
    problem.clear();
    EXPECT_EQ(ReadImGuiIni(path, &problem), "");
    EXPECT_NE(problem.find("more than 200 sections"), std::string::npos) << problem;
    // What this program writes is read back as it is.
    problem.clear();
    ASSERT_TRUE(WriteImGuiIni(path, section, &problem)) << problem;
    EXPECT_EQ(ReadImGuiIni(path, &problem), section);
    EXPECT_EQ(problem, "");
    // Saving is bounded too: the file is left as it was.
    std::string bloated;
    for (int i = 0; i < 300; ++i) bloated += section;
    EXPECT_FALSE(WriteImGuiIni(path, bloated, &problem));
    EXPECT_NE(problem.find("not saving"), std::string::npos) << problem;
    EXPECT_EQ(ReadImGuiIni(path, &problem), section);
    EXPECT_EQ(ReadImGuiIni(::testing::TempDir() + "/no_such_imgui.ini", &problem), "");
}

TEST(AppSettings, ASavedWindowLargerThanTheScreenIsClamped) {
    Settings s;
    s.window_width = 10000;
    s.window_height = 10000;
    ClampWindowToWorkArea(&s, 1920, 1050);
    EXPECT_EQ(s.window_width, 1920);
    EXPECT_EQ(s.window_height, 1050);
    s.window_width = 800;
    s.window_height = 600;
    ClampWindowToWorkArea(&s, 1920, 1050);
    EXPECT_EQ(s.window_width, 800);
    EXPECT_EQ(s.window_height, 600);
    ClampWindowToWorkArea(&s, 0, 0);  // unknown: unchanged
    EXPECT_EQ(s.window_width, 800);
}

// A settings file written before ids were stored holds the lesson's old number; one written
// since, its id. Either opens that lesson; a lesson the catalogue no longer has opens the first.
TEST(AppSettings, TheLessonIsReadByIdOrOldNumberAndAStaleOneOpensTheFirst) {
    const std::string path = ::testing::TempDir() + "/settings_lesson.json";
    const Lesson& v1 = *Catalog().FindLesson("reduce/v1-shared-memory");
    for (const char* saved : {R"({"lesson": 21})", R"({"lesson": "reduce/v1-shared-memory"})",
                              R"({"lesson": "reduce/21-v1-shared-memory"})"}) {
        std::ofstream(path) << saved;
        std::string problem;
        UiState ui;
        ui.settings = LoadSettings(path, &problem);
        EXPECT_EQ(problem, "") << saved;
        SelectLesson(ui, Catalog(), ui.settings.lesson);
        EXPECT_EQ(ui.settings.lesson, v1.id) << saved;
    }
    for (const char* saved : {R"({"lesson": "gemm/a-step-since-removed"})", R"({"lesson": 999})",
                              R"({"lesson": [1]})", R"({})"}) {
        std::ofstream(path) << saved;
        UiState ui;
        ui.settings = LoadSettings(path, nullptr);
        SelectLesson(ui, Catalog(), ui.settings.lesson);
        EXPECT_EQ(ui.settings.lesson, Catalog().lessons().front().id) << saved;
    }
}

// ImGui reads a table's column count from the section name and allocates that many columns
// unchecked: such sections are dropped before it sees them, with a message; the rest is kept.
TEST(AppSettings, ImGuiIniTablesOfImpossibleColumnCountsAreDropped) {
    const std::string path = ::testing::TempDir() + "/imgui_tables.ini";
    const std::string window = "[Window][Debug##Default]\nPos=60,60\nSize=400,400\n\n";
    const std::string good = "[Table][0x1A2B3C4D,3]\nColumn 0  Weight=1.0000\n\n";
    for (const char* count : {"-5", "0", "65", "2000000000", "100000000", "x", ""}) {
        SCOPED_TRACE(count);
        std::ofstream(path) << window << "[Table][0xDEADBEEF," << count
                            << "]\nColumn 0  Weight=1.0000\nColumn 70  Width=5\n\n"
                            << good;
        std::string problem;
        const std::string text = ReadImGuiIni(path, &problem);
        EXPECT_EQ(text, window + good);
        EXPECT_NE(problem.find("column count outside 1 to 64"), std::string::npos) << problem;
        // What is left loads (the dropped section crashed ImGui or took gigabytes).
        ImGui::CreateContext();
        ImGui::GetIO().IniFilename = nullptr;
        ImGui::LoadIniSettingsFromMemory(text.data(), text.size());
        ImGui::DestroyContext();
    }
    std::ofstream(path) << "[Table][0xDEADBEEF]\n[Table][0xDEADBEEF,64]\n";
    size_t dropped = 0;
    std::string text;
    {
        std::ifstream in(path);
        text.assign(std::istreambuf_iterator<char>(in), {});
    }
    EXPECT_EQ(SanitizeImGuiIni(text, &dropped), "[Table][0xDEADBEEF,64]\n");
    EXPECT_EQ(dropped, 1u);
}

// ImGui ends a line at '\r' too, finds a section's name at the next '[' after its type, and
// reads the count with sscanf: every spelling it takes for a table is checked the same way (the
// variants with a space, a letter or a '\r' crashed the GUI at every start).
TEST(AppSettings, EverySpellingOfATableSectionImGuiReadsIsChecked) {
    const char* const bad[] = {
        "[Table] [0xDEADBEEF,2000000000]\n",
        "[Table]x[0xDEADBEEF,2000000000]\n",
        "[Window][Debug##Default]\nPos=60,60\n\r[Table][0xDEADBEEF,2000000000]\n",
        "[Window][x]\r[Table][0xDEADBEEF,100000000]\n",
        "[Window][x]\r\r[Table][0xDEADBEEF,100000000]\rColumn 0 Width=5\r",
        "[Table][0xDEADBEEF, 2000000000]\n",
        "[Table][0xDEADBEEF,+2000000000]\n",
        "[Table][0xdeadbeef,-5]\n",
        "[Table][0xDEADBEEF,99999999999]\n",
        "[Table][0xDEADBEEF,0065]\n",
        "[Table][[0xDEADBEEF,2000000000]\n",
    };
    for (const std::string text : bad) {
        SCOPED_TRACE(text);
        size_t dropped = 0;
        const std::string safe = SanitizeImGuiIni(text, &dropped);
        EXPECT_EQ(dropped, 1u);
        EXPECT_EQ(safe.find("[Table]"), std::string::npos) << safe;
        EXPECT_EQ(safe.find('\r'), std::string::npos) << "ImGui reads what was checked";
        ImGui::CreateContext();
        ImGui::GetIO().IniFilename = nullptr;
        ImGui::LoadIniSettingsFromMemory(safe.data(), safe.size());
        ImGui::DestroyContext();
    }
    // A table ImGui can take stays, whatever the line ends; so do the other sections.
    size_t dropped = 0;
    EXPECT_EQ(SanitizeImGuiIni("[Window][x]\r\nPos=1,2\r\n[Table] [0x1,5]\rColumn 0 Width=5\r\n",
                               &dropped),
              "[Window][x]\nPos=1,2\n[Table] [0x1,5]\nColumn 0 Width=5\n");
    EXPECT_EQ(dropped, 0u);
}

// settings.json is read only when it is a regular file of a sensible size: a FIFO blocked the
// start, /dev/zero was read without end.
TEST(AppSettings, ASettingsFileThatIsNoRegularFileOrHugeIsNotRead) {
    const std::string dir = ::testing::TempDir() + "/settings_special";
    mkdir(dir.c_str(), 0755);
    const std::string fifo = dir + "/fifo.json";
    std::remove(fifo.c_str());
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    std::string problem;
    // Opening a FIFO that no one writes to blocks for ever: a hang guard of 60 s, then a writer
    // opens it, which ends the wait, so that the test fails instead of hanging.
    std::future<Settings> loading =
        std::async(std::launch::async, [&] { return LoadSettings(fifo, &problem); });
    if (loading.wait_for(std::chrono::seconds(60)) != std::future_status::ready) {
        ADD_FAILURE() << "hung: LoadSettings still waited on the FIFO after 60 s";
        const int writer = open(fifo.c_str(), O_WRONLY);
        if (writer >= 0) close(writer);
    }
    Settings s = loading.get();
    EXPECT_EQ(s.language, "en");
    EXPECT_NE(problem.find("not a regular file"), std::string::npos) << problem;
    std::remove(fifo.c_str());
    problem.clear();
    s = LoadSettings("/dev/zero", &problem);
    EXPECT_NE(problem.find("not a regular file"), std::string::npos) << problem;
    const std::string big = dir + "/big.json";
    {
        std::ofstream out(big);
        out << "{\"language\": \"zh\", \"pad\": \"" << std::string(200000, ' ') << "\"}";
    }
    problem.clear();
    s = LoadSettings(big, &problem);
    EXPECT_EQ(s.language, "en");
    EXPECT_NE(problem.find("larger than"), std::string::npos) << problem;
    // Sizes beyond an int are clamped, not cast.
    std::ofstream(big) << R"({"window_width": 1e12, "window_height": -1e30})";
    problem.clear();
    s = LoadSettings(big, &problem);
    EXPECT_EQ(problem, "");
    EXPECT_EQ(s.window_width, 10000);
    EXPECT_EQ(s.window_height, 400);
}

// A settings file the user made read-only is not replaced; a folder entry of that name that is
// no file is left alone, with no temporary beside it.
TEST(AppSettings, AReadOnlySettingsFileIsNotOverwritten) {
    const std::string dir = ::testing::TempDir() + "/settings_ro";
    mkdir(dir.c_str(), 0755);
    const std::string path = dir + "/settings.json";
    chmod(path.c_str(), 0644);
    std::remove(path.c_str());
    const std::string saved = R"({"language": "zh", "scale": 1.5, "lesson": "split/openmp"})";
    std::ofstream(path) << saved;
    ASSERT_EQ(chmod(path.c_str(), 0444), 0);
    Settings s;
    s.language = "en";
    std::string problem;
    EXPECT_FALSE(SaveSettings(path, s, &problem));
    EXPECT_NE(problem.find("read-only"), std::string::npos) << problem;
    std::ifstream in(path);
    const std::string now((std::istreambuf_iterator<char>(in)), {});
    EXPECT_EQ(now, saved);
    struct stat st {};
    ASSERT_EQ(stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0444u);
    chmod(path.c_str(), 0644);
    std::remove(path.c_str());
    // A directory named settings.json.
    ASSERT_EQ(mkdir(path.c_str(), 0755), 0);
    problem.clear();
    EXPECT_FALSE(SaveSettings(path, s, &problem));
    EXPECT_NE(problem.find("not a regular file"), std::string::npos) << problem;
    EXPECT_NE(access((path + ".tmp").c_str(), F_OK), 0) << "a temporary was left behind";
    rmdir(path.c_str());
    // A writable file is replaced as before, keeping its mode.
    std::ofstream(path) << "{}";
    chmod(path.c_str(), 0600);
    EXPECT_TRUE(SaveSettings(path, s, &problem)) << problem;
    ASSERT_EQ(stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
}

// A folder the settings cannot be written into (read-only for this user, or, here, where even
// root cannot write: a "folder" that is a file) is a message, and what is there stays.
TEST(AppSettings, AFolderThatCannotBeWrittenIsAMessage) {
    const std::string blocker = ::testing::TempDir() + "/settings_blocker";
    std::remove(blocker.c_str());
    std::ofstream(blocker) << "not a folder";
    Settings s;
    std::string problem;
    EXPECT_FALSE(SaveSettings(blocker + "/settings.json", s, &problem));
    EXPECT_NE(problem.find("settings not saved"), std::string::npos) << problem;
    EXPECT_NE(problem.find(blocker), std::string::npos) << problem;
    std::ifstream in(blocker);
    EXPECT_EQ(std::string((std::istreambuf_iterator<char>(in)), {}), "not a folder");
    std::remove(blocker.c_str());
}

// The student's Log scale choice per chapter survives a restart; entries that are not
// chapter: true/false are dropped with a note, the others and the rest of the settings kept.
TEST(AppSettings, TheLogScaleChoicePerChapterIsKept) {
    const std::string path = ::testing::TempDir() + "/settings_log.json";
    Settings s;
    s.language = "zh";
    s.log_scale = {{"gemm", true}, {"split", false}};
    std::string problem;
    ASSERT_TRUE(SaveSettings(path, s, &problem)) << problem;
    const Settings back = LoadSettings(path, &problem);
    EXPECT_EQ(back.log_scale, s.log_scale);
    EXPECT_EQ(back.language, "zh");

    std::ofstream(path) << R"({"language": "zh", "log_scale": {"gemm": true, "split": 3,
        "": false, "reduce": "yes"}})";
    problem.clear();
    const Settings mixed = LoadSettings(path, &problem);
    EXPECT_EQ(mixed.log_scale, (std::map<std::string, bool>{{"gemm", true}}));
    EXPECT_EQ(mixed.language, "zh");
    EXPECT_NE(problem.find("log_scale: 3 entries"), std::string::npos) << problem;
    std::ofstream(path) << R"({"language": "zh", "log_scale": [true]})";
    problem.clear();
    EXPECT_TRUE(LoadSettings(path, &problem).log_scale.empty());
    EXPECT_NE(problem.find("log_scale: not an object"), std::string::npos) << problem;
    std::remove(path.c_str());
}

// The panes as the student dragged them survive a restart; a size outside its range, or not a
// number, opens the pane at its default and keeps the rest of the settings.
TEST(AppSettings, DraggedPaneSizesAreKeptWithinTheirRanges) {
    const std::string path = ::testing::TempDir() + "/settings_panes.json";
    Settings s;
    s.sidebar_em = 12.5f;
    s.text_share = 0.7f;
    std::string problem;
    ASSERT_TRUE(SaveSettings(path, s, &problem)) << problem;
    const Settings back = LoadSettings(path, &problem);
    EXPECT_FLOAT_EQ(back.sidebar_em, 12.5f);
    EXPECT_FLOAT_EQ(back.text_share, 0.7f);
    for (const char* bad :
         {R"("sidebar_em": 1e30, "text_share": -2)", R"("sidebar_em": 3, "text_share": 0.95)",
          R"("sidebar_em": "wide", "text_share": null)"}) {
        std::ofstream(path) << R"({"language": "zh", )" << bad << "}";
        problem.clear();
        const Settings read = LoadSettings(path, &problem);
        EXPECT_EQ(read.sidebar_em, 0) << bad;
        EXPECT_EQ(read.text_share, 0) << bad;
        EXPECT_EQ(read.language, "zh") << bad;
    }
    std::remove(path.c_str());
}

// The student's guesses survive a restart, per lesson, in ms or as a speed-up; an entry that is
// not a positive finite number with the unit ms or x is dropped with a note, the others kept.
TEST(AppSettings, GuessesArePersistedPerLessonAndReadBounded) {
    const std::string path = ::testing::TempDir() + "/settings_guesses.json";
    Settings s;
    s.guesses["gemm/double-buffering"] = Guess{2.5, false};
    s.guesses["reduce/cub"] = Guess{1.3, true};
    std::string problem;
    ASSERT_TRUE(SaveSettings(path, s, &problem)) << problem;
    const Settings back = LoadSettings(path, &problem);
    EXPECT_EQ(back.guesses, s.guesses);

    std::ofstream(path) << R"({"language": "zh", "guesses": {
        "a": {"value": 3, "unit": "ms"}, "b": {"value": -1, "unit": "ms"},
        "c": {"value": 2, "unit": "s"}, "d": {"value": "2", "unit": "x"}, "e": 5,
        "f": {"value": 0, "unit": "x"}, "": {"value": 1, "unit": "x"}}})";
    problem.clear();
    const Settings mixed = LoadSettings(path, &problem);
    EXPECT_EQ(mixed.guesses, (std::map<std::string, Guess>{{"a", Guess{3, false}}}));
    EXPECT_EQ(mixed.language, "zh");
    EXPECT_NE(problem.find("guesses: 6 entries"), std::string::npos) << problem;
    std::ofstream(path) << R"({"guesses": [1, 2]})";
    problem.clear();
    EXPECT_TRUE(LoadSettings(path, &problem).guesses.empty());
    EXPECT_NE(problem.find("guesses: not an object"), std::string::npos) << problem;
    std::remove(path.c_str());
}

// The GPU whose recordings the pages show is kept by name; a name of another type or longer
// than any GPU's is the default (empty), the other settings kept.
TEST(AppSettings, TheReferenceGpuIsKeptAndReadBounded) {
    const std::string path = ::testing::TempDir() + "/settings_reference_gpu.json";
    Settings s;
    s.reference_gpu = "NVIDIA H200";
    std::string problem;
    ASSERT_TRUE(SaveSettings(path, s, &problem)) << problem;
    EXPECT_EQ(LoadSettings(path, &problem).reference_gpu, "NVIDIA H200");
    for (const std::string& bad :
         {std::string(R"("reference_gpu": 7)"), std::string(R"("reference_gpu": ["NVIDIA H200"])"),
          R"("reference_gpu": ")" + std::string(5000, 'x') + "\""}) {
        std::ofstream(path) << R"({"language": "zh", )" << bad << "}";
        problem.clear();
        const Settings read = LoadSettings(path, &problem);
        EXPECT_EQ(read.reference_gpu, "") << bad.substr(0, 40);
        EXPECT_EQ(read.language, "zh") << bad.substr(0, 40);
    }
    std::remove(path.c_str());
}

// The student's exercise file, or its .bak, made read-only is never replaced: typing keeps the
// text in the editor and says why it is not saved; Start over keeps it too.
TEST(AppSettings, AReadOnlyExerciseFileOrBackupIsNotReplaced) {
    const std::string dir = ::testing::TempDir() + "/exercise_ro_" + std::to_string(getpid());
    mkdir(dir.c_str(), 0755);
    const std::string path = dir + "/k.cu";
    std::ofstream(path) << "my kernel";
    ASSERT_EQ(chmod(path.c_str(), 0444), 0);
    ExerciseFile file;
    std::string problem;
    ASSERT_TRUE(OpenExercise(&file, path, "start", &problem)) << problem;
    EXPECT_EQ(file.text, "my kernel");
    file.text = "typed over";
    EXPECT_FALSE(SaveExercise(&file, &problem));
    EXPECT_NE(problem.find("read-only"), std::string::npos) << problem;
    std::ifstream in(path);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "my kernel");
    chmod(path.c_str(), 0644);
    std::ofstream(path + ".bak") << "old backup";
    ASSERT_EQ(chmod((path + ".bak").c_str(), 0444), 0);
    problem.clear();
    EXPECT_EQ(ResetExercise(&file, "start", &problem), "");
    EXPECT_NE(problem.find("read-only"), std::string::npos) << problem;
    EXPECT_EQ(file.text, "typed over") << "nothing replaced, so the editor keeps the text";
    chmod((path + ".bak").c_str(), 0644);
    std::system(("rm -rf '" + dir + "'").c_str());
}
