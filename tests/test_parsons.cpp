// Parsons problems (lessons/parsons.h, issue 41 item 6): the declarations parse, every anchor is
// found in its solution, the answer's order assembles the solution itself and compiles with NVRTC
// (skipped, with the reason, where NVRTC is missing), a wrong order is told apart, distractors are
// never lines of the solution, the shuffle is the seed's; the progress keeps each attempt; and
// `cuda-lessons-cli parsons` shows, assembles, compiles and records (without a GPU: "compiled,
// not checked").
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "catalog.h"
#include "exercise.h"
#include "exercise_runner.h"
#include "has_text.h"
#include "kernel_compile.h"
#include "nvrtc_loader.h"
#include "parsons.h"
#include "progress.h"
#include "resources.h"
#include "shell.h"

using namespace lessons;

namespace {

#define REQUIRE_NVRTC()                                                                         \
    do {                                                                                        \
        if (!nvrtc::Load()) GTEST_SKIP() << "NVRTC is not available: " << nvrtc::Unavailable(); \
    } while (0)

// The lines of a source as ParsonsLineText reads them, blank ones left out.
std::vector<std::string> CodeLines(const std::string& source) {
    std::vector<std::string> out;
    for (size_t start = 0; start < source.size();) {
        size_t end = source.find('\n', start);
        if (end == std::string::npos) end = source.size();
        const std::string t = ParsonsLineText(std::string_view(source).substr(start, end - start));
        if (!t.empty()) out.push_back(t);
        start = end + 1;
    }
    return out;
}

const Lesson& LessonOf(const ParsonsProblem& p) {
    const Lesson* l = RunnableCatalog().FindLesson(p.lesson);
    if (!l) throw std::logic_error("no lesson " + p.lesson);
    return *l;
}

}  // namespace

TEST(ParsonsDecl, ParsesKeysAndComments) {
    const ParsonsDecl d = ParseParsons(
        "# a comment\n"
        "after: my_kernel\n"
        "from: float sum = 0.0f;   // a trailing comment goes\n"
        "\n"
        "to: }\n"
        "distractor:   if (i > n) return;\n"
        "distractor: sum += x[i + 1];\n");
    EXPECT_EQ(d.problem, "");
    EXPECT_EQ(d.after, "my_kernel");
    EXPECT_EQ(d.from, "float sum = 0.0f;");
    EXPECT_EQ(d.to, "}");
    ASSERT_EQ(d.distractors.size(), 2u);
    EXPECT_EQ(d.distractors[0], "if (i > n) return;");
}

TEST(ParsonsDecl, SaysWhatIsWrong) {
    EXPECT_TRUE(Has(ParseParsons("from: a;\nto: b;\ndistractor: c;\n").problem, "1 distractors"));
    EXPECT_TRUE(Has(ParseParsons("to: b;\ndistractor: c;\ndistractor: d;\n").problem, "from:"));
    EXPECT_TRUE(Has(ParseParsons("from: a;\nfrom: b;\n").problem, "given twice"));
    EXPECT_TRUE(Has(ParseParsons("form: a;\n").problem, "unknown key \"form\""));
    EXPECT_TRUE(Has(ParseParsons("just a line\n").problem, "line 1"));
    EXPECT_TRUE(Has(ParseParsons("from:   // only a comment\n").problem, "without a line"));
    EXPECT_TRUE(Has(ParseParsons("from: a;\nto: b;\ndistractor: 1;\ndistractor: 2;\n"
                                 "distractor: 3;\ndistractor: 4;\ndistractor: 5;\n")
                        .problem,
                    "5 distractors"));
}

TEST(ParsonsDecl, LineTextDropsIndentationAndTrailingCommentsOutsideLiterals) {
    EXPECT_EQ(ParsonsLineText("    x = 1;  // why"), "x = 1;");
    EXPECT_EQ(ParsonsLineText("  if (c == '/') s = \"a//b\";  // c"),
              "if (c == '/') s = \"a//b\";");
    EXPECT_EQ(ParsonsLineText("// only a comment"), "");
    EXPECT_EQ(ParsonsLineText("#pragma unroll"), "#pragma unroll");
}

// One problem per chapter that has an exercise: chapters 1-5 and 8-10 (6 is the roofline, with no
// exercise; 7's steps run on several GPUs at once and have no single-GPU exercise to check an
// order with).
TEST(Parsons, OnePerChapterWithAnExerciseAndNoProblems) {
    const std::vector<std::string> problems = ParsonsProblemsOf(Catalog(), EmbeddedExerciseFiles());
    EXPECT_TRUE(problems.empty()) << problems.front();
    EXPECT_TRUE(ExerciseProblems(Catalog()).empty()) << ExerciseProblems(Catalog()).front();
    std::set<std::string> with_exercise, with_parsons;
    for (const Exercise& e : Exercises())
        with_exercise.insert(RunnableCatalog().FindLesson(e.lesson)->chapter);
    for (const ParsonsProblem& p : ParsonsProblems()) {
        EXPECT_TRUE(with_parsons.insert(LessonOf(p).chapter).second) << p.lesson;
        EXPECT_NE(FindExercise(p.lesson), nullptr) << p.lesson;
        EXPECT_EQ(FindParsons(p.lesson), &p);
    }
    EXPECT_EQ(with_parsons, with_exercise);
    EXPECT_EQ(ParsonsProblems().size(), 8u);
}

TEST(Parsons, AnchorsAreFoundInTheSolutionAndTheCoreIsItsLines) {
    for (const ParsonsProblem& p : ParsonsProblems()) {
        const ParsonsDecl d = ParseParsons(EmbeddedFile(p.path));
        ASSERT_EQ(d.problem, "") << p.path;
        ASSERT_GE(p.core.size(), 4u) << p.lesson;
        EXPECT_EQ(p.core.front(), d.from) << p.lesson;
        EXPECT_EQ(p.core.back(), d.to) << p.lesson;
        // The core is a run of the solution's own lines, in its order.
        const std::vector<std::string> solution = CodeLines(SolutionOf(LessonOf(p)));
        const auto at = std::search(solution.begin(), solution.end(), p.core.begin(), p.core.end());
        EXPECT_NE(at, solution.end()) << p.lesson;
        EXPECT_EQ(CodeLines(p.before + IndentParsons(p.core, p.indent) + p.after), solution)
            << p.lesson;
        EXPECT_TRUE(Has(p.context_before, "__global__")) << p.lesson;
        EXPECT_FALSE(p.kernel.empty()) << p.lesson;
    }
}

TEST(Parsons, DistractorsAreNeverLinesOfTheSolution) {
    for (const ParsonsProblem& p : ParsonsProblems()) {
        EXPECT_GE(p.distractors.size(), 2u) << p.lesson;
        EXPECT_LE(p.distractors.size(), 4u) << p.lesson;
        const std::vector<std::string> solution = CodeLines(SolutionOf(LessonOf(p)));
        for (const std::string& d : p.distractors)
            EXPECT_EQ(std::find(solution.begin(), solution.end(), d), solution.end())
                << p.lesson << ": " << d;
    }
}

TEST(Parsons, AnAnchorThatNoLongerMatchesOrASecondProblemInAChapterIsSaid) {
    const Lesson& warp = *Catalog().FindLesson("gemv/warp-per-row");
    const Lesson& thread = *Catalog().FindLesson("gemv/thread-per-row");
    std::map<std::string, std::string> extra = {
        {ParsonsPath(thread),
         "from: const int row = blockIdx.x * blockDim.x + threadIdx.x;\nto: y[row] = sum;\n"
         "distractor: a;\ndistractor: b;\n"}};
    const ExerciseFileReader two = [&](const std::string& path) -> std::string_view {
        const auto it = extra.find(path);
        return it != extra.end() ? std::string_view(it->second) : EmbeddedFile(path);
    };
    std::vector<std::string> problems = ParsonsProblemsOf(Catalog(), two);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_TRUE(Has(problems[0], "has two Parsons problems")) << problems[0];
    // An anchor edited away: named, never a silent shift.
    extra = {{ParsonsPath(warp),
              "from: const int lane = threadIdx.x & 31;\nto: }\ndistractor: a;\ndistractor: b;\n"}};
    problems.clear();
    EXPECT_FALSE(ParsonsOf(warp, two, &problems));
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_TRUE(Has(problems[0], "is no line of the solution")) << problems[0];
    // A distractor that is a line of the solution.
    extra = {{ParsonsPath(warp),
              "from: const int lane = threadIdx.x % 32;\nto: if (lane == 0) "
              "y[row] = sum;\ndistractor: float sum = 0.0f;\ndistractor: b;\n"}};
    problems.clear();
    EXPECT_TRUE(ParsonsOf(warp, two, &problems));
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_TRUE(Has(problems[0], "is a line of the solution")) << problems[0];
}

TEST(Parsons, TheShuffleIsTheSeedsAndNeverTheAnswer) {
    EXPECT_EQ(ParsonsSeed("ada", "gemv/warp-per-row"), ParsonsSeed("ada", "gemv/warp-per-row"));
    EXPECT_NE(ParsonsSeed("ada", "gemv/warp-per-row"), ParsonsSeed("bob", "gemv/warp-per-row"));
    EXPECT_LT(ParsonsSeed("ada", "gemv/warp-per-row"), 1000000u);
    for (const ParsonsProblem& p : ParsonsProblems()) {
        std::set<std::vector<size_t>> seen;
        for (uint64_t seed = 0; seed < 50; ++seed) {
            const std::vector<size_t> shown = ParsonsShuffle(p, seed);
            EXPECT_EQ(shown, ParsonsShuffle(p, seed)) << p.lesson;
            std::vector<size_t> sorted = shown;
            std::sort(sorted.begin(), sorted.end());
            for (size_t i = 0; i < sorted.size(); ++i) ASSERT_EQ(sorted[i], i) << p.lesson;
            // The core's lines as shown are never in the core's order.
            std::vector<std::string> core_as_shown;
            for (const size_t i : shown)
                if (i < p.core.size()) core_as_shown.push_back(p.core[i]);
            EXPECT_NE(core_as_shown, p.core) << p.lesson << " seed " << seed;
            seen.insert(shown);
        }
        EXPECT_GT(seen.size(), 40u) << p.lesson;
    }
}

TEST(Parsons, OrdersAreReadOrRefusedWithWhy) {
    std::string why;
    EXPECT_EQ(ParseParsonsOrder("3,1, 2", 5, &why), (std::vector<int>{3, 1, 2}));
    EXPECT_EQ(why, "");
    EXPECT_TRUE(ParseParsonsOrder("3,0", 5, &why).empty());
    EXPECT_TRUE(Has(why, "from 1 to 5")) << why;
    ParseParsonsOrder("6", 5, &why);
    EXPECT_TRUE(Has(why, "from 1 to 5")) << why;
    ParseParsonsOrder("2,x", 5, &why);
    EXPECT_TRUE(Has(why, "'x'")) << why;
    ParseParsonsOrder("2,2", 5, &why);
    EXPECT_TRUE(Has(why, "given twice")) << why;
    ParseParsonsOrder(" , ", 5, &why);
    EXPECT_TRUE(Has(why, "no lines")) << why;
}

TEST(Parsons, IndentationIsRestoredFromTheCode) {
    EXPECT_EQ(
        IndentParsons({"for (int i = 0; i < n; ++i) {", "if (x)", "y = 1;", "}", "z = 2;"}, "    "),
        "    for (int i = 0; i < n; ++i) {\n"
        "        if (x)\n"
        "            y = 1;\n"
        "    }\n"
        "    z = 2;\n");
    EXPECT_EQ(IndentParsons({"for (a)", "#pragma unroll", "for (b)", "f();", "}"}, ""),
              "for (a)\n#pragma unroll\n    for (b)\n        f();\n}\n");
}

TEST(Parsons, TheAnswersOrderIsTheSolutionAndAWrongOrderIsToldApart) {
    for (const ParsonsProblem& p : ParsonsProblems()) {
        const std::vector<size_t> shown = ParsonsShuffle(p, 7);
        const std::vector<int> answer = ParsonsAnswer(p, shown);
        const ParsonsAttempt right = AssembleParsons(p, shown, answer);
        EXPECT_TRUE(right.in_order) << p.lesson;
        EXPECT_TRUE(right.out_of_place.empty()) << p.lesson;
        EXPECT_EQ(right.missing, 0) << p.lesson;
        EXPECT_EQ(right.lines, p.core) << p.lesson;
        EXPECT_EQ(CodeLines(right.source), CodeLines(SolutionOf(LessonOf(p)))) << p.lesson;
        EXPECT_EQ(right.PlaceOfSourceLine(right.first_line), 1) << p.lesson;
        EXPECT_EQ(right.PlaceOfSourceLine(right.first_line - 1), 0) << p.lesson;
        // Two different neighbours swapped: out of order, one place named (not which goes where).
        std::vector<int> swapped = answer;
        size_t i = 0;
        while (i + 1 < swapped.size() && p.core[i] == p.core[i + 1]) ++i;
        std::swap(swapped[i], swapped[i + 1]);
        const ParsonsAttempt wrong = AssembleParsons(p, shown, swapped);
        EXPECT_FALSE(wrong.in_order) << p.lesson;
        EXPECT_EQ(wrong.out_of_place.size(), 1u) << p.lesson;
        // A distractor in place of a line: out of place and one line missing.
        std::vector<int> with_distractor = answer;
        for (size_t place = 0; place < shown.size(); ++place)
            if (shown[place] >= p.core.size()) with_distractor[1] = static_cast<int>(place) + 1;
        const ParsonsAttempt d = AssembleParsons(p, shown, with_distractor);
        EXPECT_FALSE(d.in_order) << p.lesson;
        EXPECT_EQ(d.missing, 1) << p.lesson;
        EXPECT_FALSE(d.out_of_place.empty()) << p.lesson;
        // A line left out: missing, nothing out of place.
        const ParsonsAttempt short_one =
            AssembleParsons(p, shown, std::vector<int>(answer.begin(), answer.end() - 1));
        EXPECT_EQ(short_one.missing, 1) << p.lesson;
        EXPECT_TRUE(short_one.out_of_place.empty()) << p.lesson;
    }
}

TEST(Parsons, TheAnswerCompilesWithNvrtcAndAReversedOrderDoesNot) {
    REQUIRE_NVRTC();
    for (const ParsonsProblem& p : ParsonsProblems()) {
        const Lesson& lesson = LessonOf(p);
        const KernelSpec spec = ExerciseKernelSpec(RunnableCatalog(), lesson, p.kernel);
        const std::vector<size_t> shown = ParsonsShuffle(p, 11);
        std::vector<int> answer = ParsonsAnswer(p, shown);
        const ParsonsAttempt right = AssembleParsons(p, shown, answer);
        const CompileResult ok = CompileKernel(right.source, spec, 90);
        EXPECT_TRUE(ok.ok()) << p.lesson << ": " << ok.message << "\n" << ok.log;
        std::reverse(answer.begin(), answer.end());
        const ParsonsAttempt reversed = AssembleParsons(p, shown, answer);
        const CompileResult bad = CompileKernel(reversed.source, spec, 90);
        EXPECT_EQ(bad.status, CompileStatus::kError) << p.lesson;
        // The compiler's messages about the student's lines fall on places of the order.
        int on_places = 0;
        for (const Diagnostic& d : bad.diagnostics)
            on_places += d.file == kKernelFileName && reversed.PlaceOfSourceLine(d.line) > 0;
        EXPECT_GT(on_places, 0) << p.lesson << "\n" << bad.log;
    }
}

TEST(ParsonsProgress, AttemptsAreKeptAndExported) {
    Progress p;
    RecordParsons(p, "gemv/warp-per-row", "did not compile", "t1");
    RecordParsons(p, "gemv/warp-per-row", "solved", "t2");
    RecordParsons(p, "gemv/warp-per-row", "wrong", "t3");
    RecordParsons(p, "gemv/warp-per-row", "made up", "t4");  // ignored
    const ParsonsProgress& q = p.parsons["gemv/warp-per-row"];
    EXPECT_EQ(q.attempts, 3);
    EXPECT_TRUE(q.solved);
    EXPECT_EQ(q.solved_at, "t2");
    EXPECT_EQ(q.last_result, "wrong");
    EXPECT_EQ(q.last_at, "t3");
    EXPECT_FALSE(p.empty());
    size_t skipped = 0;
    const Progress back = ProgressFromJson(ToJson(p), &skipped);
    EXPECT_EQ(skipped, 0u);
    ASSERT_EQ(back.parsons.count("gemv/warp-per-row"), 1u);
    EXPECT_EQ(back.parsons.at("gemv/warp-per-row").solved_at, "t2");
    const std::string csv = ProgressCsv(p, "ada", [](const std::string&) { return "4.2"; });
    EXPECT_TRUE(Has(csv, ",parsons_solved,parsons_solved_at,parsons_attempts,parsons_last\n"))
        << csv;
    EXPECT_TRUE(Has(csv, "ada,gemv/warp-per-row,4.2,")) << csv;
    EXPECT_TRUE(Has(csv, ",yes,t2,3,wrong\n")) << csv;
    const auto j = ProgressExport(p, "ada", {});
    EXPECT_EQ(j["parsons"][0]["lesson"], "gemv/warp-per-row");
    EXPECT_EQ(j["parsons"][0]["solved"], true);
    // A kept entry of the wrong shape is counted, not taken.
    nlohmann::ordered_json bad = ToJson(p);
    bad["parsons"][0]["last_result"] = "guessed";
    ProgressFromJson(bad, &skipped);
    EXPECT_EQ(skipped, 1u);
}

// The CLI, without a GPU (CUDA_VISIBLE_DEVICES empty): the problem shown, the same for the same
// seed, the answer for a teacher, a right order compiled and not checked, a wrong one named by
// place, bad orders refused; each attempt kept in the progress, exported as csv.
TEST(ParsonsCli, ShowsAssemblesCompilesAndRecords) {
    const std::string dir = MakeTempDir("parsons");
    const std::string env = "CUDA_VISIBLE_DEVICES= XDG_DATA_HOME='" + dir + "' USER=ada ";
    const auto cli = [&](const std::string& args) {
        return Sh(env + CliPath() + " " + args + " 2>&1");
    };
    Output o = cli("parsons 4.2");
    ASSERT_EQ(o.code, 0) << o.text;
    EXPECT_TRUE(Has(o.text, "gemv_warp_per_row_kernel")) << o.text;
    const std::string seed = std::to_string(ParsonsSeed("ada", "gemv/warp-per-row"));
    EXPECT_TRUE(Has(o.text, "--seed " + seed)) << o.text;
    EXPECT_TRUE(Has(o.text, "if (row >= m) return;")) << o.text;
    EXPECT_FALSE(Has(o.text, "--order 1")) << "no answer unless asked: " << o.text;
    EXPECT_EQ(cli("parsons 4.2 --seed 5").text, cli("parsons gemv/warp-per-row --seed 5").text);
    EXPECT_NE(cli("parsons 4.2 --seed 5").text, cli("parsons 4.2 --seed 6").text);
    o = cli("parsons 4.2 --lang zh");
    EXPECT_TRUE(Has(o.text, "老师")) << o.text;

    o = Sh(env + CliPath() + " parsons 4.2 --answer --format json 2>/dev/null");
    ASSERT_EQ(o.code, 0) << o.text;
    const nlohmann::json shown = nlohmann::json::parse(o.text);
    EXPECT_EQ(shown["seed"].get<uint64_t>(), std::stoull(seed));
    const std::vector<int> answer = shown["answer"].get<std::vector<int>>();
    const ParsonsProblem& p = *FindParsons("gemv/warp-per-row");
    EXPECT_EQ(answer, ParsonsAnswer(p, ParsonsShuffle(p, std::stoull(seed))));
    std::string order, reversed;
    for (size_t i = 0; i < answer.size(); ++i) {
        order += (i ? "," : "") + std::to_string(answer[i]);
        reversed += (i ? "," : "") + std::to_string(answer[answer.size() - 1 - i]);
    }
    if (nvrtc::Load()) {
        o = cli("parsons 4.2 --order " + order);
        EXPECT_EQ(o.code, 1) << o.text;
        EXPECT_TRUE(Has(o.text, "The order is the lesson's own.")) << o.text;
        EXPECT_TRUE(Has(o.text, "compiled, not checked: needs a GPU")) << o.text;
        o = cli("parsons 4.2 --order " + reversed + " --lang zh");
        EXPECT_EQ(o.code, 1) << o.text;
        EXPECT_TRUE(Has(o.text, "没有编译通过")) << o.text;
        EXPECT_TRUE(Has(o.text, "个位置")) << o.text;
        o = Sh(env + CliPath() + " parsons 4.2 --format json --order " + reversed + " 2>/dev/null");
        const nlohmann::json j = nlohmann::json::parse(o.text);
        EXPECT_EQ(j["result"], "did not compile");
        EXPECT_FALSE(j["out_of_place"].empty());
        EXPECT_EQ(j["compile"]["status"], "error");
        o = cli("progress --format csv");
        EXPECT_TRUE(Has(o.text, ",no,,3,did not compile\n")) << o.text;
        o = cli("progress");
        EXPECT_TRUE(Has(o.text, "Parsons problem")) << o.text;
    }
    o = cli("parsons 4.2 --order 1,1");
    EXPECT_EQ(o.code, 2) << o.text;
    EXPECT_TRUE(Has(o.text, "given twice")) << o.text;
    o = cli("parsons 4.2 --order 99");
    EXPECT_EQ(o.code, 2) << o.text;
    o = cli("parsons 4.2 --seed x");
    EXPECT_EQ(o.code, 2) << o.text;
    o = cli("parsons 4.1");
    EXPECT_EQ(o.code, 2) << o.text;
    EXPECT_TRUE(Has(o.text, "has no Parsons problem")) << o.text;
    EXPECT_TRUE(Has(o.text, "4.2 (gemv/warp-per-row)")) << o.text;
    Sh("rm -rf '" + dir + "'");
}
