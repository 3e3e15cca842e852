// The lesson-text renderer without ImGui: the Markdown subset the lesson files use, and line
// breaking measured by a fake font (one unit per Latin character, two per CJK character). And the
// texts' links to other lessons (lessons/text_links.h), rendered with the current numbers.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "catalog.h"
#include "declare.h"
#include "exercise.h"
#include "page.h"
#include "resources.h"
#include "text/lesson_text.h"
#include "text_links.h"

using namespace lessons;
using namespace lessons::app;

namespace {

using Kind = TextBlock::Kind;

float FakeWidth(std::string_view s) {
    float w = 0;
    for (size_t i = 0; i < s.size();) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        const size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        w += len >= 3 ? 2 : 1;
        i += len;
    }
    return w;
}

std::vector<std::string> Wrap(std::string_view text, float width) {
    std::vector<std::string> out;
    for (std::string_view line : WrapLines(text, width, FakeWidth)) out.emplace_back(line);
    return out;
}

using Lines = std::vector<std::string>;
using Blocks = std::vector<TextBlock>;

}  // namespace

TEST(LessonTextParse, EmptyInputHasNoBlocks) {
    EXPECT_TRUE(ParseLessonText("").empty());
    EXPECT_TRUE(ParseLessonText("\n\n\n").empty());
}

TEST(LessonTextParse, TitleIsSkippedAndParagraphsJoinTheirLines) {
    EXPECT_EQ(
        ParseLessonText("# Lesson 4\n\nOne line\nand the next.\n\nSecond."),
        (Blocks{{Kind::kParagraph, "One line and the next."}, {Kind::kParagraph, "Second."}}));
}

// A Chinese text wrapped in its file: a break between two Chinese characters (or full-width
// punctuation) joins without a space; next to Latin text it stays a space.
TEST(LessonTextParse, ChineseLinesJoinWithoutASpace) {
    EXPECT_EQ(ParseLessonText("分块 t + 1 的加载已经在\n飞往另一份的路上，\n用 cp.async\n拷贝。"),
              (Blocks{{Kind::kParagraph,
                       "分块 t + 1 的加载已经在飞往另一份的路上，用 cp.async 拷贝。"}}));
    EXPECT_EQ(ParseLessonText("答：等待完\n成"), (Blocks{{Kind::kAnswer, "答：等待完成"}}));
}

TEST(LessonTextParse, OtherHeadingsAreParagraphText) {
    EXPECT_EQ(ParseLessonText("## Notes\n"), (Blocks{{Kind::kParagraph, "## Notes"}}));
}

TEST(LessonTextParse, BoldLeadInBecomesASmallHeading) {
    EXPECT_EQ(ParseLessonText("**What changed.** The loop\nreads two bytes."),
              (Blocks{{Kind::kLeadIn, "What changed."},
                      {Kind::kParagraph, "The loop reads two bytes."}}));
    EXPECT_EQ(ParseLessonText("**Alone.**\n\nNext."),
              (Blocks{{Kind::kLeadIn, "Alone."}, {Kind::kParagraph, "Next."}}))
        << "a lead-in with nothing after it";
    EXPECT_EQ(ParseLessonText("**never closed"), (Blocks{{Kind::kParagraph, "never closed"}}));
}

TEST(LessonTextParse, BoldEmphasisAndCodeSpansLoseTheirMarks) {
    EXPECT_EQ(ParseLessonText("Use `atomicAdd` on *one* **global** counter."),
              (Blocks{{Kind::kParagraph, "Use atomicAdd on one global counter."}}));
    EXPECT_EQ(ParseLessonText("```\nint x;\n```"), (Blocks{{Kind::kParagraph, " int x; "}}))
        << "fenced code is not supported: its lines join a paragraph";
}

TEST(LessonTextParse, BulletsAndNumberedItems) {
    EXPECT_EQ(ParseLessonText("Steps:\n- first\n  continued\n- second\n1. one\n2. two\nafter"),
              (Blocks{{Kind::kParagraph, "Steps:"},
                      {Kind::kBullet, ""},
                      {Kind::kParagraph, "first continued"},
                      {Kind::kBullet, ""},
                      {Kind::kParagraph, "second"},
                      {Kind::kParagraph, "1. one"},
                      {Kind::kParagraph, "2. two after"}}));
    EXPECT_EQ(ParseLessonText("10. ten\nafter"), (Blocks{{Kind::kParagraph, "10. ten after"}}));
    EXPECT_EQ(ParseLessonText("At 4096³:\n0.407 ms, and\n1.5 times"),
              (Blocks{{Kind::kParagraph, "At 4096³: 0.407 ms, and 1.5 times"}}))
        << "a wrapped line that starts with a figure goes on the paragraph";
    EXPECT_EQ(
        ParseLessonText("- **Bold item.** text"),
        (Blocks{{Kind::kBullet, ""}, {Kind::kLeadIn, "Bold item."}, {Kind::kParagraph, "text"}}));
}

TEST(LessonTextParse, TablesAreParagraphText) {
    EXPECT_EQ(ParseLessonText("| a | b |\n| --- | --- |"),
              (Blocks{{Kind::kParagraph, "| a | b | | --- | --- |"}}));
}

TEST(LessonTextParse, EveryLessonTextParses) {
    for (const Lesson& l : Catalog().lessons()) {
        for (const std::string_view text : {l.text_en, l.text_zh}) {
            const Blocks blocks = ParseLessonText(text);
            ASSERT_FALSE(blocks.empty()) << l.id;
            for (const TextBlock& b : blocks) {
                EXPECT_EQ(b.text.find("**"), std::string::npos) << l.id << ": " << b.text;
                EXPECT_EQ(b.text.find('`'), std::string::npos) << l.id << ": " << b.text;
            }
        }
    }
}

TEST(LessonTextWrap, EmptyAndShortTextIsOneLine) {
    EXPECT_EQ(Wrap("", 10), (Lines{""}));
    EXPECT_EQ(Wrap("short", 10), (Lines{"short"}));
}

TEST(LessonTextWrap, LatinBreaksAtSpacesAndDropsLeadingSpaces) {
    EXPECT_EQ(Wrap("the quick brown fox", 10), (Lines{"the quick", "brown fox"}));
    EXPECT_EQ(Wrap("abc defghij", 8), (Lines{"abc", "defghij"})) << "a word is never split";
}

TEST(LessonTextWrap, AWordWiderThanTheLineStaysWhole) {
    EXPECT_EQ(Wrap("a cudaMemcpyDeviceToHost b", 6), (Lines{"a", "cudaMemcpyDeviceToHost", "b"}));
    EXPECT_EQ(Wrap("cudaMemcpyDeviceToHost", 4), (Lines{"cudaMemcpyDeviceToHost"}));
}

TEST(LessonTextWrap, ChineseBreaksBetweenAnyTwoCharacters) {
    // Two units per character: three characters fit in 6.
    EXPECT_EQ(Wrap("每个线程处理一对字节", 6), (Lines{"每个线", "程处理", "一对字", "节"}));
}

TEST(LessonTextWrap, LatinWordsInsideChineseAreNotSplit) {
    EXPECT_EQ(Wrap("使用atomicAdd计数", 12), (Lines{"使用", "atomicAdd计", "数"}));
    EXPECT_EQ(Wrap("内核 GPU 很快", 7), (Lines{"内核", "GPU 很", "快"}));
}

TEST(LessonTextWrap, ACharacterWiderThanTheLineStandsAlone) {
    EXPECT_EQ(Wrap("线程", 1), (Lines{"线", "程"}));
}

TEST(LessonTextWrap, NoLineStartsWithClosingPunctuation) {
    EXPECT_EQ(Wrap("中文，再见", 4), (Lines{"中", "文，", "再见"}));
    EXPECT_EQ(Wrap("一二。三四", 4), (Lines{"一", "二。", "三四"}));
    EXPECT_EQ(Wrap("数据（字节）很多", 6), (Lines{"数据", "（字", "节）很", "多"}));
    EXPECT_EQ(Wrap("中文,好", 4), (Lines{"中", "文,", "好"})) << "Latin punctuation too";
}

TEST(LessonTextWrap, NoLineEndsWithOpeningPunctuation) {
    EXPECT_EQ(Wrap("好（甲）乙", 4), (Lines{"好", "（甲）", "乙"}))
        << "a group wider than the line stays whole";
    EXPECT_EQ(Wrap("他说“好的”", 6), (Lines{"他说", "“好", "的”"}));
}

TEST(LessonTextWrap, DashesAndEllipsesStayTogether) {
    EXPECT_EQ(Wrap("这样——那样", 6), (Lines{"这样", "——那", "样"}));
    EXPECT_EQ(Wrap("等等……好", 6), (Lines{"等", "等……", "好"}));
}

TEST(LessonTextWrap, EveryLessonTextWrapsWithoutLosingTextOrStartingWithPunctuation) {
    const std::vector<std::string_view> closing = {"，", "。", "、", "；", "：",
                                                   "！", "？", "）", "”",  "」"};
    for (const Lesson& l : Catalog().lessons()) {
        for (const TextBlock& b : ParseLessonText(l.text_zh)) {
            for (float width : {12.0f, 25.0f, 40.0f}) {
                std::string joined;
                const auto lines = WrapLines(b.text, width, FakeWidth);
                for (size_t i = 0; i < lines.size(); ++i) {
                    joined += lines[i];
                    if (i == 0) continue;
                    for (std::string_view p : closing)
                        EXPECT_NE(lines[i].substr(0, p.size()), p)
                            << l.id << " at width " << width << ": " << lines[i];
                }
                std::string spaceless = b.text;
                spaceless.erase(std::remove(spaceless.begin(), spaceless.end(), ' '),
                                spaceless.end());
                joined.erase(std::remove(joined.begin(), joined.end(), ' '), joined.end());
                EXPECT_EQ(joined, spaceless) << l.id;
            }
        }
    }
}

TEST(LessonTextAnswers, AnAnswerRunsToTheEndOfItsParagraph) {
    EXPECT_EQ(ParseLessonText("**Try this.** Move the slider.\nAnswer: It gets *faster*,\nthen "
                              "flat.\n\nNext."),
              (Blocks{{Kind::kLeadIn, "Try this."},
                      {Kind::kParagraph, "Move the slider."},
                      {Kind::kAnswer, "Answer: It gets faster, then flat."},
                      {Kind::kParagraph, "Next."}}));
    EXPECT_EQ(ParseLessonText("1. Why?\n   Really?\nAnswer: Because.\n\n2. And?\n答：因为。\n"),
              (Blocks{{Kind::kParagraph, "1. Why? Really?"},
                      {Kind::kAnswer, "Answer: Because."},
                      {Kind::kParagraph, "2. And?"},
                      {Kind::kAnswer, "答：因为。"}}));
    EXPECT_FALSE(IsAnswerLine("The Answer: is not at the start"));
    EXPECT_FALSE(IsAnswerLine("答案"));
    EXPECT_TRUE(IsAnswerLine("答：是的"));
}

// Against the real texts: every lesson has answers in both languages, each answer line is one
// answer block, and with the answers hidden none of their text is left.
TEST(LessonTextAnswers, EveryLessonHasAnswersAndHiddenModeShowsNone) {
    for (const Lesson& lesson : Catalog().lessons()) {
        for (const std::string* text : {&lesson.text_en, &lesson.text_zh}) {
            const std::string where =
                std::string(lesson.id) + (text == &lesson.text_en ? " (en)" : " (zh)");
            size_t answer_lines = 0;
            size_t start = 0;
            while (start <= text->size()) {
                const size_t end = std::min(text->find('\n', start), text->size());
                const std::string line = text->substr(start, end - start);
                const size_t indent = line.find_first_not_of(' ');  // under its question
                answer_lines += indent != std::string::npos &&
                                IsAnswerLine(std::string_view(line).substr(indent));
                start = end + 1;
            }
            const Blocks blocks = ParseLessonText(*text);
            const auto answers =
                std::count_if(blocks.begin(), blocks.end(),
                              [](const TextBlock& b) { return b.kind == Kind::kAnswer; });
            EXPECT_GE(answers, 1) << where << " has no answer";
            EXPECT_EQ(static_cast<size_t>(answers), answer_lines) << where;
            for (const TextBlock& b : WithoutAnswers(blocks)) {
                if (b.kind == Kind::kAnswer) {
                    EXPECT_TRUE(b.text.empty()) << where;
                }
                EXPECT_EQ(b.text.find("Answer:"), std::string::npos) << where << ": " << b.text;
                EXPECT_EQ(b.text.find("\xE7\xAD\x94\xEF\xBC\x9A"), std::string::npos)
                    << where << ": " << b.text;
            }
        }
    }
}

TEST(LessonTextTitle, TheHeadingGivesTheTitle) {
    EXPECT_EQ(TitleFromText("# 第 3 课 — OpenMP 多线程\n\nText."), "OpenMP 多线程");
    EXPECT_EQ(TitleFromText("# Plain title\n"), "Plain title");
    EXPECT_EQ(TitleFromText("No heading."), "");
    EXPECT_EQ(TitleFromText("# 第 9 课 — Thrust `copy_if`"), "Thrust copy_if") << "markup removed";
    for (const Lesson& lesson : Catalog().lessons()) {
        const std::string zh = TitleFromText(lesson.text_zh);
        EXPECT_FALSE(zh.empty()) << lesson.id;
        EXPECT_EQ(zh.find("\xE7\xAC\xAC"), std::string::npos) << lesson.id << ": " << zh;  // 第
        EXPECT_EQ(zh.find('`'), std::string::npos) << lesson.id << ": " << zh;
    }
}

// --- Links between lessons (lessons/text_links.h) ---

namespace {

// Three chapters, numbered as the catalogue numbers them; "roofline" is both a chapter and a
// lesson of it.
Registry LinkRegistry() {
    Registry r;
    const auto chapter = [&](int number, const char* id) {
        Chapter c;
        c.number = number;
        c.id = id;
        r.AddChapter(c);
    };
    int ordinal = 0;
    const auto lesson = [&](const char* chapter_id, const char* slug, const char* label) {
        Lesson l;
        l.number = ++ordinal;
        l.chapter = chapter_id;
        l.id = std::string(chapter_id) + "/" + slug;
        l.label = label;
        l.was = 30 + ordinal;
        r.AddLesson(l);
    };
    chapter(1, "split");
    lesson("split", "naive-scan", "1.1");
    lesson("split", "openmp", "1.2");
    chapter(5, "gemm");
    lesson("gemm", "naive", "5.1");
    lesson("gemm", "double-buffering", "5.8");
    chapter(6, "roofline");
    lesson("roofline", "roofline", "6.1");
    return r;
}

const Lesson& LessonOf(const Registry& r, std::string_view id) {
    for (const Lesson& l : r.lessons())
        if (l.id == id) return l;
    throw std::logic_error("no lesson " + std::string(id));
}

RenderedText Render(std::string_view text, std::string_view from,
                    TextLanguage language = TextLanguage::kEnglish) {
    static const Registry registry = LinkRegistry();
    return RenderLessonText(text, LessonOf(registry, from), language, registry);
}

std::string Rendered(std::string_view text, std::string_view from,
                     TextLanguage language = TextLanguage::kEnglish) {
    const RenderedText r = Render(text, from, language);
    EXPECT_TRUE(r.broken.empty()) << text << ": " << r.broken.front();
    return r.text;
}

using Broken = std::vector<std::string>;

}  // namespace

TEST(LessonLinks, ALessonIdRendersItsLabelAndTheWordsAroundItStay) {
    EXPECT_EQ(Rendered("as lesson [[gemm/double-buffering]]'s tiles", "split/openmp"),
              "as lesson 5.8's tiles");
    EXPECT_EQ(
        Rendered("第 [[gemm/double-buffering]] 课的分块", "split/openmp", TextLanguage::kChinese),
        "第 5.8 课的分块");
    EXPECT_EQ(Rendered("[[split/naive-scan]]", "gemm/naive"), "1.1") << "a link alone";
    EXPECT_EQ(Rendered("lesson\n[[split/openmp]]).", "gemm/naive"), "lesson\n1.2).");
}

TEST(LessonLinks, ABareSlugIsALessonOfTheSameChapter) {
    EXPECT_EQ(Rendered("lessons [[naive]]–[[double-buffering]]", "gemm/naive"), "lessons 5.1–5.8");
    EXPECT_EQ(Rendered("第 [[openmp]]、[[naive-scan]] 课", "split/openmp", TextLanguage::kChinese),
              "第 1.2、1.1 课");
    EXPECT_EQ(Render("[[naive]]", "split/openmp").broken, (Broken{"[[naive]]"}))
        << "a bare slug never reaches into another chapter";
}

TEST(LessonLinks, AChapterIdRendersItsNumber) {
    EXPECT_EQ(Rendered("chapter [[gemm]] builds it", "split/naive-scan"), "chapter 5 builds it");
    EXPECT_EQ(Rendered("第 [[gemm]] 章", "split/naive-scan", TextLanguage::kChinese), "第 5 章");
    EXPECT_EQ(Rendered("[[roofline]]", "gemm/naive"), "6");
    EXPECT_EQ(Rendered("[[roofline]]", "roofline/roofline"), "6.1")
        << "in its own chapter a bare name is a lesson first";
    EXPECT_EQ(Rendered("[[roofline/roofline]] of chapter [[roofline]]", "gemm/naive"),
              "6.1 of chapter 6");
}

TEST(LessonLinks, ALinkThatNamesNothingStaysAndIsReported) {
    const RenderedText r = Render("a [[nothing]], [[gemm/nothing]] and [[]].", "gemm/naive");
    EXPECT_EQ(r.text, "a [[nothing]], [[gemm/nothing]] and [[]].");
    EXPECT_EQ(r.broken, (Broken{"[[nothing]]", "[[gemm/nothing]]", "[[]]"}));
    EXPECT_EQ(Render("[[39]] [[5.8]] [[gemm/39-double-buffering]] [[gemm/]]", "gemm/naive").broken,
              (Broken{"[[39]]", "[[5.8]]", "[[gemm/39-double-buffering]]", "[[gemm/]]"}))
        << "old numbers, labels and old ids are no links";
    const RenderedText unclosed = Render("see [[naive\n]] and [[naive]]", "gemm/naive");
    EXPECT_EQ(unclosed.text, "see [[naive\n]] and 5.1");
    EXPECT_EQ(unclosed.broken, (Broken{"[[naive"})) << "a link ends on its line";
}

TEST(LessonLinks, TheHeadingGetsTheLabelInEitherLanguage) {
    const std::string en =
        Rendered("# Double buffering (cp.async)\n\nAfter [[naive]].", "gemm/double-buffering");
    EXPECT_EQ(en, "# Lesson 5.8 — Double buffering (cp.async)\n\nAfter 5.1.");
    EXPECT_EQ(HeadingTitle(en), "Double buffering (cp.async)");
    const std::string zh =
        Rendered("# 双缓冲（cp.async）\n\n正文。", "gemm/double-buffering", TextLanguage::kChinese);
    EXPECT_EQ(zh, "# 第 5.8 课 — 双缓冲（cp.async）\n\n正文。");
    EXPECT_EQ(HeadingTitle(zh), "双缓冲（cp.async）");
    EXPECT_EQ(Rendered("# Title", "split/openmp"), "# Lesson 1.2 — Title");
}

TEST(LessonLinks, TextWithoutLinksOrHeadingIsUnchanged) {
    for (const std::string_view text :
         {std::string_view(""), std::string_view("Plain text, lesson five.\n"),
          std::string_view("a [single] bracket ]] and [x] and [ [y] ]"),
          std::string_view("## Not the heading\n#NoSpace")})
        EXPECT_EQ(Rendered(text, "gemm/naive"), text);
}

TEST(LessonLinks, RenderingTheRegistryReportsBrokenLinksAsProblems) {
    Registry r = LinkRegistry();
    r.mutable_lessons()[3].text_en = "# Double buffering\n\nAs [[naive]] and [[x]].";
    r.mutable_lessons()[3].text_zh = "# 双缓冲\n\n同 [[split/x]]。";
    RenderLessonLinks(r);
    const Lesson& l = LessonOf(r, "gemm/double-buffering");
    EXPECT_EQ(l.text_en, "# Lesson 5.8 — Double buffering\n\nAs 5.1 and [[x]].");
    EXPECT_EQ(l.text_zh, "# 第 5.8 课 — 双缓冲\n\n同 [[split/x]]。");
    const std::vector<std::string> problems = r.Validate();
    for (const std::string expected :
         {"lesson 5.8 (gemm/double-buffering): its English text links to [[x]], which is no "
          "lesson or chapter",
          "lesson 5.8 (gemm/double-buffering): its Chinese text links to [[split/x]], which is "
          "no lesson or chapter"})
        EXPECT_NE(std::find(problems.begin(), problems.end(), expected), problems.end())
            << expected;
}

// The catalogue's own texts, as written: none types a lesson's or a chapter's number (they
// link), and none numbers its heading.
TEST(LessonLinks, NoTextTypesALessonNumber) {
    const std::vector<std::pair<const char*, std::regex>> typed = {
        {"lesson N", std::regex(R"(\blessons?\s+\d)", std::regex::icase)},
        {"chapter N", std::regex(R"(\bchapters?\s+\d)", std::regex::icase)},
        {"第 N 课/章", std::regex(R"(第\s*\d+\s*(课|章))")},
        {"a number after a link",
         std::regex(R"(\]\]\s*(、|–|→|\band\b|\bor\b|\bto\b|到第|和)\s*\d)")},
        {"a number before a link",
         std::regex(R"(\b\d+\s*(,|、|–|→|\band\b|\bor\b|\bto\b|到第|和)\s*\[\[)")},
    };
    int texts = 0, chapter_texts = 0;
    for (const auto& [path, text] : EmbeddedFiles()) {
        if (path.rfind("lessons/", 0) != 0 || path.size() < 3 ||
            path.compare(path.size() - 3, 3, ".md") != 0 ||
            path.rfind("lessons/glossary.", 0) == 0)  // the glossary names no lesson
            continue;
        ++texts;
        // A chapter's heading (declare.h's NewChapter by id): "<folder>/chapter.en.md", ".zh.md".
        chapter_texts += path.ends_with("/chapter.en.md") || path.ends_with("/chapter.zh.md");
        const std::string body(text);
        for (const auto& [what, re] : typed) {
            std::smatch m;
            if (std::regex_search(body, m, re))
                ADD_FAILURE() << path << " types " << what << ": \""
                              << body.substr(m.position() > 20 ? m.position() - 20 : 0, 60)
                              << "\": link to the lesson ([[chapter/slug]], see text_links.h)";
        }
        const std::string heading = body.substr(0, body.find('\n'));
        EXPECT_TRUE(heading.rfind("# ", 0) == 0) << path << ": " << heading;
        EXPECT_EQ(heading.find("Lesson "), std::string::npos) << path << ": " << heading;
        EXPECT_EQ(heading.find("第"), std::string::npos) << path << ": " << heading;
    }
    // The lessons' texts, and their exercises' tasks (lessons/NN_<chapter>/exercises/<slug>.*.md),
    // besides the chapters' headings, two at most a chapter.
    EXPECT_EQ(texts - chapter_texts,
              2 * static_cast<int>(Catalog().lessons().size() + Exercises().size()));
    EXPECT_LE(chapter_texts, 2 * static_cast<int>(Catalog().chapters().size()));
}

TEST(LessonLinks, EveryLinkOfTheCatalogueResolves) {
    for (const std::string& p : CatalogProblems()) ADD_FAILURE() << p;
    for (const Lesson& l : Catalog().lessons()) {
        EXPECT_EQ(l.text_en.find("[["), std::string::npos) << l.id;
        EXPECT_EQ(l.text_zh.find("[["), std::string::npos) << l.id;
    }
}

TEST(LessonLinks, EveryRenderedHeadingCarriesItsLabel) {
    for (const Lesson& l : Catalog().lessons()) {
        EXPECT_EQ(l.text_en.rfind("# Lesson " + l.label + " — ", 0), 0u) << l.id;
        EXPECT_EQ(l.text_zh.rfind("# 第 " + l.label + " 课 — ", 0), 0u) << l.id;
        EXPECT_EQ(HeadingTitle(l.text_zh), l.title_zh) << l.id;
        EXPECT_FALSE(HeadingTitle(l.text_en).empty()) << l.id;
    }
}

// Presenter mode's sections: each opens at a paragraph with a bold lead-in; the heading alone is
// no section, an introduction before the first lead-in is one; bold text inside a paragraph
// does not cut it.
TEST(LessonText, SectionsOpenAtBoldLeadIns) {
    const std::string text =
        "# Lesson — Title\n\n**What changed.** One thing.\nStill **bold** inside.\n\n"
        "**Why.** Because.\n\n- a bullet\n\n**Questions for the class.**\n\n1. Why?\n"
        "Answer: so.\n";
    const std::vector<std::string> s = SplitSections(text);
    ASSERT_EQ(s.size(), 3u);
    EXPECT_EQ(s[0].rfind("**What changed.** One thing.", 0), 0u) << "the heading alone is dropped";
    EXPECT_NE(s[0].find("Still **bold** inside."), std::string::npos);
    EXPECT_EQ(s[1], "**Why.** Because.\n\n- a bullet\n\n");
    EXPECT_EQ(s[2].rfind("**Questions for the class.**", 0), 0u);
    EXPECT_NE(s[2].find("Answer: so."), std::string::npos);
    EXPECT_EQ(ParseLessonText(s[2]).back().kind, Kind::kAnswer);

    const std::vector<std::string> intro = SplitSections("# T\n\nAn introduction.\n\n**A.** a\n");
    ASSERT_EQ(intro.size(), 2u);
    EXPECT_NE(intro[0].find("An introduction."), std::string::npos);
    EXPECT_EQ(SplitSections("Plain text, no lead-in.\n").size(), 1u);
    EXPECT_TRUE(SplitSections("").empty());
    EXPECT_TRUE(SplitSections("# Only a heading\n\n").empty());
}

// Every lesson of the catalogue has sections in both languages, as many in each.
TEST(LessonText, EveryLessonHasAsManySectionsInBothLanguages) {
    for (const Lesson& l : Catalog().lessons()) {
        const LessonPage page_en = ParsePage(l.text_en), page_zh = ParsePage(l.text_zh);
        EXPECT_EQ(page_en.in_model, page_zh.in_model) << l.id;
        if (page_en.in_model) {  // the page model: the same parts, in the same order
            std::vector<PagePart> en, zh;
            for (const PageSection& s : page_en.sections) en.push_back(s.part);
            for (const PageSection& s : page_zh.sections) zh.push_back(s.part);
            EXPECT_EQ(en, zh) << l.id;
            continue;
        }
        const size_t en = SplitSections(l.text_en).size(), zh = SplitSections(l.text_zh).size();
        EXPECT_GE(en, 2u) << l.id;
        EXPECT_EQ(en, zh) << l.id;
    }
}

// "Hide answers" before a lesson's run hides its measured figures in the text: each section that
// opens "What we measured" (or the seed author's figures) keeps its lead-in and says why it is
// empty; every other block stays.
TEST(LessonText, MeasuredSectionsAreHiddenToTheirLeadIn) {
    const std::string text =
        "# L — T\n\n**What changed.** A change.\n\n**What we measured (H100).** 0.354 ms, 3030 "
        "GB/s.\n\n- 2.1 ms at 4096\n\n**Try this.** Run it.\nAnswer: 1.2 ms.\n";
    const std::vector<TextBlock> hidden = WithoutMeasured(ParseLessonText(text), "(hidden)");
    std::string all;
    for (const TextBlock& b : hidden) all += b.text + "|";
    EXPECT_EQ(all.find("0.354"), std::string::npos) << all;
    EXPECT_EQ(all.find("2.1 ms"), std::string::npos) << all;
    EXPECT_NE(all.find("What we measured (H100).|(hidden)|"), std::string::npos) << all;
    EXPECT_NE(all.find("A change."), std::string::npos);
    EXPECT_NE(all.find("1.2 ms."), std::string::npos) << "answers are not measured sections";
    EXPECT_EQ(hidden.back().kind, Kind::kAnswer) << "answers are hidden by their own rule";
    EXPECT_TRUE(IsMeasuredLeadIn("原作者的测量。"));
    EXPECT_TRUE(IsMeasuredLeadIn("我们的测量（H100，2026-11-22 记录）。"));
    EXPECT_TRUE(IsMeasuredLeadIn("On the H200 (recorded 2026-11-27)."));
    EXPECT_TRUE(IsMeasuredLeadIn("在 H200 上（2026-11-27 记录）。"));
    EXPECT_FALSE(IsMeasuredLeadIn("What changed."));
}

// Every lesson hides as many sections of measured figures in Chinese as in English, and the
// lessons with figures of their own have such a section.
TEST(LessonText, EveryLessonHidesItsMeasuredSectionsInBothLanguages) {
    auto measured = [](const std::string& text) {
        int n = 0;
        for (const TextBlock& b : ParseLessonText(text))
            n += b.kind == Kind::kLeadIn && IsMeasuredLeadIn(b.text);
        return n;
    };
    int lessons_with = 0;
    for (const Lesson& l : Catalog().lessons()) {
        const LessonPage page = ParsePage(l.text_en);
        if (page.in_model) {  // the page model: Evidence holds the measured figures
            lessons_with += page.Find(PagePart::kEvidence) != nullptr;
            EXPECT_EQ(page.Find(PagePart::kEvidence) != nullptr,
                      ParsePage(l.text_zh).Find(PagePart::kEvidence) != nullptr)
                << l.id;
            continue;
        }
        EXPECT_EQ(measured(l.text_en), measured(l.text_zh)) << l.id;
        lessons_with += measured(l.text_en) > 0;
    }
    EXPECT_GE(lessons_with, 40);
}

// The Chinese texts name the data kinds as the page's data list does (密集, 随机, 无) outside
// code (`data=dense` stays as typed on the command line), call the seed's author 原作者 (never
// 种子作者, opaque to a Chinese reader), and put no space between two Chinese words around an
// emphasis that markup removes ("*密集* 数据" read "密集 数据").
TEST(LessonText, ChineseTextsUseTheChineseTermsOfThePage) {
    const std::regex code("`[^`]*`");
    const std::regex reference(R"(\{\{[^}]*\}\})");
    const std::regex english_kind("\\b(dense|random)\\b");
    const std::regex spaced_emphasis("\\*(密集|随机|无)\\* [^ -~]|[^ -~] \\*(密集|随机|无)\\*");
    for (const Lesson& l : Catalog().lessons()) {
        // References ({{ms data=dense}}) are code too: their settings are typed as on the
        // command line.
        const std::string prose =
            std::regex_replace(std::regex_replace(l.text_zh, code, ""), reference, "");
        EXPECT_FALSE(std::regex_search(prose, english_kind)) << l.id;
        EXPECT_EQ(prose.find("种子"), std::string::npos) << l.id;
        EXPECT_FALSE(std::regex_search(prose, spaced_emphasis)) << l.id;
        EXPECT_EQ(l.seed.text_zh.find("种子"), std::string::npos) << l.id;
    }
}
