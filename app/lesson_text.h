// The lesson text: the small part of Markdown the lesson files use, and line breaking that
// also breaks Chinese text (ImGui 1.86 wraps at spaces only, so a Chinese sentence would be
// one unbreakable word). Parsing and wrapping are pure functions; DrawLessonText and
// DrawWrappedText draw what they produce.
#pragma once

#include <imgui.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace lessons::app {

// One piece of a lesson page, in drawing order.
struct TextBlock {
    enum class Kind {
        kBullet,     // a list bullet: the next block starts on the same line
        kLeadIn,     // a paragraph's bold lead-in ("**What changed.**"), drawn as a small heading
        kParagraph,  // text with its markup removed, followed by a little space
    };
    Kind kind = Kind::kParagraph;
    std::string text;

    bool operator==(const TextBlock& o) const { return kind == o.kind && text == o.text; }
};

// What it knows: "# " lines (skipped: the page draws the title), blank lines between
// paragraphs, "- " bullets and "1. " numbered items (the number kept as typed), lines
// indented by two spaces continuing a paragraph, and a bold lead-in opening a paragraph.
// "**", "*" and "`" elsewhere are removed. Other Markdown ("## ", tables, fenced code) is
// paragraph text.
std::vector<TextBlock> ParseLessonText(std::string_view text);

// Width of a piece of text, in the units of `width` below.
using MeasureText = std::function<float(std::string_view)>;

// Splits `text` into lines no wider than `width`: at spaces, and before or after any wide
// (CJK) character, but never before closing punctuation (，。、）” ...), after opening
// punctuation (（“ ...) or inside "——" and "……". A word (or such a group) wider than
// `width` stays whole on a line of its own. Each line's leading spaces are dropped. The
// lines point into `text`.
std::vector<std::string_view> WrapLines(std::string_view text, float width,
                                        const MeasureText& measure);

// Draws `text` wrapped to the available width (at least four characters wide).
void DrawWrappedText(std::string_view text, const ImVec4* color = nullptr);

// Draws a lesson's text (ParseLessonText's blocks, wrapped).
void DrawLessonText(std::string_view text);

}  // namespace lessons::app
