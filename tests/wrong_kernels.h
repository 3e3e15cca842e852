// The wrong kernels of tests/data/wrong-kernels (or $LESSONS_WRONG_KERNELS, a build carried to
// another machine), read for test_gpu_check (`check` on a GPU) and test_exercise (the step's
// change judged in each, no GPU needed); and the kernel variants of tests/data/change-variants
// (the step's change written other ways, or starts changed without it) read the same way.
// A wrong kernel is stored as edits of its lesson's solution, not as a copy of it (NAME.edit):
// its lesson on its first line ("// lesson: gemm/naive"), what is wrong on its second
// ("// WRONG: ..."), then one or more blocks
//   <<<<<<< solution
//   lines of the solution, found exactly once in it
//   =======
//   the lines that replace them in the wrong kernel
//   >>>>>>> wrong
// A variant's second line is "// FOUND: ..." or "// MISSING: ..." (what the step's change
// verdict must say), its blocks edit the solution ("<<<<<<< solution") or the starting file
// ("<<<<<<< start") and close with ">>>>>>> variant"; or it is a whole kernel (NAME.cu) after
// its two lines.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace lessons::test {

struct WrongKernel {
    std::string name, lesson, why;                           // name: the edit file's stem
    std::vector<std::pair<std::string, std::string>> edits;  // (solution's lines, wrong lines)
    std::string problem;            // what is malformed in the file; empty when nothing is
    std::string base = "solution";  // what the edits are made in: "solution" or "start"
    std::string text;               // a whole kernel (NAME.cu): its text, and no edits
};

inline std::string WrongKernelDir() {
    const char* env = std::getenv("LESSONS_WRONG_KERNELS");
    return env && *env ? env : std::string(LESSONS_SOURCE_DIR) + "/tests/data/wrong-kernels";
}

inline WrongKernel ReadWrongKernel(const std::filesystem::path& path) {
    WrongKernel k{path.stem().string(), "", "", {}, ""};
    std::ifstream in(path);
    std::string first, line;
    std::getline(in, first);
    std::getline(in, k.why);
    if (first.starts_with("// lesson: ")) k.lesson = first.substr(11);
    if (path.extension() == ".cu") {
        while (std::getline(in, line)) k.text += line + "\n";
        if (k.text.empty()) k.problem = "no kernel after the two first lines";
        return k;
    }
    enum { kOutside, kSolution, kWrong } at = kOutside;
    std::string bases;
    while (std::getline(in, line)) {
        if (at == kOutside && (line == "<<<<<<< solution" || line == "<<<<<<< start")) {
            k.edits.emplace_back();
            k.base = line.substr(8);
            if (!bases.empty() && bases != k.base)
                k.problem = "edits of both the solution and the start";
            bases = k.base;
            at = kSolution;
        } else if (at == kSolution && line == "=======") {
            at = kWrong;
        } else if (at == kWrong && (line == ">>>>>>> wrong" || line == ">>>>>>> variant")) {
            at = kOutside;
        } else if (at == kSolution) {
            k.edits.back().first += line + "\n";
        } else if (at == kWrong) {
            k.edits.back().second += line + "\n";
        } else if (!line.empty()) {
            k.problem = "a line outside the edit blocks: " + line;
        }
    }
    if (at != kOutside) k.problem = "an edit block not closed by '>>>>>>> wrong'";
    if (k.edits.empty() && k.problem.empty()) k.problem = "no edit block";
    return k;
}

inline std::vector<WrongKernel> WrongKernels(const std::string& dir = WrongKernelDir(),
                                             bool whole_kernels = false) {
    std::vector<WrongKernel> out;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().extension() == ".edit" ||
            (whole_kernels && entry.path().extension() == ".cu"))
            out.push_back(ReadWrongKernel(entry.path()));
    std::sort(out.begin(), out.end(),
              [](const WrongKernel& a, const WrongKernel& b) { return a.name < b.name; });
    return out;
}

// `solution` (the start, for a variant that edits it) with the kernel's edits made; empty, with
// `problem` said, where an edit's lines are not in it exactly once.
inline std::string ApplyWrongEdits(const WrongKernel& k, std::string solution,
                                   std::string& problem) {
    for (const auto& [from, to] : k.edits) {
        const size_t at = solution.find(from);
        if (at == std::string::npos || solution.find(from, at + 1) != std::string::npos) {
            problem = "these lines are " +
                      std::string(at == std::string::npos ? "not" : "more than once") + " in the " +
                      k.base + " of " + k.lesson + ":\n" + from;
            return "";
        }
        solution.replace(at, from.size(), to);
    }
    return solution;
}

}  // namespace lessons::test

namespace lessons::test {

// The variants of tests/data/change-variants: edits of a step's solution or start, and whole
// kernels.
inline std::vector<WrongKernel> ChangeVariants() {
    return WrongKernels(std::string(LESSONS_SOURCE_DIR) + "/tests/data/change-variants", true);
}

}  // namespace lessons::test
