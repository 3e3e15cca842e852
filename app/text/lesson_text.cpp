#include "text/lesson_text.h"

#include <algorithm>
#include <cctype>

#include "text/diff.h"

namespace lessons::app {
namespace {

const ImVec4 kLeadInColor(0.55f, 0.75f, 1.0f, 1);
const ImVec4 kAnswerColor(0.6f, 0.85f, 0.6f, 1);

// Punctuation that never starts a line (closing) or ends one (opening), in Chinese and in
// Latin text next to it.
constexpr char32_t kClosing[] = {',',    '.',    ';',    ':',    '!',    '?',    ')',    ']',
                                 '}',    0x2019, 0x201D, 0x2026, 0x3001, 0x3002, 0x3009, 0x300B,
                                 0x300D, 0x300F, 0x3011, 0x3015, 0x3017, 0xFF01, 0xFF09, 0xFF0C,
                                 0xFF0E, 0xFF1A, 0xFF1B, 0xFF1F, 0xFF3D, 0xFF5D};
constexpr char32_t kOpening[] = {'(',    '[',    '{',    0x2018, 0x201C, 0x3008, 0x300A, 0x300C,
                                 0x300E, 0x3010, 0x3014, 0x3016, 0xFF08, 0xFF3B, 0xFF5B};

template <size_t N>
bool OneOf(char32_t c, const char32_t (&set)[N]) {
    return std::find(set, set + N, c) != set + N;
}

// The code point of the UTF-8 sequence of `len` bytes at s[0] (U+FFFD when cut short).
char32_t Decode(std::string_view s, size_t len) {
    if (s.size() < len) return 0xFFFD;
    const auto byte = [&](size_t i) {
        return static_cast<char32_t>(static_cast<unsigned char>(s[i]));
    };
    if (len == 1) return byte(0);
    char32_t c = byte(0) & (0xFF >> (len + 1));
    for (size_t i = 1; i < len; ++i) c = (c << 6) | (byte(i) & 0x3F);
    return c;
}

// Whether a line may end between `before` and `after` (code points; `wide` for each).
bool MayBreak(char32_t before, bool before_wide, char32_t after, bool after_wide) {
    if (after == ' ') return true;
    if (!before_wide && !after_wide) return false;  // inside a Latin word
    if (OneOf(after, kClosing) || OneOf(before, kOpening)) return false;
    return !(before == after && (after == 0x2014 || after == 0x2026));  // "——", "……"
}

std::string StripMarkup(std::string_view s, std::vector<CodeSpan>* spans = nullptr) {
    // Inside a code span (`a[i][j] * x[j]`) every character is the code's: only its backticks
    // go. Outside, emphasis marks go ("**bold**", "*word*"), but not a "*" with a space on both
    // sides, which is a product written in prose.
    std::string out;
    out.reserve(s.size());
    bool code = false;
    size_t opened = 0;  // where the open span starts in `out`
    for (size_t i = 0; i < s.size(); ++i) {
        const char ch = s[i];
        if (ch == '`') {
            if (code && spans && out.size() > opened) spans->push_back({opened, out.size()});
            code = !code;
            opened = out.size();
            continue;
        }
        if (ch == '*' && !code) {
            const bool spaced = i > 0 && s[i - 1] == ' ' && i + 1 < s.size() && s[i + 1] == ' ';
            if (!spaced) continue;
        }
        out += ch;
    }
    if (code && spans && out.size() > opened) spans->push_back({opened, out.size()});  // unclosed
    return out;
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
    TextBlock block{TextBlock::Kind::kParagraph, {}, {}};
    block.text = StripMarkup(p, &block.code);
    out->push_back(std::move(block));
}

}  // namespace

std::string AsHeading(std::string_view lead_in) {
    std::string s(lead_in);
    for (const std::string_view end : {"\xE3\x80\x82", "\xEF\xBC\x9A", ".", ":"})  // 。 ：
        if (s.size() > end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0) {
            s.erase(s.size() - end.size());
            break;
        }
    return s;
}

std::string TitleFromText(std::string_view text) {
    // Line by line in place: the lesson list asks for every title in every frame.
    for (size_t start = 0; start < text.size();) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        const std::string line(text.substr(start, end - start));
        start = end + 1;
        if (line.rfind("# ", 0) != 0) continue;
        const std::string_view dash = "\xE2\x80\x94";  // —
        const size_t at = line.find(dash);
        std::string title =
            at == std::string::npos ? line.substr(2) : line.substr(at + dash.size());
        const size_t first = title.find_first_not_of(' ');
        return first == std::string::npos ? std::string() : StripMarkup(title.substr(first));
    }
    return std::string();
}

namespace {

// "1. text" starts a numbered item; "0.407 ms, ..." is a figure that a wrapped line starts with.
bool IsNumberedItem(std::string_view line) {
    size_t digits = 0;
    while (digits < line.size() && std::isdigit(static_cast<unsigned char>(line[digits]))) ++digits;
    return digits > 0 && line.size() > digits + 2 && line[digits] == '.' && line[digits + 1] == ' ';
}

}  // namespace

bool IsAnswerLine(std::string_view line) {
    return line.rfind("Answer:", 0) == 0 || line.rfind("\xE7\xAD\x94\xEF\xBC\x9A", 0) == 0;  // 答：
}

std::vector<TextBlock> WithoutAnswers(std::vector<TextBlock> blocks) {
    for (TextBlock& b : blocks)
        if (b.kind == TextBlock::Kind::kAnswer) {
            b.text.clear();
            b.code.clear();
        }
    return blocks;
}

namespace {

// The code point that ends (or starts) a UTF-8 string; 0 for an empty one.
char32_t LastCodePoint(std::string_view s) {
    size_t i = s.size();
    while (i > 0 && (static_cast<unsigned char>(s[i - 1]) & 0xC0) == 0x80) --i;
    if (i == 0) return 0;
    --i;
    const auto b = [&](size_t k) {
        return static_cast<char32_t>(static_cast<unsigned char>(s[k]));
    };
    const char32_t c = b(i);
    if (c < 0x80) return c;
    if ((c & 0xE0) == 0xC0 && i + 1 < s.size()) return ((c & 0x1F) << 6) | (b(i + 1) & 0x3F);
    if ((c & 0xF0) == 0xE0 && i + 2 < s.size())
        return ((c & 0x0F) << 12) | ((b(i + 1) & 0x3F) << 6) | (b(i + 2) & 0x3F);
    if ((c & 0xF8) == 0xF0 && i + 3 < s.size())
        return ((c & 0x07) << 18) | ((b(i + 1) & 0x3F) << 12) | ((b(i + 2) & 0x3F) << 6) |
               (b(i + 3) & 0x3F);
    return c;
}
char32_t FirstCodePoint(std::string_view s) {
    size_t n = 1;
    while (n < s.size() && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) ++n;
    return LastCodePoint(s.substr(0, n));
}
// Chinese characters and full-width punctuation: a line break between two of them is no space.
bool IsCjk(char32_t c) {
    return (c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) ||
           (c >= 0xFF00 && c <= 0xFFEF) || (c >= 0x3000 && c <= 0x303F);
}
// Joins a source line to a paragraph: with a space, as in English, unless the break falls
// between two Chinese characters (a Chinese text wrapped in its file has no space there).
void JoinLine(std::string* paragraph, std::string_view line) {
    if (!paragraph->empty() && !(IsCjk(LastCodePoint(*paragraph)) && IsCjk(FirstCodePoint(line))))
        *paragraph += ' ';
    *paragraph += line;
}

}  // namespace

std::vector<TextBlock> ParseLessonText(std::string_view text) {
    std::vector<TextBlock> out;
    std::string paragraph;
    bool answer = false;  // the paragraph being gathered is an answer
    auto flush = [&] {
        if (answer && !paragraph.empty()) {
            TextBlock block{TextBlock::Kind::kAnswer, {}, {}};
            block.text = StripMarkup(paragraph, &block.code);
            out.push_back(std::move(block));
        } else {
            AddParagraph(paragraph, &out);
        }
        paragraph.clear();
        answer = false;
    };
    for (const std::string& line : SplitLines(text)) {
        if (line.rfind("# ", 0) == 0) continue;  // the title is drawn by the page
        // An answer may be indented under its numbered question.
        const size_t indent = line.find_first_not_of(' ');
        if (indent != std::string::npos && IsAnswerLine(std::string_view(line).substr(indent))) {
            flush();
            answer = true;
            paragraph = line.substr(indent);
        } else if (line.empty()) {
            flush();
        } else if (line.rfind("- ", 0) == 0 || IsNumberedItem(line)) {
            flush();
            paragraph = line;  // list items start their own paragraph...
            if (line[0] == '-') {
                out.push_back({TextBlock::Kind::kBullet, ""});
                paragraph = line.substr(2);
            }
        } else if (answer) {
            JoinLine(&paragraph, line.substr(line.find_first_not_of(' ')));  // the answer goes on
        } else if (line.rfind("  ", 0) == 0 && !paragraph.empty()) {
            JoinLine(&paragraph, line.substr(line.find_first_not_of(' ')));  // ...continued
        } else {
            JoinLine(&paragraph, line);
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
    char32_t before = 0;
    bool before_wide = false;
    for (size_t p = 0; p < end;) {
        const unsigned char c = static_cast<unsigned char>(text[p]);
        const size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        const bool wide = len >= 3;  // CJK and other wide characters: a break on either side
        const char32_t code = Decode(text.substr(p), len);
        if (p > 0 && MayBreak(before, before_wide, code, wide)) last_break = p;
        const size_t next = std::min(p + len, end);
        if (measure(text.substr(line, next - line)) > width &&
            last_break != std::string_view::npos && last_break > line) {
            emit(line, last_break);
            line = last_break;
            last_break = std::string_view::npos;
            continue;
        }
        before = code;
        before_wide = wide;
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

namespace {

const ImU32 kCodeBackground = IM_COL32(255, 255, 255, 22);

// Calls run(a, b, in_code_font) for the runs of text[a, b) that change font: a code span's
// ASCII characters in the code font, everything else (prose, and the Chinese of a span, which
// the monospace font lacks) in the text's.
template <typename Run>
void ForEachRun(std::string_view text, const std::vector<CodeSpan>& code, bool have_code_font,
                size_t a, size_t b, const Run& run) {
    size_t start = a;
    bool mono = false;
    auto in_code = [&](size_t i) {
        if (!have_code_font || static_cast<unsigned char>(text[i]) >= 0x80) return false;
        for (const CodeSpan& s : code)
            if (i >= s.begin && i < s.end) return true;
        return false;
    };
    for (size_t i = a; i < b; ++i) {
        const bool m = in_code(i);
        if (i > start && m != mono) {
            run(start, i, mono);
            start = i;
        }
        mono = m;
    }
    if (b > start) run(start, b, mono);
}

}  // namespace

void DrawTextWithCode(std::string_view text, const std::vector<CodeSpan>& code, ImFont* code_font,
                      const ImVec4* color, const LineDrawn& line_drawn, CodeDrawn* drawn) {
    if (code.empty() && !line_drawn) {
        DrawWrappedText(text, color);
        return;
    }
    const float width = std::max(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 4);
    ImFont* font = ImGui::GetFont();
    const float size = ImGui::GetFontSize();
    const bool mono_ok = code_font && code_font != font;
    // The code font's size against the text's: built at 0.95 of it (fonts.cpp), at any scale.
    const float mono_size = mono_ok ? code_font->FontSize * (size / font->FontSize) : size;
    const auto run_width = [&](size_t a, size_t b, bool mono) {
        ImFont* f = mono ? code_font : font;
        return f->CalcTextSizeA(mono ? mono_size : size, 1e9f, 0, text.data() + a, text.data() + b)
            .x;
    };
    // Any part of the text (a view into it) measured with each run in its own font.
    const MeasureText measure = [&](std::string_view s) {
        const size_t a = size_t(s.data() - text.data());
        float w = 0;
        ForEachRun(text, code, mono_ok, a, a + s.size(),
                   [&](size_t x, size_t y, bool mono) { w += run_width(x, y, mono); });
        return w;
    };
    const ImU32 ink = ImGui::GetColorU32(color ? *color : ImGui::GetStyleColorVec4(ImGuiCol_Text));
    // The code font's baseline on the text's.
    const float mono_dy = mono_ok ? font->Ascent * (size / font->FontSize) -
                                        code_font->Ascent * (mono_size / code_font->FontSize)
                                  : 0;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (const std::string_view line : WrapLines(text, width, measure)) {
        const ImVec2 origin = ImGui::GetCursorScreenPos();
        const float w = measure(line);
        if (ImGui::IsRectVisible(ImVec2(w, size))) {
            const size_t a = size_t(line.data() - text.data());
            // The spans' backgrounds first, then the characters over them.
            for (const CodeSpan& s : code) {
                const size_t x = std::max(s.begin, a), y = std::min(s.end, a + line.size());
                if (x >= y) continue;
                const float x0 = origin.x + measure(text.substr(a, x - a));
                const float x1 = origin.x + measure(text.substr(a, y - a));
                dl->AddRectFilled(ImVec2(x0 - 2, origin.y), ImVec2(x1 + 2, origin.y + size),
                                  kCodeBackground, size * 0.2f);
            }
            float x = origin.x;
            ForEachRun(text, code, mono_ok, a, a + line.size(), [&](size_t p, size_t q, bool mono) {
                const float run_w = run_width(p, q, mono);
                dl->AddText(mono ? code_font : font, mono ? mono_size : size,
                            ImVec2(x, origin.y + (mono ? mono_dy : 0)), ink, text.data() + p,
                            text.data() + q);
                if (mono && drawn && drawn->runs++ == 0)
                    drawn->first = ImVec4(x, origin.y, x + run_w, origin.y + size);
                x += run_w;
            });
        }
        ImGui::Dummy(ImVec2(w, ImGui::GetTextLineHeight()));
        if (line_drawn) line_drawn(line, origin, measure);
    }
}

std::vector<std::string> SplitSections(std::string_view text) {
    std::vector<std::string> sections;
    std::string current;
    bool content = false;  // the section has more than blank lines and the "# " heading
    bool after_blank = true;
    auto flush = [&] {
        if (content) sections.push_back(current);
        current.clear();
        content = false;
    };
    for (const std::string& line : SplitLines(text)) {
        const bool blank = line.find_first_not_of(" \t\r") == std::string::npos;
        if (after_blank && line.rfind("**", 0) == 0) flush();
        current += line;
        current += '\n';
        if (!blank && line.rfind("# ", 0) != 0) content = true;
        after_blank = blank;
    }
    flush();
    return sections;
}

namespace {

// The tooltip's text, wrapped to `width` ("\n" starts a new line; a word wider than `width`,
// a path or an id, is cut between characters).
void TooltipText(std::string_view text, float width) {
    const float font = ImGui::GetFontSize();
    ImFont* f = ImGui::GetFont();
    const MeasureText measure = [&](std::string_view s) {
        return f->CalcTextSizeA(font, 1e9f, 0, s.data(), s.data() + s.size()).x;
    };
    for (size_t start = 0; start < text.size();) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view paragraph = text.substr(start, end - start);
        if (paragraph.empty())
            ImGui::TextUnformatted("");
        else
            for (std::string_view line : WrapLines(paragraph, width, measure)) {
                while (measure(line) > width) {
                    size_t cut = 0;
                    for (size_t next = 0; next < line.size();) {
                        const unsigned char c = static_cast<unsigned char>(line[next]);
                        next += c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
                        if (measure(line.substr(0, next)) > width) break;
                        cut = next;
                    }
                    if (cut == 0) break;  // not even one character fits
                    ImGui::TextUnformatted(line.data(), line.data() + cut);
                    line.remove_prefix(cut);
                }
                ImGui::TextUnformatted(line.data(), line.data() + line.size());
            }
        start = end + 1;
    }
}

}  // namespace

void Tooltip(std::string_view text) {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const ImGuiStyle& style = ImGui::GetStyle();
    const float font = ImGui::GetFontSize();
    // ImGui puts a tooltip right of the mouse, else left of it, and where neither side has room
    // it leaves it right of the mouse, cut off: so it must fit the wider side.
    const float safe = style.DisplaySafeAreaPadding.x;
    float side = vp->WorkSize.x - safe * 2;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    if (ImGui::IsMousePosValid(&mouse)) {
        const float right =
            vp->WorkPos.x + vp->WorkSize.x - safe - (mouse.x + 24 * style.MouseCursorScale);
        const float left = mouse.x - 16 - (vp->WorkPos.x + safe);
        side = std::max(right, left);
    }
    const float room = side - style.WindowPadding.x * 2 - style.WindowBorderSize * 2 - 1;
    const float width = std::max(std::min(font * 34, room), font * 4);
    ImGui::BeginTooltip();
    TooltipText(text, width);
    ImGui::EndTooltip();
}

void TooltipAt(std::string_view text, ImVec2 pos, ImVec2 pivot, float outer_width) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float width =
        std::max(outer_width - style.WindowPadding.x * 2 - style.WindowBorderSize * 2 - 1,
                 ImGui::GetFontSize() * 4);
    ImGui::SetNextWindowPos(pos, ImGuiCond_Always, pivot);
    ImGui::BeginTooltip();
    TooltipText(text, width);
    ImGui::EndTooltip();
}

bool IsMeasuredLeadIn(std::string_view lead_in) {
    for (const std::string_view prefix :
         {"What we measured", "What the seed author", "What the seed shows", "The seed's figures",
          "On the H200", "我们的测量", "实测结果", "原作者", "原文作者", "原文的数据", "原文说明",
          "在 H200 上"})
        if (lead_in.substr(0, prefix.size()) == prefix) return true;
    return false;
}

std::vector<TextBlock> WithoutMeasured(std::vector<TextBlock> blocks, const std::string& note) {
    std::vector<TextBlock> out;
    bool measured = false;
    for (TextBlock& b : blocks) {
        if (b.kind == TextBlock::Kind::kLeadIn) {
            measured = IsMeasuredLeadIn(b.text);
            out.push_back(std::move(b));
            if (measured) out.push_back({TextBlock::Kind::kParagraph, note});
        } else if (!measured) {
            out.push_back(std::move(b));
        }
    }
    return out;
}

bool DrawMarkupBlock(const TextBlock& block, const LessonTextOptions& options, CodeDrawn* drawn) {
    switch (block.kind) {
        case TextBlock::Kind::kAnswer: {
            ImGuiStorage* revealed = ImGui::GetStateStorage();
            const ImGuiID id = ImGui::GetID(block.text.c_str());
            if (options.hide_answers && !revealed->GetBool(id)) {
                ImGui::PushID(static_cast<int>(id));
                if (ImGui::SmallButton(options.show_answer)) revealed->SetBool(id, true);
                if (options.answer_button) options.answer_button();
                ImGui::PopID();
            } else {
                DrawTextWithCode(block.text, block.code, options.code_font, &kAnswerColor, {},
                                 drawn);
            }
            ImGui::Spacing();
            return true;
        }
        case TextBlock::Kind::kBullet:
            ImGui::Bullet();
            ImGui::SameLine();
            return true;
        case TextBlock::Kind::kLeadIn:
            DrawWrappedText(AsHeading(block.text), &kLeadInColor);
            return true;
        case TextBlock::Kind::kParagraph:
            break;
    }
    return false;
}

void DrawLessonText(std::string_view text, const LessonTextOptions& options, CodeDrawn* drawn) {
    std::vector<TextBlock> blocks = ParseLessonText(text);
    if (options.hide_measured) blocks = WithoutMeasured(std::move(blocks), options.measured_note);
    for (const TextBlock& block : blocks) {
        if (DrawMarkupBlock(block, options, drawn)) continue;
        DrawTextWithCode(block.text, block.code, options.code_font, nullptr, {}, drawn);
        ImGui::Spacing();
    }
}

}  // namespace lessons::app
