// The one list of chapters and lessons. Chapters declare themselves in lessons/; the
// programs ask the registry for everything they show.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lesson.h"

namespace lessons {

class Registry {
public:
    void AddChapter(Chapter chapter);
    // The lesson's chapter must be added first: its parameters are appended to the lesson's.
    void AddLesson(Lesson lesson);
    // A problem found while declaring (a row naming a previous lesson that is not there),
    // reported by Validate().
    void AddProblem(std::string problem) { m_problems.push_back(std::move(problem)); }
    // Where this build can run GPU steps: the lessons, to attach their runners.
    std::vector<Lesson>& mutable_lessons() { return m_lessons; }

    // Every problem found, one message each: duplicate ids or numbers, a previous lesson that
    // does not exist or is not earlier in the same chapter, missing texts or source, a GPU
    // lesson without a block size, a default a parameter does not accept... Empty when the
    // registry is sound. With `require_runners`, a GPU lesson without a runner is a problem too.
    std::vector<std::string> Validate(bool require_runners = false) const;

    // Sorted by number.
    const std::vector<Chapter>& chapters() const { return m_chapters; }
    const std::vector<Lesson>& lessons() const { return m_lessons; }

    // As a person or a script names a lesson: its label ("5.8"), its id
    // ("gemm/double-buffering"), or, as scripts and recorded results written before chapters
    // numbered their own lessons do, its old global number ("39") or old id
    // ("reduce/23-v3-unrolled-last-warp"); nullptr when none matches.
    const Lesson* FindLesson(std::string_view name) const;
    // By its position in the catalogue (Lesson::number); nullptr when out of range.
    const Lesson* FindLesson(int number) const;
    // By number ("1") or id ("split").
    const Chapter* FindChapter(std::string_view number_or_id) const;
    const Chapter& ChapterOf(const Lesson& lesson) const;  // throws UsageError if missing
    std::vector<const Lesson*> LessonsOf(const Chapter& chapter) const;

private:
    std::vector<Chapter> m_chapters;
    std::vector<Lesson> m_lessons;
    std::vector<std::string> m_problems;
};

}  // namespace lessons
