// Fonts from Debian packages, built at the UI scale (rebuilt, not stretched, when it changes):
// DejaVu Sans with WenQuanYi Micro Hei merged in for Chinese, and DejaVu Sans Mono for code.
#pragma once

#include <imgui.h>

#include <memory>
#include <string>
#include <vector>

namespace lessons::app {

struct Fonts {
    ImFont* ui = nullptr;
    ImFont* heading = nullptr;
    ImFont* mono = nullptr;
    std::string notice;  // set when a font file was missing and ImGui's default was used
    // The glyphs in the atlas; ImGui reads them again whenever the atlas is rebuilt.
    std::shared_ptr<ImVector<ImWchar>> glyph_ranges;
};

// Clears io.Fonts and adds the fonts at `scale`; `texts` are scanned for the CJK glyphs
// they use (lesson texts, UI strings), which keeps the atlas small. The caller rebuilds the
// renderer's font texture.
Fonts BuildFonts(float scale, const std::vector<std::string_view>& texts);

// ImGui's allocations (the font atlas and its texture, the draw lists) throw OutOfMemory
// ("not enough memory to draw the window ...") where malloc fails, rather than hand ImGui a null
// pointer it writes through: the program ends with that message at the frame's boundary
// (app/main.cpp). Set before the first ImGui context is made; for the whole process.
void ImGuiAllocationsThrowWhenOutOfMemory();

}  // namespace lessons::app
