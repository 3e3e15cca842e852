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
    ImGui::TextDisabled("%s%s", lesson.source_path.c_str(),
                        lesson.previous
                            ? ("  ·  " + std::to_string(changed) + " lines differ from lesson " +
                               std::to_string(lesson.previous) + " (highlighted)")
                                  .c_str()
                            : "");
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
