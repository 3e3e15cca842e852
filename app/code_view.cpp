// The step's real source, with the lines that differ from the previous step highlighted.
#include <algorithm>

#include "diff.h"
#include "panels.h"

namespace lessons::app {

void DrawCode(UiState& ui, const Registry& reg, const Lesson& lesson) {
    if (ui.code_lesson != lesson.number) {
        ui.code_lesson = lesson.number;
        ui.code_lines = SplitLines(lesson.source);
        const Lesson* prev = lesson.previous ? reg.FindLesson(lesson.previous) : nullptr;
        ui.code_changed = prev ? ChangedLines(SplitLines(prev->source), ui.code_lines)
                               : std::vector<bool>(ui.code_lines.size(), false);
    }
    const int changed =
        static_cast<int>(std::count(ui.code_changed.begin(), ui.code_changed.end(), true));
    const std::string differ =
        lesson.previous ? "  \xC2\xB7  " + Fmt(Tr(ui, kLinesDiffer), changed, lesson.previous)
                        : std::string();
    ImGui::TextDisabled("%s%s", lesson.source_path.c_str(), differ.c_str());
    ImGui::PushFont(ui.fonts.mono);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (size_t i = 0; i < ui.code_lines.size(); ++i) {
        const ImVec2 p = ImGui::GetCursorScreenPos();
        if (ui.code_changed[i])
            dl->AddRectFilled(p,
                              ImVec2(p.x + ImGui::GetContentRegionAvail().x,
                                     p.y + ImGui::GetTextLineHeightWithSpacing()),
                              IM_COL32(60, 110, 60, 110));
        ImGui::TextDisabled("%3zu", i + 1);
        ImGui::SameLine();
        ImGui::TextUnformatted(ui.code_lines[i].c_str());
    }
    ImGui::PopFont();
}

}  // namespace lessons::app
