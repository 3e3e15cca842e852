#include "screenshot.h"

#include <GLFW/glfw3.h>
#include <stb_image_write.h>

#include <vector>

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
    // OpenGL's first row is the bottom one; PNG's is the top.
    const size_t row = size_t(width) * 4;
    const unsigned char* last_row = pixels.data() + row * size_t(height - 1);
    if (!stbi_write_png(path.c_str(), width, height, 4, last_row, -static_cast<int>(row))) {
        if (error) *error = "cannot write " + path;
        return false;
    }
    return true;
}

}  // namespace lessons::app
