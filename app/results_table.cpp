// The results table (every result of the chapter, newest first, wrong ones in red) and the
// export buttons under it.
#include "export.h"
#include "panels.h"
#include "report.h"
#include "units.h"

namespace lessons::app {
namespace {

void DrawResultsTable(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson) {
    const Chapter& chapter = reg.ChapterOf(lesson);
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders |
                                  ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("results", 11, flags, ImVec2(0, ImGui::GetFontSize() * 14))) return;
    for (const char* h : {"lesson", "block", "size", "data", "median ms", "min ms", "max ms",
                          "GB/s", "% ceiling", "check", "source"})
        ImGui::TableSetupColumn(h);
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableHeadersRow();
    int rows = 0;
    for (auto it = c.results().rbegin(); it != c.results().rend() && rows < 300; ++it) {
        const RunResult& r = it->result;
        if (r.chapter != chapter.id) continue;
        ++rows;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        if (r.lesson == lesson.number)
            ImGui::TextColored(kAccent, "%d", r.lesson);
        else
            ImGui::Text("%d", r.lesson);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r.block ? std::to_string(*r.block).c_str() : "-");
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(FormatSize(r.size_bytes).c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r.data.c_str());
        for (double v : {r.median_ms, r.min_ms, r.max_ms}) {
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(Ms(v).c_str());
        }
        ImGui::TableNextColumn();
        ImGui::Text("%.1f", r.gbps);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r.pct_of_ceiling ? Fixed(*r.pct_of_ceiling, 1).c_str() : "-");
        ImGui::TableNextColumn();
        if (r.verified)
            ImGui::TextColored(kGreen, "\xE2\x9C\x93");
        else {
            ImGui::TextColored(kRed, "\xE2\x9C\x97 wrong");
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.check_message.c_str());
        }
        ImGui::TableNextColumn();
        if (r.recorded)
            ImGui::TextColored(kAmber, "%s", Tr(ui, kRecorded));
        else
            ImGui::TextUnformatted(Tr(ui, kLive));
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s, %s", r.device.c_str(), r.timestamp.c_str());
    }
    ImGui::EndTable();
}

}  // namespace

void DrawResults(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson) {
    DrawResultsTable(ui, c, reg, lesson);
    ImGui::TextDisabled("%s:", Tr(ui, kExport));
    ImGui::SameLine();
    if (ImGui::SmallButton("CSV"))
        ui.messages.push_back(
            ExportResults(ui.export_dir, c.results(), ExportFormat::kCsv, std::time(nullptr)));
    Remember(ui, "export_csv");
    ImGui::SameLine();
    if (ImGui::SmallButton("JSON"))
        ui.messages.push_back(
            ExportResults(ui.export_dir, c.results(), ExportFormat::kJson, std::time(nullptr)));
    Remember(ui, "export_json");
    ImGui::SameLine();
    if (ImGui::SmallButton("PNG screenshot (F12)")) ui.screenshot_requested = true;
}

}  // namespace lessons::app
