// The GUI in a classroom (issue 42): presenter mode at 1280x720 and scale 2 (a long section is
// scrolled before the next one, the step's changed code and its SASS, the run's progress and
// Cancel), a lesson that opens with every pane at its top, the keyboard alone (Tab through the
// controls in reading order, Enter or Space presses them, Enter in the filter opens its only
// match), input drawn within a frame, and the review's rough edges that the UI logic decides.
#include <imgui_internal.h>

#include <cstdlib>

#include "app_fixture.h"
#include "exercise.h"
#include "text/diff.h"
#include "text/lesson_text.h"

namespace app_test {
namespace {

class Classroom : public AppLogic {
protected:
    void SetUp() override {
        AppLogic::SetUp();
#if IMGUI_VERSION_NUM < 18700
        // What ImGui's GLFW backend maps in the app: the keys a text field reads.
        ImGuiIO& io = ImGui::GetIO();
        io.KeyMap[ImGuiKey_Tab] = kKeyTab;
        io.KeyMap[ImGuiKey_Enter] = kKeyEnter;
        io.KeyMap[ImGuiKey_Escape] = kKeyEscape;
        io.KeyMap[ImGuiKey_Space] = kKeySpace;
        io.KeyMap[ImGuiKey_Backspace] = 259;
#endif
    }
    void Presenter(const std::string& lesson) {
        SelectLesson(ui, registry, lesson);
        Frames(2);
        ScaleTo(2, ImVec2(1280, 720));
        ui.presenter = true;
        Frames(3);
    }
    void Type(const std::string& text) {
        for (char ch : text) {
            ImGui::GetIO().AddInputCharacter(static_cast<unsigned char>(ch));
            Frame();
        }
    }
    // Tab pressed `n` times: the controls the focus stood on, in order.
    std::vector<std::string> TabWalk(int n) {
        std::vector<std::string> seen;
        for (int i = 0; i < n; ++i) {
            Key(kKeyTab);
            Frame();
            seen.push_back(probe.focused);
        }
        return seen;
    }
};

size_t IndexOf(const std::vector<std::string>& v, const std::string& name) {
    return size_t(std::find(v.begin(), v.end(), name) - v.begin());
}

// ↓ scrolls a section longer than its pane, a screen at a time, and only at its end moves to
// the next section, which opens at its top; ↑ scrolls back before it steps back.
TEST_F(Classroom, PresenterDownScrollsALongSectionBeforeMovingOn) {
    Presenter("gemm/double-buffering");
    int long_sections = 0;
    for (int guard = 0; guard < 80 && probe.section + 1 < probe.sections; ++guard) {
        const int section = probe.section;
        const float room = probe.presenter_room, y = probe.presenter_scroll_y;
        Key(kKeyDown);
        Frames(2);
        if (room > 0.5f) {
            ++long_sections;
            EXPECT_EQ(probe.section, section) << "a section with more below scrolls first";
            EXPECT_GT(probe.presenter_scroll_y, y) << "section " << section;
        } else {
            EXPECT_EQ(probe.section, section + 1) << "at its end: the next section";
            EXPECT_EQ(probe.presenter_scroll_y, 0) << "which opens at its top";
        }
    }
    EXPECT_EQ(probe.section, probe.sections - 1);
    EXPECT_GE(long_sections, 1) << "at scale 2 on 720p some section of 5.x is longer than its pane";
    // Back up: a scrolled section scrolls back first.
    ui.presenter_section = 0;
    Frames(2);
    Key(kKeyDown);
    Frames(2);
    if (probe.presenter_scroll_y > 0) {
        Key(kKeyUp);
        Frames(2);
        EXPECT_EQ(probe.section, 0);
        EXPECT_EQ(probe.presenter_scroll_y, 0);
    }
}

// The step's code in presenter mode: the lines changed against the previous step (with a little
// context, the rest folded) and the SASS with the lesson's instructions highlighted; both scroll
// with the arrows; every control inside the window.
TEST_F(Classroom, PresenterShowsTheChangedLinesAndTheSass) {
    Presenter("reduce/v4-warp-shuffle");
    const Lesson& lesson = Named("reduce/v4-warp-shuffle");
    Click("view_changed");
    EXPECT_EQ(probe.presenter_view, 1);
    EXPECT_GT(probe.presenter_code_lines, 0);
    EXPECT_LT(probe.presenter_code_lines, static_cast<int>(SplitLines(lesson.source).size()))
        << "only the changed lines and their context";
    Click("view_sass");
    EXPECT_EQ(probe.presenter_view, 2);
    const ImVec4 pane = probe.rects["section_pane"];
    EXPECT_LE(pane.w, 720.5f) << "the pane inside the window";
    if (probe.rects.count("machine_kernel")) {
        EXPECT_LE(probe.rects["machine_kernel"].w, pane.w) << "the kernel choice shows";
        bool chip_shown = false;
        for (const auto& [name, r] : probe.rects)
            chip_shown |= name.rfind("count_", 0) == 0 && r.w <= pane.w;
        EXPECT_TRUE(chip_shown) << "the highlighted classes' chips show above the listing";
    }
    if (*MachineCodeFiles().sass_arch != '\0' && probe.presenter_room > 0) {
        const float y = probe.presenter_scroll_y;
        Key(kKeyDown);
        Frames(2);
        EXPECT_GT(probe.presenter_scroll_y, y) << "the listing scrolls with the arrows";
        EXPECT_EQ(probe.section, 0) << "the code has no sections to step through";
    }
    Click("view_text");
    EXPECT_EQ(probe.presenter_view, 0);
}

// A SASS chip jumps to its class's next instruction, as Compiler Explorer links its panes.
TEST_F(Classroom, ASassChipJumpsToItsInstructions) {
    if (*MachineCodeFiles().sass_arch == '\0') GTEST_SKIP() << "this build has no SASS listings";
    SelectLesson(ui, registry, "reduce/v4-warp-shuffle");
    Frames(2);
    ui.machine.select_tab = 2;
    Frames(3);
    std::string chip;
    for (const auto& [name, r] : probe.rects)
        if (name.rfind("count_", 0) == 0) chip = name;
    ASSERT_FALSE(chip.empty()) << "no instruction chip drawn";
    Click(chip);
    Frames(2);
    const int first = probe.sass_jump_line;
    EXPECT_GE(first, 0);
    Click(chip);
    Frames(2);
    EXPECT_NE(probe.sass_jump_line, -1);
}

// A run in presenter mode shows its progress and Cancel, inside the window.
TEST_F(Classroom, PresenterShowsTheRunsProgressAndCancel) {
    Presenter("split/openmp");
    worker->answer_runs = false;
    Key(kKeyR);
    Frames(2);
    ASSERT_TRUE(controller->Busy());
    ASSERT_TRUE(probe.rects.count("progress"));
    ASSERT_TRUE(probe.rects.count("cancel"));
    EXPECT_LE(probe.rects["cancel"].z, 1280.5f);
    EXPECT_LE(probe.rects["cancel"].w, 720.5f);
    sent.clear();
    Click("cancel");
    bool cancelled = false;
    for (const Json& r : sent) cancelled |= r["op"] == "cancel";
    EXPECT_TRUE(cancelled) << "Cancel sends a cancel";
}

// A lesson opens with the right-hand column at its top (Run, the prediction, the chart).
TEST_F(Classroom, ALessonOpensWithTheRightColumnAtItsTop) {
    SelectLesson(ui, registry, "reduce/v1-shared-memory");
    Frames(3);
    ImGuiIO& io = ImGui::GetIO();
    // Over the column: the chart's middle, or just above the columns' bottom (where the sidebar's
    // splitter ends) when the column's top part (the prediction box) pushes the chart below it.
    const ImVec4 chart = probe.rects["step_chart"];
    io.MousePos =
        ImVec2((chart.x + chart.z) / 2,
               std::min((chart.y + chart.w) / 2, probe.rects["sidebar_splitter"].w - 20.0f));
    for (int i = 0; i < 6; ++i) {
        io.MouseWheel = -5;
        Frame();
    }
    io.MouseWheel = 0;
    Frames(2);
    ASSERT_GT(probe.work_scroll_y, 0) << "the wheel scrolls the column";
    io.MousePos = ImVec2(1, 1);
    Key(kKeyRight);
    Frames(2);
    EXPECT_EQ(probe.work_scroll_y, 0) << "the next lesson opens at the column's top";
}

// Tab moves through every control in reading order (the lesson list, the text and code, the
// controls, the status bar) and comes round again; it never sticks in a text field.
TEST_F(Classroom, TabWalksEveryControlInReadingOrder) {
    SelectLesson(ui, registry, "reduce/v1-shared-memory");
    Frames(3);
    ImGui::GetIO().MousePos = ImVec2(-1, -1);
    const std::vector<std::string> seen = TabWalk(int(ui.focus_ring.size()) + 3);
    ASSERT_FALSE(seen.empty());
    for (size_t i = 1; i < seen.size(); ++i) {
        EXPECT_FALSE(seen[i].empty()) << "a focus is shown after Tab " << i;
        EXPECT_NE(seen[i], seen[i - 1]) << "Tab stuck at " << seen[i];
    }
    for (const char* name :
         {"lesson_filter", "lesson_reduce/v1-shared-memory", "lang_zh", "hide_answers",
          "tab_source", "tab_sass", "predict_header", "scale", "presenter_toggle"})
        EXPECT_LT(IndexOf(seen, name), seen.size()) << name << " is never reached by Tab";
    EXPECT_LT(IndexOf(seen, "lesson_filter"), IndexOf(seen, "tab_source"));
    EXPECT_LT(IndexOf(seen, "tab_source"), IndexOf(seen, "predict_header"));
    EXPECT_LT(IndexOf(seen, "predict_header"), IndexOf(seen, "scale"));
    EXPECT_LT(IndexOf(seen, "scale"), IndexOf(seen, "presenter_toggle"));
    // Shift+Tab goes back.
    const std::string here = probe.focused;
    Ctrl(false);
    ImGui::GetIO().KeyShift = true;
    Key(kKeyTab);
    Frame();
    ImGui::GetIO().KeyShift = false;
    EXPECT_NE(probe.focused, here);
}

// Enter (or Space) presses the focused control: here the Presenter checkbox and a tab.
TEST_F(Classroom, EnterPressesTheFocusedControl) {
    SelectLesson(ui, registry, "reduce/v1-shared-memory");
    Frames(3);
    ImGui::GetIO().MousePos = ImVec2(-1, -1);
    for (int i = 0; i < 400 && probe.focused != "tab_sass"; ++i) {
        Key(kKeyTab);
        Frame();
    }
    ASSERT_EQ(probe.focused, "tab_sass");
    Key(kKeySpace);
    Frames(2);
    EXPECT_EQ(ui.machine.tab, 2) << "Space opened the SASS tab";
    for (int i = 0; i < 400 && probe.focused != "presenter_toggle"; ++i) {
        Key(kKeyTab);
        Frame();
    }
    ASSERT_EQ(probe.focused, "presenter_toggle");
    Key(kKeyEnter);
    Frames(2);
    EXPECT_TRUE(ui.presenter) << "Enter ticked Presenter";
}

// Enter on the focused filter starts typing in it: the keyboard alone opens a lesson.
TEST_F(Classroom, TheFilterIsTypedInByKeyboardAlone) {
    ImGui::GetIO().MousePos = ImVec2(-1, -1);
    for (int i = 0; i < 100 && probe.focused != "lesson_filter"; ++i) {
        Key(kKeyTab);
        Frame();
    }
    ASSERT_EQ(probe.focused, "lesson_filter");
    Key(kKeyEnter);
    Frames(2);
    ASSERT_TRUE(ImGui::GetIO().WantTextInput) << "Enter starts typing in the filter";
    Type("5.1");
    Key(kKeyEnter);
    Frames(2);
    EXPECT_EQ(ui.settings.lesson, Named("5.1").id) << "the lesson labelled 5.1, not 5.10";
}

// Enter in the filter opens its only match.
TEST_F(Classroom, EnterInTheFilterOpensItsOnlyMatch) {
    Click("lesson_filter");
    ASSERT_TRUE(ImGui::GetIO().WantTextInput);
    const Lesson& target = Named("gemm/double-buffering");
    Type(target.label);
    Key(kKeyEnter);
    Frames(2);
    EXPECT_EQ(ui.settings.lesson, target.id);
}

// A click on the Presenter checkbox is drawn at once: the frames after the release are drawn
// without waiting for another event (the idle wait took 2 s).
TEST_F(Classroom, AClickIsDrawnWithoutWaitingForTheNextEvent) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = Center("presenter_toggle");
    Frame();
    io.MouseDown[0] = true;
    Frame();
    io.MouseDown[0] = false;
    ui.redraw_frames = 0;
    Frame();
    EXPECT_TRUE(ui.presenter);
    EXPECT_GE(ui.redraw_frames, 1) << "the frame after the click is drawn at once";
    io.MousePos = ImVec2(-1, -1);
    Frame();
    ui.redraw_frames = 0;
    Frame();
    EXPECT_EQ(ui.redraw_frames, 0) << "a frame without input asks for none";
}

// The guess field takes "1e9" as 1e9 (its "e" used to be filtered out: "19").
TEST_F(Classroom, AGuessInScientificNotationIsKept) {
    SelectLesson(ui, registry, "reduce/v1-shared-memory");
    Frames(3);
    Click("guess_input");
    Type("1e9");
    Click("title");  // elsewhere: the field is left
    const auto it = ui.settings.guesses.find("reduce/v1-shared-memory");
    ASSERT_NE(it, ui.settings.guesses.end());
    EXPECT_DOUBLE_EQ(it->second.value, 1e9);
}

// Evidence: each counter under its plain name with a one-line explanation (the glossary), in
// both languages; without a GPU, "Profile this step" is disabled and says a GPU is missing.
TEST_F(Classroom, CountersHavePlainNamesAndProfilingSaysAGpuIsMissing) {
    ImGui::GetIO().DisplaySize = ImVec2(1500, 4000);
    Open("gemv/warp-per-row");
    probe.open_all = true;
    Frames(2);
    EXPECT_TRUE(probe.evidence_needs_gpu);
    ASSERT_TRUE(probe.rects.count("profile_recorded"));
    Click("profile_recorded");
    Frames(3);
    bool asked = false;
    for (const Json& r : sent) asked |= r["op"] == "profile";
    EXPECT_TRUE(asked) << probe.rects["profile_recorded"].y;
    sent.clear();
    Click("profile_live");
    for (const Json& r : sent) EXPECT_NE(r["op"], "profile") << "a disabled button profiled";
    for (const char* language : {"en", "zh"}) {
        ui.settings.language = language;
        Frames(2);
        EXPECT_FALSE(probe.evidence_first_explained.empty())
            << language << " rows " << probe.evidence_rows << " answer "
            << (controller->Profile(Named("gemv/warp-per-row")) != nullptr);
        EXPECT_EQ(probe.evidence_first_explained.find("__"), std::string::npos)
            << "a raw metric name: " << probe.evidence_first_explained;
    }
}

// The rule line names the limiter from the throughput counters, as Nsight Compute's rule does.
TEST(ClassroomRules, TheRuleLineNamesTheLimiter) {
    auto kernel = [](double dram, double sm) {
        ProfiledKernel k;
        NcuCounter d, s;
        d.name = "dram__throughput.avg.pct_of_peak_sustained_elapsed";
        d.value = dram;
        s.name = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
        s.value = sm;
        k.counters = {d, s};
        return k;
    };
    EXPECT_EQ(LimiterRule("en", kernel(94, 12)),
              "DRAM-bound: DRAM throughput at 94% of its peak (the SMs at 12%).");
    EXPECT_EQ(LimiterRule("en", kernel(20, 85)).rfind("Compute-bound: the SMs at 85%", 0), 0u);
    EXPECT_EQ(LimiterRule("en", kernel(20, 30)).rfind("Latency-bound", 0), 0u);
    EXPECT_NE(LimiterRule("zh", kernel(94, 12)).find("94%"), std::string::npos);
    EXPECT_TRUE(LimiterRule("en", ProfiledKernel{}).empty());
}

// The exercise editor maximised: the whole page, the compiler's messages beside it; Esc brings
// the page back. Its splitter... and the page's are handles (drawn without hover).
TEST_F(Classroom, TheEditorMaximisesWithItsMessagesBesideIt) {
    setenv("XDG_DATA_HOME", "/tmp", 0);
    SelectLesson(ui, registry, "gemv/warp-per-row");
    Frames(2);
    Click("tab_exercise");
    Frames(2);
    const ImVec4 before = probe.rects["exercise_editor"];
    Click("exercise_maximise");
    Frames(2);
    ASSERT_TRUE(ui.exercise.maximised);
    EXPECT_FALSE(probe.list_drawn) << "the lesson list gives the editor its room";
    ASSERT_TRUE(probe.rects.count("exercise_messages_pane"));
    const ImVec4 editor = probe.rects["exercise_editor"],
                 messages = probe.rects["exercise_messages_pane"];
    EXPECT_GT(editor.z - editor.x, (before.z - before.x) * 1.3f) << "wider than in its pane";
    EXPECT_LE(editor.z, messages.x + 1) << "the messages beside the editor";
    ImGui::GetIO().MousePos = ImVec2(-1, -1);
    Key(kKeyEscape);
    Frames(2);
    EXPECT_FALSE(ui.exercise.maximised);
    EXPECT_TRUE(probe.list_drawn);
}

// A key's refusal stays until something runs; Esc says it cancelled (review 2026-11-28, 22).
TEST_F(Classroom, ARefusalGoesOnceSomethingRunsAndEscSaysItCancelled) {
    SelectLesson(ui, registry, "split/openmp");
    Frames(2);
    worker->answer_runs = false;
    Key(kKeyS);  // a CPU step: no block size to sweep
    ASSERT_EQ(ui.messages.size(), 1u);
    Key(kKeyR);
    Frames(2);
    ASSERT_TRUE(controller->Busy());
    EXPECT_TRUE(ui.messages.empty()) << ui.messages.back().en;
    Key(kKeyEscape);
    ASSERT_EQ(ui.messages.size(), 1u);
    EXPECT_EQ(ui.messages.back().en, "Cancelled.");
}

// Inline code keeps its "*" (a multiplication), emphasis outside it goes; a lead-in drawn as a
// heading ends without its full stop.
TEST(ClassroomText, InlineCodeKeepsItsAsterisks) {
    const std::vector<TextBlock> blocks =
        ParseLessonText("Each thread adds `a[i][j] * x[j]` and *one* more, 2 * 3 in prose.");
    ASSERT_EQ(blocks.size(), 1u);
    EXPECT_EQ(blocks[0].text, "Each thread adds a[i][j] * x[j] and one more, 2 * 3 in prose.");
    EXPECT_EQ(AsHeading("\xE9\x97\xAE\xE9\xA2\x98\xE3\x80\x82"), "\xE9\x97\xAE\xE9\xA2\x98");
    EXPECT_EQ(AsHeading("What changed."), "What changed");
    EXPECT_EQ(AsHeading("."), ".");
}

}  // namespace
}  // namespace app_test
