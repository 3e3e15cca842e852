// The common part of a lesson declaration: identity, texts and source, looked up in the
// embedded files. Each chapter's lessons.cpp fills in the rest (runner, block sizes, ...).
#pragma once

#include <string>

#include "lesson.h"
#include "resources.h"

namespace lessons {

struct LessonHeader {
    int number;
    const char* slug;  // "04-one-thread-per-pair": the id is "<chapter>/<slug>"
    const char* title;
    StepKind kind;
    int previous;        // 0 for a chapter's first lesson
    const char* source;  // the step's file, relative to the repository root
};

// Texts are "<folder>/<slug>.en.md" and "<folder>/<slug>.zh.md".
inline Lesson DeclareLesson(const std::string& chapter, const std::string& folder,
                            const LessonHeader& h) {
    Lesson l;
    l.number = h.number;
    l.id = chapter + "/" + h.slug;
    l.chapter = chapter;
    l.title = h.title;
    l.kind = h.kind;
    l.previous = h.previous;
    l.source_path = h.source;
    l.source = EmbeddedFile(h.source);
    l.text_en = EmbeddedFile(folder + "/" + h.slug + ".en.md");
    l.text_zh = EmbeddedFile(folder + "/" + h.slug + ".zh.md");
    return l;
}

}  // namespace lessons

#if LESSONS_HAVE_CUDA
#define LESSONS_GPU(fn) (fn)
#else
#define LESSONS_GPU(fn) (nullptr)
#endif
