// The results table (every result of the chapter, newest first, wrong ones in red) and the
// export buttons under it. Its columns come from the engine's one table of result fields
// (those with a header), plus one column per parameter of the chapter's lessons.
#include <algorithm>

#include "model/export.h"
#include "panels/panels.h"
#include "report.h"
#include "units.h"
#include "words/words_student.h"

namespace lessons::app {
namespace {

std::vector<std::string> AllParamNames(const Registry& reg) {
    std::vector<const Lesson*> lessons;
    for (const Lesson& l : reg.lessons()) lessons.push_back(&l);
    return ParamNamesOf(lessons);
}

void RightAligned(const std::string& text, const ImVec4* color = nullptr) {
    const float room = ImGui::GetColumnWidth() - ImGui::CalcTextSize(text.c_str()).x;
    if (room > 0) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + room);
    if (color)
        ImGui::TextColored(*color, "%s", text.c_str());
    else
        ImGui::TextUnformatted(text.c_str());
}

// The most rows the table shows (the newest); the exports hold every result.
constexpr int kMaxRows = 40;

void DrawResultsTable(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson) {
    const Chapter& chapter = reg.ChapterOf(lesson);
    const std::vector<ResultColumn> columns = ResultColumns(reg, chapter, ui.settings.language);
    // No vertical scrolling of its own: a table that scrolls takes the mouse wheel from the
    // page as the cursor passes over it. As tall as its rows, the newest kMaxRows of them.
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders |
                                  ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit;
    const int count = static_cast<int>(columns.size()) + 1;
    const bool hidden = MeasuredHidden(ui, c, lesson);
    if (hidden) DrawWrappedText(Tr(ui, kMeasuredHiddenNote), &kGrey);
    int all = 0;
    for (const StoredResult& s : c.results())
        all += s.result.chapter == chapter.id && !(hidden && s.result.lesson == lesson.number);
    const int shown = std::min(all, kMaxRows);
    const float row_h = ImGui::GetTextLineHeight() + ImGui::GetStyle().CellPadding.y * 2 + 1;
    const float height = row_h * float(shown + 1) + ImGui::GetStyle().ScrollbarSize + 2;
    if (!ImGui::BeginTable("results", count, flags, ImVec2(0, height))) return;
    for (const ResultColumn& col : columns) ImGui::TableSetupColumn(col.header.c_str());
    ImGui::TableSetupColumn(Tr(ui, kSource));
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableHeadersRow();
    int rows = 0;
    for (auto it = c.results().rbegin(); it != c.results().rend() && rows < kMaxRows; ++it) {
        const RunResult& r = it->result;
        if (r.chapter != chapter.id || (hidden && r.lesson == lesson.number)) continue;
        ++rows;
        ImGui::TableNextRow();
        for (const ResultColumn& col : columns) {
            ImGui::TableNextColumn();
            if (col.key == "verified") {
                if (r.verified) {
                    ImGui::TextColored(kGreen, "\xE2\x9C\x93");
                } else {
                    ImGui::TextColored(kRed, "%s", Tr(ui, kWrongResult));
                    if (ImGui::IsItemHovered())
                        Tooltip(Say(ui.settings.language, r.CheckMessage()).c_str());
                }
            } else if (col.key == "lesson" && r.lesson == lesson.number) {
                RightAligned(col.text(r), &kAccent);  // this page's lesson
            } else if (col.right_aligned) {
                RightAligned(col.text(r));
            } else {
                ImGui::TextUnformatted(col.text(r).c_str());
            }
        }
        ImGui::TableNextColumn();
        if (r.recorded)
            ImGui::TextColored(kAmber, "%s", Tr(ui, kRecorded));
        else
            ImGui::TextUnformatted(Tr(ui, kLive));
        if (ImGui::IsItemHovered()) Tooltip(r.Device() + ", " + r.timestamp);
    }
    ImGui::EndTable();
    if (all > shown) DrawWrappedText(Fmt(Tr(ui, kOlderResults), all - shown), &kGrey);
}

}  // namespace

void DrawResults(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson) {
    DrawResultsTable(ui, c, reg, lesson);
    ImGui::TextDisabled("%s:", Tr(ui, kExport));
    ImGui::SameLine();
    if (ImGui::SmallButton("CSV"))
        ui.messages.push_back(ExportResults(ui.export_dir, c.results(), ExportFormat::kCsv,
                                            std::time(nullptr), AllParamNames(reg)));
    Remember(ui, "export_csv");
    ImGui::SameLine();
    if (ImGui::SmallButton("JSON"))
        ui.messages.push_back(ExportResults(ui.export_dir, c.results(), ExportFormat::kJson,
                                            std::time(nullptr), AllParamNames(reg)));
    Remember(ui, "export_json");
    ImGui::SameLine();
    if (ImGui::SmallButton(Tr(ui, kScreenshotButton))) ui.screenshot_requested = true;
}

}  // namespace lessons::app
