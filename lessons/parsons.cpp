#include "parsons.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <set>
#include <stdexcept>

#include "catalog.h"
#include "resources.h"
#include "text_lines.h"

namespace lessons {

namespace {

std::string_view Trim(std::string_view s) {
    return TrimView(s);
}

// splitmix64: the same numbers on every machine (std::shuffle's are the library's own).
struct SplitMix {
    uint64_t state;
    uint64_t Next() {
        uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    size_t Below(size_t n) { return static_cast<size_t>(Next() % n); }
};

// Calls `visit(i)` for each index i of `line` outside its character and string literals, in
// order, until it returns true; the index it stopped at, or npos.
template <class Visit>
size_t OutsideLiterals(std::string_view line, Visit visit) {
    char quote = 0;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quote) {
            if (c == '\\')
                ++i;
            else if (c == quote)
                quote = 0;
            continue;
        }
        if (c == '\'' || c == '"')
            quote = c;
        else if (visit(i))
            return i;
    }
    return std::string_view::npos;
}

// The braces of a line outside its character and string literals.
void CountBraces(std::string_view line, int* opens, int* closes) {
    *opens = *closes = 0;
    OutsideLiterals(line, [&](size_t i) {
        *opens += line[i] == '{';
        *closes += line[i] == '}';
        return false;
    });
}

}  // namespace

std::string ParsonsLineText(std::string_view line) {
    // The trailing comment: the first // outside a literal.
    const size_t comment = OutsideLiterals(line, [&](size_t i) {
        return line[i] == '/' && i + 1 < line.size() && line[i + 1] == '/';
    });
    if (comment != std::string_view::npos) line = line.substr(0, comment);
    return std::string(Trim(line));
}

ParsonsDecl ParseParsons(std::string_view text) {
    ParsonsDecl d;
    int number = 0;
    const auto fail = [&](const std::string& why) {
        if (d.problem.empty()) d.problem = "line " + std::to_string(number) + ": " + why;
    };
    for (const std::string_view raw : SplitLines(text)) {
        ++number;
        const std::string_view line = Trim(raw);
        if (line.empty() || line == "#" || line.starts_with("# ")) continue;
        const size_t colon = line.find(':');
        if (colon == std::string_view::npos) {
            fail("no \"key: value\" (after, from, to or distractor)");
            continue;
        }
        const std::string key(Trim(line.substr(0, colon)));
        const std::string value = ParsonsLineText(line.substr(colon + 1));
        if (value.empty()) {
            fail("\"" + key + ":\" without a line");
            continue;
        }
        std::string* single = key == "after"  ? &d.after
                              : key == "from" ? &d.from
                              : key == "to"   ? &d.to
                                              : nullptr;
        if (single) {
            if (!single->empty()) fail("\"" + key + ":\" given twice");
            *single = value;
        } else if (key == "distractor") {
            d.distractors.push_back(value);
        } else {
            fail("unknown key \"" + key + "\" (after, from, to or distractor)");
        }
    }
    if (d.problem.empty()) {
        if (d.from.empty() || d.to.empty())
            d.problem = "it needs a \"from:\" and a \"to:\" line (the core's first and last)";
        else if (d.distractors.size() < 2 || d.distractors.size() > 4)
            d.problem =
                "it has " + std::to_string(d.distractors.size()) + " distractors; give two to four";
    }
    return d;
}

std::string ParsonsPath(const Lesson& lesson) {
    return lesson.folder + "/exercises/" + SlugOf(lesson) + ".parsons";
}

std::optional<ParsonsProblem> ParsonsOf(const Lesson& lesson, const ExerciseFileReader& read,
                                        std::vector<std::string>* problems) {
    std::vector<std::string> ignored;
    std::vector<std::string>& out = problems ? *problems : ignored;
    if (lesson.folder.empty()) return std::nullopt;
    const std::string path = ParsonsPath(lesson);
    const std::string_view text = read(path);
    if (text.empty()) return std::nullopt;
    const std::string who = "the Parsons problem of " + lesson.Name() + " ('" + path + "')";
    if (read(ExerciseStartPath(lesson)).empty()) {
        out.push_back(who + ": the lesson has no exercise to check it with");
        return std::nullopt;
    }
    const ParsonsDecl decl = ParseParsons(text);
    if (!decl.problem.empty()) {
        out.push_back(who + ": " + decl.problem);
        return std::nullopt;
    }
    std::string solution;
    try {
        solution = SolutionOf(lesson);
    } catch (const std::logic_error& e) {
        out.push_back(who + ": " + e.what());
        return std::nullopt;
    }
    const std::vector<std::string_view> lines = SplitLines(solution);
    size_t at = 0;
    if (!decl.after.empty()) {
        while (at < lines.size() && lines[at].find(decl.after) == std::string_view::npos) ++at;
        if (at == lines.size()) {
            out.push_back(who + ": no line of the solution holds its \"after:\" text '" +
                          decl.after + "'");
            return std::nullopt;
        }
        ++at;
    }
    size_t from = at;
    while (from < lines.size() && ParsonsLineText(lines[from]) != decl.from) ++from;
    if (from == lines.size()) {
        out.push_back(who + ": its \"from:\" line '" + decl.from + "' is no line of the solution" +
                      (decl.after.empty() ? "" : " after '" + decl.after + "'"));
        return std::nullopt;
    }
    size_t to = from + 1;
    while (to < lines.size() && ParsonsLineText(lines[to]) != decl.to) ++to;
    if (to == lines.size()) {
        out.push_back(who + ": its \"to:\" line '" + decl.to +
                      "' is no line of the solution after its \"from:\" line");
        return std::nullopt;
    }
    ParsonsProblem p;
    p.lesson = lesson.id;
    p.path = path;
    p.kernel = FindExercise(lesson.id) ? FindExercise(lesson.id)->kernel : std::string();
    const std::string_view first = lines[from];
    p.indent = std::string(first.substr(0, first.find_first_not_of(" \t")));
    std::set<std::string> solution_lines;
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string t = ParsonsLineText(lines[i]);
        if (!t.empty()) solution_lines.insert(t);
        if (i < from) {
            p.before.append(lines[i]).push_back('\n');
        } else if (i > to) {
            p.after.append(lines[i]).push_back('\n');
        } else if (!t.empty()) {
            p.core.push_back(t);
        }
    }
    const size_t kernel_at = p.before.rfind("__global__");
    const size_t line_at = kernel_at == std::string::npos ? 0 : p.before.rfind('\n', kernel_at);
    p.context_before = p.before.substr(line_at == std::string::npos ? 0 : line_at + 1);
    p.context_after = p.after;
    if (p.core.size() < 4)
        out.push_back(who + ": its core has " + std::to_string(p.core.size()) +
                      " lines; a problem needs at least four");
    std::set<std::string> seen;
    for (const std::string& d : decl.distractors) {
        if (solution_lines.count(d))
            out.push_back(who + ": its distractor '" + d +
                          "' is a line of the solution (a distractor must be wrong)");
        if (!seen.insert(d).second) out.push_back(who + ": its distractor '" + d + "' is twice");
        p.distractors.push_back(d);
    }
    return p;
}

std::vector<std::string> ParsonsProblemsOf(const Registry& registry,
                                           const ExerciseFileReader& read) {
    std::vector<std::string> problems;
    std::map<std::string, std::string> by_chapter;
    for (const Lesson& l : registry.lessons()) {
        if (!ParsonsOf(l, read, &problems)) continue;
        const auto [it, fresh] = by_chapter.emplace(l.chapter, l.id);
        if (!fresh)
            problems.push_back("chapter " + l.chapter + " has two Parsons problems (" + it->second +
                               " and " + l.id + "); give it one");
    }
    return problems;
}

namespace {

std::vector<ParsonsProblem> Collect() {
    std::vector<ParsonsProblem> all;
    for (const Lesson& l : Catalog().lessons())
        if (std::optional<ParsonsProblem> p = ParsonsOf(l, EmbeddedExerciseFiles()))
            all.push_back(std::move(*p));
    return all;
}

}  // namespace

const std::vector<ParsonsProblem>& ParsonsProblems() {
    static const std::vector<ParsonsProblem> all = Collect();
    return all;
}

const ParsonsProblem* FindParsons(std::string_view lesson_id) {
    for (const ParsonsProblem& p : ParsonsProblems())
        if (p.lesson == lesson_id) return &p;
    return nullptr;
}

uint64_t ParsonsSeed(const std::string& student, const std::string& lesson_id) {
    uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
    for (const char c : student + "\n" + lesson_id) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ull;
    }
    return h % 1000000;
}

std::vector<size_t> ParsonsShuffle(const ParsonsProblem& problem, uint64_t seed) {
    const size_t n = problem.pool_size();
    std::vector<size_t> shown(n);
    SplitMix random{seed};
    // Where the core's lines are all alike there is nothing to hide; else never the answer.
    const bool can_hide = std::any_of(problem.core.begin(), problem.core.end(),
                                      [&](const std::string& l) { return l != problem.core[0]; });
    for (int attempt = 0; attempt < 100; ++attempt) {
        for (size_t i = 0; i < n; ++i) shown[i] = i;
        for (size_t i = n; i > 1; --i) std::swap(shown[i - 1], shown[random.Below(i)]);
        std::vector<std::string> core_order;
        for (const size_t i : shown)
            if (i < problem.core.size()) core_order.push_back(problem.core[i]);
        if (!can_hide || core_order != problem.core) break;
    }
    return shown;
}

std::vector<int> ParsonsAnswer(const ParsonsProblem& problem, const std::vector<size_t>& shown) {
    std::vector<int> answer(problem.core.size());
    for (size_t place = 0; place < shown.size(); ++place)
        if (shown[place] < problem.core.size()) answer[shown[place]] = static_cast<int>(place) + 1;
    return answer;
}

std::vector<int> ParseParsonsOrder(std::string_view text, size_t shown_count,
                                   std::string* problem) {
    std::vector<int> order;
    std::set<int> used;
    problem->clear();
    for (size_t start = 0; start <= text.size();) {
        size_t end = text.find_first_of(", ", start);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view part = Trim(text.substr(start, end - start));
        start = end + 1;
        if (part.empty()) continue;
        int value = 0;
        const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
        if (ec != std::errc() || ptr != part.data() + part.size() || value < 1 ||
            static_cast<size_t>(value) > shown_count) {
            *problem = "'" + std::string(part.substr(0, 20)) + "' is not a line number from 1 to " +
                       std::to_string(shown_count);
            return {};
        }
        if (!used.insert(value).second) {
            *problem = "line " + std::to_string(value) + " is given twice; each line goes once";
            return {};
        }
        order.push_back(value);
    }
    if (order.empty()) *problem = "no lines given: list the line numbers in order, as 3,1,4";
    return order;
}

std::string IndentParsons(const std::vector<std::string>& lines, const std::string& indent) {
    std::string out;
    int depth = 0;
    int hang = 0;  // heads without a brace (or unfinished lines) just before this one
    for (const std::string& line : lines) {
        if (line.starts_with("#")) {  // a pragma: at column 0, as the solution has it
            out += line + "\n";
            continue;
        }
        int opens = 0, closes = 0;
        CountBraces(line, &opens, &closes);
        const int level = std::max(0, depth - (line.starts_with("}") ? 1 : 0)) + hang;
        out += indent + std::string(static_cast<size_t>(level) * 4, ' ') + line + "\n";
        depth = std::max(0, depth + opens - closes);
        const char last = line.empty() ? ';' : line.back();
        const bool unfinished = last != ';' && last != '{' && last != '}' && last != ':';
        hang = unfinished ? hang + 1 : 0;
    }
    return out;
}

int ParsonsAttempt::PlaceOfSourceLine(int line) const {
    const int place = line - first_line + 1;
    return place >= 1 && place <= static_cast<int>(lines.size()) ? place : 0;
}

ParsonsAttempt AssembleParsons(const ParsonsProblem& problem, const std::vector<size_t>& shown,
                               const std::vector<int>& order) {
    ParsonsAttempt a;
    for (const int place : order)
        if (place >= 1 && static_cast<size_t>(place) <= shown.size())
            a.lines.push_back(problem.pool(shown[static_cast<size_t>(place) - 1]));
    a.core = IndentParsons(a.lines, problem.indent);
    a.source = problem.before + a.core + problem.after;
    a.first_line =
        1 + static_cast<int>(std::count(problem.before.begin(), problem.before.end(), '\n'));
    a.in_order = a.lines == problem.core;
    // A longest common subsequence of the order and the core: what lies outside it is out of
    // place. Duplicate lines (two `}`) are alike, as the compiler sees them.
    const size_t n = a.lines.size(), m = problem.core.size();
    std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
    for (size_t i = n; i-- > 0;)
        for (size_t j = m; j-- > 0;)
            lcs[i][j] = a.lines[i] == problem.core[j] ? lcs[i + 1][j + 1] + 1
                                                      : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    size_t i = 0, j = 0;
    while (i < n && j < m) {
        if (a.lines[i] == problem.core[j]) {
            ++i, ++j;
        } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
            a.out_of_place.push_back(static_cast<int>(i) + 1);
            ++i;
        } else {
            ++j;
        }
    }
    for (; i < n; ++i) a.out_of_place.push_back(static_cast<int>(i) + 1);
    // The core's lines not used at all (as a multiset: a `}` used once of two is one missing).
    std::multiset<std::string> left(problem.core.begin(), problem.core.end());
    for (const std::string& l : a.lines)
        if (const auto it = left.find(l); it != left.end()) left.erase(it);
    a.missing = static_cast<int>(left.size());
    return a;
}

}  // namespace lessons
