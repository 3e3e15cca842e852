// The GUI: lesson list, lesson page (text, code, controls, charts, results), status bar.
// Drawn every frame from the Controller's state and the UiState (ui_state.h); all requests go
// through the Controller. DrawUi lays the page out (ui.cpp); each panel has a file of its own
// (panels.h).
#pragma once

#include <imgui.h>

#include <string_view>
#include <vector>

#include "panels/ui_state.h"
#include "registry.h"
#include "worker/controller.h"

namespace lessons::app {

// The shortcuts' keys. ImGui 1.87 named every key (ImGuiKey_R, ...; Debian 13 and Ubuntu 24.04
// have 1.90.1); 1.86 (Debian 12, Ubuntu 22.04) names few, so there they are the GLFW key codes
// its GLFW backend writes into io.KeysDown (letters are their upper-case ASCII codes).
#if IMGUI_VERSION_NUM >= 18700
constexpr ImGuiKey kKeyR = ImGuiKey_R, kKeyS = ImGuiKey_S, kKeyC = ImGuiKey_C,
                   kKeyEqual = ImGuiKey_Equal, kKeyMinus = ImGuiKey_Minus,
                   kKeyPadSubtract = ImGuiKey_KeypadSubtract, kKeyPadAdd = ImGuiKey_KeypadAdd,
                   kKeyF12 = ImGuiKey_F12, kKeyLeft = ImGuiKey_LeftArrow,
                   kKeyRight = ImGuiKey_RightArrow, kKeyEscape = ImGuiKey_Escape,
                   kKeyF1 = ImGuiKey_F1, kKeyF5 = ImGuiKey_F5, kKeyUp = ImGuiKey_UpArrow,
                   kKeyDown = ImGuiKey_DownArrow, kKeyPageUp = ImGuiKey_PageUp,
                   kKeyPageDown = ImGuiKey_PageDown, kKeyTab = ImGuiKey_Tab,
                   kKeyEnter = ImGuiKey_Enter, kKeyPadEnter = ImGuiKey_KeypadEnter,
                   kKeySpace = ImGuiKey_Space, kKeyL = ImGuiKey_L;
#else
constexpr ImGuiKey kKeyR = 'R', kKeyS = 'S', kKeyC = 'C', kKeyEqual = '=', kKeyMinus = '-';
constexpr ImGuiKey kKeyPadSubtract = 333, kKeyPadAdd = 334, kKeyF12 = 301;
constexpr ImGuiKey kKeyLeft = 263, kKeyRight = 262, kKeyEscape = 256, kKeyF1 = 290;
constexpr ImGuiKey kKeyF5 = 294, kKeyUp = 265, kKeyDown = 264, kKeyPageUp = 266, kKeyPageDown = 267;
constexpr ImGuiKey kKeyTab = 258, kKeyEnter = 257, kKeyPadEnter = 335, kKeySpace = 32;
constexpr ImGuiKey kKeyL = 'L';
#endif

void DrawUi(UiState& ui, Controller& controller, const Registry& registry);

// What opening a lesson left for a frame in which the worker has said which lessons run here:
// the recorded settings where the page would show nothing (RecordedSettings). Called by DrawUi.
void ApplyArrival(UiState& ui, const Controller& controller, const Registry& registry,
                  const Lesson& lesson);

// Tab / Shift+Tab move the keyboard focus through the page's controls in reading order (shown
// by ImGui's focus frame, the control scrolled into view); Enter or Space presses the one
// focused (a text field: starts typing in it). ImGui's own tabbing (in 1.86 only text fields,
// where Tab got stuck in the Scale field) is off. Called by HandleKeys.
void HandleFocusKeys(UiState& ui);

// Keyboard shortcuts (arrows, R, S, C, L, Esc, Ctrl +/-, F12, F1 and ?, F5; in presenter mode
// up / down and Page Up / Page Down step through the text's sections). Called by DrawUi. A key
// whose action cannot happen here leaves a notice saying why.
void HandleKeys(UiState& ui, Controller& controller, const Registry& registry);

// Every string the UI may draw in Chinese, for the font atlas.
std::vector<std::string_view> UiTexts(const Registry& registry);

}  // namespace lessons::app
