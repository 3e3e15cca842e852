// The GUI: lesson list, lesson page (text, code, controls, charts, results), status bar.
// Drawn every frame from the Controller's state; all requests go through the Controller.
// DrawUi lays the page out (ui.cpp); each panel has a file of its own (panels.h).
#pragma once

#include <imgui.h>

#include <map>
#include <string>
#include <vector>

#include "chart.h"
#include "controller.h"
#include "fonts.h"
#include "machine_view.h"
#include "registry.h"
#include "settings.h"

namespace lessons::app {

struct UiState {
    Settings settings;       // language, scale, last lesson, window size (persisted)
    RunSettings run;         // the controls of the lesson page
    bool auto_run = true;    // moving a control re-runs this lesson and the previous one
    bool log_scale = false;  // the step-comparison chart's axis
    bool rate_axis = false;  // ... in GB/s or GFLOP/s (as the results say) instead of ms
    double changed_at = -1;  // when a control last moved (debounce), -1: nothing pending
    Fonts fonts;
    bool fonts_dirty = true;  // rebuild the font atlas at settings.scale before next frame
    std::string export_dir;   // where exports go
    bool screenshot_requested = false;
    // The host's available memory as the data-size cap last read it, and when (ImGui's
    // clock; negative: read it at the next frame). Read again every kMemoryRefreshSeconds and
    // whenever a lesson's page is shown; the GPU's free memory is asked of the worker then.
    uint64_t host_available = 0;
    double host_available_at = -1;
    std::vector<std::string> messages;  // the GUI's own notices (settings, fonts, exports)
    // Screen rectangles of the main controls, recorded each frame: tests click on them.
    std::map<std::string, ImVec4> rects;
    // What the step-comparison chart drew last (tests read it).
    std::vector<chart::Bar> step_bars;
    chart::BarLayout step_layout;
    // The x ticks of the block-size sweep charts drawn last (tests read them).
    std::vector<double> block_ticks;
    // The prediction box's lines and the summary's row count drawn last (tests read them).
    std::vector<std::string> prediction;
    int summary_rows = -1;
    // Open every section of the page (tests that walk every screen set it).
    bool open_all = false;

    // Code view cache.
    int code_lesson = -1;
    std::vector<std::string> code_lines;
    std::vector<bool> code_changed;
    MachineView machine;  // the PTX / SASS tabs and the ncu line (code_view.cpp)
};

constexpr double kDebounceSeconds = 0.3;
constexpr double kMemoryRefreshSeconds = 5;

// Keys outside ImGui 1.86's named set, as its GLFW backend reports them in io.KeysDown
// (GLFW key codes: letters are their upper-case ASCII codes).
constexpr int kKeyR = 'R', kKeyS = 'S', kKeyC = 'C', kKeyEqual = '=', kKeyMinus = '-';
constexpr int kKeyPadSubtract = 333, kKeyPadAdd = 334, kKeyF12 = 301;

void DrawUi(UiState& ui, Controller& controller, const Registry& registry);

// Keyboard shortcuts (arrows, R, S, C, Esc, Ctrl +/-, F12). Called by DrawUi.
void HandleKeys(UiState& ui, Controller& controller, const Registry& registry);

// Selects a lesson named as Registry::FindLesson takes it (its label "5.8", its id, or its old
// number or id); a name the catalogue does not know selects the first lesson. The settings
// then hold its id. The page keeps each parameter's value where the lesson accepts it and shows
// the lesson's default elsewhere.
void SelectLesson(UiState& ui, const Registry& registry, std::string_view name);
// The lesson the page shows (the settings' lesson), or null when the catalogue is empty.
const Lesson* CurrentLesson(const UiState& ui, const Registry& registry);

// Sets the UI scale (0.5 to 4), which rebuilds the fonts before the next frame.
void SetScale(UiState& ui, float scale);

// Every string the UI may draw in Chinese, for the font atlas.
std::vector<std::string_view> UiTexts(const Registry& registry);

}  // namespace lessons::app
