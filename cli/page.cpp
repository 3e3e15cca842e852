// cuda-lessons-cli page: a lesson page with its figures resolved from the recordings of a
// reference GPU (for review and tests), or a chapter at a glance.
#include <iostream>

#include "catalog.h"
#include "commands.h"
#include "errors.h"
#include "files.h"
#include "glossary.h"
#include "page.h"
#include "recordings.h"
#include "report.h"
#include "text_links.h"
#include "units.h"

namespace lessons::cli {
namespace {

TextLanguage LanguageOf(const std::string& lang) {
    if (lang.empty() || lang == "en") return TextLanguage::kEnglish;
    if (lang == "zh") return TextLanguage::kChinese;
    throw UsageError("--lang takes en or zh, not '" + lang.substr(0, 40) + "'");
}

struct Data {
    std::vector<RunResult> recorded;
    PageData page;
};

// The recordings of `gpu` (empty: the project's reference GPU), checked to exist.
void Load(const std::string& gpu, Data* data) {
    std::string problems;
    data->recorded = LoadRecordedResults(&problems);
    if (!problems.empty()) std::cerr << "note: " << problems << "\n";
    data->page.registry = &RunnableCatalog();
    data->page.gpu = gpu.empty() ? std::string(kReferenceGpu) : gpu;
    bool any = false;
    for (const RunResult& r : RecordedCpuResults()) data->page.recorded.push_back(&r);
    for (const RunResult& r : data->recorded) {
        data->page.recorded.push_back(&r);
        any = any || r.Device() == data->page.gpu;
    }
    if (!any) {
        std::string known;
        for (const RunResult& r : data->recorded)
            if (known.find(r.Device()) == std::string::npos)
                known += (known.empty() ? "" : ", ") + r.Device();
        throw UsageError("no results are recorded on '" + gpu.substr(0, 60) +
                         "'; recorded on: " + known);
    }
}

// A draft of a lesson's text read from `path` (a regular file of at most 1 MiB, UTF-8), with its
// heading numbered and its links rendered as the catalogue renders the embedded texts.
std::string DraftText(const std::string& path, const Lesson& lesson, TextLanguage language,
                      std::vector<std::string>* problems) {
    constexpr uint64_t kMaxDraft = 1 << 20;
    const uint64_t size = RegularFileSize(path);
    if (size > kMaxDraft)
        throw UsageError("--text: '" + Excerpt(path) + "' is " + std::to_string(size) +
                         " bytes; a lesson text is at most 1 MiB");
    std::string raw(size, '\0');
    ReadRegularFile(path, raw.data(), size);
    if (raw.find('\0') != std::string::npos)
        throw UsageError("--text: '" + Excerpt(path) + "' is not a text file (it holds NUL bytes)");
    const RenderedText rendered = RenderLessonText(raw, lesson, language, RunnableCatalog());
    for (const std::string& b : rendered.broken)
        problems->push_back("the link " + b + " names no lesson or chapter");
    return rendered.text;
}

}  // namespace

int PrintPage(const std::string& name, const std::string& lang, const std::string& gpu, bool glance,
              Format format, const std::string& text_file) {
    const TextLanguage language = LanguageOf(lang);
    if (glance && !text_file.empty()) throw UsageError("--text shows one page, not --glance");
    Data data;
    Load(gpu, &data);
    const Registry& registry = RunnableCatalog();
    if (glance) {
        const Chapter* chapter = registry.FindChapter(name);
        if (!chapter) {
            const Lesson& lesson = FindLessonOrThrow(name);
            chapter = &registry.ChapterOf(lesson);
        }
        const auto rows = ChapterAtAGlance(*chapter, data.page, language);
        if (format == Format::kJson) {
            Json out = Json::array();
            for (const GlanceRow& r : rows)
                out.push_back({{"lesson", r.label},
                               {"idea", r.title},
                               {"time", r.time},
                               {"x_previous", r.speedup},
                               {"pct_of_bound", r.pct},
                               {"x_library", r.vs_library}});
            std::cout << out.dump(1) << "\n";
        } else {
            std::cout << GlanceMarkdown(*chapter, rows, language);
        }
        return kExitOk;
    }
    const Lesson& lesson = FindLessonOrThrow(name);
    std::vector<std::string> link_problems;
    const std::string text = !text_file.empty()
                                 ? DraftText(text_file, lesson, language, &link_problems)
                             : language == TextLanguage::kChinese ? lesson.text_zh
                                                                  : lesson.text_en;
    const ResolvedPage page = ResolvePage(text, lesson, data.page, language);
    const LessonPage parsed = ParsePage(text);
    // A page in the model is held to all of docs/pages.md; an older text to its parse only.
    std::vector<std::string> problems =
        parsed.in_model || !text_file.empty() ? PageProblems(text, language) : parsed.problems;
    problems.insert(problems.end(), link_problems.begin(), link_problems.end());
    if (format == Format::kJson) {
        Json sections = Json::array();
        for (const PageSection& s : page.sections)
            sections.push_back({{"part", s.part == PagePart::kIntro ? "Core" : PartKeyword(s.part)},
                                {"folded", IsFolded(s.part)},
                                {"text", s.text}});
        Json out = {{"lesson", lesson.label},
                    {"id", lesson.id},
                    {"title", page.title},
                    {"in_model", parsed.in_model},
                    {"core_length", CoreLength(parsed, language)},
                    {"sections", sections},
                    {"footer", page.footer},
                    {"files", page.files},
                    {"unresolved", page.unresolved},
                    {"problems", problems}};
        std::cout << out.dump(1) << "\n";
    } else {
        std::cout << "# " << page.title << "\n";
        for (const PageSection& s : page.sections) {
            if (s.part != PagePart::kIntro)
                std::cout << "\n## " << PartHeading(s.part, language)
                          << (IsFolded(s.part)
                                  ? (language == TextLanguage::kChinese ? "（折叠）" : " (folded)")
                                  : "")
                          << "\n";
            if (s.part == PagePart::kPrediction && parsed.in_model) {
                const std::string row = ResultRow(lesson, data.page, language);  // generated
                if (!row.empty())
                    std::cout << s.text << "\n[" << row << "]\n";
                else
                    std::cout << s.text;
                continue;
            }
            std::cout << s.text;
        }
        std::cout << "\n---\n" << page.footer << "\n";
        for (const std::string& f : page.files) std::cout << "  " << f << "\n";
    }
    for (const std::string& u : page.unresolved) std::cerr << "unresolved: " << u << "\n";
    for (const std::string& p : problems) std::cerr << "problem: " << p << "\n";
    return page.unresolved.empty() && problems.empty() ? kExitOk : kExitFailed;
}

}  // namespace lessons::cli
