#include "exercise.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <string>

#include "resources.h"

namespace lessons {

const std::vector<Exercise>& Exercises() {
    static const std::vector<Exercise> all = [] {
        std::vector<Exercise> out;
        for (auto chapter : {&SplitExercises, &GemvExercises})
            for (Exercise& e : chapter()) out.push_back(std::move(e));
        return out;
    }();
    return all;
}

const Exercise* FindExercise(std::string_view lesson_id) {
    for (const Exercise& e : Exercises())
        if (e.lesson == lesson_id) return &e;
    return nullptr;
}

std::string_view StartingFile(const Exercise& exercise) {
    return EmbeddedFile(exercise.start);
}

std::string SolutionOf(const Lesson& lesson) {
    const std::string_view source = lesson.source;
    std::string out;
    bool found = false;
    bool in_host_function = false, previous_template = false;
    size_t start = 0;
    while (start < source.size()) {
        size_t end = source.find('\n', start);
        if (end == std::string_view::npos) end = source.size();
        const std::string_view line = source.substr(start, end - start);
        start = end + 1;
        if (line == "namespace {") {
            found = true;
            break;
        }
        if (line.rfind("#include \"", 0) == 0 || line.rfind("namespace lessons", 0) == 0) continue;
        // A host function at file scope (the vectorized step's Gemv30LanesPerRow): left out,
        // up to its closing brace at column 0.
        if (in_host_function) {
            in_host_function = line != "}";
            continue;
        }
        const bool starts_definition =
            !line.empty() && (std::isalpha(static_cast<unsigned char>(line[0])) != 0) &&
            line.find('(') != std::string_view::npos && line.ends_with("{") &&
            line.find("__global__") == std::string_view::npos &&
            line.find("__device__") == std::string_view::npos && !previous_template;
        previous_template = line.rfind("template", 0) == 0;
        if (starts_definition) {
            in_host_function = true;
            continue;
        }
        // One blank line at most between parts, none at the start.
        if (line.empty() && (out.empty() || out.ends_with("\n\n"))) continue;
        out.append(line).push_back('\n');
    }
    while (out.ends_with("\n\n")) out.pop_back();
    if (!found || out.find("__global__") == std::string::npos)
        throw std::logic_error("'" + lesson.source_path +
                               "' has no device code before an anonymous namespace (the launch), "
                               "so its kernel cannot be shown as an exercise's solution");
    return out;
}

std::vector<std::string> ExerciseProblems(const Registry& registry) {
    std::vector<std::string> problems;
    for (const Exercise& e : Exercises()) {
        const std::string who = "exercise '" + e.lesson + "'";
        const Lesson* lesson = registry.FindLesson(e.lesson);
        if (!lesson) {
            problems.push_back(who + " names no lesson");
            continue;
        }
        if (lesson->kind != StepKind::kGpu || lesson->library)
            problems.push_back(who + ": " + lesson->Name() +
                               " is not a hand-written GPU step, so there is no kernel to write");
        if (std::count_if(Exercises().begin(), Exercises().end(),
                          [&](const Exercise& o) { return o.lesson == e.lesson; }) > 1)
            problems.push_back(who + " is declared more than once");
        if (StartingFile(e).empty())
            problems.push_back(who + ": its starting file '" + e.start + "' is not embedded");
        if (e.kernel.kernel.empty() || e.kernel.signature.empty())
            problems.push_back(who + " names no kernel or no signature");
        if (e.task_en.empty() || e.task_zh.empty())
            problems.push_back(who + ": its task is missing in a language");
        if (e.hints.size() < 2 || e.hints.size() > 3)
            problems.push_back(who + " has " + std::to_string(e.hints.size()) +
                               " hints; give two or three");
        for (const ExerciseHint& h : e.hints)
            if (h.en.empty() || h.zh.empty())
                problems.push_back(who + ": a hint is missing in a language");
        try {
            const std::string solution = SolutionOf(*lesson);
            if (solution.find(e.kernel.kernel) == std::string::npos)
                problems.push_back(who + ": its lesson's kernel file does not define " +
                                   e.kernel.kernel);
        } catch (const std::logic_error& error) {
            problems.push_back(who + ": " + error.what());
        }
    }
    return problems;
}

}  // namespace lessons
