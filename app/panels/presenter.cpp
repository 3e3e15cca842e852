// Presenter mode (F5, or the checkbox in the status bar): for a class in front of a projector.
// The lesson list and the code pane are hidden; the lesson text (a page in the page model: its
// core) is shown one section at a time (a section opens at a bold lead-in: "What changed.",
// "Why it should be faster.", ...). Down / Page Down scroll a section longer than its pane a
// screen at a time and then move to the next section, Up / Page Up the same way back; the
// buttons step too. Instead of the text the pane shows the step's code, large: the lines
// changed against the previous step, or its SASS with the lesson's instructions highlighted.
// Beside it the run's progress and Cancel, and the chapter's step chart (or, in the roofline's
// chapter, the roofline) as large as the window allows, its notes wrapped, never cut. The two
// columns are resizable; in a narrow window the section stands above the chart.
#include <imgui_internal.h>  // SetNextWindowScroll (public from ImGui 1.87)

#include <algorithm>
#include <cmath>

#include "panels/page_view.h"
#include "panels/panels.h"
#include "probe.h"
#include "words/words_student.h"

namespace lessons::app {
namespace {

// Where the window is narrower than this many font heights, the section stands above the chart.
constexpr float kSideBySideEm = 30;

// The row above the section: previous, "Section 2 of 6", next, and Hide answers.
void DrawSectionRow(UiState& ui, const Controller& c, const Lesson& lesson, int count) {
    // The arrows alone on the buttons (their words on hover): the row stays one row at scale 2
    // in the text's column, under the view tabs.
    ImGui::BeginDisabled(ui.presenter_section <= 0);
    if (ImGui::Button("\xE2\x86\x91##section_previous"))
        ui.presenter_section = std::max(ui.presenter_section - 1, 0);
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        Tooltip(Tr(ui, kPreviousSection));
    Remember(ui, "section_previous");
    ImGui::EndDisabled();
    // "2 / 4" ("Section 2 of 4" on hover): Hide answers keeps to the same row.
    const std::string of = std::to_string(ui.presenter_section + 1) + " / " + std::to_string(count);
    SameLineIfFits(ImGui::CalcTextSize(of.c_str()).x);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(of.c_str());
    if (ImGui::IsItemHovered()) Tooltip(Fmt(Tr(ui, kSectionOf), ui.presenter_section + 1, count));
    Remember(ui, "section_of");
    SameLineIfFits(ButtonWidth("\xE2\x86\x93"));
    ImGui::BeginDisabled(ui.presenter_section + 1 >= count);
    if (ImGui::Button("\xE2\x86\x93##section_next")) ++ui.presenter_section;
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) Tooltip(Tr(ui, kNextSection));
    Remember(ui, "section_next");
    ImGui::EndDisabled();
    SameLineIfFits(CheckWidth(Tr(ui, kHideAnswers)));
    DrawHideAnswers(ui, c, lesson);
}

// Text, Changed code or SASS: what the pane shows, as tabs on one row.
void DrawViewChoice(UiState& ui) {
    const Word* views[] = {&kViewText, &kViewChanged, &kViewSass};
    const char* keys[] = {"view_text", "view_changed", "view_sass"};
    // One ID whichever table holds it (the code views lay the columns out in their own table):
    // the tab selected stays selected.
    ImGui::PushOverrideID(ImHashStr("presenter_views"));
    if (!ImGui::BeginTabBar("presenter_views")) {
        ImGui::PopID();
        return;
    }
    for (int v = 0; v < 3; ++v) {
        const std::string label = std::string(Tr(ui, *views[v])) + "###" + keys[v];
        // A view chosen elsewhere (a test, a key) is selected here once.
        const bool force = ui.presenter_view == v && ui.presenter_view_drawn != v;
        const bool open =
            ImGui::BeginTabItem(label.c_str(), nullptr, force ? ImGuiTabItemFlags_SetSelected : 0);
        Remember(ui, keys[v]);
        if (!open) continue;
        if (!force && ui.presenter_view != v) {
            ui.presenter_view = v;
            ui.presenter_drawn_section = -1;                   // opens at its top
            ui.redraw_frames = std::max(ui.redraw_frames, 2);  // the columns are laid out anew
        }
        ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
    ImGui::PopID();
    ui.presenter_view_drawn = ui.presenter_view;
}

// The text's current section, in a pane of `size` that opens at its top.
void DrawSection(UiState& ui, const Controller& c, const Lesson& lesson, ImVec2 size) {
    // A page in the page model shows its core only, one screen at a time.
    const std::vector<std::string> sections =
        InPageModel(ui, lesson)
            ? PresenterScreens(ui, c, lesson)
            : SplitSections(ui.settings.language == "zh" ? lesson.text_zh : lesson.text_en);
    const int count = static_cast<int>(sections.size());
    ui.presenter_section = std::clamp(ui.presenter_section, 0, std::max(count - 1, 0));
    if (ui.probe) {
        ui.probe->sections = count;
        ui.probe->section = count > 0 ? ui.presenter_section : -1;
    }
    DrawViewChoice(ui);
    if (ui.presenter_view == 0) DrawSectionRow(ui, c, lesson, std::max(count, 1));
    const bool opened = ui.presenter_drawn_section != ui.presenter_section;
    if (opened) ImGui::SetNextWindowScroll(ImVec2(0, 0));
    // Its room is measured right from its second frame on (ui_state.h).
    if (opened) ui.presenter_fresh_frames = 2;
    ui.presenter_drawn_section = ui.presenter_section;
    if (ui.probe) ui.probe->presenter_view = ui.presenter_view;
    BeginPane(ui, "section", size,
              ui.presenter_view > 0 ? ImGuiWindowFlags_HorizontalScrollbar : 0);
    if (ui.presenter_view == 1) {
        DrawChangedCode(ui, c.registry(), lesson, opened);
        PresenterScroll(ui);
    } else if (ui.presenter_view == 2) {
        DrawSass(ui, c.registry(), lesson);  // its listing scrolls (PresenterScroll there)
    } else {
        if (count == 0) {
            ImGui::TextDisabled("%s", Tr(ui, kNoText));
        } else {
            DrawLessonTextOf(ui, c, lesson, sections[size_t(ui.presenter_section)]);
        }
        if (ui.probe) ui.probe->section_fits = ImGui::GetScrollMaxY() <= 0;
        PresenterScroll(ui);
        if (ui.presenter_fresh_frames > 0) --ui.presenter_fresh_frames;
    }
    RecordScroll(ui, true);
    ImGui::EndChild();
    Remember(ui, "section_pane");
}

// The chart side: the axis choice and the step chart filling what is left (a few lines kept
// for the notes under it), or the whole roofline in its chapter.
void DrawChartSide(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson,
                   ImVec2 size) {
    ImGui::BeginChild("presenter_chart", size, false, kNoNavKeys);
    DrawProgress(ui, c);  // a run's progress and Cancel, above the chart
    if (reg.ChapterOf(lesson).whole_roofline) {
        DrawRoofline(ui, c, reg, lesson);
    } else {
        DrawAxisChoice(ui);
        // The notes under the chart take what they took in the last frame (at most half: a
        // noise verdict, its re-run button and the recording's note in Chinese at 1280x720,
        // scale 2, took 45% and were cut at 40%), the chart at least 6 lines.
        const float avail = ImGui::GetContentRegionAvail().y;
        const float notes = std::min(ui.presenter_notes_h, avail * 0.5f);
        ui.step_chart_height = std::max(ImGui::GetFontSize() * 6, avail - notes);
        const float top = ImGui::GetCursorPosY();
        DrawStepChart(ui, c, reg, lesson);
        const float drawn = std::max(ImGui::GetCursorPosY() - top - ui.step_chart_height, 0.0f);
        if (std::abs(drawn - ui.presenter_notes_h) > 1) ui.redraw_frames = 1;  // sized anew
        ui.presenter_notes_h = drawn;
        ui.step_chart_height = 0;
    }
    ImGui::EndChild();
    Remember(ui, "presenter_chart");
}

}  // namespace

void PresenterScroll(UiState& ui) {
    const float shown = ImGui::GetWindowHeight();
    const float max = ImGui::GetScrollMaxY();
    float y = ImGui::GetScrollY();
    if (ui.presenter_step != 0) {
        // Most of a screen, so that the last lines shown stay in view as the next ones come.
        const float step = std::max(shown * 0.85f, ImGui::GetFontSize() * 2);
        y = std::clamp(y + float(ui.presenter_step) * step, 0.0f, max);
        ImGui::SetScrollY(y);
        ui.presenter_step = 0;
        ui.redraw_frames = std::max(ui.redraw_frames, 2);
    }
    ui.presenter_scroll_y = y;
    ui.presenter_room = std::max(max - y, 0.0f);
    if (ui.probe) {
        ui.probe->presenter_scroll_y = y;
        ui.probe->presenter_room = ui.presenter_room;
    }
}

void DrawPresenter(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson) {
    const float font = ImGui::GetFontSize();
    // The roofline, with its many decades, takes two thirds of the width.
    const bool roofline = reg.ChapterOf(lesson).whole_roofline;
    // The code views take most of the width: a kernel's lines are long.
    const bool code = ui.presenter_view > 0;
    const float text_share = code ? 0.64f : roofline ? 0.32f : 0.42f;
    if (ImGui::GetContentRegionAvail().x >= font * kSideBySideEm &&
        ImGui::BeginTable(code       ? "presenter_code"
                          : roofline ? "presenter_roofline"
                                     : "presenter",
                          2, ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV)) {
        ImGui::TableSetupColumn("section", ImGuiTableColumnFlags_WidthStretch, text_share);
        ImGui::TableSetupColumn("chart", ImGuiTableColumnFlags_WidthStretch, 1 - text_share);
        ImGui::TableNextColumn();
        DrawSection(ui, c, lesson, ImVec2(0, 0));
        ImGui::TableNextColumn();
        DrawChartSide(ui, c, reg, lesson, ImVec2(0, 0));
        ImGui::EndTable();
        return;
    }
    DrawSection(ui, c, lesson, ImVec2(0, ImGui::GetContentRegionAvail().y * 0.45f));
    DrawChartSide(ui, c, reg, lesson, ImVec2(0, 0));
}

}  // namespace lessons::app
