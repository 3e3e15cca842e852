// The lesson list: a filter box, then the chapters with their progress bars and their lessons,
// each marked live / recorded / unavailable (the tooltip says why) and with its three progress
// marks (opened, run here, answered) and, from the progress file, a check mark for an exercise
// passed and a diamond for a prediction made; the legends under the list, and the progress's
// export for a teacher.
#include <algorithm>
#include <ctime>

#include "model/progress_book.h"
#include "model/student.h"
#include "panels/panels.h"
#include "panels/ui.h"  // the keys
#include "probe.h"
#include "words/words_parsons.h"
#include "words/words_student.h"

namespace lessons::app {
namespace {

// The progress marks' colours: opened, run here, answered.
const ImU32 kMarkColors[] = {IM_COL32(140, 170, 230, 255), IM_COL32(90, 200, 110, 255),
                             IM_COL32(240, 190, 70, 255)};

// Three small squares at `at` (their top left), filled where earned, outlined elsewhere.
void DrawMarks(ImDrawList* dl, ImVec2 at, float side, const bool earned[3]) {
    for (int i = 0; i < 3; ++i) {
        const ImVec2 a(at.x + float(i) * side * 1.5f, at.y), b(a.x + side, a.y + side);
        if (earned[i])
            dl->AddRectFilled(a, b, kMarkColors[i], 1.5f);
        else
            dl->AddRect(a, b, IM_COL32(110, 110, 120, 255), 1.5f);
    }
}

// The progress file's marks after the three squares: a check mark for an exercise passed (filled
// green where the speed target was met too, outlined where not yet), and a small diamond for a
// prediction made (hollow where it was skipped). `at` is the check mark's top left.
const ImU32 kPassedColor = IM_COL32(90, 200, 110, 255);
const ImU32 kPredictedColor = IM_COL32(120, 190, 250, 255);
const ImU32 kParsonsColor = IM_COL32(210, 160, 250, 255);

void DrawCheckMark(ImDrawList* dl, ImVec2 at, float side, bool full) {
    const ImVec2 points[] = {ImVec2(at.x, at.y + side * 0.55f),
                             ImVec2(at.x + side * 0.38f, at.y + side * 0.95f),
                             ImVec2(at.x + side, at.y + side * 0.05f)};
    dl->AddPolyline(points, 3, full ? kPassedColor : IM_COL32(150, 190, 150, 255), ImDrawFlags_None,
                    full ? side * 0.3f : side * 0.18f);
}

void DrawDiamond(ImDrawList* dl, ImVec2 centre, float r, bool filled) {
    const ImVec2 a(centre.x, centre.y - r), b(centre.x + r, centre.y), c(centre.x, centre.y + r),
        d(centre.x - r, centre.y);
    if (filled)
        dl->AddQuadFilled(a, b, c, d, kPredictedColor);
    else
        dl->AddQuad(a, b, c, d, IM_COL32(110, 110, 120, 255), 1.0f);
}

// A solved Parsons problem: two stacked bars, lines put in order.
void DrawParsonsMark(ImDrawList* dl, ImVec2 at, float side) {
    dl->AddRectFilled(at, ImVec2(at.x + side, at.y + side * 0.4f), kParsonsColor, 1.0f);
    dl->AddRectFilled(ImVec2(at.x + side * 0.3f, at.y + side * 0.6f),
                      ImVec2(at.x + side * 1.3f, at.y + side), kParsonsColor, 1.0f);
}

float MarksWidth() {
    return ImGui::GetFontSize() * 0.5f * 8 + ImGui::GetStyle().ItemSpacing.x;
}

// The list's mode legend: ● live ◐ recorded ○ unavailable.
void DrawModeLegend(UiState& ui) {
    ImGui::TextColored(kGreen, "\xE2\x97\x8F");
    ImGui::SameLine();
    ImGui::TextDisabled("%s", Tr(ui, kLive));
    ImGui::SameLine();
    ImGui::TextColored(kAmber, "\xE2\x97\x90");
    ImGui::SameLine();
    ImGui::TextDisabled("%s", Tr(ui, kRecorded));
    ImGui::SameLine();
    ImGui::TextColored(kGrey, "\xE2\x97\x8B");
    ImGui::SameLine();
    ImGui::TextDisabled("%s", Tr(ui, kUnavailable));
}

}  // namespace

void DrawProgressLegend(UiState& ui) {
    const Word* words[] = {&kMarkOpened, &kMarkRan, &kMarkAnswered};
    const float side = ImGui::GetFontSize() * 0.5f;
    for (int i = 0; i < 3; ++i) {
        if (i > 0) ImGui::SameLine();
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float y = p.y + (ImGui::GetTextLineHeight() - side) / 2;
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + side, y + side),
                                                  kMarkColors[i], 1.5f);
        ImGui::Dummy(ImVec2(side, ImGui::GetTextLineHeight()));
        ImGui::SameLine(0, side * 0.5f);
        ImGui::TextDisabled("%s", Tr(ui, *words[i]));
    }
}

void DrawLessonList(UiState& ui, const Controller& c, const Registry& reg) {
    // The filter, and beside it the button that hides the list.
    const float hide_w = ButtonWidth("\xC2\xAB");  // «
    ImGui::SetNextItemWidth(-(hide_w + ImGui::GetStyle().ItemSpacing.x));
    // Enter opens the only lesson that matches.
    if (ImGui::InputTextWithHint("##lesson_filter", Tr(ui, kFilterHint), ui.lesson_filter,
                                 sizeof ui.lesson_filter, ImGuiInputTextFlags_EnterReturnsTrue)) {
        // ... or the lesson whose label it is ("5.1", though 5.10 starts with it too).
        std::string typed = ui.lesson_filter;
        typed.erase(0, std::min(typed.find_first_not_of(' '), typed.size()));
        typed.erase(typed.find_last_not_of(' ') + 1);
        const Lesson* only = nullptr;
        const Lesson* labelled = nullptr;
        int matches = 0;
        for (const Lesson& l : reg.lessons()) {
            if (MatchesFilter(ui.lesson_filter, l.label, LessonTitle(ui, l), l.id)) {
                only = &l;
                ++matches;
            }
            if (l.label == typed) labelled = &l;
        }
        if (matches == 1)
            SelectLesson(ui, reg, only->id);
        else if (labelled)
            SelectLesson(ui, reg, labelled->id);
    }
    // Up and Down while typing in it: the previous or next lesson that matches.
    if (ImGui::IsItemActive() && (ImGui::IsKeyPressed(kKeyUp) || ImGui::IsKeyPressed(kKeyDown))) {
        std::vector<const Lesson*> matches;
        for (const Lesson& l : reg.lessons())
            if (MatchesFilter(ui.lesson_filter, l.label, LessonTitle(ui, l), l.id))
                matches.push_back(&l);
        const auto now = std::find_if(matches.begin(), matches.end(),
                                      [&](const Lesson* l) { return l->id == ui.settings.lesson; });
        const bool down = ImGui::IsKeyPressed(kKeyDown);
        const Lesson* to = nullptr;
        if (now == matches.end())
            to = matches.empty() ? nullptr : down ? matches.front() : matches.back();
        else if (down && now + 1 != matches.end())
            to = *(now + 1);
        else if (!down && now != matches.begin())
            to = *(now - 1);
        if (to) SelectLesson(ui, reg, to->id);
    }
    Remember(ui, "lesson_filter");
    ImGui::SameLine();
    if (ImGui::Button("\xC2\xAB")) ui.list_choice = 0;
    if (ImGui::IsItemHovered()) Tooltip(Tr(ui, kHideList));
    Remember(ui, "list_hide");
    const float font = ImGui::GetFontSize();
    // Under the list: the legends and the help button (three rows where the sidebar is narrow).
    const float footer_h = std::max(ImGui::GetFrameHeightWithSpacing() * 4.1f, ui.list_footer_h);
    ImGui::BeginChild("lessons", ImVec2(0, -footer_h), false, kNoNavKeys);
    int shown = 0;
    for (const Chapter& chapter : reg.chapters()) {
        const std::vector<const Lesson*> all = reg.LessonsOf(chapter);
        std::vector<const Lesson*> lessons;
        for (const Lesson* l : all)
            if (MatchesFilter(ui.lesson_filter, l->label, LessonTitle(ui, *l), l->id))
                lessons.push_back(l);
        if (lessons.empty()) continue;
        shown += static_cast<int>(lessons.size());
        ImGui::TextColored(kAccent, "%d. %s", chapter.number, ChapterTitle(ui, chapter).c_str());
        // The chapter's progress: a thin bar under its title, the counts on hover.
        const ChapterProgress p = CountProgress(all, ui.settings);
        ImGui::ProgressBar(p.Fraction(), ImVec2(-1, font * 0.3f), "");
        Remember(ui, ("progress_" + chapter.id).c_str());
        if (ImGui::IsItemHovered())
            Tooltip(Fmt(Tr(ui, kChapterMarks), p.visited, p.lessons, p.ran, p.answered));
        for (const Lesson* l : lessons) {
            const LessonMode mode = c.Mode(*l);
            // A coloured mark says live / recorded / unavailable; the tooltip says why.
            const ImVec4 color = mode == LessonMode::kLive       ? kGreen
                                 : mode == LessonMode::kRecorded ? kAmber
                                                                 : kGrey;
            ImGui::TextColored(color, mode == LessonMode::kLive       ? "\xE2\x97\x8F"
                                      : mode == LessonMode::kRecorded ? "\xE2\x97\x90"
                                                                      : "\xE2\x97\x8B");
            ImGui::SameLine();
            // Cut to the sidebar's width less the marks (the tooltip has the whole title).
            const std::string title = LessonTitle(ui, *l);
            const float room = ImGui::GetContentRegionAvail().x - MarksWidth();
            std::string shown_title = Elide(l->label + "  " + title, room);
            if (shown_title == Elide("", -1)) shown_title = l->label;  // only "…" fits
            const std::string item = shown_title + "##" + l->id;
            const bool current = ui.settings.lesson == l->id;
            if (ImGui::Selectable(item.c_str(), current)) SelectLesson(ui, reg, l->id);
            Remember(ui, ("lesson_" + l->id).c_str());
            const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
            const bool earned[3] = {ui.settings.visited.count(l->id) > 0,
                                    ui.settings.ran.count(l->id) > 0,
                                    ui.settings.answered.count(l->id) > 0};
            const float side = font * 0.5f;
            const float mark_top = (a.y + b.y - side) / 2;
            DrawMarks(ImGui::GetWindowDrawList(), ImVec2(b.x - side * 8 + side * 0.5f, mark_top),
                      side, earned);
            // The exercise and the prediction, from the progress file.
            const ProgressMarks marks = MarksOf(ui.progress, l->id);
            if (marks.passed)
                DrawCheckMark(ImGui::GetWindowDrawList(), ImVec2(b.x - side * 3.7f, mark_top), side,
                              marks.speed_met);
            if (marks.predicted || marks.skipped)
                DrawDiamond(ImGui::GetWindowDrawList(),
                            ImVec2(b.x - side * 1.6f, mark_top + side * 0.5f), side * 0.35f,
                            marks.predicted);
            if (marks.parsons)
                DrawParsonsMark(ImGui::GetWindowDrawList(),
                                ImVec2(b.x - side * 2.6f, mark_top + side * 0.2f), side * 0.6f);
            if (ui.probe && (marks.passed || marks.predicted || marks.skipped || marks.parsons)) {
                std::string& m = ui.probe->progress_marks[l->id];
                if (marks.passed) m += marks.speed_met ? "passed-fast " : "passed ";
                if (marks.predicted) m += "predicted ";
                if (marks.skipped) m += "skipped ";
                if (marks.parsons) m += "parsons ";
                m.pop_back();
            }
            // Arriving by key or link: the lesson's entry scrolled into view.
            if (current && ui.arrival.scroll_list) {
                const float top = ImGui::GetWindowPos().y, bottom = top + ImGui::GetWindowHeight();
                if (a.y < top || b.y > bottom) ImGui::SetScrollHereY(0.5f);
                ui.arrival.scroll_list = false;
            }
            if (ImGui::IsItemHovered()) {
                std::string progress;
                if (marks.passed)
                    progress += std::string("\n") +
                                Tr(ui, marks.speed_met ? kTipPassedFast : kTipPassedSlow);
                if (marks.predicted || marks.skipped)
                    progress +=
                        std::string("\n") + Tr(ui, marks.predicted ? kTipPredicted : kTipSkipped);
                if (marks.parsons) progress += std::string("\n") + Tr(ui, kTipParsons);
                const std::string tip =
                    mode == LessonMode::kLive
                        ? l->label + "  " + title + "\n" + Tr(ui, kLive) + ": " +
                              Tr(ui, kRunsLive) + " (" +
                              (l->kind == StepKind::kGpu ? "GPU" : "CPU") + ")" + progress
                        : l->label + "  " + title + "\n" +
                              (mode == LessonMode::kRecorded ? Tr(ui, kRecorded)
                                                             : Tr(ui, kUnavailable)) +
                              ": " + Say(ui.settings.language, c.UnavailableReason(*l)) + progress;
                // Within the list, under the entry (over it, in the list's lower half): the
                // lesson's text beside the list stays in view.
                const ImVec2 list = ImGui::GetWindowPos(), list_size = ImGui::GetWindowSize();
                const bool below = (a.y + b.y) / 2 < list.y + list_size.y / 2;
                TooltipAt(tip, ImVec2(list.x, below ? b.y + 2 : a.y - 2),
                          ImVec2(0, below ? 0.0f : 1.0f), list_size.x);
                if (ui.probe) ui.probe->list_tooltip = true;
            }
        }
        ImGui::Spacing();
    }
    if (shown == 0) ImGui::TextDisabled("%s", Tr(ui, kNoMatch));
    ImGui::EndChild();
    ui.arrival.scroll_list = false;  // also when the filter hides the lesson
    const float footer_top = ImGui::GetCursorPosY();
    ImGui::Separator();
    DrawModeLegend(ui);
    DrawProgressLegend(ui);
    // The progress file's marks, and its export for a teacher.
    {
        const float side = font * 0.5f;
        ImVec2 p = ImGui::GetCursorScreenPos();
        float y = p.y + (ImGui::GetTextLineHeight() - side) / 2;
        DrawCheckMark(ImGui::GetWindowDrawList(), ImVec2(p.x, y), side, true);
        ImGui::Dummy(ImVec2(side, ImGui::GetTextLineHeight()));
        ImGui::SameLine(0, side * 0.5f);
        ImGui::TextDisabled("%s", Tr(ui, kMarkPassed));
        ImGui::SameLine();
        p = ImGui::GetCursorScreenPos();
        y = p.y + ImGui::GetTextLineHeight() / 2;
        DrawDiamond(ImGui::GetWindowDrawList(), ImVec2(p.x + side * 0.5f, y), side * 0.35f, true);
        ImGui::Dummy(ImVec2(side, ImGui::GetTextLineHeight()));
        ImGui::SameLine(0, side * 0.5f);
        ImGui::TextDisabled("%s", Tr(ui, kMarkPredicted));
        p = ImGui::GetCursorScreenPos();  // a line of its own: the list is narrow
        y = p.y + (ImGui::GetTextLineHeight() - side * 0.6f) / 2;
        DrawParsonsMark(ImGui::GetWindowDrawList(), ImVec2(p.x, y), side * 0.6f);
        ImGui::Dummy(ImVec2(side * 0.6f, ImGui::GetTextLineHeight()));
        ImGui::SameLine(0, side * 0.5f);
        ImGui::TextDisabled("%s", Tr(ui, kMarkParsons));
    }
    if (ImGui::SmallButton(Tr(ui, kExportProgress))) {
        const ProgressNotice n =
            ExportProgress(ui.progress, reg, ui.export_dir, std::time(nullptr));
        ui.messages.push_back({n.en, n.zh});
    }
    if (ImGui::IsItemHovered()) Tooltip(Tr(ui, kExportProgressHint));
    Remember(ui, "export_progress");
    SameLineIfFits(ButtonWidth(Tr(ui, kHelpButton)));
    if (ImGui::SmallButton(Tr(ui, kHelpButton))) ui.first_run_page = true;
    Remember(ui, "help");
    ui.list_footer_h = ImGui::GetCursorPosY() - footer_top;
}

}  // namespace lessons::app
