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
        for (auto chapter : {&SplitExercises, &BasicsExercises, &ReduceExercises, &GemvExercises,
                             &GemmExercises, &TcExercises})
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

std::string FixedParamsConflict(const Exercise& exercise, const RawParams& given) {
    for (const ExerciseParam& f : exercise.fixed) {
        const auto it = std::find_if(given.begin(), given.end(),
                                     [&](const auto& p) { return p.first == f.name; });
        if (it != given.end() && it->second != f.value)
            return "your kernel for this exercise is written for " + f.name + "=" + f.value +
                   " (its template instance), so it cannot run at " + f.name + "=" + it->second +
                   ": leave " + f.name + " out or give " + f.value;
    }
    return "";
}

std::string_view StartingFile(const Exercise& exercise) {
    return EmbeddedFile(exercise.start);
}

std::string SolutionOf(const Lesson& lesson) {
    const std::string_view source = lesson.source;
    std::vector<std::string_view> lines;
    for (size_t start = 0; start < source.size();) {
        size_t end = source.find('\n', start);
        if (end == std::string_view::npos) end = source.size();
        lines.push_back(source.substr(start, end - start));
        start = end + 1;
    }
    const Exercise* exercise = FindExercise(lesson.id);
    bool instance_pending = exercise && !exercise->instance.empty();
    std::string out;
    bool found = false;
    bool in_host_function = false, previous_template = false, in_helpers = false;
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string_view line = lines[i];
        // Device helpers before the kernel may sit in an anonymous namespace of their own (the
        // cp.async step's): its lines go, the helpers stay. After the kernel, it holds the launch.
        if (line == "namespace {") {
            if (out.find("__global__") == std::string::npos) {
                in_helpers = true;
                continue;
            }
            found = true;
            break;
        }
        if (in_helpers && line.rfind("}  // namespace", 0) == 0) {
            in_helpers = false;
            continue;
        }
        if (line.rfind("#include \"", 0) == 0 || line.rfind("namespace lessons", 0) == 0) continue;
        // A host function at file scope (the vectorized step's Gemv30LanesPerRow): left out,
        // up to its closing brace at column 0.
        if (in_host_function) {
            in_host_function = line != "}";
            continue;
        }
        // The templated kernel's header (its parameter list may go on over indented lines):
        // the exercise's instance stands in its place.
        if (instance_pending && line.rfind("template", 0) == 0) {
            size_t next = i + 1;
            while (next < lines.size() && lines[next].starts_with(" ")) ++next;
            if (next < lines.size() && lines[next].rfind("__global__", 0) == 0) {
                out += exercise->instance;
                if (!out.ends_with("\n")) out.push_back('\n');
                instance_pending = false;
                previous_template = false;
                i = next - 1;
                continue;
            }
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
    if (instance_pending)
        throw std::logic_error("'" + lesson.source_path +
                               "' has no templated __global__ kernel for the exercise's instance "
                               "to stand in for");
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
        for (const ExerciseParam& f : e.fixed) {
            const ParamSpec* p = lesson->FindParam(f.name);
            if (!p || p->type != ParamType::kChoice)
                problems.push_back(who + " fixes '" + f.name +
                                   "', which is not a choice of its lesson");
            else if (std::find(p->choices.begin(), p->choices.end(), f.value) == p->choices.end())
                problems.push_back(who + " fixes " + f.name + "=" + f.value +
                                   ", which its lesson does not offer");
        }
        try {
            const std::string solution = SolutionOf(*lesson);
            if (solution.find(e.kernel.kernel) == std::string::npos)
                problems.push_back(who + ": its lesson's kernel file does not define " +
                                   e.kernel.kernel);
            // A template left in the solution: the student's plain kernel has no counterpart.
            const size_t kernel_at = solution.find(e.kernel.kernel);
            const size_t global_at = solution.rfind("__global__", kernel_at);
            if (kernel_at != std::string::npos && global_at != std::string::npos && global_at > 0 &&
                solution.rfind("template", global_at) != std::string::npos &&
                solution.substr(0, global_at).ends_with(">\n"))
                problems.push_back(who +
                                   ": its kernel is a template; give the instance the "
                                   "student writes (Exercise::instance)");
        } catch (const std::logic_error& error) {
            problems.push_back(who + ": " + error.what());
        }
    }
    return problems;
}

}  // namespace lessons
