// The GUI in a classroom (issue 42): presenter mode at 1280x720 and scale 2 (a long section is
// scrolled before the next one, the step's changed code and its SASS, the run's progress and
// Cancel), a lesson that opens with every pane at its top, the keyboard alone (Tab through the
// controls in reading order, Enter or Space presses them, Enter in the filter opens its only
// match), input drawn within a frame, and the review's rough edges that the UI logic decides.
#include <imgui_internal.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "app_fixture.h"
#include "exercise.h"
#include "machine_code.h"
#include "panels/input_trickle.h"
#include "text/code_listing.h"
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
    // `lesson` open after `frames` frames, the mouse away: what follows is the keyboard's alone.
    void KeyboardOn(const std::string& lesson, int frames) {
        SelectLesson(ui, registry, lesson);
        Frames(frames);
        ImGui::GetIO().MousePos = ImVec2(-1, -1);
    }
    // `key` pressed, and two frames for what it did.
    void Press(ImGuiKey key) {
        Key(key);
        Frames(2);
    }
    // ... on the control `control`, reached by Tab first; false where Tab does not reach it.
    bool PressOn(const std::string& control, ImGuiKey key) {
        if (!TabTo(control)) return false;
        Press(key);
        return true;
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
    // One frame of the linked view of `m` alone in `window`, as the code pane and the SASS tab
    // draw it.
    void LinkedFrame(MachineView& m, const char* window) {
        probe.rects.clear();  // as DrawUi does each frame
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::SetNextWindowSize(ImVec2(1200, 400));
        ImGui::Begin(window);
        DrawLinkedCode(ui, m, {"LDG"}, false);
        ImGui::End();
        ImGui::Render();
#if IMGUI_VERSION_NUM < 18700
        for (bool& k : ImGui::GetIO().KeysDown) k = false;
#endif
    }
    // A click at `at` in that view: the mouse moved there, pressed and released, a frame each.
    void LinkedClick(MachineView& m, const char* window, ImVec2 at) {
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = at;
        LinkedFrame(m, window);
        io.MouseDown[0] = true;
        LinkedFrame(m, window);
        io.MouseDown[0] = false;
        LinkedFrame(m, window);
    }
    // A click on the row the probe recorded as `name` (after a frame that draws it), and a
    // frame more for what it scrolled.
    void LinkedClickOn(MachineView& m, const char* window, const std::string& name) {
        LinkedFrame(m, window);
        ASSERT_TRUE(probe.rects.count(name)) << name;
        const ImVec4 r = probe.rects[name];
        LinkedClick(m, window, ImVec2(r.x + 40, (r.y + r.w) / 2));
        LinkedFrame(m, window);
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
    // Tab pressed until the focus stands on `control` (at most 400 times); whether it does.
    bool TabTo(const std::string& control) {
        for (int i = 0; i < 400 && probe.focused != control; ++i) {
            Key(kKeyTab);
            Frame();
        }
        return probe.focused == control;
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

// A Down pressed before a section's room is measured (the frame that opens it reads the previous
// section's content size) waits for it: a long section is scrolled, not skipped unread.
TEST_F(Classroom, PresenterKeyInASectionsFirstFrameWaitsForItsRoom) {
    Presenter("gemm/double-buffering");
    int fits = -1, long_one = -1;
    for (int i = 0; i < probe.sections; ++i) {
        ui.presenter_section = i;
        Frames(3);
        if (probe.presenter_room > 0.5f && long_one < 0) long_one = i;
        if (probe.presenter_room <= 0.5f && fits < 0) fits = i;
    }
    ASSERT_GE(long_one, 0) << "at scale 2 on 720p some section of 5.8 is longer than its pane";
    ASSERT_GE(fits, 0);
    ui.presenter_section = fits;
    Frames(3);
    ui.presenter_section = long_one;  // not drawn yet: the room is the fitting section's
    Key(kKeyDown);
    Frames(3);
    EXPECT_EQ(probe.section, long_one) << "the long section was skipped";
    EXPECT_GT(probe.presenter_scroll_y, 0) << "Down scrolls the long section";
}

// The notes under the presenter's step chart (the noise verdict, its re-run button, the
// recording's note) are whole at 1280x720, scale 2, in both languages: the chart side needs no
// scrolling (review row 25: captions cut; lesson 9.5 in Chinese was cut at the bottom).
TEST_F(Classroom, PresenterChartNotesAreWholeAt720p) {
    for (const char* lang : {"en", "zh"}) {
        ui.settings.language = lang;
        Presenter("softmax/vectorized");
        Frames(4);
        const ImGuiWindow* side = nullptr;
        for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
            if (w->Active && std::string(w->Name).find("presenter_chart") != std::string::npos)
                side = w;
        ASSERT_NE(side, nullptr) << lang;
        // The chart keeps room to be read: at least a third of the column.
        EXPECT_GE(side->Size.y - ui.presenter_notes_h, side->Size.y / 3)
            << lang << ": the notes leave the chart " << side->Size.y - ui.presenter_notes_h;
        // (A pixel or two of padding may pass the edge; a line of notes may not.)
        EXPECT_LT(side->ScrollMax.y, ImGui::GetFontSize() / 2)
            << lang << ": the notes under the chart are cut";
        ui.presenter = false;
        ScaleTo(1, ImVec2(1500, 940));
        Frames(2);
    }
}

// Beside the code (presenter mode's code views take most of the width) the step chart's unit
// stays within the chart at 1280x720, scale 2: it was cut at the left ("s (median, confid...");
// and the short chart's log tick labels no longer lie on each other (Chinese, Changed code).
TEST_F(Classroom, PresenterChartsUnitStaysWithinItsColumnBesideTheCode) {
    for (const char* lang : {"en", "zh"}) {
        ui.settings.language = lang;
        Presenter("gemm/double-buffering");
        for (const char* view : {"view_text", "view_changed", "view_sass"}) {
            Click(view);
            Frames(2);
            const ImVec4 unit = probe.step_layout.unit, chart = probe.step_layout.chart;
            EXPECT_GT(unit.z, unit.x) << lang << " " << view << ": no unit drawn";
            EXPECT_GE(unit.x, chart.x - 0.5f)
                << lang << " " << view << ": the unit starts left of its chart";
            // A short chart there: its tick labels a line apart at least, never on each other.
            const std::vector<float>& ticks = probe.step_layout.y_ticks;
            EXPECT_GE(ticks.size(), 2u) << lang << " " << view;
            for (size_t i = 1; i < ticks.size(); ++i)
                EXPECT_GE(std::abs(ticks[i] - ticks[i - 1]), ImGui::GetFontSize())
                    << lang << " " << view << ": tick labels overlap";
        }
        Click("view_text");
        ui.presenter = false;
        ScaleTo(1, ImVec2(1500, 940));
        Frames(2);
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
    ScrollAt(ImVec2((chart.x + chart.z) / 2,
                    std::min((chart.y + chart.w) / 2, probe.rects["sidebar_splitter"].w - 20.0f)),
             6, -5);
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
    KeyboardOn("reduce/v1-shared-memory", 3);
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
    KeyboardOn("reduce/v1-shared-memory", 3);
    ASSERT_TRUE(PressOn("tab_sass", kKeySpace)) << probe.focused;
    EXPECT_EQ(ui.machine.tab, 2) << "Space opened the SASS tab";
    ASSERT_TRUE(PressOn("presenter_toggle", kKeyEnter)) << probe.focused;
    EXPECT_TRUE(ui.presenter) << "Enter ticked Presenter";
}

// Space held into a frame further from its press than ImGui's key repeat delay (a loaded
// machine's next frame) presses the focused control once: on the Evidence header it opened the
// section and closed it again, and Tab never found the section's buttons (gui_keyboard, issue 40).
TEST_F(Classroom, SpaceHeldIntoASlowFramePressesTheFocusedControlOnce) {
    KeyboardOn("gemv/warp-per-row", 3);
    ASSERT_TRUE(TabTo("evidence_header")) << probe.focused;
    Frames(2);
    ASSERT_EQ(probe.rects.count("profile_recorded"), 0u) << "the Evidence section starts folded";
    ImGuiIO& io = ImGui::GetIO();
    const float saved = io.DeltaTime;
    io.DeltaTime = 0.6f;
    ASSERT_GT(io.DeltaTime, io.KeyRepeatDelay);
#if IMGUI_VERSION_NUM >= 18700
    io.AddKeyEvent(ImGuiKey_Space, true);
    Frames(2);
    io.AddKeyEvent(ImGuiKey_Space, false);
#else
    for (int i = 0; i < 2; ++i) {
        io.KeysDown[kKeySpace] = true;  // (Frame() lets every key go after the frame)
        Frame();
    }
#endif
    Frames(3);
    io.DeltaTime = saved;
    EXPECT_EQ(probe.rects.count("profile_recorded"), 1u) << "the section open, once";
}

// Enter on the focused filter starts typing in it: the keyboard alone opens a lesson.
TEST_F(Classroom, TheFilterIsTypedInByKeyboardAlone) {
    ImGui::GetIO().MousePos = ImVec2(-1, -1);
    ASSERT_TRUE(TabTo("lesson_filter")) << probe.focused;
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

// Inline code is noted as a span of the block's text: its "*" kept, its backticks gone; an
// unclosed span runs to the end; answers carry theirs too.
TEST(ClassroomText, InlineCodeIsNotedAsSpans) {
    std::vector<TextBlock> blocks = ParseLessonText("Each thread adds `a[i][j] * x[j]` and more.");
    ASSERT_EQ(blocks.size(), 1u);
    ASSERT_EQ(blocks[0].code.size(), 1u);
    const CodeSpan span = blocks[0].code[0];
    EXPECT_EQ(blocks[0].text.substr(span.begin, span.end - span.begin), "a[i][j] * x[j]");
    blocks = ParseLessonText("Two: `x` and `y`, then `open");
    ASSERT_EQ(blocks[0].code.size(), 3u);
    EXPECT_EQ(blocks[0].text.substr(blocks[0].code[2].begin), "open");
    blocks = ParseLessonText("- Question?\n  Answer: call `__syncthreads()` there.");
    ASSERT_EQ(blocks.back().kind, TextBlock::Kind::kAnswer);
    ASSERT_EQ(blocks.back().code.size(), 1u);
    EXPECT_TRUE(WithoutAnswers(blocks).back().code.empty()) << "a hidden answer has no code";
    EXPECT_TRUE(ParseLessonText("No code, `` nothing.")[0].code.empty()) << "an empty span";
}

// Drawn with DrawTextWithCode: a span's ASCII in the monospace font at its width there, its
// Chinese in the text's own font (the monospace font has none); without a code font, none.
TEST_F(Classroom, InlineCodeIsDrawnInTheMonospaceFont) {
    ImFont* mono = ui.fonts.mono;
    ASSERT_NE(mono, ui.fonts.ui) << "DejaVu Sans Mono is installed here";
    auto draw = [&](const std::string& markdown, ImFont* code_font) {
        const TextBlock block = ParseLessonText(markdown).front();
        CodeDrawn drawn;
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::SetNextWindowSize(ImVec2(900, 400));
        ImGui::Begin("text");
        DrawTextWithCode(block.text, block.code, code_font, nullptr, {}, &drawn);
        ImGui::End();
        ImGui::Render();
        return drawn;
    };
    const CodeDrawn drawn = draw("Each thread adds `a[i][j] * x[j]` and more.", mono);
    EXPECT_EQ(drawn.runs, 1);
    const float size = ImGui::GetFontSize() * mono->FontSize / ui.fonts.ui->FontSize;
    const char* code = "a[i][j] * x[j]";
    EXPECT_NEAR(drawn.first.z - drawn.first.x, mono->CalcTextSizeA(size, 1e9f, 0, code).x, 0.5f);
    EXPECT_EQ(draw("\xE7\x94\xA8 `x[\xE4\xB8\xAD]` \xE8\xA1\xA8", mono).runs, 2)
        << "x[ and ] in the monospace font, the Chinese character between them not";
    EXPECT_EQ(draw("Each `x` here.", nullptr).runs, 0);
    // The lesson pages: 4.2's text has inline code, in both languages.
    SelectLesson(ui, registry, "gemv/warp-per-row");
    for (const char* language : {"en", "zh"}) {
        ui.settings.language = language;
        Frames(3);
        EXPECT_GT(probe.inline_code_runs, 0) << language;
        EXPECT_TRUE(probe.rects.count("inline_code")) << language;
    }
}

// The maximised editor's line between the editor and its messages is a handle: dragged, the
// editor gets wider and keeps that share.
TEST_F(Classroom, TheMaximisedEditorsHandleMovesTheLine) {
    setenv("XDG_DATA_HOME", "/tmp", 0);
    SelectLesson(ui, registry, "gemv/warp-per-row");
    Frames(2);
    Click("tab_exercise");
    Click("exercise_maximise");
    Frames(2);
    ASSERT_TRUE(probe.rects.count("exercise_splitter"));
    const float before = probe.rects["exercise_messages_pane"].x;
    const ImVec2 handle = Center("exercise_splitter");
    Drag(handle, ImVec2(handle.x + 150, handle.y));
    Frames(2);
    EXPECT_NEAR(probe.rects["exercise_messages_pane"].x - before, 150, 8);
    EXPECT_GT(ui.exercise.editor_share, 0.62f);
}

// Lesson 5.8 rewrites most of its file: presenter mode's changed code opens at its kernel (its
// template line first), not at the file's header comment; 10.2 (attention/swizzled) changes about
// 38 of its 154 lines and opens at its top.
TEST_F(Classroom, ARewrittenStepsChangedCodeOpensAtItsKernel) {
    Presenter("gemm/double-buffering");
    Click("view_changed");
    Frames(3);
    const Lesson& lesson = Named("gemm/double-buffering");
    const std::vector<std::string> lines = SplitLines(lesson.source);
    ASSERT_GT(probe.presenter_code_from, 1);
    size_t kernel = size_t(probe.presenter_code_from - 1);
    for (; kernel < lines.size() && lines[kernel].find("__global__") == std::string::npos;
         ++kernel) {
        const bool head = lines[kernel].find("template") != std::string::npos ||
                          lines[kernel].find('>') != std::string::npos;
        EXPECT_TRUE(head) << "only the kernel's template above it: " << lines[kernel];
    }
    EXPECT_LT(kernel, lines.size()) << "a __global__ line";
    EXPECT_GT(probe.presenter_scroll_y, 0) << "scrolled to the kernel";
    Click("view_text");
    SelectLesson(ui, registry, "attention/swizzled");
    Frames(2);
    Click("view_changed");
    Frames(3);
    EXPECT_EQ(probe.presenter_code_from, 0);
    EXPECT_EQ(probe.presenter_scroll_y, 0);
}

// The lesson list's tooltip stays within the list (it covered the lesson text's first lines).
TEST_F(Classroom, TheListsTooltipStaysWithinTheList) {
    const ImVec4 list = probe.rects["lesson_filter"];
    const std::string name = "lesson_" + registry.lessons()[2].id;
    ImGui::GetIO().MousePos = Center(name);
    Frames(3);
    ASSERT_TRUE(probe.list_tooltip);
    const ImGuiWindow* tip = nullptr;
    for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
        if ((w->Flags & ImGuiWindowFlags_Tooltip) && w->Active) tip = w;
    ASSERT_NE(tip, nullptr);
    EXPECT_LE(tip->Pos.x + tip->Size.x, list.z + ImGui::GetFontSize() * 2)
        << "no wider than the list";
    EXPECT_GE(tip->Pos.y, probe.rects[name].w) << "under the entry hovered";
}

// A narrow window hides the lesson list behind a strip with », which (or L) shows it again; «
// hides it; the status bar's third row is made room for.
TEST_F(Classroom, ANarrowWindowHidesTheListAndTheStatusBarFits) {
    ImGui::GetIO().DisplaySize = ImVec2(800, 600);
    Frames(3);
    EXPECT_FALSE(probe.list_drawn);
    ASSERT_TRUE(probe.rects.count("list_show"));
    Click("list_show");
    EXPECT_TRUE(probe.list_drawn);
    Click("list_hide");
    EXPECT_FALSE(probe.list_drawn);
    Key(kKeyL);
    Frames(2);
    EXPECT_TRUE(probe.list_drawn);
    ImGui::GetIO().DisplaySize = ImVec2(1500, 940);
    ui.list_choice = -1;
    Frames(2);
    EXPECT_TRUE(probe.list_drawn) << "wide enough";
    ImGui::GetIO().DisplaySize = ImVec2(400, 300);
    Frames(4);
    for (const auto& [name, r] : probe.rects)
        if (name == "scale" || name == "presenter_toggle" || name == "reference_gpu") {
            EXPECT_LE(r.w, 300.5f) << name << " below the window";
        }
}

// Up and Down while typing in the filter open the previous and next lesson that matches.
TEST_F(Classroom, TheArrowsMoveThroughTheFiltersMatches) {
    Click("lesson_filter");
    Type("gemm/");
    Key(kKeyDown);
    const std::string first = ui.settings.lesson;
    EXPECT_EQ(first.rfind("gemm/", 0), 0u) << first;
    Key(kKeyDown);
    EXPECT_NE(ui.settings.lesson, first);
    EXPECT_EQ(ui.settings.lesson.rfind("gemm/", 0), 0u);
    Key(kKeyUp);
    EXPECT_EQ(ui.settings.lesson, first);
}

// On a focused tab, Left and Right move along the tabs (the lesson stays).
TEST_F(Classroom, TheArrowsMoveAlongTheTabsOfTheFocusedStrip) {
    KeyboardOn("reduce/v4-warp-shuffle", 2);
    ASSERT_TRUE(PressOn("tab_source", kKeyRight)) << probe.focused;
    EXPECT_EQ(ui.settings.lesson, "reduce/v4-warp-shuffle") << "the lesson stays";
    EXPECT_EQ(ui.machine.tab, 1) << "PTX";
    EXPECT_EQ(probe.focused, "tab_ptx");
    Press(kKeyLeft);
    EXPECT_EQ(ui.machine.tab, 0);
    Press(kKeyLeft);
    EXPECT_EQ(ui.machine.tab, 0) << "the first tab stays";
    EXPECT_EQ(ui.settings.lesson, "reduce/v4-warp-shuffle");
}

// ImGui 1.86 sees a key only as its state at a frame: the queue hands a frame its events until a
// key would change twice or characters and keys would mix, so that nothing is lost or reordered.
TEST(ClassroomInput, TheTrickleKeepsEachKeyAndTheTypingOrder) {
    InputTrickle t;
    using K = InputEvent::Kind;
    constexpr int kEnter = 257, kA = 65, kCtrl = 341, kPress = 1, kRelease = 0, kRepeat = 2;
    auto key = [&](int k, int action) { t.Push({K::kKey, k, 0, action, 0, 0}); };
    auto ch = [&](unsigned c) { t.Push({K::kChar, 0, 0, 0, 0, c}); };
    // "ab", Return, "c" typed between two frames.
    ch('a');
    ch('b');
    key(kEnter, kPress);
    key(kEnter, kRelease);
    ch('c');
    std::vector<InputEvent> f = t.TakeFrame();
    ASSERT_EQ(f.size(), 2u);
    EXPECT_EQ(f[1].codepoint, unsigned('b'));
    f = t.TakeFrame();
    ASSERT_EQ(f.size(), 1u) << "the press alone: its release in the next frame";
    EXPECT_EQ(f[0].action, kPress);
    f = t.TakeFrame();
    ASSERT_EQ(f.size(), 1u) << "the release; the character after a key waits";
    EXPECT_EQ(f[0].action, kRelease);
    f = t.TakeFrame();
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].codepoint, unsigned('c'));
    EXPECT_FALSE(t.Pending());
    EXPECT_TRUE(t.TakeFrame().empty());
    // Ctrl+A: Ctrl and A down in one frame, both up in the next; a repeat changes nothing.
    key(kCtrl, kPress);
    key(kA, kPress);
    key(kA, kRepeat);
    key(kA, kRelease);
    key(kCtrl, kRelease);
    EXPECT_EQ(t.TakeFrame().size(), 3u);
    EXPECT_EQ(t.TakeFrame().size(), 2u);
    EXPECT_FALSE(t.Pending());
    // As xdotool sends Ctrl+A: Ctrl let go before A. The frame that sees A sees Ctrl still down.
    key(kCtrl, kPress);
    key(kA, kPress);
    key(kCtrl, kRelease);
    key(kA, kRelease);
    f = t.TakeFrame();
    ASSERT_EQ(f.size(), 2u);
    EXPECT_EQ(f[1].key, kA);
    EXPECT_EQ(t.TakeFrame().size(), 2u) << "both let go in the next frame";
}

// The character a key types comes in the frame of the key's press, so that the key is down for
// one frame: in a frame of its own, Space's ' ' kept Space down for two, and on a loaded machine
// (frames longer than ImGui's key repeat delay) ImGui read the second as a repeat (issue 40).
TEST(ClassroomInput, AKeysOwnCharacterComesInTheFrameOfItsPress) {
    InputTrickle t;
    using K = InputEvent::Kind;
    constexpr int kSpace = 32, kB = 66, kC = 67, kEnter = 257, kPress = 1, kRelease = 0;
    auto key = [&](int k, int action) { t.Push({K::kKey, k, 0, action, 0, 0}); };
    auto ch = [&](unsigned c) { t.Push({K::kChar, 0, 0, 0, 0, c}); };
    key(kSpace, kPress);
    ch(' ');
    key(kSpace, kRelease);
    std::vector<InputEvent> f = t.TakeFrame();
    ASSERT_EQ(f.size(), 2u) << "Space's press and its character";
    EXPECT_EQ(f[1].codepoint, unsigned(' '));
    f = t.TakeFrame();
    ASSERT_EQ(f.size(), 1u) << "its release in the next frame";
    EXPECT_EQ(f[0].action, kRelease);
    EXPECT_FALSE(t.Pending());
    // "b", Return, "c" as xdotool types them (each key's press, its character, its release):
    // Return's press still shares no frame with a character.
    key(kB, kPress);
    ch('b');
    key(kB, kRelease);
    key(kEnter, kPress);
    key(kEnter, kRelease);
    key(kC, kPress);
    ch('c');
    key(kC, kRelease);
    const std::vector<size_t> sizes = {2, 2, 3, 1};  // b 'b' | b Return | Return c 'c' | c
    for (size_t i = 0; i < sizes.size(); ++i) {
        f = t.TakeFrame();
        ASSERT_EQ(f.size(), sizes[i]) << "frame " << i;
        const bool chars = std::any_of(f.begin(), f.end(),
                                       [&](const InputEvent& e) { return e.kind == K::kChar; });
        const bool enter = std::any_of(f.begin(), f.end(), [&](const InputEvent& e) {
            return e.kind == K::kKey && e.key == kEnter && e.action == kPress;
        });
        EXPECT_FALSE(chars && enter) << "frame " << i;
    }
    EXPECT_EQ(f[0].key, kC);
    EXPECT_FALSE(t.Pending());
}

#if IMGUI_VERSION_NUM >= 18700
// ImGui 1.87 and later: xdotool's Ctrl+A (Ctrl let go before A, all between two frames, Ctrl
// alone in the frame before) reaches ImGui as Ctrl+A. Given to ImGui's own queue through its
// GLFW backend, A came with Ctrl's release in one frame and the backend's modifiers were GLFW's
// state when called (Ctrl up): an A without Ctrl, and the editor kept its text (1.90.1, the
// gui_classroom failure). FeedImGui gives each key the modifiers of its own event.
TEST_F(Classroom, AChordKeepsItsModifierWhenItsKeysComeAtOnce) {
    InputTrickle t;
    using K = InputEvent::Kind;
    constexpr int kA = 65, kCtrl = 341, kPress = 1, kRelease = 0, kModCtrl = 2;
    ImGuiIO& io = ImGui::GetIO();
    auto frame = [&] {
        FeedImGui(t.TakeFrame());
        ImGui::NewFrame();
        const bool chord = io.KeyCtrl && ImGui::IsKeyPressed(ImGuiKey_A, false);
        const bool plain = !io.KeyCtrl && ImGui::IsKeyPressed(ImGuiKey_A, false);
        ImGui::EndFrame();
        return std::make_pair(chord, plain);
    };
    t.Push({K::kKey, kCtrl, 0, kPress, 0, 0});  // GLFW's mods: those held before the event
    frame();
    t.Push({K::kKey, kA, 0, kPress, kModCtrl, 0});
    t.Push({K::kKey, kCtrl, 0, kRelease, kModCtrl, 0});
    t.Push({K::kKey, kA, 0, kRelease, 0, 0});
    int chords = 0, plains = 0;
    for (int i = 0; i < 4; ++i) {
        const auto [chord, plain] = frame();
        chords += chord;
        plains += plain;
    }
    EXPECT_EQ(chords, 1) << "A read with Ctrl held";
    EXPECT_EQ(plains, 0) << "never as an A alone";
    EXPECT_FALSE(io.KeyCtrl) << "Ctrl let go at the end";
}
#endif

// The lesson page's small roofline names its roofs under it, and speaks of the previous step's
// point only where there is one (review 2026-11-28, 27).
TEST_F(Classroom, TheSmallRooflineNamesItsRoofs) {
    ImGui::GetIO().DisplaySize = ImVec2(1500, 2400);
    SelectLesson(ui, registry, "gemv/warp-per-row");
    Frames(3);
    EXPECT_GE(probe.roof_key, 2) << "the bandwidth and fp32 roof, the copy roof at least";
    EXPECT_NE(probe.roof_note.find("previous one (green)"), std::string::npos) << probe.roof_note;
    const Lesson& first = *registry.LessonsOf(registry.ChapterOf(Named("gemm/naive"))).front();
    SelectLesson(ui, registry, first.id);
    Frames(3);
    if (probe.roof_points > 0) {
        EXPECT_EQ(probe.roof_note.find("green"), std::string::npos)
            << first.label << " has no previous point: " << probe.roof_note;
    }
}

// A listing's line information: PTX compiled with -lineinfo (its ".loc" lines, the step's file
// named in its ".file" table), and SASS disassembled with it (nvdisasm -g's "//## File" lines).
// The directives are not listed; each instruction carries its source line, a helper inlined
// from a header its call's line. (The project's embedded PTX is compiled without -lineinfo and
// its recorded SASS, cuobjdump -sass, has no line information: their views stay as they were.)
TEST(ClassroomListing, LineInformationLinksInstructionsToSourceLines) {
    std::ifstream in(std::string(LESSONS_SOURCE_DIR) + "/tests/data/lineinfo/axpy.ptx");
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string ptx = buffer.str();
    ASSERT_FALSE(ptx.empty());
    MachineView m;
    ListMachineCode(m, ptx, Isa::kPtx, "kernels/demo/axpy.cu");
    ASSERT_TRUE(m.has_line_info);
    ASSERT_EQ(m.lines.size(), m.line_source.size());
    int loads_at_9 = 0;
    for (size_t i = 0; i < m.lines.size(); ++i) {
        EXPECT_EQ(m.lines[i].find(".loc"), std::string_view::npos) << "directives not listed";
        EXPECT_EQ(m.lines[i].find(".file"), std::string_view::npos);
        if (m.lines[i].find("ld.global.f32") != std::string_view::npos) {
            EXPECT_EQ(m.line_source[i], 9) << m.lines[i];
            ++loads_at_9;
        }
        if (m.lines[i].find("mad.lo.s32") != std::string_view::npos) {
            EXPECT_EQ(m.line_source[i], 7);
        }
        if (m.lines[i].find(".reg") != std::string_view::npos) {
            EXPECT_EQ(m.line_source[i], 0);
        }
    }
    EXPECT_EQ(loads_at_9, 2);
    // Another file's lines (a header's) carry none; nor does a listing of another step's file.
    ListMachineCode(m, ptx, Isa::kPtx, "kernels/demo/other.cu");
    EXPECT_EQ(std::count(m.line_source.begin(), m.line_source.end(), 0),
              static_cast<long>(m.line_source.size()));
    // SASS in nvdisasm -g's form (written here by hand: this machine has no nvdisasm).
    const std::string sass =
        "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
        "\t//## File \"/build/kernels/demo/axpy.cu\", line 7\n"
        "        /*0010*/                   S2R R0, SR_TID.X ;\n"
        "\t//## File \"/build/kernels/demo/axpy.cu\", line 9\n"
        "        /*0020*/                   LDG.E R2, desc[UR4][R2.64] ;\n"
        "\t//## File \"/usr/include/helper.h\", line 3 inlined at \"/build/kernels/demo/axpy.cu\", "
        "line 9\n"
        "        /*0030*/                   FFMA R5, R2, c[0x0][0x210], R5 ;\n"
        "\t//## File \"/usr/include/helper.h\", line 4\n"
        "        /*0040*/                   EXIT ;\n";
    ListMachineCode(m, sass, Isa::kSass, "kernels/demo/axpy.cu");
    ASSERT_TRUE(m.has_line_info);
    ASSERT_EQ(m.lines.size(), 5u);
    EXPECT_EQ(m.line_source, (std::vector<int>{0, 7, 9, 9, 0}));
}

// The project's own build compiles its PTX with -lineinfo (cmake/MachineCode.cmake): every
// kernel file's embedded PTX carries ".loc" lines of its own source, so the code view links
// source and PTX on the committed build (a build without CUDA has no PTX: nothing to check).
TEST(ClassroomListing, TheBuildsPtxCarriesLineInformation) {
    const MachineCodeTable& table = MachineCodeFiles();
    if (table.why_none[0]) GTEST_SKIP() << table.why_none;
    int kernels = 0;
    for (const auto& [path, file] : table.files) {
        if (file.ptx.find(".entry") == std::string_view::npos) continue;  // no kernel
        ++kernels;
        MachineView m;
        ListMachineCode(m, file.ptx, Isa::kPtx, path);
        EXPECT_TRUE(m.has_line_info) << path << ": its PTX has no .loc lines (-lineinfo)";
        EXPECT_TRUE(std::any_of(m.line_source.begin(), m.line_source.end(),
                                [](int line) { return line > 0; }))
            << path << ": no instruction carries a line of " << path;
    }
    EXPECT_GT(kernels, 20);
}

// The linked view: a click on a source line highlights its instructions and scrolls the
// listing to them; a click on an instruction links its source line.
TEST_F(Classroom, ASourceLineAndItsInstructionsAreLinked) {
    std::ifstream in(std::string(LESSONS_SOURCE_DIR) + "/tests/data/lineinfo/axpy.ptx");
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string ptx = buffer.str();
    std::ifstream cu(std::string(LESSONS_SOURCE_DIR) + "/tests/data/lineinfo/axpy.cu.txt");
    std::stringstream source;
    source << cu.rdbuf();
    MachineView m;
    m.source_lines = SplitLines(source.str());
    ListMachineCode(m, ptx, Isa::kPtx, "kernels/demo/axpy.cu");
    auto click = [&](const std::string& name) { LinkedClickOn(m, "code", name); };
    click("linked_source_row_9");
    EXPECT_EQ(m.linked, 9);
    EXPECT_EQ(probe.linked_source, 9);
    EXPECT_EQ(probe.linked_listing_lines,
              std::count(m.line_source.begin(), m.line_source.end(), 9));
    EXPECT_GE(probe.linked_listing_lines, 4)
        << "the address, two loads, the multiply-add, the store";
    ASSERT_TRUE(probe.rects.count("linked_listing_row"));
    const ImVec4 instruction = probe.rects["linked_listing_row"];  // the listing scrolled to it
    click("linked_source_row_9");
    EXPECT_EQ(m.linked, 0) << "a second click unlinks it";
    click("linked_source_row_1");
    EXPECT_EQ(m.linked, 0) << "a comment has no instructions";
    // A click on that instruction links its source line again.
    LinkedClick(m, "code", ImVec2(instruction.x + 60, (instruction.y + instruction.w) / 2));
    EXPECT_EQ(m.linked, 9);
}

// Review row 25: the roofline's roof labels cover no point and no other label, and those that
// find no place in the plot are listed in the key under the chart, which lies outside the plot
// (in presenter mode it was drawn over the plot's upper left, the fp32 label showing through
// it). Checked at window sizes from 800x600 to 1920x1080, scales 1 to 2, presenter mode on and
// off, in both languages; every roof and the ridge is named once, in the plot or in the key.
TEST_F(Classroom, TheRooflineKeyCoversNoPointNorLabelAtAnySize) {
    SelectLesson(ui, registry, "roofline/roofline");
    Frames(2);
    const auto meet = [](const ImVec4& a, const ImVec4& b) {
        return a.x < b.z - 0.5f && b.x < a.z - 0.5f && a.y < b.w - 0.5f && b.y < a.w - 0.5f;
    };
    struct Size {
        float scale;
        ImVec2 display;
    };
    const Size sizes[] = {{2, {1280, 720}},  {1, {1500, 940}}, {1, {800, 600}},
                          {2, {1920, 1080}}, {1, {1280, 720}}, {1.5f, {1024, 768}}};
    size_t named = 0;
    int listed = 0, in_presenter_at_720 = 0;
    for (const Size& size : sizes)
        for (const bool presenter : {true, false})
            for (const char* language : {"en", "zh"}) {
                SCOPED_TRACE(std::to_string(int(size.display.x)) + "x" +
                             std::to_string(int(size.display.y)) + " scale " +
                             std::to_string(size.scale) + (presenter ? " presenter " : " page ") +
                             language);
                ScaleTo(size.scale, size.display);
                ui.presenter = presenter;
                ui.settings.language = language;
                probe.open_all = true;
                Frames(4);
                ASSERT_TRUE(probe.rects.count("roofline_plot"));
                const ImVec4 plot = probe.rects["roofline_plot"];
                EXPECT_GT(probe.roof_points, 100);
                EXPECT_EQ(probe.roof_label_overlaps, 0);
                ASSERT_EQ(probe.roof_key_rects.size(), probe.roof_dropped.size());
                for (size_t i = 0; i < probe.roof_key_rects.size(); ++i) {
                    const ImVec4 k = probe.roof_key_rects[i];
                    EXPECT_FALSE(meet(k, plot)) << probe.roof_dropped[i] << ": over the plot";
                    EXPECT_LE(k.z, size.display.x + 0.5f) << probe.roof_dropped[i];
                    for (size_t j = 0; j < i; ++j)
                        EXPECT_FALSE(meet(k, probe.roof_key_rects[j])) << probe.roof_dropped[i];
                }
                if (presenter && !probe.roof_key_rects.empty() &&
                    probe.rects.count("presenter_chart")) {
                    EXPECT_LE(probe.roof_key_rects.back().w,
                              probe.rects["presenter_chart"].w + 0.5f)
                        << "the key cut at the pane's foot";
                }
                for (size_t i = 0; i < probe.roof_label_rects.size(); ++i) {
                    const ImVec4 l = probe.roof_label_rects[i];
                    EXPECT_TRUE(l.x >= plot.x - 0.5f && l.z <= plot.z + 0.5f &&
                                l.y >= plot.y - 0.5f && l.w <= plot.w + 0.5f)
                        << "a label in the plot stays within it";
                    for (size_t j = 0; j < i; ++j) EXPECT_FALSE(meet(l, probe.roof_label_rects[j]));
                }
                // Each roof (and the ridge) named once: in the plot or in the key.
                const size_t n = probe.roof_label_rects.size() + probe.roof_dropped.size();
                if (named == 0) named = n;
                EXPECT_EQ(n, named);
                listed += static_cast<int>(probe.roof_dropped.size());
                if (presenter && size.scale == 2 && size.display.y == 720)
                    in_presenter_at_720 += static_cast<int>(probe.roof_dropped.size());
            }
    EXPECT_GE(named, 4u) << "read, copy, fp32 and the ridge at least";
    EXPECT_GT(in_presenter_at_720, 0) << "presenter mode at 720p x2 lists some in its key";
    EXPECT_GT(listed, 0);
}

// Each counter's one-line explanation ends as a sentence does, in both languages: where the
// glossary's definition goes on after a semicolon, the line ends with a full stop, not ";"
// (gui42b's note on review row 8).
TEST_F(Classroom, EachCountersExplanationEndsAsASentence) {
    ImGui::GetIO().DisplaySize = ImVec2(1500, 4000);
    Open("gemv/warp-per-row");
    probe.open_all = true;
    Frames(2);
    ASSERT_TRUE(probe.rects.count("profile_recorded"));
    Click("profile_recorded");  // the recorded counters
    Frames(3);
    for (const char* language : {"en", "zh"}) {
        SCOPED_TRACE(language);
        ui.settings.language = language;
        Frames(2);
        ASSERT_GE(probe.evidence_explanations.size(), 3u);
        for (const std::string& e : probe.evidence_explanations) {
            const bool zh = language[0] == 'z';
            const std::string end = zh ? "\xE3\x80\x82" : ".";
            EXPECT_TRUE(e.size() > end.size() &&
                        e.compare(e.size() - end.size(), end.size(), end) == 0)
                << e;
            EXPECT_EQ(e.find(zh ? "\xEF\xBC\x9B" : ";"), std::string::npos) << e;
        }
    }
}

// The SASS tab's links (review row 26) on a listing as scripts/record-sass.sh records it from
// objects built with -lineinfo: cuobjdump's layout, with nvdisasm -gi's "//## File" lines put
// before their instructions by scripts/sass-line-info.py, the encodings dropped, "//@" lines
// first (tests/data/lineinfo/axpy.cu.sass, made so from the two layouts beside it: this machine
// has neither tool). The listing is read as the build embeds it (without the "//@" lines) and
// shown as the SASS tab shows it (the step's kernel chosen): each instruction carries its
// source line (a helper inlined in the same file, its own line), and a click on a source line
// highlights its instructions.
TEST_F(Classroom, ARecordedSassListingWithLineInformationIsLinkedToItsSource) {
    const std::string dir = std::string(LESSONS_SOURCE_DIR) + "/tests/data/lineinfo/";
    auto read = [](const std::string& path) {
        std::ifstream in(path);
        std::stringstream buffer;
        buffer << in.rdbuf();
        return buffer.str();
    };
    std::string recorded = read(dir + "axpy.cu.sass");
    ASSERT_FALSE(recorded.empty());
    // Where python3 is, the fixture is what the recording's merge makes of the two layouts.
    if (std::system("python3 -c 0 >/dev/null 2>&1") == 0) {
        const std::string merged = ::testing::TempDir() + "/axpy-merged.sass";
        const std::string command = "python3 " + std::string(LESSONS_SOURCE_DIR) +
                                    "/scripts/sass-line-info.py " + dir + "axpy.cuobjdump.txt " +
                                    dir + "axpy.nvdisasm.txt | sed -E 's@[[:space:]]*/\\* " +
                                    "0x[0-9a-f]+ \\*/@@' | grep -v '^[[:space:]]*$' > " + merged;
        ASSERT_EQ(std::system(command.c_str()), 0) << command;
        EXPECT_EQ(read(merged), recorded.substr(recorded.find("Fatbin elf code:")))
            << "tests/data/lineinfo/axpy.cu.sass is not scripts/sass-line-info.py's output";
    }
    // As cmake/MachineCodeScript.cmake embeds it: the "//@ " lines dropped.
    while (recorded.rfind("//@ ", 0) == 0) recorded.erase(0, recorded.find('\n') + 1);
    MachineView m;
    m.source_lines = SplitLines(read(dir + "axpy.cu.txt"));
    m.functions = SplitFunctions(recorded, Isa::kSass);
    ASSERT_EQ(m.functions.size(), 1u);
    m.kernel = DefaultKernel(m.functions, {"axpy_kernel"});
    EXPECT_EQ(m.kernel, 0);
    ListMachineCode(m, recorded, Isa::kSass, "kernels/demo/axpy.cu");
    ASSERT_TRUE(m.has_line_info);
    ASSERT_EQ(m.lines.size(), m.line_source.size());
    std::map<std::string, int> line_of;
    for (size_t i = 0; i < m.lines.size(); ++i) {
        EXPECT_EQ(m.lines[i].find("//##"), std::string_view::npos) << "directives not listed";
        for (const char* op : {"LDG.E R2", "LDG.E R7", "FFMA", "STG.E", "ISETP", "LDC R1"})
            if (m.lines[i].find(op) != std::string_view::npos) line_of[op] = m.line_source[i];
    }
    EXPECT_EQ(line_of["LDC R1"], 6);
    EXPECT_EQ(line_of["ISETP"], 8);
    EXPECT_EQ(line_of["LDG.E R2"], 9);
    EXPECT_EQ(line_of["LDG.E R7"], 9);
    EXPECT_EQ(line_of["FFMA"], 3) << "the inlined helper's own line, in the same file";
    EXPECT_EQ(line_of["STG.E"], 9);
    // Drawn as the SASS tab draws a listing with line information.
    ASSERT_NO_FATAL_FAILURE(LinkedClickOn(m, "sass", "linked_source_row_9"));
    EXPECT_EQ(m.linked, 9);
    EXPECT_EQ(probe.linked_source, 9);
    EXPECT_EQ(probe.linked_listing_lines, 8)
        << "three constant loads, two address computations, two loads and the store";
}

// The SASS tab opens at the instance the step's exercise stands for: a tile step's default tile
// (8.5 at 256 × 128 with 4 stages and 2 consumers), not the listing's first instance.
TEST(ClassroomListing, TheSassTabOpensAtTheExercisesInstance) {
    const std::vector<MachineFunction> listed = {
        {"a", "void lessons::tc::tc_warp_specialization_kernel<64, 256, 4, 1>(CUtensorMap_st)", {}},
        {"b",
         "void lessons::tc::tc_warp_specialization_kernel<128, 256, 3, 2>(CUtensorMap_st)",
         {}},
        {"c",
         "void lessons::tc::tc_warp_specialization_kernel<256, 128, 4, 2>(CUtensorMap_st)",
         {}},
    };
    const std::vector<std::string> names = {"tc_warp_specialization_kernel"};
    EXPECT_EQ(DefaultKernel(listed, names), 0) << "without an instance: the first";
    EXPECT_EQ(DefaultKernel(listed, names,
                            "constexpr int BM = 256, BN = 128, STAGES = 4, CONSUMERS = 2;"),
              2);
    EXPECT_EQ(DefaultKernel(listed, names,
                            "constexpr int BM = 256, BN = 128, STAGES = 4, "
                            "CONSUMERS = 2; constexpr bool EXTRA = true;"),
              2)
        << "no instance holds every value: the one that holds the most";
    EXPECT_EQ(DefaultKernel(listed, names, "constexpr Order kOrder = Order::kRows;"), 0)
        << "an enum's value is not spelled as written: the first";
    const std::vector<MachineFunction> toggled = {
        {"a", "void lessons::tc::tc_persistent_kernel<128, 256, 4, 2, true, true, false, 1>()", {}},
        {"b", "void lessons::tc::tc_persistent_kernel<128, 256, 4, 2, true, true, true, 2>()", {}},
        {"c", "void lessons::tc::tc_persistent_kernel<128, 256, 4, 2, true, true, true, 1>()", {}},
    };
    EXPECT_EQ(DefaultKernel(toggled, {"tc_persistent_kernel"},
                            "constexpr int BM = 128, BN = 256, STAGES = 4, CONSUMERS = 2, "
                            "CLUSTER = 1; constexpr bool WAIT_ONE = true, TMA_STORE = true, "
                            "BANDS = true;"),
              2)
        << "each argument stands for one value, in any order";

    // Every step whose exercise names an instance opens its listing at one that holds its values.
    const MachineCodeTable& table = MachineCodeFiles();
    if (table.why_none[0]) GTEST_SKIP() << "this build has no machine code: " << table.why_none;
    int checked = 0;
    for (const Lesson& lesson : Catalog().lessons()) {
        if (lesson.exercise.instance.empty()) continue;
        const auto file = table.files.find(lesson.source_path);
        if (file == table.files.end()) continue;
        for (const Isa isa : {Isa::kSass, Isa::kPtx}) {
            const std::string_view code = isa == Isa::kSass ? file->second.sass : file->second.ptx;
            if (code.empty()) continue;
            const std::vector<MachineFunction> functions = SplitFunctions(code, isa);
            const std::vector<std::string> kernels = KernelNames(lesson, nullptr);
            const int at = DefaultKernel(functions, kernels, lesson.exercise.instance);
            ASSERT_GE(at, 0) << lesson.label;
            // Where an instance of the kernel holds every value the exercise sets, the chosen
            // one does.
            const std::string& instance = lesson.exercise.instance;
            const auto holds_all = [&](const std::string& name) {
                if (name.find('<') == std::string::npos) return false;
                for (size_t v = instance.find("= "); v != std::string::npos;
                     v = instance.find("= ", v + 1)) {
                    const std::string value =
                        instance.substr(v + 2, instance.find_first_of(",;", v) - v - 2);
                    if (value.find("::") != std::string::npos) continue;  // an enum's
                    if (name.find("<" + value + ",") == std::string::npos &&
                        name.find(" " + value + ",") == std::string::npos &&
                        name.find(" " + value + ">") == std::string::npos &&
                        name.find("<" + value + ">") == std::string::npos)
                        return false;
                }
                return true;
            };
            const bool some = std::any_of(functions.begin(), functions.end(), [&](auto& f) {
                return f.name.find(kernels.front()) != std::string::npos && holds_all(f.name);
            });
            const std::string& chosen = functions[static_cast<size_t>(at)].name;
            if (some) {
                EXPECT_TRUE(holds_all(chosen)) << lesson.label << " opens at " << chosen
                                               << ", not at its exercise's " << instance;
            }
            if (lesson.id == "tensor-cores/warp-specialization") {
                EXPECT_NE(chosen.find("<256, 128, 4, 2>"), std::string::npos) << chosen;
            }
            ++checked;
        }
    }
    EXPECT_GT(checked, 0) << "no step with an exercise instance has a listing";
}

}  // namespace
}  // namespace app_test
