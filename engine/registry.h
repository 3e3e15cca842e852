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
    void AddLesson(Lesson lesson);

    // Every problem found, one message each: duplicate ids or numbers, a previous lesson that
    // does not exist or is not earlier in the same chapter, missing texts or source, a GPU
    // lesson without block sizes... Empty when the registry is sound.
    std::vector<std::string> Validate() const;

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
