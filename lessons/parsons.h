// Parsons problems (issue 41, item 6): one per chapter, the core of the chapter's key step's
// kernel cut into lines, shuffled with a few plausible wrong lines (distractors); the student
// puts the lines in order and sets the wrong ones aside, and the kernel so assembled is compiled
// and checked as an exercise is (the same hidden cases, `check`).
//
// A problem is declared as data beside the lesson's exercise, found by the lesson's slug:
//   lessons/NN_<chapter>/exercises/<slug>.parsons
// Its lines (a line starting with "# " is a comment):
//   after: TEXT        optional: the core is searched after the first solution line holding TEXT
//   from: LINE         the core's first line, as it reads without its indentation and comment
//   to: LINE           the core's last line (the first such line after `from`)
//   distractor: LINE   a plausible mistake (two to four of them), never a line of the solution
// The solution is the lesson's own kernel (SolutionOf), so an edit of the step's source moves
// the core with it, and an anchor that no longer matches is a catalogue problem (never a silent
// shift). CUDA-free: the GUI links it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "exercise.h"
#include "registry.h"

namespace lessons {

// A .parsons file as written. `problem` says what is wrong with it ("" when nothing).
struct ParsonsDecl {
    std::string after, from, to;
    std::vector<std::string> distractors;
    std::string problem;
};
ParsonsDecl ParseParsons(std::string_view text);

// A line as the student sees it: without its indentation and its trailing // comment.
std::string ParsonsLineText(std::string_view line);

struct ParsonsProblem {
    std::string lesson;  // the lesson's id
    std::string path;    // its .parsons file
    std::string kernel;  // the exercise's kernel name
    // The solution around the core, verbatim: `before` ends with a newline, `after` starts
    // with the line after the core's last.
    std::string before, after;
    std::string indent;                    // the core's first line's indentation
    std::vector<std::string> core;         // the core's lines (ParsonsLineText), in order
    std::vector<std::string> distractors;  // ParsonsLineText of each
    // The kernel's lines before the core (from its __global__ line) and after it, for the
    // student to read while ordering.
    std::string context_before, context_after;
    // Every line offered: the core's, then the distractors.
    size_t pool_size() const { return core.size() + distractors.size(); }
    const std::string& pool(size_t i) const {
        return i < core.size() ? core[i] : distractors[i - core.size()];
    }
};

std::string ParsonsPath(const Lesson& lesson);

// The problem of `lesson` from its .parsons file and its solution, or nullopt when it has none.
// What is wrong is appended to `problems`: no exercise beside it, a malformed file, an anchor
// not found, a core of fewer than four lines, a distractor that is a line of the solution or
// given twice.
std::optional<ParsonsProblem> ParsonsOf(const Lesson& lesson, const ExerciseFileReader& read,
                                        std::vector<std::string>* problems = nullptr);

// Every problem of the catalogue (Catalog()), in its order; one lesson's, or null.
const std::vector<ParsonsProblem>& ParsonsProblems();
const ParsonsProblem* FindParsons(std::string_view lesson_id);

// What is wrong with the catalogue's Parsons problems (ParsonsOf's, and a chapter with two).
std::vector<std::string> ParsonsProblemsOf(const Registry& registry,
                                           const ExerciseFileReader& read);

// The shuffle: deterministic from its seed (the same on every machine and build), so a teacher
// given a student's seed sees the same lines in the same places. The default seed follows from
// the student's name and the lesson (ParsonsSeed), below a million so that it is easy to say.
uint64_t ParsonsSeed(const std::string& student, const std::string& lesson_id);
// shown[i] = the pool index of the line shown at place i (0-based). Never the core in its own
// order with the distractors last (the answer), where the core has two lines that differ.
std::vector<size_t> ParsonsShuffle(const ParsonsProblem& problem, uint64_t seed);

// The places (1-based, as shown) that give the core in order: the answer, for a teacher.
std::vector<int> ParsonsAnswer(const ParsonsProblem& problem, const std::vector<size_t>& shown);

// The student's order: shown places (1-based), each at most once; the places left out are set
// aside. `problem` says why it cannot be read (a place out of range, one given twice, none).
std::vector<int> ParseParsonsOrder(std::string_view text, size_t shown_count, std::string* problem);

// A kernel assembled from an order.
struct ParsonsAttempt {
    std::vector<std::string> lines;  // the lines in the student's order (ParsonsLineText)
    std::string core;                // ... indented as the code's braces and statements say
    std::string source;              // the whole kernel file: before + core + after
    int first_line = 0;              // the source's line (1-based) of the order's first line
    bool in_order = false;           // the lines are the core's, in its order
    std::vector<int> out_of_place;   // places in the order (1-based) not in a longest run
                                     // shared with the core's order: a wrong line or a right
                                     // line in the wrong place (which, is not said)
    int missing = 0;                 // lines of the core left out (set aside)
    // The place in the order (1-based) of a line of `source`, or 0 outside the core.
    int PlaceOfSourceLine(int line) const;
};
ParsonsAttempt AssembleParsons(const ParsonsProblem& problem, const std::vector<size_t>& shown,
                               const std::vector<int>& order);

// Lines indented by their code: a block's lines one step in from its braces, the statement after
// an `if`/`for` head without a brace (or any unfinished line) one step further; preprocessor
// lines at column 0. `indent` comes first on every other line.
std::string IndentParsons(const std::vector<std::string>& lines, const std::string& indent);

}  // namespace lessons
