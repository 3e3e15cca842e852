// Writes the current OpenGL framebuffer as a PNG (stb_image_write from libstb-dev).
#pragma once

#include <string>

namespace lessons::app {

bool SaveFramebufferPng(const std::string& path, int width, int height, std::string* error);

}  // namespace lessons::app
