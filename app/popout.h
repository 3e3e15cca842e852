// The exercise editor in a window of its own (a second screen, beside the projected page): a
// second GLFW window whose OpenGL context shares the main one's objects, with an ImGui context
// of its own (ImGui 1.86 has no multi-viewport) and a font atlas built as the page's is, at its
// scale. It draws DrawExercisePopout: the editor with the compiler's messages beside it. The
// text is the page's (ui.exercise.file), which only this window edits while it is open; the
// page shows it read only. Opened and closed by ui.exercise.popout (its buttons), closed too by
// its window's close button and before the program ends.
#pragma once

#include <GLFW/glfw3.h>
#include <imgui.h>

#include "panels/fonts.h"
#include "panels/input_trickle.h"
#include "panels/panels.h"
#include "panels/ui_state.h"
#include "registry.h"
#include "worker/controller.h"

namespace lessons::app {

// This frame's share of a window's queued input: given to the backend as GLFW would have
// (ImGui 1.86), or to ImGui with each key's modifiers as they were at its event (FeedImGui);
// the window keeps drawing while keys are still queued. The main window's and the pop-out's.
void FeedInput(GLFWwindow* window, InputTrickle& trickle, UiState& ui);

class EditorPopout {
public:
    EditorPopout() = default;
    EditorPopout(const EditorPopout&) = delete;
    EditorPopout& operator=(const EditorPopout&) = delete;
    ~EditorPopout() { Close(nullptr); }

    // Called after the main window's frame was drawn (its ImGui context and GL context
    // current, as they are again on return): opens or closes the window as ui asks, then draws
    // one frame of it.
    void Frame(GLFWwindow* main_window, UiState& ui, Controller& c, const Registry& reg);
    // Closes the window (the file saved); `ui` may be null at exit.
    void Close(UiState* ui);
    bool IsOpen() const { return m_window != nullptr; }

private:
    friend struct PopoutCallbacks;
    bool Open(GLFWwindow* main_window, UiState& ui, const Registry& reg);
    void BuildFontsAt(UiState& ui, const Registry& reg);

    GLFWwindow* m_window = nullptr;
    ImGuiContext* m_context = nullptr;
    Fonts m_fonts;
    float m_font_scale = 0;
    InputTrickle m_trickle;    // ImGui 1.86: keys a frame at a time, as in the main window
    PopoutFocusState m_focus;  // its keyboard focus ring, apart from the page's
    bool m_input = false;      // an event came since the last frame (the page redraws)
};

}  // namespace lessons::app
