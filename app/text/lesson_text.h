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

// A code span of a block's text ("`a[i][j] * x[j]`" in the Markdown): bytes [begin, end) of
// TextBlock::text, drawn in the monospace font.
struct CodeSpan {
    size_t begin = 0, end = 0;
    bool operator==(const CodeSpan& o) const { return begin == o.begin && end == o.end; }
};

// One piece of a lesson page, in drawing order.
struct TextBlock {
    enum class Kind {
        kBullet,     // a list bullet: the next block starts on the same line
        kLeadIn,     // a paragraph's bold lead-in ("**What changed.**"), drawn as a small heading
        kParagraph,  // text with its markup removed, followed by a little space
        kAnswer,     // an answer to a "Try this" or class question: a paragraph that may be hidden
    };
    Kind kind = Kind::kParagraph;
    std::string text;
    std::vector<CodeSpan> code = {};  // its inline code (paragraphs and answers), in order

    // The kind and the text (the code spans follow from the text's Markdown).
    bool operator==(const TextBlock& o) const { return kind == o.kind && text == o.text; }
};

// What it knows: "# " lines (skipped: the page draws the title), blank lines between
// paragraphs, "- " bullets and "1. " numbered items (the number kept as typed), lines
// indented by two spaces continuing a paragraph, and a bold lead-in opening a paragraph.
// "**", "*" and "`" elsewhere are removed; what stood between backticks is kept whole (its "*"
// too) and noted as a code span. Other Markdown ("## ", tables, fenced code) is
// paragraph text. A line opening (after any indentation) with "Answer:" or "答：" starts an answer,
// which runs to the end of its paragraph (its own continuation lines, whether indented or not).
std::vector<TextBlock> ParseLessonText(std::string_view text);

// The title a lesson text gives in its "# " heading, after its "—" ("# 第 3 课 — OpenMP 多线程":
// "OpenMP 多线程"); empty when it has no heading.
std::string TitleFromText(std::string_view text);
// A bold lead-in drawn as a heading on its own line: without the full stop or colon that ended
// it in the sentence ("问题。" -> "问题", "What changed." -> "What changed").
std::string AsHeading(std::string_view lead_in);

// The text cut into its sections, for presenter mode: a section starts at a paragraph that
// opens with a bold lead-in ("**What changed.** ..."), and runs to the next one. What stands
// before the first lead-in is a section of its own only when it has more than the "# " heading.
// Each section is raw Markdown, as ParseLessonText takes it; a text without lead-ins is one
// section (none when it is empty).
std::vector<std::string> SplitSections(std::string_view text);

// Whether `line` opens an answer ("Answer:" in English, "答：" in Chinese).
bool IsAnswerLine(std::string_view line);

// The blocks as drawn with the answers hidden: each answer's text removed (an empty kAnswer
// block stays where its "Show answer" button goes).
std::vector<TextBlock> WithoutAnswers(std::vector<TextBlock> blocks);

// Whether a lead-in opens a section of measured figures: "What we measured ...", "What the seed
// author(s) measured / shows / wrote", "What the seed shows", "The seed's figures", and their
// Chinese ("我们的测量 ...", "实测结果", "原作者...", "原文作者...", "原文的数据", "原文说明...").
bool IsMeasuredLeadIn(std::string_view lead_in);

// The blocks with every section of measured figures (IsMeasuredLeadIn, to the next lead-in)
// reduced to its lead-in and `note` (a paragraph), for "Hide answers" before the lesson's run.
std::vector<TextBlock> WithoutMeasured(std::vector<TextBlock> blocks, const std::string& note);

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

// Called for each line DrawTextWithCode draws: the line (a view into its text), where it was
// drawn, and the measure that laid it out (it takes any part of the line).
using LineDrawn =
    std::function<void(std::string_view line, ImVec2 origin, const MeasureText& measure)>;

// What DrawTextWithCode (or DrawLessonText) drew in the code font: how many runs, and the
// first one's screen rectangle (x0, y0, x1, y1), for tests.
struct CodeDrawn {
    int runs = 0;
    ImVec4 first = ImVec4(0, 0, 0, 0);
};

// Draws `text` wrapped as DrawWrappedText does, its code spans in `code_font` on a faint
// background, as a notebook sets inline code (the characters of a span that `code_font` lacks,
// such as Chinese, in the text's own font). A null `code_font` draws it all in the text's font.
void DrawTextWithCode(std::string_view text, const std::vector<CodeSpan>& code, ImFont* code_font,
                      const ImVec4* color = nullptr, const LineDrawn& line_drawn = {},
                      CodeDrawn* drawn = nullptr);

// A tooltip with `text`, wrapped as DrawWrappedText wraps (at spaces and around Chinese
// characters; "\n" starts a new line) to a width that fits the window: at most 34 font heights,
// and never wider than the main viewport less its padding, so that ImGui can always place the
// whole tooltip inside the window.
void Tooltip(std::string_view text);
// A tooltip placed by the caller: its `pivot` ((0, 0) its top-left corner, (0, 1) its
// bottom-left) at `pos`, as wide as `outer_width` at most (its text wrapped to fit), so that it
// stays where it covers nothing the reader needs (the lesson list's own entries).
void TooltipAt(std::string_view text, ImVec2 pos, ImVec2 pivot, float outer_width);

struct LessonTextOptions {
    bool hide_answers = false;
    const char* show_answer = "Show answer";  // the button that reveals one hidden answer
    // The sections of measured figures hidden (WithoutMeasured), each saying `measured_note`.
    bool hide_measured = false;
    const char* measured_note = "";
    ImFont* code_font = nullptr;          // inline code's font (monospace); null: the text's own
    std::function<void()> answer_button;  // called just after a hidden answer's button is drawn
};

// Draws `block` where it is no paragraph, as DrawLessonText does: a bullet's mark, a lead-in, an
// answer in its own colour (hidden, its button); whether it drew it (a paragraph is the caller's).
bool DrawMarkupBlock(const TextBlock& block, const LessonTextOptions& options, CodeDrawn* drawn);

// Draws a lesson's text (ParseLessonText's blocks, wrapped). Answers are drawn in their own
// colour; hidden, each is a button that reveals that answer (remembered in ImGui's storage of
// the current window, keyed by the answer's text).
void DrawLessonText(std::string_view text, const LessonTextOptions& options = {},
                    CodeDrawn* drawn = nullptr);

}  // namespace lessons::app
