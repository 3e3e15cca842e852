// The window's frame drawn into its framebuffer, and that framebuffer written as a PNG
// (WritePng: a temporary file renamed into place). The main window and the editor's popout
// both end their frames here.
#pragma once

#include <string>

struct GLFWwindow;

namespace lessons::app {

struct UiState;

// False with the path and the reason in `error` when it cannot be written.
bool SaveFramebufferPng(const std::string& path, int width, int height, std::string* error);

// Draws ImGui's rendered frame into `window`'s framebuffer over the page's background and
// gives the framebuffer's size (what a screenshot of it takes).
void DrawFrame(GLFWwindow* window, int* width, int* height);

// Writes the framebuffer as a PNG at `path`, or, when `path` is empty, at a new name in the
// export folder (made when missing; `path` says it), and says in the page's notices where or
// why not. False with the reason in `error` when it cannot.
bool TakeScreenshot(UiState& ui, std::string& path, int width, int height, std::string* error);

}  // namespace lessons::app
