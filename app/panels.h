// What the panel files share: colours, small helpers, and each panel's draw function. DrawUi
// (ui.cpp) lays the panels out; each draws from the Controller's state and the UiState.
#pragma once

#include <imgui.h>

#include <string>

#include "controller.h"
#include "registry.h"
#include "ui.h"
#include "words.h"

namespace lessons::app {

inline const ImU32 kCurrentColor = IM_COL32(80, 160, 255, 255);
inline const ImU32 kPreviousColor = IM_COL32(70, 200, 170, 255);
inline const ImU32 kOtherColor = IM_COL32(130, 130, 145, 255);
inline const ImVec4 kGreen(0.45f, 0.85f, 0.45f, 1), kAmber(1.0f, 0.75f, 0.3f, 1),
    kGrey(0.6f, 0.6f, 0.6f, 1), kRed(1.0f, 0.35f, 0.35f, 1), kAccent(0.55f, 0.75f, 1.0f, 1);

// The word in the UI's language.
inline const char* Tr(const UiState& ui, const Word& word) {
    return Tr(ui.settings.language, word);
}
// Records the last item's screen rectangle under `name` (tests click on it).
void Remember(UiState& ui, const char* name);
// A control moved: auto-run starts once the controls settle.
void Changed(UiState& ui);
// Milliseconds with the digits that matter: "0.0123", "1.234", "56.7".
std::string Ms(double ms);

// lesson_list.cpp: the chapters and their lessons, each marked live / recorded / unavailable.
void DrawLessonList(UiState& ui, const Controller& c, const Registry& reg);
// status_bar.cpp: the GPU, the worker's state, the scale, the newest notice.
void DrawStatusBar(UiState& ui, Controller& c);
// code_view.cpp: the step's source, lines that differ from the previous step highlighted.
void DrawCode(UiState& ui, const Registry& reg, const Lesson& lesson);
// controls_panel.cpp: block size, data size, threads, data kind, cold L2; run and sweep.
void DrawControls(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson);
// charts_panel.cpp: every step of the chapter, the copy/kernel/copy breakdown, the sweeps.
void DrawStepChart(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson);
void DrawBreakdown(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson);
void DrawSweeps(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson,
                bool by_block);
// results_table.cpp: every result of the chapter, and the export buttons.
void DrawResults(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson);

}  // namespace lessons::app
