#define GL_SILENCE_DEPRECATION
#include "screenshot.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <ctime>
#include <vector>

#include "model/export.h"
#include "panels/ui_state.h"

namespace lessons::app {

bool SaveFramebufferPng(const std::string& path, int width, int height, std::string* error) {
    if (width <= 0 || height <= 0) {
        if (error) *error = "the window has no size";
        return false;
    }
    std::vector<unsigned char> pixels(size_t(width) * size_t(height) * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    return WritePng(path, width, height, pixels.data(), error);  // bottom row first, as read
}

void DrawFrame(GLFWwindow* window, int* width, int* height) {
    ImGui::Render();
    glfwGetFramebufferSize(window, width, height);
    glViewport(0, 0, *width, *height);
    // The page's window draws no background (ImGuiWindowFlags_NoBackground, ui.cpp): the clear
    // colour is the one its WindowBg gave, blended over this colour. A window-sized quad less to
    // fill each frame: most of a software renderer's work (Mesa's llvmpipe: two thirds of a
    // GUI script's CPU went to its drawing threads).
    const float under[3] = {0.10f, 0.10f, 0.12f};
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(bg.x * bg.w + under[0] * (1 - bg.w), bg.y * bg.w + under[1] * (1 - bg.w),
                 bg.z * bg.w + under[2] * (1 - bg.w), 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

bool TakeScreenshot(UiState& ui, std::string& path, int width, int height, std::string* error) {
    if (path.empty()) {
        path = ScreenshotPath(ui.export_dir, std::time(nullptr));
        MakeFolders(ui.export_dir, error);  // a failure is said by the write that follows
        error->clear();
    }
    if (SaveFramebufferPng(path, width, height, error)) {
        ui.messages.push_back("Screenshot written to " + path);
        return true;
    }
    ui.messages.push_back("Screenshot failed: " + *error);
    return false;
}

}  // namespace lessons::app
