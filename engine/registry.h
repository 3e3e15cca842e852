// The one list of chapters and lessons. Chapters declare themselves in lessons/; the
// programs ask the registry for everything they show.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lesson.h"

namespace lessons {

class Registry {
public:
    void AddChapter(Chapter chapter);
    // The lesson's chapter must be added first: its parameters are appended to the lesson's.
    void AddLesson(Lesson lesson);
    // Attaches the runners a GPU library provides, by lesson id. Returns the ids that match
    // no lesson (a runner without a lesson is a mistake the caller reports).
    std::vector<std::string> AttachRunners(
        const std::vector<std::pair<std::string, StepRunner>>& runners);

    // Every problem found, one message each: duplicate ids or numbers, a previous lesson that
    // does not exist or is not earlier in the same chapter, missing texts or source, a GPU
    // lesson without a block size, a default a parameter does not accept... Empty when the
    // registry is sound. With `require_runners`, a GPU lesson without a runner is a problem too.
    std::vector<std::string> Validate(bool require_runners = false) const;

    // Sorted by number.
    const std::vector<Chapter>& chapters() const { return m_chapters; }
    const std::vector<Lesson>& lessons() const { return m_lessons; }

    // By number ("4") or id ("split/04-one-thread-per-pair"); nullptr when unknown.
    const Lesson* FindLesson(std::string_view number_or_id) const;
    const Lesson* FindLesson(int number) const;
    // By number ("1") or id ("split").
    const Chapter* FindChapter(std::string_view number_or_id) const;
    const Chapter& ChapterOf(const Lesson& lesson) const;  // throws UsageError if missing
    std::vector<const Lesson*> LessonsOf(const Chapter& chapter) const;

private:
    std::vector<Chapter> m_chapters;
    std::vector<Lesson> m_lessons;
};

}  // namespace lessons
