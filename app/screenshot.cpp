#include "screenshot.h"

#include <GLFW/glfw3.h>

#include <vector>

#include "model/export.h"

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

}  // namespace lessons::app
