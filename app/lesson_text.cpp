#include "lesson_text.h"

#include <algorithm>
#include <cctype>

#include "diff.h"

namespace lessons::app {
namespace {

const ImVec4 kLeadInColor(0.55f, 0.75f, 1.0f, 1);

std::string StripMarkup(std::string s) {
    for (const std::string_view mark : {"**", "`", "*"}) {
        for (size_t p; (p = s.find(mark)) != std::string::npos;) s.erase(p, mark.size());
    }
    return s;
}

// The blocks of one paragraph (a lead-in, the text), appended to `out`.
void AddParagraph(std::string p, std::vector<TextBlock>* out) {
    if (p.empty()) return;
    if (p.rfind("**", 0) == 0) {  // a bold lead-in becomes a small heading
        const size_t end = p.find("**", 2);
        if (end != std::string::npos) {
            out->push_back({TextBlock::Kind::kLeadIn, p.substr(2, end - 2)});
            p = p.substr(end + 2);
            while (!p.empty() && p.front() == ' ') p.erase(0, 1);
            if (p.empty()) return;
        }
    }
    out->push_back({TextBlock::Kind::kParagraph, StripMarkup(p)});
}

}  // namespace

std::vector<TextBlock> ParseLessonText(std::string_view text) {
    std::vector<TextBlock> out;
    std::string paragraph;
    auto flush = [&] {
        AddParagraph(paragraph, &out);
        paragraph.clear();
    };
    for (const std::string& line : SplitLines(text)) {
        if (line.rfind("# ", 0) == 0) continue;  // the title is drawn by the page
        if (line.empty()) {
            flush();
        } else if (line.rfind("- ", 0) == 0 ||
                   (line.size() > 3 && std::isdigit(static_cast<unsigned char>(line[0])) &&
                    line[1] == '.')) {
            flush();
            paragraph = line;  // list items start their own paragraph...
            if (line[0] == '-') {
                out.push_back({TextBlock::Kind::kBullet, ""});
                paragraph = line.substr(2);
            }
        } else if (line.rfind("  ", 0) == 0 && !paragraph.empty()) {
            paragraph += " " + line.substr(line.find_first_not_of(' '));  // ...continued
        } else {
            paragraph += (paragraph.empty() ? "" : " ") + line;
        }
    }
    flush();
    return out;
}

std::vector<std::string_view> WrapLines(std::string_view text, float width,
                                        const MeasureText& measure) {
    std::vector<std::string_view> lines;
    auto emit = [&](size_t a, size_t b) {
        while (a < b && text[a] == ' ') ++a;
        lines.push_back(text.substr(a, b - a));
    };
    const size_t end = text.size();
    size_t line = 0;
    size_t last_break = std::string_view::npos;  // where the line may end
    for (size_t p = 0; p < end;) {
        const unsigned char c = static_cast<unsigned char>(text[p]);
        const size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        const bool wide = len >= 3;  // CJK and other wide characters: a break on either side
        if (c == ' ' || wide) last_break = p;
        const size_t next = std::min(p + len, end);
        if (measure(text.substr(line, next - line)) > width &&
            last_break != std::string_view::npos && last_break > line) {
            emit(line, last_break);
            line = last_break;
            last_break = std::string_view::npos;
            continue;
        }
        if (wide) last_break = next;
        p = next;
    }
    emit(line, end);
    return lines;
}

void DrawWrappedText(std::string_view text, const ImVec4* color) {
    const float width = std::max(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 4);
    ImFont* font = ImGui::GetFont();
    const float size = ImGui::GetFontSize();
    const MeasureText measure = [&](std::string_view s) {
        return font->CalcTextSizeA(size, 1e9f, 0, s.data(), s.data() + s.size()).x;
    };
    for (const std::string_view line : WrapLines(text, width, measure)) {
        if (color) ImGui::PushStyleColor(ImGuiCol_Text, *color);
        ImGui::TextUnformatted(line.data(), line.data() + line.size());
        if (color) ImGui::PopStyleColor();
    }
}

void DrawLessonText(std::string_view text) {
    for (const TextBlock& block : ParseLessonText(text)) {
        switch (block.kind) {
            case TextBlock::Kind::kBullet:
                ImGui::Bullet();
                ImGui::SameLine();
                break;
            case TextBlock::Kind::kLeadIn:
                DrawWrappedText(block.text, &kLeadInColor);
                break;
            case TextBlock::Kind::kParagraph:
                DrawWrappedText(block.text);
                ImGui::Spacing();
                break;
        }
    }
}

}  // namespace lessons::app
