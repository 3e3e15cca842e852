// What the GUI remembers between runs (model/settings.h): the settings file, ImGui's own ini,
// the window's size, the lesson open last.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "catalog.h"
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
