// The exercise editor's own window (popout.h).
#define GL_SILENCE_DEPRECATION
#include "popout.h"

#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>

#include "panels/panels.h"
#include "panels/ui.h"
#include "screenshot.h"

namespace lessons::app {

// GLFW calls a window's callbacks with whichever ImGui context is current, and ImGui's GLFW
// backend feeds the current one: this window's events go to its own context (the main window's
// context is current everywhere but in EditorPopout::Frame). Its keys and characters are
// queued and handed over a frame at a time (InputTrickle), as the main window's.
struct PopoutCallbacks {
    static EditorPopout* Of(GLFWwindow* w) {
        return static_cast<EditorPopout*>(glfwGetWindowUserPointer(w));
    }
    template <class F>
    static void InContext(GLFWwindow* w, F&& f) {
        EditorPopout* p = Of(w);
        if (!p || !p->m_context) return;
        p->m_input = true;
        ImGuiContext* previous = ImGui::GetCurrentContext();
        ImGui::SetCurrentContext(p->m_context);
        f();
        ImGui::SetCurrentContext(previous);
    }
    static void Install(GLFWwindow* window) {
        glfwSetWindowFocusCallback(window, [](GLFWwindow* w, int focused) {
            InContext(w, [&] { ImGui_ImplGlfw_WindowFocusCallback(w, focused); });
        });
        glfwSetCursorEnterCallback(window, [](GLFWwindow* w, int entered) {
            InContext(w, [&] { ImGui_ImplGlfw_CursorEnterCallback(w, entered); });
        });
#if IMGUI_VERSION_NUM >= 18700
        glfwSetCursorPosCallback(window, [](GLFWwindow* w, double x, double y) {
            InContext(w, [&] { ImGui_ImplGlfw_CursorPosCallback(w, x, y); });
        });
#else
        glfwSetCursorPosCallback(window, [](GLFWwindow* w, double, double) {
            if (EditorPopout* p = Of(w)) p->m_input = true;  // polled at its next frame
        });
#endif
        glfwSetMouseButtonCallback(window, [](GLFWwindow* w, int button, int action, int mods) {
            InContext(w, [&] { ImGui_ImplGlfw_MouseButtonCallback(w, button, action, mods); });
        });
        glfwSetScrollCallback(window, [](GLFWwindow* w, double x, double y) {
            InContext(w, [&] { ImGui_ImplGlfw_ScrollCallback(w, x, y); });
        });
        glfwSetKeyCallback(window, [](GLFWwindow* w, int key, int scancode, int action, int mods) {
            if (EditorPopout* p = Of(w)) {
                p->m_trickle.Push({InputEvent::Kind::kKey, key, scancode, action, mods, 0});
                p->m_input = true;
            }
        });
        glfwSetCharCallback(window, [](GLFWwindow* w, unsigned int c) {
            if (EditorPopout* p = Of(w)) {
                p->m_trickle.Push({InputEvent::Kind::kChar, 0, 0, 0, 0, c});
                p->m_input = true;
            }
        });
    }
};

bool EditorPopout::Open(GLFWwindow* main_window, UiState& ui, const Registry& reg) {
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    // As large as the page's window, at least 1200 px wide where the screen has them: the
    // editor and its messages side by side.
    int width = std::max(ui.settings.window_width, 1200), height = ui.settings.window_height;
    if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) {
        int x = 0, y = 0, w = 0, h = 0;
        glfwGetMonitorWorkarea(monitor, &x, &y, &w, &h);
        if (w > 0 && h > 0) width = std::min(width, w), height = std::min(height, h);
    }
    // The main window's context shares its objects (textures, buffers, shaders) with this one.
    m_window =
        glfwCreateWindow(width, height, "CUDA Lessons - exercise editor", nullptr, main_window);
    if (!m_window) {
        ui.messages.push_back({"The editor's own window could not be opened (OpenGL 3.3).",
                               "无法打开编辑器的独立窗口（OpenGL 3.3）。"});
        return false;
    }
    glfwSetWindowSizeLimits(m_window, 320, 240, GLFW_DONT_CARE, GLFW_DONT_CARE);
    glfwSetWindowUserPointer(m_window, this);
    ImGuiContext* main_context = ImGui::GetCurrentContext();
    glfwMakeContextCurrent(m_window);
    glfwSwapInterval(0);  // the main window's swap waits for the display; once is enough
    m_context = ImGui::CreateContext();
    ImGui::SetCurrentContext(m_context);
    ImGui::GetIO().IniFilename = nullptr;  // nothing of its layout is kept
    ImGui_ImplGlfw_InitForOpenGL(m_window, false);
    PopoutCallbacks::Install(m_window);
    ImGui_ImplOpenGL3_Init("#version 330");
    BuildFontsAt(ui, reg);
    ImGui::SetCurrentContext(main_context);
    glfwMakeContextCurrent(main_window);
    ui.exercise.popout_open = true;
    ui.exercise.maximised = false;
    return true;
}

// Its own atlas, built as the page's (BuildFonts) at the page's scale; the style the page's.
void EditorPopout::BuildFontsAt(UiState& ui, const Registry& reg) {
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    m_fonts = BuildFonts(ui.settings.scale, UiTexts(reg));
    ImGui_ImplOpenGL3_CreateFontsTexture();
    m_font_scale = ui.settings.scale;
}

void EditorPopout::Frame(GLFWwindow* main_window, UiState& ui, Controller& c, const Registry& reg) {
    if (!ui.exercise.popout) {
        if (m_window) Close(&ui);
        return;
    }
    if (!m_window && !Open(main_window, ui, reg)) {
        ui.exercise.popout = false;
        return;
    }
    if (glfwWindowShouldClose(m_window)) {  // its close button
        ui.exercise.popout = false;
        Close(&ui);
        return;
    }
    ImGuiContext* main_context = ImGui::GetCurrentContext();
    const ImGuiStyle style = ImGui::GetStyle();
    glfwMakeContextCurrent(m_window);
    ImGui::SetCurrentContext(m_context);
    if (m_font_scale != ui.settings.scale) BuildFontsAt(ui, reg);
    ImGui::GetStyle() = style;
    FeedInput(m_window, m_trickle, ui);  // its keys a frame at a time, as the main window's
    if (m_trickle.Pending()) ui.redraw_frames = std::max(ui.redraw_frames, 2);
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    std::swap(ui.fonts, m_fonts);
    ui.drawing_popout = true;
    PopoutFocus(ui, &m_focus, true);  // its own focus ring (Tab, Enter, Space)
    DrawExercisePopout(ui, c, reg);
    PopoutFocusFrame(ui);
    PopoutFocus(ui, &m_focus, false);
    if (ImGui::IsKeyPressed(kKeyF12)) ui.popout_screenshot_requested = true;
    ui.exercise.popout_text_input = ImGui::GetIO().WantTextInput;
    ui.drawing_popout = false;
    std::swap(ui.fonts, m_fonts);
    // Its input changes widgets at the end of the frame that read it (as the page's does):
    // two more frames, drawn without waiting for the next event.
    if (m_input) ui.redraw_frames = std::max(ui.redraw_frames, 2);
    m_input = false;
    int width = 0, height = 0;
    DrawFrame(m_window, &width, &height);
    if (ui.popout_screenshot_requested) {
        ui.popout_screenshot_requested = false;
        std::string path, error;
        TakeScreenshot(ui, path, width, height, &error);
    }
    glfwSwapBuffers(m_window);
    ImGui::SetCurrentContext(main_context);
    glfwMakeContextCurrent(main_window);
}

// This frame's share of the queued input: given to the backend as GLFW would have (1.86), or
// to ImGui with each key's modifiers as they were at its event (FeedImGui).
void FeedInput(GLFWwindow* window, InputTrickle& trickle, UiState& ui) {
#if IMGUI_VERSION_NUM < 18700
    for (const InputEvent& e : trickle.TakeFrame()) {
        if (e.kind == InputEvent::Kind::kKey)
            ImGui_ImplGlfw_KeyCallback(window, e.key, e.scancode, e.action, e.mods);
        else
            ImGui_ImplGlfw_CharCallback(window, e.codepoint);
    }
#else
    (void)window;
    FeedImGui(trickle.TakeFrame());
#endif
    if (trickle.Pending()) ui.redraw_frames = std::max(ui.redraw_frames, 2);
}

void EditorPopout::Close(UiState* ui) {
    if (!m_window) return;
    if (ui) SaveExerciseNow(*ui);
    ImGuiContext* previous = ImGui::GetCurrentContext();
    GLFWwindow* previous_gl = glfwGetCurrentContext();
    glfwMakeContextCurrent(m_window);
    ImGui::SetCurrentContext(m_context);
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext(m_context);
    ImGui::SetCurrentContext(previous != m_context ? previous : nullptr);
    m_context = nullptr;
    glfwMakeContextCurrent(previous_gl != m_window ? previous_gl : nullptr);
    glfwDestroyWindow(m_window);
    m_window = nullptr;
    m_fonts = Fonts();
    m_font_scale = 0;
    m_trickle = InputTrickle();
    if (ui) {
        ui->exercise.popout_open = false;
        ui->exercise.popout_text_input = false;
        ui->redraw_frames = std::max(ui->redraw_frames, 2);
    }
}

}  // namespace lessons::app
