// Lesson texts name other lessons by slug, never by number: the numbers follow from the order of
// the chapters and their rows, and the catalogue writes them in when it is built.
//
// A link is a name in double brackets, anywhere in a lesson's .en.md or .zh.md:
//   [[gemm/double-buffering]]  a lesson by its id: renders its label, "5.8"
//   [[double-buffering]]       a lesson of the text's own chapter, by its slug: the same
//   [[gemm]]                   a chapter by its id: renders its number, "5"
// A bare name is a lesson of the text's chapter if it has one by that slug, else a chapter. Only
// the link is replaced; the words around it stay, so each language says what it means:
//   "lesson [[naive]]'s kernel" -> "lesson 5.1's kernel", "第 [[naive]] 课" -> "第 5.1 课",
//   "lessons [[naive]]–[[double-buffering]]" -> "lessons 5.1–5.8", "chapter [[gemm]]" -> "chapter
//   5".
// A link that names no lesson or chapter (or a "[[" not closed on its line) stays as written
// and is reported.
//
// The heading: a text's first line is "# <Title>", without a number; rendered, it reads
// "# Lesson 5.8 — <Title>" in English and "# 第 5.8 课 — <标题>" in Chinese.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "registry.h"

namespace lessons {

enum class TextLanguage { kEnglish, kChinese };

struct RenderedText {
    std::string text;
    std::vector<std::string> broken;  // each link that names nothing, as written: "[[x]]"
};

// `text` (one of `lesson`'s texts, in `language`) with its heading numbered and its links
// replaced by the numbers `registry` gives them now.
RenderedText RenderLessonText(std::string_view text, const Lesson& lesson, TextLanguage language,
                              const Registry& registry);

// Renders every lesson's texts in place; each broken link becomes one of the registry's
// problems ("lesson 5.8 (gemm/double-buffering): its English text links to [[x]], which is no
// lesson or chapter"). Call it once, after every chapter is added.
void RenderLessonLinks(Registry& registry);

}  // namespace lessons
