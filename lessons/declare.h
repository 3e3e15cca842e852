// A chapter's lessons as a table: one row per lesson. Texts are found in the embedded files
// as "<folder>/<slug>.en.md" and "<folder>/<slug>.zh.md", the step's source at `source`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lesson.h"
#include "registry.h"
#include "resources.h"

namespace lessons {

struct LessonRow {
    int number;
    const char* slug;  // "04-one-thread-per-pair": the id is "<chapter>/<slug>"
    const char* title;
    StepKind kind;
    int previous;                   // 0 for a chapter's first lesson
    const char* source;             // the step's file, relative to the repository root
    std::vector<ParamSpec> params;  // the lesson's own (block, threads, ...); the chapter adds its
    std::function<MemoryNeeds(const ParamValues&)> needs;
    StepFactory cpu_step = nullptr;  // CPU steps; GPU steps are attached by the GPU library
    bool library = false;            // a library call (CUB, Thrust, cuBLAS)
    WorkFn work = nullptr;           // the step's own work rule; null: the chapter's
    InFlightFn in_flight = nullptr;  // bytes one thread has in flight (GPU steps), for Little's law
    SeedFigure seed = {};            // the seed author's figure for this step, quoted as theirs
};

// Bytes in flight per thread that do not depend on the parameters.
inline InFlightFn InFlight(uint64_t bytes) {
    return [bytes](const ParamValues&) { return bytes; };
}

// The title in a text's first line, "# Lesson 4 — Title": what follows the dash, without
// markdown code marks ("Thrust `copy_if`" gives "Thrust copy_if"); empty when there is none.
inline std::string HeadingTitle(std::string_view text) {
    const std::string_view line = text.substr(0, text.find('\n'));
    const std::string_view dash = "— ";
    const size_t at = line.find(dash);
    if (line.rfind("# ", 0) != 0 || at == std::string_view::npos) return {};
    std::string title;
    for (char c : line.substr(at + dash.size()))
        if (c != '`') title += c;
    return title;
}

// Adds the chapter, then each row as a lesson of it.
inline void AddChapter(Registry& registry, Chapter chapter, const std::string& folder,
                       const std::vector<LessonRow>& rows) {
    const std::string id = chapter.id;
    registry.AddChapter(std::move(chapter));
    for (const LessonRow& row : rows) {
        Lesson l;
        l.number = row.number;
        l.id = id + "/" + row.slug;
        l.chapter = id;
        l.title = row.title;
        l.kind = row.kind;
        l.library = row.library;
        l.previous = row.previous;
        l.source_path = row.source;
        l.source = EmbeddedFile(row.source);
        l.text_en = EmbeddedFile(folder + "/" + row.slug + ".en.md");
        l.text_zh = EmbeddedFile(folder + "/" + row.slug + ".zh.md");
        l.title_zh = HeadingTitle(l.text_zh);
        l.params = row.params;
        l.needs = row.needs;
        l.runner.make = row.cpu_step;
        l.work = row.work;
        l.in_flight = row.in_flight;
        l.seed = row.seed;
        registry.AddLesson(std::move(l));
    }
}

}  // namespace lessons
