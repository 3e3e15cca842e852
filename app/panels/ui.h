// The GUI: lesson list, lesson page (text, code, controls, charts, results), status bar.
// Drawn every frame from the Controller's state and the UiState (ui_state.h); all requests go
// through the Controller. DrawUi lays the page out (ui.cpp); each panel has a file of its own
// (panels.h).
#pragma once

#include <string_view>
#include <vector>

#include "panels/ui_state.h"
#include "registry.h"
#include "worker/controller.h"

namespace lessons::app {

// Keys outside ImGui 1.86's named set, as its GLFW backend reports them in io.KeysDown
// (GLFW key codes: letters are their upper-case ASCII codes).
constexpr int kKeyR = 'R', kKeyS = 'S', kKeyC = 'C', kKeyEqual = '=', kKeyMinus = '-';
constexpr int kKeyPadSubtract = 333, kKeyPadAdd = 334, kKeyF12 = 301, kKeyF1 = 290;

void DrawUi(UiState& ui, Controller& controller, const Registry& registry);

// What opening a lesson left for a frame in which the worker has said which lessons run here:
// the recorded settings where the page would show nothing (RecordedSettings). Called by DrawUi.
void ApplyArrival(UiState& ui, const Controller& controller, const Registry& registry,
                  const Lesson& lesson);

// Keyboard shortcuts (arrows, R, S, C, Esc, Ctrl +/-, F12, F1 and ?). Called by DrawUi. A key
// whose action cannot happen here leaves a notice saying why.
void HandleKeys(UiState& ui, Controller& controller, const Registry& registry);

// Every string the UI may draw in Chinese, for the font atlas.
std::vector<std::string_view> UiTexts(const Registry& registry);

}  // namespace lessons::app
