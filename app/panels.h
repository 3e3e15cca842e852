// What the panel files share: colours, small helpers, and each panel's draw function. DrawUi
// (ui.cpp) lays the panels out; each draws from the Controller's state and the UiState.
#pragma once

#include <imgui.h>

#include <functional>
#include <string>
#include <vector>

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
// `text` cut to fit `width` pixels in the current font, ending in "…" when cut.
std::string Elide(const std::string& text, float width);
// SameLine() when an item `width` pixels wide fits on the rest of this line, else a new line.
void SameLineIfFits(float width);
// The width of a button, and of a checkbox or radio button, with this label.
float ButtonWidth(const char* label);
float CheckWidth(const char* label);
// The lesson's title in the page's language (Chinese: from its text's heading).
std::string LessonTitle(const UiState& ui, const Lesson& lesson);
// The chapter's title in the page's language.
std::string ChapterTitle(const UiState& ui, const Chapter& chapter);
// Milliseconds with the digits that matter: "0.0123", "1.234", "56.7".
std::string Ms(double ms);

// lesson_list.cpp: the chapters and their lessons, each marked live / recorded / unavailable.
void DrawLessonList(UiState& ui, const Controller& c, const Registry& reg);
// status_bar.cpp: the GPU, the worker's state, the scale, the newest notice.
void DrawStatusBar(UiState& ui, Controller& c);
// code_view.cpp: the step's source, lines that differ from the previous step highlighted.
void DrawCode(UiState& ui, const Registry& reg, const Lesson& lesson);
// controls_panel.cpp: one control per parameter of the lesson, cold L2; run and sweep.
void DrawControls(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson);
// The control of one parameter (ControlFor says which), recorded under the parameter's name.
void DrawParamControl(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson,
                      const ParamSpec& spec);
// The data-size cap's explanation: the cap and what limits it, the host's available memory
// and the GPU's free memory (0: not known) with the age of each figure, how often they are read.
std::string CapExplanation(const std::string& language, const std::string& cap, const char* why,
                           uint64_t host_available, double host_age_s, uint64_t device_free,
                           double device_age_s);
// charts_panel.cpp: every step of the chapter, the copy/kernel/copy breakdown, the sweeps.
// The result a lesson's bar, summary row and prediction show at the page's settings: the newest
// live result run with every parameter of the lesson as the page would run it, else (a lesson
// shown from recordings) the newest recorded one with the same chapter values and toggles.
// When a recording exists only at other values, `recorded_elsewhere` is set to it.
const RunResult* ShownResult(const Controller& c, const Registry& reg, const Lesson& lesson,
                             const RunSettings& run,
                             const RunResult** recorded_elsewhere = nullptr);
void DrawStepChart(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson);
void DrawBreakdown(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson);
void DrawSweeps(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson,
                bool by_block);
// predict_panel.cpp: the "Predict, then measure" box of a lesson page, and the chapter summary.
void DrawPrediction(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson);
void DrawSummary(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson);
// results_table.cpp: every result of the chapter, and the export buttons.
void DrawResults(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson);

// A column of the results table: a field of the engine's field table that has a header, or a
// parameter of the chapter's lessons.
struct ResultColumn {
    std::string header;  // in the page's language
    bool right_aligned = false;
    std::string key;  // the field's name ("median_ms"), or "param:NAME"
    std::function<std::string(const RunResult&)> text;
};
// "lesson" (its label), one column per parameter of the chapter's lessons, then every other field
// with a header, in the field table's order. (The table adds a last column: live or recorded.)
// The columns refer to `reg`, which must outlive them.
std::vector<ResultColumn> ResultColumns(const Registry& reg, const Chapter& chapter,
                                        const std::string& language);

}  // namespace lessons::app
