#include "registry.h"

#include <algorithm>
#include <map>
#include <set>

#include "errors.h"

namespace lessons {
namespace {

bool IsNumber(std::string_view s) {
    return !s.empty() && s.size() < 9 &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

void Registry::AddChapter(Chapter chapter) {
    RegisterMessageForms(chapter.messages);
    m_chapters.push_back(std::move(chapter));
    std::stable_sort(m_chapters.begin(), m_chapters.end(),
                     [](const Chapter& a, const Chapter& b) { return a.number < b.number; });
}

void Registry::AddLesson(Lesson lesson) {
    for (const Chapter& c : m_chapters)
        if (c.id == lesson.chapter)
            for (const ParamSpec& p : c.params)
                if (!lesson.FindParam(p.name)) lesson.params.push_back(p);
    m_lessons.push_back(std::move(lesson));
    std::stable_sort(m_lessons.begin(), m_lessons.end(),
                     [](const Lesson& a, const Lesson& b) { return a.number < b.number; });
}

std::vector<std::string> Registry::Validate(bool require_runners) const {
    std::vector<std::string> problems = m_problems;
    std::set<int> chapter_numbers;
    std::set<std::string> chapter_ids;
    for (const Chapter& c : m_chapters) {
        const std::string name = "chapter " + std::to_string(c.number) + " (" + c.id + ")";
        if (c.number <= 0) problems.push_back(name + ": number must be positive");
        if (!chapter_numbers.insert(c.number).second)
            problems.push_back(name + ": number " + std::to_string(c.number) + " is used twice");
        if (c.id.empty()) problems.push_back(name + ": empty id");
        if (!chapter_ids.insert(c.id).second) problems.push_back(name + ": id is used twice");
        if (c.title.empty() || c.title_zh.empty())
            problems.push_back(name + ": needs a title in both languages");
        if (!c.make_workload) problems.push_back(name + ": no workload generator");
        if (!c.workload_host_bytes) problems.push_back(name + ": no workload memory estimate");
        if (!c.describe) problems.push_back(name + ": no description of its data");
        if (c.accepts_input_file && !c.params_of_file)
            problems.push_back(name + ": takes an input file but cannot describe one");
    }

    std::map<int, const Lesson*> by_number;
    std::set<std::string> ids, labels;
    std::set<int> old_numbers;
    for (const Lesson& l : m_lessons) {
        const std::string name = l.Name();
        if (l.number <= 0) problems.push_back(name + ": number must be positive");
        if (!by_number.emplace(l.number, &l).second)
            problems.push_back(name + ": number " + std::to_string(l.number) + " is used twice");
        if (l.id.empty()) problems.push_back(name + ": empty id");
        if (!l.label.empty() && !labels.insert(l.label).second)
            problems.push_back(name + ": label '" + l.label + "' is used twice");
        if (l.was != 0 && !old_numbers.insert(l.was).second)
            problems.push_back(name + ": old number " + std::to_string(l.was) + " is used twice");
        if (!ids.insert(l.id).second)
            problems.push_back(name + ": id '" + l.id + "' is used twice");
        if (!chapter_ids.count(l.chapter))
            problems.push_back(name + ": chapter '" + l.chapter + "' does not exist");
        else if (l.id.rfind(l.chapter + "/", 0) != 0)
            problems.push_back(name + ": id must start with its chapter, '" + l.chapter + "/'");
        if (l.title.empty()) problems.push_back(name + ": no title");
        if (l.title_zh.empty())
            problems.push_back(name +
                               ": no Chinese title (the first line of its Chinese text, "
                               "\"# 标题\")");
        if (l.text_en.empty()) problems.push_back(name + ": no English text");
        if (l.text_zh.empty()) problems.push_back(name + ": no Chinese text");
        if (l.source.empty())
            problems.push_back(name + ": source '" + l.source_path + "' not found");
        if (!l.needs) problems.push_back(name + ": no memory estimate");
        std::set<std::string> param_names;
        for (const ParamSpec& p : l.params) {
            if (p.name.empty() || !param_names.insert(p.name).second)
                problems.push_back(name + ": parameter '" + p.name +
                                   "' is empty or declared twice");
            if (p.label_en.empty() || p.label_zh.empty())
                problems.push_back(name + ": parameter '" + p.name +
                                   "' needs labels in both languages");
            if (p.choice_notes.size() != p.choice_notes_zh.size() ||
                (!p.choice_notes.empty() && p.choice_notes.size() != p.choices.size()))
                problems.push_back(name + ": parameter '" + p.name +
                                   "' needs a note per choice in both languages, or none");
            if (!p.choice_labels_zh.empty() && p.choice_labels_zh.size() != p.choices.size())
                problems.push_back(name + ": parameter '" + p.name +
                                   "' needs a Chinese label per choice, or none");
            if (p.type == ParamType::kChoice && p.choices.empty())
                problems.push_back(name + ": parameter '" + p.name + "' has no choices");
            if (p.type != ParamType::kChoice && p.min > p.max)
                problems.push_back(name + ": parameter '" + p.name + "' has an empty range");
            const std::string why_not = p.Reject(p.Default());
            if (!why_not.empty())
                problems.push_back(name + ": the default of '" + p.name +
                                   "' is refused: " + why_not);
        }
        // A parameter that sets the launch's shape: a block size, or a configuration that
        // fixes the block.
        const bool has_block = std::any_of(l.params.begin(), l.params.end(),
                                           [](const ParamSpec& p) { return p.launch_shape; });
        if (l.kind == StepKind::kGpu) {
            if (!has_block && !l.library)
                problems.push_back(name + ": a GPU lesson must declare its block sizes");
            else if (has_block && l.library)
                problems.push_back(name + ": a library step has no block size to declare");
            if (!l.library && l.focus.empty())
                problems.push_back(name +
                                   ": a GPU step with kernels of its own must name the instruction "
                                   "classes it is about (its row's .focus)");
            if (require_runners && !l.runner.make)
                problems.push_back(name + ": the GPU library has no runner for it");
        } else if (!l.runner.make) {
            problems.push_back(name + ": a CPU lesson must have a runner");
        }
    }
    for (const Lesson& l : m_lessons) {
        if (l.previous == 0) continue;
        auto it = by_number.find(l.previous);
        if (it == by_number.end())
            problems.push_back(l.Name() + ": previous lesson " + std::to_string(l.previous) +
                               " does not exist");
        else if (it->second->chapter != l.chapter)
            problems.push_back(l.Name() + ": previous lesson " + std::to_string(l.previous) +
                               " is in another chapter");
        else if (l.previous >= l.number)
            problems.push_back(l.Name() + ": previous lesson " + std::to_string(l.previous) +
                               " must come before it");
    }
    return problems;
}

const Lesson* Registry::FindLesson(int number) const {
    for (const Lesson& l : m_lessons)
        if (l.number == number) return &l;
    return nullptr;
}

const Lesson* Registry::FindLesson(std::string_view name) const {
    const bool old_number = IsNumber(name);
    const int was = old_number ? std::stoi(std::string(name)) : 0;
    for (const Lesson& l : m_lessons)
        if (old_number ? (was != 0 && l.was == was) : (l.label == name || l.id == name)) return &l;
    if (old_number) return nullptr;
    for (const Lesson& l : m_lessons)
        if (l.was != 0 && l.OldId() == name) return &l;
    return nullptr;
}

const Chapter* Registry::FindChapter(std::string_view number_or_id) const {
    const bool numeric = IsNumber(number_or_id);
    for (const Chapter& c : m_chapters) {
        if (numeric ? c.number == std::stoi(std::string(number_or_id)) : c.id == number_or_id)
            return &c;
    }
    return nullptr;
}

const Chapter& Registry::ChapterOf(const Lesson& lesson) const {
    for (const Chapter& c : m_chapters)
        if (c.id == lesson.chapter) return c;
    throw UsageError(lesson.Name() + " names a chapter that does not exist: " + lesson.chapter);
}

std::vector<const Lesson*> Registry::LessonsOf(const Chapter& chapter) const {
    std::vector<const Lesson*> out;
    for (const Lesson& l : m_lessons)
        if (l.chapter == chapter.id) out.push_back(&l);
    return out;
}

}  // namespace lessons
