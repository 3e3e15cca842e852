// Both languages (words/): every word in both, its translation taking the same arguments, no
// English literal drawn by a panel, phrases and messages looked up, and every screen walked in
// Chinese with every string found.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <functional>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>

#include "app_fixture.h"
#include "words/words.h"

using namespace app_test;

namespace {

std::string Joined(const std::vector<std::string>& misses) {
    std::string out;
    for (const std::string& m : misses) out += "\n  \"" + m + "\"";
    return out;
}

}  // namespace

TEST(AppWords, EveryWordHasBothLanguagesAndItsGlyphsInTheAtlas) {
    const std::vector<std::string_view> texts = UiTexts(Catalog());
    for (const Word* w : kAllWords) {
        EXPECT_STRNE(w->en, "");
        EXPECT_STRNE(w->zh, "");
        EXPECT_NE(std::find(texts.begin(), texts.end(), std::string_view(w->zh)), texts.end())
            << w->en;
        EXPECT_STREQ(Tr("zh", *w), w->zh);
        EXPECT_STREQ(Tr("en", *w), w->en);
    }
}

// The printf conversions of a format, in argument order ("%.2f x %d" and "%2$d %1$.2f" both
// give "f d"): a translation must take the same arguments.
std::vector<std::string> Conversions(const std::string& format) {
    std::vector<std::pair<int, std::string>> found;  // (argument position, conversion)
    int next = 1;
    for (size_t i = 0; i < format.size(); ++i) {
        if (format[i] != '%') continue;
        if (i + 1 < format.size() && format[i + 1] == '%') {
            ++i;
            continue;
        }
        size_t j = i + 1;
        int position = next++;
        const size_t digits_end = format.find_first_not_of("0123456789", j);
        if (digits_end != std::string::npos && digits_end > j && format[digits_end] == '$') {
            position = std::stoi(format.substr(j, digits_end - j));
            j = digits_end + 1;
        }
        std::string type;  // the length modifier and the conversion
        for (; j < format.size(); ++j) {
            const char ch = format[j];
            if (std::isalpha(static_cast<unsigned char>(ch))) type += ch;
            if (std::isalpha(static_cast<unsigned char>(ch)) && ch != 'l') break;
        }
        found.emplace_back(position, type);
        i = j;
    }
    std::sort(found.begin(), found.end());
    std::vector<std::string> types;
    for (const auto& f : found) types.push_back(f.second);
    return types;
}

// A word missing from the table is a test failure, not an English string in a Chinese page:
// every Word is a row of a table (words.def and its siblings), which lists it too (kAllWords, the
// atlas and this test walk that list); none is declared in a header beside the tables, where no
// list would have it. Each of words.def's has both languages, and its Chinese takes the same
// printf arguments as its English.
TEST(AppWords, EveryDeclaredWordIsListedAndItsTranslationTakesTheSameArguments) {
    for (const char* header : {"words.h", "words_exercise.h", "words_machine.h", "words_page.h",
                               "words_parsons.h", "words_student.h"}) {
        std::ifstream in(std::string(LESSONS_SOURCE_DIR) + "/app/words/" + header);
        ASSERT_TRUE(in) << header;
        std::stringstream text;
        text << in.rdbuf();
        EXPECT_EQ(text.str().find("constexpr Word k"), std::string::npos)
            << header << " declares a Word outside its table";
    }
    for (const Word* w : kAllWords) {
        EXPECT_NE(std::string(w->en), std::string(w->zh)) << w->en << ": not translated";
        EXPECT_EQ(Conversions(w->en), Conversions(w->zh)) << w->en << " / " << w->zh;
    }
    EXPECT_EQ(Conversions("%.2f x %d"), (std::vector<std::string>{"f", "d"}));
    EXPECT_EQ(Conversions("%2$d, %1$.2f%%"), (std::vector<std::string>{"f", "d"}));
    EXPECT_EQ(Conversions("%llu"), (std::vector<std::string>{"llu"}));
}

// The panels draw their words through the table: a button, checkbox, header or text drawn
// from an English literal would stay English in a Chinese page. (Symbols, format-only
// literals and the few names that are the same in both languages are allowed.)
TEST(AppWords, PanelsDrawNoEnglishLiterals) {
    const std::set<std::string> allowed = {"English", "ms", "CSV", "JSON"};
    const std::regex drawn(
        R"re(ImGui::(Button|SmallButton|Checkbox|RadioButton|Text|TextDisabled|TextUnformatted|SetTooltip|CollapsingHeader|Selectable|TextColored\([^,]+,)\s*\(?\s*"([^"]*)")re");
    const std::regex wrapped(R"re(DrawWrappedText\(\s*"([^"]*)")re");
    const std::regex word("[A-Za-z]{2,}");
    for (const char* file :
         {"panels/ui.cpp", "panels/status_bar.cpp", "panels/controls_panel.cpp",
          "panels/charts_panel.cpp", "panels/sweep_charts.cpp", "panels/roofline_page.cpp",
          "panels/results_table.cpp", "panels/lesson_list.cpp", "panels/code_view.cpp",
          "panels/predict_panel.cpp"}) {
        std::ifstream in(std::string(LESSONS_SOURCE_DIR) + "/app/" + file);
        ASSERT_TRUE(in) << file;
        std::stringstream text;
        text << in.rdbuf();
        const std::string source = text.str();
        for (const std::regex* re : {&drawn, &wrapped}) {
            for (auto it = std::sregex_iterator(source.begin(), source.end(), *re);
                 it != std::sregex_iterator(); ++it) {
                const std::string literal = (*it)[it->size() - 1].str();
                // Format letters ("%s", "%d  %s\n%s: %s") are not words.
                const std::string words = std::regex_replace(
                    literal, std::regex("%[0-9.$l]*[a-z]|\\\\n|\\\\x[0-9A-Fa-f]{2}"), " ");
                if (allowed.count(literal) || !std::regex_search(words, word)) continue;
                ADD_FAILURE() << file << " draws \"" << literal << "\" without the words table";
            }
        }
    }
}

TEST(AppWords, SayLooksUpExactPhrasesAndMessageFormsAndRecordsMisses) {
    ClearTranslationMisses();
    EXPECT_EQ(Say("en", "no worker is running"), "no worker is running");
    EXPECT_EQ(Say("zh", "no worker is running"), "没有正在运行的工作进程");
    EXPECT_EQ(Say("zh", "lesson 5.12"), "第 5.12 课") << "a Word's printf form";
    EXPECT_EQ(Say("zh", "exit code 3: a CUDA error left the GPU context unusable"),
              "退出码 3：CUDA 错误使 GPU 上下文无法再用")
        << "the exact phrase before the form \"exit code %s\"";
    EXPECT_EQ(Say("zh", "exit code 9"), "退出码 9");
    EXPECT_EQ(Say("zh", "killed by signal 11"), "被信号 11 终止");
    EXPECT_TRUE(TranslationMisses().empty()) << Joined(TranslationMisses());
    EXPECT_EQ(Say("zh", "an English sentence nobody translated"),
              "an English sentence nobody translated");
    EXPECT_EQ(TranslationMisses(),
              std::vector<std::string>{"an English sentence nobody translated"});
    EXPECT_EQ(Say("en", "another one"), "another one");
    EXPECT_EQ(TranslationMisses().size(), 1u) << "English is never a miss";
    ClearTranslationMisses();

    // The engine's messages are rendered from their id, never by matching their English; choice
    // names are not phrases at all (their ParamSpec names them).
    const Message old_gpu = Message::Of(lessons::kTooOld, {"Tesla K80", "3.7"});
    EXPECT_EQ(Say("zh", old_gpu), "Tesla K80 的计算能力为 3.7；CUDA Lessons 需要 7.5 或更高");
    EXPECT_EQ(Say("en", old_gpu), old_gpu.text);
    EXPECT_EQ(Say("zh", old_gpu.text), old_gpu.text) << "its English alone is not matched";
    EXPECT_EQ(Say("zh", "scalar"), "scalar");
    ClearTranslationMisses();
}

// --- Both languages: every screen walked in Chinese, every string looked up ---

namespace {

// Walks every screen the page has, in the UI's language: every lesson of the registry with
// every section open (prediction, steps, summary, breakdown, sweeps, results), after running
// the whole chapter and both sweeps; hovers every control and chart the page remembers (their
// tooltips), opens every combo (its choices and their notes), both languages' radio buttons
// stay. New lessons, chapters and sections are walked without changing this function: it
// iterates over the registry and over whatever the page records in probe.rects.
//
// The lesson list's entries (a tooltip each, which says the lesson's mode and marks, whatever the
// page) are hovered on the first lesson's page (nothing run yet), on every page for the lessons
// of its own chapter (the one being run), and on the last page (every chapter run): a list of
// every lesson hovered on every lesson's page was most of the walk's frames and looked up no
// string these do not (measured: the same strings asked for, issue 40).
//
// Each control is hovered for one frame: its tooltip is drawn in the frame that first has the
// pointer over it (ImGui finds the window under the pointer from the last frame's windows and
// the pointer's new place, and the item under it as it is drawn). A second frame at each place
// took 40-45% of the two walks' time (78 s and 96 s with it, 48 s and 52 s without) and asked
// for no string the first did not (measured on ImGui 1.86: the same 361 words, phrases and
// choice names looked up in Chinese, issue 40).
void WalkEveryScreen(UiState& ui, Probe& probe, const Registry& reg, const AppInput& input) {
    const auto& [frame, key, click] = input;
    ImGuiIO& io = ImGui::GetIO();
    probe.open_all = true;
    const std::vector<Lesson>& lessons = reg.lessons();
    for (const Lesson& l : lessons) {
        SelectLesson(ui, reg, l.id);
        frame();
        key(kKeyC);  // the whole chapter
        if (BlockSizeParam(l)) key(kKeyS);
        frame();
        frame();
        const bool whole_list = &l == &lessons.front() || &l == &lessons.back();
        std::set<std::string> this_chapter;
        for (const Lesson* other : reg.LessonsOf(reg.ChapterOf(l)))
            this_chapter.insert("lesson_" + other->id);
        std::vector<std::string> names;
        for (const auto& [name, rect] : probe.rects) names.push_back(name);
        for (const std::string& name : names) {
            if (!probe.rects.count(name)) continue;
            if (!whole_list && name.rfind("lesson_", 0) == 0 && name != "lesson_filter" &&
                !this_chapter.count(name))
                continue;
            const ImVec4 r = probe.rects[name];
            io.MousePos = ImVec2((r.x + r.z) / 2, (r.y + r.w) / 2);
            frame();
        }
        for (const ParamSpec& p : l.params)
            if (p.type == ParamType::kChoice && probe.rects.count(p.name)) {
                click(p.name);  // opens the combo: every choice and its note drawn
                const ImVec4 r = probe.rects.count(p.name) ? probe.rects[p.name] : ImVec4();
                // Hover the first items of the list under the combo (their notes).
                for (int i = 1; i <= static_cast<int>(p.choices.size()); ++i) {
                    io.MousePos = ImVec2(
                        r.x + 10, r.w + ImGui::GetFontSize() * (static_cast<float>(i) - 0.5f) + 4);
                    frame();
                }
                click("title");  // a click elsewhere closes it
            }
        io.MousePos = ImVec2(-1, -1);
        frame();
    }
    probe.open_all = false;
}

}  // namespace

TEST_F(AppLogic, EveryScreenInChineseHasNoUntranslatedString) {
    ui.settings.language = "zh";
    Frames(2);
    ClearTranslationMisses();
    WalkEveryScreen(ui, probe, registry, Input());
    EXPECT_TRUE(TranslationMisses().empty())
        << "shown in English in a Chinese page (give each its Chinese: README, \"Both "
           "languages\"):"
        << Joined(TranslationMisses());
    // The walk saw the new screens too.
    EXPECT_GE(probe.summary_rows, 1);
}

TEST_F(AppLogic, EveryScreenInChineseWithAGpuWorkerAndItsNotices) {
    RestartWithGpu(3);
    ui.settings.language = "zh";
    // The controller's notices, as the status bar shows them.
    worker->wrong_lesson = "reduce/v5-vectorized-one-pass";  // its check's message in tooltips
    ui.messages.push_back("Exported 3 results to /tmp/x.csv");
    controller->notices().push_back(
        "The worker stopped (exit code 3: a CUDA error left the GPU context unusable) while "
        "running lesson 1.4. A new worker was started; every result so far is kept.");
    ClearTranslationMisses();
    WalkEveryScreen(ui, probe, registry, Input());
    EXPECT_TRUE(TranslationMisses().empty()) << Joined(TranslationMisses());
    EXPECT_EQ(Say("zh", controller->notices().back()),
              "工作进程在运行 第 1.4 课 时停止了（退出码 3：CUDA 错误使 GPU "
              "上下文无法再用）。已启动新的工作进程；此前的结果全部保留。");
}

// A new chapter edits nothing under app/. Its choice names, words no list under app/ holds,
// are shown in Chinese from its own ParamSpec ("scan"); a parameter that names its choices in
// English only ("shape") shows them as they are, and is no missing translation. The walk still
// fails where the chapter's own text has no Chinese: its title and notes, by name.
TEST_F(AppLogicMadeUpChapter, ItsChoiceNamesComeFromItsParametersAndItsEnglishTextFailsTheWalk) {
    ui.settings.language = "zh";
    Frames(2);
    ClearTranslationMisses();
    WalkEveryScreen(ui, probe, registry, Input());
    const std::vector<std::string> misses = TranslationMisses();
    for (const char* english : {"Tiles", "Tiled", "four warps"})
        EXPECT_NE(std::find(misses.begin(), misses.end(), english), misses.end())
            << english << " was not reported:" << Joined(misses);
    for (const char* name : {"64x64", "128x128", "hillis-steele", "blelloch"})
        EXPECT_EQ(std::find(misses.begin(), misses.end(), name), misses.end())
            << "the choice name " << name << " was looked up as a phrase:" << Joined(misses);

    const Lesson& lesson = Named("tiles/tiled");
    const ParamSpec& scan = *lesson.FindParam("scan");
    const ParamSpec& shape = *lesson.FindParam("shape");
    EXPECT_EQ(SayChoice("zh", scan, "blelloch"), "Blelloch 扫描");
    EXPECT_EQ(SayChoice("en", scan, "blelloch"), "blelloch");
    EXPECT_EQ(SayChoice("zh", shape, "128x128"), "128x128");
    EXPECT_EQ(SayChoice("zh", scan, "sklansky"), "sklansky") << "not one of its choices";
    const std::vector<std::string_view> texts = UiTexts(registry);
    EXPECT_NE(std::find(texts.begin(), texts.end(), "Blelloch 扫描"), texts.end())
        << "the labels' glyphs are in the atlas";

    // On the page: the step chart's tooltip describes the run in Chinese, the label included.
    sent.clear();
    Click("run");
    Frames(2);
    ASSERT_FALSE(probe.step_bars.empty());
    EXPECT_NE(probe.step_bars[0].tooltip.find("Hillis-Steele 扫描"), std::string::npos)
        << probe.step_bars[0].tooltip;
}

// A parameter string inside a Chinese sentence is Chinese: labels and choice names, a Chinese
// value after "：", a number after a space, never a space between two Chinese words.
TEST(AppWords, ParametersInsideAChineseSentenceAreChinese) {
    const Lesson* lesson = Catalog().FindLesson("split/one-thread-per-pair");
    ASSERT_NE(lesson, nullptr);
    ParamValues values;
    values.Set("block", ParamValue::Number(256));
    values.Set("size", ParamValue::Number(uint64_t(1) << 30));
    values.Set("data", ParamValue::Choice("dense"));
    const std::string zh = DescribeParams(lesson->params, values, "zh");
    EXPECT_NE(zh.find("1 GiB"), std::string::npos) << zh;
    EXPECT_NE(zh.find("数据：密集"), std::string::npos) << zh;
    EXPECT_NE(zh.find("线程块大小 256"), std::string::npos) << zh;
    EXPECT_EQ(zh.find("dense"), std::string::npos) << zh;
    EXPECT_EQ(zh.find("data"), std::string::npos) << zh;
    const std::string en = DescribeParams(lesson->params, values, "en");
    EXPECT_NE(en.find("data dense"), std::string::npos) << en;
    for (const Word* w : kAllWords) EXPECT_EQ(std::string(w->zh).find("种子"), std::string::npos);
}
