#include "panels/fonts.h"

#include <sys/stat.h>

#include <cstdlib>

#include "out_of_memory.h"

namespace lessons::app {
namespace {

const char* kSans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
const char* kSansBold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";
const char* kMono = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf";
const char* kCjk = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc";

bool Exists(const char* path) {
    struct stat st;
    return stat(path, &st) == 0;
}

void* AllocateOrThrow(size_t size, void*) {
    void* p = std::malloc(size);
    if (!p && size > 0) throw OutOfMemory("draw the window (ImGui's fonts and draw lists)");
    return p;
}

void Free(void* p, void*) {
    std::free(p);
}

}  // namespace

void ImGuiAllocationsThrowWhenOutOfMemory() {
    ImGui::SetAllocatorFunctions(AllocateOrThrow, Free);
}

Fonts BuildFonts(float scale, const std::vector<std::string_view>& texts) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    Fonts f;
    const float size = 16.0f * scale;

    // Latin, Greek (Σ), punctuation, arrows, sub/superscripts, check marks, and every glyph
    // the texts use.
    f.glyph_ranges = std::make_shared<ImVector<ImWchar>>();
    ImVector<ImWchar>& ranges = *f.glyph_ranges;
    ImFontGlyphRangesBuilder builder;
    builder.AddRanges(io.Fonts->GetGlyphRangesDefault());
    const ImWchar kExtra[] = {0x0370, 0x03FF, 0x2010, 0x2044, 0x2070, 0x209F, 0x2190, 0x21FF,
                              0x2212, 0x2264, 0x25CB, 0x25D0, 0x2713, 0x2717, 0};
    builder.AddRanges(kExtra);
    // An empty text may be (nullptr, nullptr), which AddText would read as a C string.
    for (std::string_view t : texts)
        if (!t.empty()) builder.AddText(t.data(), t.data() + t.size());
    builder.BuildRanges(&ranges);

    ImFontConfig merge;
    merge.MergeMode = true;
    merge.OversampleH = 1;
    const bool have_sans = Exists(kSans), have_cjk = Exists(kCjk), have_mono = Exists(kMono);
    auto add_ui = [&](const char* path, float px) -> ImFont* {
        ImFont* font = nullptr;
        if (have_sans) font = io.Fonts->AddFontFromFileTTF(path, px, nullptr, ranges.Data);
        if (!font) {
            ImFontConfig cfg;
            cfg.SizePixels = px;
            font = io.Fonts->AddFontDefault(&cfg);
        }
        if (have_cjk) io.Fonts->AddFontFromFileTTF(kCjk, px, &merge, ranges.Data);
        return font;
    };
    f.ui = add_ui(kSans, size);
    f.heading = add_ui(Exists(kSansBold) ? kSansBold : kSans, size * 1.45f);
    f.mono =
        have_mono ? io.Fonts->AddFontFromFileTTF(kMono, size * 0.95f, nullptr, ranges.Data) : f.ui;
    if (!have_sans || !have_mono || !have_cjk) {
        f.notice = "Some fonts are missing (";
        if (!have_sans) f.notice += std::string(kSans) + " ";
        if (!have_mono) f.notice += std::string(kMono) + " ";
        if (!have_cjk) f.notice += std::string(kCjk) + " ";
        f.notice +=
            "): install fonts-dejavu-core and fonts-wqy-microhei. Using ImGui's default font"
            " where they are missing; Chinese text may not show.";
    }
    io.Fonts->Build();
    return f;
}

}  // namespace lessons::app
