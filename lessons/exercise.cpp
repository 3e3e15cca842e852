#include "exercise.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <string>
#include <tuple>

#include "catalog.h"
#include "machine_code.h"
#include "parsons.h"
#include "resources.h"
#include "text_lines.h"

namespace lessons {

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
    const std::vector<std::string_view> lines = SplitLines(lesson.source);
    const std::string& instance = lesson.exercise.instance;
    bool instance_pending = !instance.empty();
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
        // The project's headers (the prelude embeds what the kernel needs of them) and <cstdint>
        // (NVRTC has none; the prelude declares the fixed-width integers, kNvrtcIntegers).
        if (line.rfind("#include \"", 0) == 0 || line == "#include <cstdint>" ||
            line.rfind("namespace lessons", 0) == 0)
            continue;
        // A host function at file scope (the vectorized step's GemvLanesPerRow): left out,
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
                out += instance;
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

namespace {

std::string_view EmbeddedOrThrow(const std::string& path) {
    const std::string_view text = EmbeddedFile(path);
    if (text.empty()) throw std::logic_error("'" + path + "' is not embedded");
    return text;
}

}  // namespace

std::string EmbeddedDeclarations(const std::string& path, const std::vector<std::string>& starts) {
    std::string out;
    bool in = false;
    for (const std::string_view line : SplitLines(EmbeddedOrThrow(path))) {
        if (!in)
            in = std::any_of(starts.begin(), starts.end(),
                             [&](const std::string& s) { return line.starts_with(s); });
        if (!in) continue;
        out.append(line).push_back('\n');
        in = !(line.starts_with("};") || (line.ends_with(";") && !line.starts_with(" ")));
    }
    if (out.empty()) throw std::logic_error("'" + path + "' declares nothing the prelude asks for");
    return out;
}

std::string EmbeddedHeaderBody(const std::string& path) {
    std::string out;
    for (const std::string_view line : SplitLines(EmbeddedOrThrow(path)))
        if (!line.starts_with("#include") && !line.starts_with("#pragma once"))
            out.append(line).push_back('\n');
    return out;
}

std::string HeldBack(std::string_view start) {
    constexpr std::string_view kOpen = "#error \"exercise ";
    for (const std::string_view line : SplitLines(start))
        if (line.starts_with(kOpen) && line.size() > kOpen.size() && line.ends_with('"'))
            return std::string(line.substr(8, line.size() - 9));
    return "";
}

std::string EmbeddedPart(const std::string& path, std::string_view from, std::string_view to,
                         std::string_view why) {
    std::string out;
    bool in = false;
    for (const std::string_view line : SplitLines(EmbeddedOrThrow(path))) {
        in = in || line.starts_with(from);
        if (!in) continue;
        out.append(line).push_back('\n');
        if (line.starts_with(to)) return out;
    }
    throw std::logic_error("'" + path + "' has no part from '" + std::string(from) + "' to '" +
                           std::string(to) + "' for " + std::string(why));
}

std::string ExerciseStartPath(const Lesson& lesson) {
    return lesson.folder + "/exercises/" + SlugOf(lesson) + ".cu";
}

std::string ExerciseTextPath(const Lesson& lesson, TextLanguage language) {
    return lesson.folder + "/exercises/" + SlugOf(lesson) +
           (language == TextLanguage::kEnglish ? ".en.md" : ".zh.md");
}

namespace {

std::string Trimmed(std::string_view text) {
    const size_t first = text.find_first_not_of(" \n");
    if (first == std::string_view::npos) return {};
    const size_t last = text.find_last_not_of(" \n");
    return std::string(text.substr(first, last + 1 - first));
}

}  // namespace

ExerciseText ParseExerciseText(std::string_view text) {
    ExerciseText out;
    if (!text.starts_with("# ")) {
        out.problem = "its first line is no level-1 heading (\"# Task\")";
        return out;
    }
    std::string* part = &out.task;
    std::string body;
    size_t at = text.find('\n');
    const auto close = [&] { *part = Trimmed(body), body.clear(); };
    while (at != std::string_view::npos && at < text.size()) {
        const size_t start = at + 1;
        size_t end = text.find('\n', start);
        const std::string_view line =
            text.substr(start, (end == std::string_view::npos ? text.size() : end) - start);
        at = end;
        if (line.starts_with("## ")) {
            close();
            out.hints.emplace_back();
            part = &out.hints.back();
            continue;
        }
        if (line.starts_with("# ")) {
            out.problem = "a second level-1 heading (\"" + std::string(line) +
                          "\"): the task is the text before the first \"## \" heading";
            return out;
        }
        body.append(line).push_back('\n');
    }
    close();
    if (out.task.empty()) out.problem = "it has no task before its first \"## \" heading";
    for (const std::string& h : out.hints)
        if (h.empty()) out.problem = "a hint under a \"## \" heading is empty";
    return out;
}

std::optional<Exercise> ExerciseOf(const Lesson& lesson, const Registry& registry,
                                   const ExerciseFileReader& read,
                                   std::vector<std::string>* problems) {
    std::vector<std::string> ignored;
    std::vector<std::string>& out = problems ? *problems : ignored;
    Exercise e;
    e.start = ExerciseStartPath(lesson);
    if (lesson.folder.empty() || read(e.start).empty()) {
        if (!lesson.exercise.fixed.empty() || !lesson.exercise.instance.empty())
            out.push_back(lesson.Name() + ": its row declares an exercise, and '" + e.start +
                          "' (its starting file) does not exist");
        return std::nullopt;
    }
    const std::string who = "the exercise of " + lesson.Name();
    e.lesson = lesson.id;
    e.fixed = lesson.exercise.fixed;
    e.instance = lesson.exercise.instance;
    if (lesson.kind != StepKind::kGpu || lesson.library)
        out.push_back(who + ": it is not a hand-written GPU step, so there is no kernel to write");
    std::vector<std::string> hints_en, hints_zh;
    for (const auto& [language, name, task, hints] :
         {std::tuple(TextLanguage::kEnglish, "English", &e.task_en, &hints_en),
          std::tuple(TextLanguage::kChinese, "Chinese", &e.task_zh, &hints_zh)}) {
        const std::string path = ExerciseTextPath(lesson, language);
        const std::string_view text = read(path);
        if (text.empty()) {
            out.push_back(who + ": its " + name + " task '" + path + "' does not exist");
            continue;
        }
        ExerciseText parsed = ParseExerciseText(text);
        if (!parsed.problem.empty()) out.push_back(who + ": '" + path + "': " + parsed.problem);
        const auto render = [&](const std::string& part) {
            RenderedText r = RenderLessonText(part, lesson, language, registry);
            for (const std::string& link : r.broken)
                out.push_back(who + ": '" + path + "' links to " + link +
                              ", which is no lesson or chapter");
            return std::move(r.text);
        };
        *task = render(parsed.task);
        for (const std::string& h : parsed.hints) hints->push_back(render(h));
    }
    if (hints_en.size() != hints_zh.size())
        out.push_back(who + " has " + std::to_string(hints_en.size()) + " hints in English and " +
                      std::to_string(hints_zh.size()) + " in Chinese");
    for (size_t i = 0; i < std::min(hints_en.size(), hints_zh.size()); ++i)
        e.hints.push_back({hints_en[i], hints_zh[i]});
    if (e.hints.size() < 2 || e.hints.size() > 3)
        out.push_back(who + " has " + std::to_string(e.hints.size()) + " hints; give two or three");
    for (const ExerciseParam& f : e.fixed) {
        const ParamSpec* p = lesson.FindParam(f.name);
        if (!p || p->type != ParamType::kChoice)
            out.push_back(who + " fixes '" + f.name + "', which is not a choice of its lesson");
        else if (std::find(p->choices.begin(), p->choices.end(), f.value) == p->choices.end())
            out.push_back(who + " fixes " + f.name + "=" + f.value +
                          ", which its lesson does not offer");
    }
    try {
        // The kernel is the one __global__ function of the solution (the step's own source), or,
        // when the row gives an instance, the one that instance stands in for.
        const std::string solution = SolutionOf(lesson);
        const size_t instance_at = e.instance.empty() ? 0 : solution.find(e.instance);
        const std::vector<std::string> names =
            GlobalKernelNames(std::string_view(solution).substr(instance_at));
        if (names.size() != 1 && e.instance.empty())
            out.push_back(who + ": '" + lesson.source_path + "' defines " +
                          std::to_string(names.size()) +
                          " __global__ functions before its launch; an exercise's kernel is "
                          "the only one, or the one its row's instance stands in for");
        if (!names.empty()) e.kernel = names.front();
        // A template left in the solution: the student's plain kernel has no counterpart.
        const size_t kernel_at = solution.find(e.kernel);
        const size_t global_at = solution.rfind("__global__", kernel_at);
        if (!e.kernel.empty() && global_at != std::string::npos && global_at > 0 &&
            solution.substr(0, global_at).ends_with(">\n"))
            out.push_back(who +
                          ": its kernel is a template; give the instance the student writes "
                          "(the row's .exercise.instance)");
    } catch (const std::logic_error& error) {
        out.push_back(who + ": " + error.what());
    }
    return e;
}

namespace {

struct AllExercises {
    std::vector<Exercise> list;
    std::vector<std::string> problems;
};

AllExercises Collect(const Registry& registry, const ExerciseFileReader& read) {
    AllExercises all;
    for (const Lesson& l : registry.lessons())
        if (std::optional<Exercise> e = ExerciseOf(l, registry, read, &all.problems))
            all.list.push_back(std::move(*e));
    return all;
}

}  // namespace

const ExerciseFileReader& EmbeddedExerciseFiles() {
    static const ExerciseFileReader read = [](const std::string& path) {
        return EmbeddedFile(path);
    };
    return read;
}

const std::vector<Exercise>& Exercises() {
    static const std::vector<Exercise> all = Collect(Catalog(), EmbeddedExerciseFiles()).list;
    return all;
}

const Exercise* FindExercise(std::string_view lesson_id) {
    for (const Exercise& e : Exercises())
        if (e.lesson == lesson_id) return &e;
    return nullptr;
}

std::vector<std::string> ExerciseProblems(const Registry& registry) {
    std::vector<std::string> problems = Collect(registry, EmbeddedExerciseFiles()).problems;
    // A file in an exercises/ folder that no row finds is a declaration of nothing.
    for (const auto& [path, contents] : EmbeddedFiles()) {
        if (!path.starts_with("lessons/") || path.find("/exercises/") == std::string::npos)
            continue;
        const bool found =
            std::any_of(registry.lessons().begin(), registry.lessons().end(), [&](const Lesson& l) {
                return path == ExerciseStartPath(l) ||
                       path == ExerciseTextPath(l, TextLanguage::kEnglish) ||
                       path == ExerciseTextPath(l, TextLanguage::kChinese) ||
                       path == ParsonsPath(l);
            });
        if (!found) problems.push_back("'" + path + "' is named by no lesson's slug");
    }
    // The Parsons problems beside the exercises (parsons.h).
    for (std::string& p : ParsonsProblemsOf(registry, EmbeddedExerciseFiles()))
        problems.push_back(std::move(p));
    return problems;
}

}  // namespace lessons
