// A lesson page in the page model (docs/pages.md): a title that names the idea, a short core
// that is always shown, folded sections (evidence, background, another GPU), and figures that
// are references to recorded or live results, resolved when the page is drawn. Headless: the
// GUI draws what this gives, and `cuda-lessons-cli page` prints it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "registry.h"
#include "result.h"
#include "text_links.h"

namespace lessons {

// The parts of a page, in their order. kIntro is the core's opening (the idea), before any
// section heading.
enum class PagePart {
    kIntro,
    kChange,
    kPrediction,
    kWhy,
    kTryThis,
    kQuestions,
    kEvidence,
    kBackground,
    kOtherGpu,
};
// The heading a text writes ("Try this"; the same in both languages), and the one shown.
const char* PartKeyword(PagePart part);
const char* PartHeading(PagePart part, TextLanguage language);
// Evidence, background and another GPU are folded (closed until clicked).
bool IsFolded(PagePart part);

struct PageSection {
    PagePart part = PagePart::kIntro;
    std::string text;  // the section's Markdown, without its heading
};

struct LessonPage {
    std::string title;  // the "# " heading's text
    std::vector<PageSection> sections;
    bool in_model = false;  // the text declares sections (else it is one intro: an older text)
    std::vector<std::string> problems;  // an unknown heading, a part twice or out of order
    const PageSection* Find(PagePart part) const;
};

LessonPage ParsePage(std::string_view text);

// The core's words (English: words; Chinese: characters, Latin words counted as one): the intro
// and every core section, answers to questions left out.
int CoreLength(const LessonPage& page, TextLanguage language);

// --- References ---------------------------------------------------------------------------

// {{quantity args...}} as written (docs/pages.md).
struct PageRef {
    std::string quantity;  // ms, us, gbps, gflops, tflops, pct, ceiling, speedup, spread, part,
                           // value, attr, counter, sass, given
    std::string step;      // "@slug" or "@chapter/slug" without the @; empty: the page's step
    std::string vs;        // speedup's other step; empty: the previous step
    std::string subject;  // the bare word: a counter, an instruction, a part, a value, an attribute
    std::vector<std::pair<std::string, std::string>> settings;  // name=value, as written
    std::string given_text, given_source;                       // {{given TEXT | SOURCE}}
    int kernel = -1;                                            // counter: kernel=N
    std::string on;  // on=TEXT: the recordings of the GPU whose name holds TEXT ("H100"), not
                     // the page's (for "On another GPU")
};
// Parses what stands between "{{" and "}}"; nullopt with `error` when it is not a reference.
std::optional<PageRef> ParseRef(std::string_view inside, std::string* error);

// Where a page's figures come from: the recordings of one GPU, the live results of this machine,
// the recorded counters of that GPU and the SASS of this build.
struct PageData {
    const Registry* registry = nullptr;
    std::string gpu;                         // whose recordings ("NVIDIA H200")
    std::vector<const RunResult*> recorded;  // every recorded result (other GPUs are skipped)
    std::vector<const RunResult*> live;      // results measured here (yours)
    // The page's settings (the GUI's controls; the CLI: the defaults). Empty: the defaults.
    ParamValues settings;
};

// One resolved reference.
struct RefValue {
    bool ok = false;
    std::string text;        // "0.506 ms"; when !ok, why
    std::string yours;       // the live figure at the same settings, when this machine has one
    std::string provenance;  // "NVIDIA H200, 2026-11-27T12:06:44Z" (results and counters)
    std::string file;        // the embedded file it was read from
};
RefValue ResolveRef(const PageRef& ref, const Lesson& page_lesson, const PageData& data,
                    TextLanguage language);

// The result row a page shows after its prediction, each part named so that it reads alone:
// "0.067 ms · 1.05× lesson 4.2 · 88.1% of the read-only bandwidth (4567 GB/s)". Parts with no
// figure are left out; this machine's figures follow where it has them. Empty: nothing
// recorded.
std::string ResultRow(const Lesson& lesson, const PageData& data, TextLanguage language);
// A GPU step timed below its highest SM clock (RunResult::sm_clock_mhz, more than 3% under
// sm_clock_max_mhz): the clock it ran at and what held it there ("timed at 1770 of 1980 MHz,
// held by the power cap"); empty otherwise.
std::string ClockNote(const RunResult& r, TextLanguage language);
// The sentence that says a live CPU result did not have its cores to itself: other programs kept
// so many of the machine's `cores` busy (RunResult::other_cores_busy) that fewer were free than
// the step's threads; "" when it had them (half a core of slack), or for a GPU step.
std::string SharedCoresNote(const RunResult& r, int cores, TextLanguage language);

// A page with every reference replaced and its links numbered.
struct ResolvedPage {
    std::string title;
    std::vector<PageSection> sections;
    std::vector<std::string> unresolved;  // "{{ms @x}}: no recording of ..."
    std::vector<std::string> sources;     // provenance lines, one per recording read
    std::vector<std::string> files;       // the files they are in
    std::string footer;                   // generated: "Figures: NVIDIA H200, recorded ..."
};
// `text` is the lesson's text in `language` (its links already rendered, as Lesson::text_en).
ResolvedPage ResolvePage(std::string_view text, const Lesson& lesson, const PageData& data,
                         TextLanguage language);

// What keeps a text from being a page in the model (docs/pages.md), each in a line: it
// declares no sections, a parse problem, a core over its length (300 English words, 700
// Chinese characters), a typed figure, a date or a clock time in the prose.
std::vector<std::string> PageProblems(std::string_view text, TextLanguage language);
inline constexpr int kCoreWordsEnglish = 300;
inline constexpr int kCoreCharactersChinese = 700;

// A typed measured figure outside a reference: a number followed by a unit of measure
// (ms, µs, us, ns, GB/s, TB/s, GFLOP/s, TFLOP/s, %, ×, x, "times", 倍). Each, as found.
std::vector<std::string> TypedFigures(std::string_view text);

// Every reference of a text, as written ("{{ms @v3}}"), with where it is not one.
std::vector<std::string> RefsOf(std::string_view text);

// The chapter at a glance: one row per step with its idea (title), time, x previous, % of its
// bound and x the chapter's library step, read from `data`.
struct GlanceRow {
    std::string label, title, time, speedup, pct, vs_library;
};
std::vector<GlanceRow> ChapterAtAGlance(const Chapter& chapter, const PageData& data,
                                        TextLanguage language);
// The same as Markdown (a table with a header), for export.
std::string GlanceMarkdown(const Chapter& chapter, const std::vector<GlanceRow>& rows,
                           TextLanguage language);

// Formats a figure as pages show it: three significant figures, times below 1 ms with three
// decimals, rates at or above 1000 whole.
std::string FormatFigure(double value);

}  // namespace lessons
