// Writes the current OpenGL framebuffer as a PNG (WritePng: a temporary file renamed into
// place; false with the path and the reason in `error` when it cannot).
#pragma once

#include <string>

namespace lessons::app {

bool SaveFramebufferPng(const std::string& path, int width, int height, std::string* error);

}  // namespace lessons::app
