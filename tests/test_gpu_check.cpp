// `check` on a GPU: every wrong kernel of tests/data/wrong-kernels fails it, every reference
// solution (the lesson's own kernel, as `exercise --solution` gives it) passes it, no starting
// file passes it (right and within the speed target), and a kernel
// that never ends is stopped at the time limit with a clear message, after which the next run
// works. Skipped without a GPU, but for the wrong kernels' edits, which apply without one.
// The wrong kernels' format: tests/wrong_kernels.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "gpu_test.h"
#include "has_text.h"
#include "scoped_env.h"
#include "shell.h"
#include "wrong_kernels.h"

namespace {

using nlohmann::json;

using lessons::test::WrongKernel;
using lessons::test::WrongKernels;

// The wrong kernel's text: its lesson's solution with its edits made; empty, with `problem`
// said, where the solution is not to be had or an edit's lines are not in it exactly once.
std::string WrongKernelText(const WrongKernel& k, std::string& problem) {
    const Output s = Cli("exercise " + k.lesson + " --solution --format json", false);
    std::string text;
    try {
        text = json::parse(s.text)["solution"].get<std::string>();
    } catch (const std::exception&) {
        problem = "no solution for " + k.lesson + ": " + s.text.substr(0, 300);
        return "";
    }
    return lessons::test::ApplyWrongEdits(k, text, problem);
}

struct Checked {
    std::string name;  // the kernel file's name, or "solution of LESSON"
    int code = -1;
    json j;
    std::string err;  // what the check wrote on its standard error
};

// The table of the closing note, appended to $LESSONS_CHECK_TABLE where it is set, a row
// as each check ends (a run stopped from outside keeps the rows it had): kernel, cases failed (of
// all), first mismatch, speed.
void AppendTableRow(const Checked& c) {
    static std::mutex mutex;
    const char* path = std::getenv("LESSONS_CHECK_TABLE");
    if (!path || !*path) return;
    const std::lock_guard<std::mutex> lock(mutex);
    std::ofstream table(path, std::ios::app);
    std::string first = "-";
    if (c.j.contains("cases") && c.j["cases"].is_array())
        for (const json& k : c.j["cases"])
            if (!k.value("passed", true)) {
                first = k.value("name", "") + ": " + k.value("message", "");
                break;
            }
    if (!c.j.contains("cases")) first = c.j.dump().substr(0, 300);
    std::string speed = "-";
    if (c.j.contains("speed") && c.j["speed"].is_object()) {
        const json& s = c.j["speed"];
        // The verdict's own words where the check gives them (the interleaved timing's
        // intervals and "within the target", "slower by", "within noise").
        speed = !s.value("judged", false) ? "not judged"
                : s.contains("text")
                    ? s.value("text", std::string())
                    : "yours " + s["yours_ms"].dump() + " ms, step " + s["step_ms"].dump() +
                          " ms: " + (s.value("passed", false) ? "met" : "NOT met");
    }
    // The step's change (lessons/kernel_change.h): found, or the families missing.
    std::string change = "-";
    if (c.j.contains("change") && c.j["change"].is_object()) {
        const json& ch = c.j["change"];
        std::string missing;
        for (const json& m : ch.value("missing", json::array()))
            missing += (missing.empty() ? "" : ",") + m.get<std::string>();
        // Basis "instruction-mix": the share of the step's change made.
        const std::string basis =
            ch.value("basis", std::string()) +
            (ch.contains("mix_share")
                 ? " " + std::to_string(std::lround(ch.value("mix_share", 0.0) * 100)) + "%"
                 : "");
        change = !ch.value("judged", false) ? "not judged"
                 : ch.value("present", false)
                     ? "found (" + basis + ")"
                     : "MISSING (" + basis + (missing.empty() ? "" : ": " + missing) + ")";
    }
    table << c.name << " | exit " << c.code << " | " << c.j.value("cases_failed", -1) << " of "
          << c.j.value("cases_total", -1) << " failed | " << first.substr(0, 400) << " | " << speed
          << " | change " << change << "\n";
}

// `check --format json` of each (lesson, file), several at once (the cases' data and CPU
// references take the host's cores, the GPU has room for several, and the speed target times
// each check's two kernels in turn, so a neighbour's load falls on both); in order, each also a
// row of the table. Where `data_home` is given, the checks keep the student's progress there.
std::vector<Checked> CheckAll(const std::vector<std::pair<std::string, std::string>>& todo,
                              const std::vector<std::string>& names,
                              const std::string& data_home = "") {
    std::optional<ScopedEnv> home;  // where the checks keep the student's progress
    if (!data_home.empty()) home.emplace("XDG_DATA_HOME", data_home);
    std::vector<Checked> out(todo.size());
    std::atomic<size_t> next{0};
    // $LESSONS_CHECK_WORKERS where set (1 to 16): a GPU machine of many cores runs more at once.
    unsigned workers = std::max(1u, std::min(4u, std::thread::hardware_concurrency() / 2));
    if (const char* w = std::getenv("LESSONS_CHECK_WORKERS"); w && std::atoi(w) >= 1)
        workers = static_cast<unsigned>(std::min(std::atoi(w), 16));
    std::vector<std::thread> threads;
    for (unsigned w = 0; w < workers; ++w)
        threads.emplace_back([&] {
            for (size_t i; (i = next++) < todo.size();) {
                const std::string err = todo[i].second + ".err";
                const Output o =
                    Sh(CliPath() + " check " + todo[i].first + " --format json --kernel '" +
                       todo[i].second + "' 2>'" + err + "'");
                out[i].name = names[i];
                out[i].code = o.code;
                std::ifstream in(err);
                out[i].err.assign(std::istreambuf_iterator<char>(in), {});
                try {
                    out[i].j = json::parse(o.text);
                } catch (const std::exception&) {
                    out[i].j = json{{"unparsed", o.text}};
                }
                AppendTableRow(out[i]);
            }
        });
    for (std::thread& t : threads) t.join();
    return out;
}

// Every exercise's reference solution (`exercise ID --solution`: field "solution") or starting
// file (`exercise ID`: field "start"), each written to a file of a fresh folder `dir`: the
// (lesson, file) pairs for CheckAll, their names ("solution of gemm/naive") and their texts.
struct ExerciseFiles {
    std::string dir;
    std::vector<std::pair<std::string, std::string>> todo;
    std::vector<std::string> names, texts;
};

ExerciseFiles WriteExerciseFiles(const std::string& field) {
    ExerciseFiles out{MakeTempDir(field + "s"), {}, {}, {}};
    const Output list = Cli("exercise --format json", false);
    EXPECT_EQ(list.code, 0) << list.text;
    if (list.code != 0) return out;
    for (const json& e : json::parse(list.text)) {
        const std::string id = e["id"];
        const Output x =
            Cli("exercise " + id + (field == "solution" ? " --solution" : "") + " --format json",
                false);
        EXPECT_EQ(x.code, 0) << id << ": " << x.text;
        if (x.code != 0) continue;
        std::string file = id;
        std::replace(file.begin(), file.end(), '/', '_');
        const std::string path = out.dir + "/" + file + ".cu";
        out.texts.push_back(json::parse(x.text)[field].get<std::string>());
        std::ofstream(path) << out.texts.back();
        out.todo.emplace_back(id, path);
        out.names.push_back((field == "solution" ? "solution of " : "start of ") + id);
    }
    EXPECT_GE(out.todo.size(), 20u);
    return out;
}

// `check` of every exercise's solution or start (WriteExerciseFiles), the progress kept in
// `data_home`.
std::pair<ExerciseFiles, std::vector<Checked>> CheckEveryExercise(const std::string& field,
                                                                  const std::string& data_home) {
    ExerciseFiles files = WriteExerciseFiles(field);
    std::vector<Checked> checked = CheckAll(files.todo, files.names, data_home);
    return {std::move(files), std::move(checked)};
}

TEST(GpuCheck, TheWrongKernelSetCoversTheChapters) {
    const std::vector<WrongKernel> kernels = WrongKernels();
    EXPECT_GE(kernels.size(), 10u);
    std::set<std::string> chapters;
    for (const WrongKernel& k : kernels) {
        EXPECT_FALSE(k.lesson.empty()) << k.name << ": no '// lesson: ' first line";
        EXPECT_TRUE(k.why.starts_with("// WRONG: ")) << k.name << ": no '// WRONG: ' second line";
        EXPECT_EQ(k.problem, "") << k.name;
        chapters.insert(k.lesson.substr(0, k.lesson.find('/')));
    }
    for (const char* c : {"split", "reduce", "gemv", "gemm", "tensor-cores", "attention"})
        EXPECT_TRUE(chapters.count(c)) << "no wrong kernel for chapter " << c;
}

// Every edit still applies to today's solution (no GPU needed): a kernel changed under its
// wrong kernel's edit is said here, not found as a wrong kernel that suddenly passes.
TEST(GpuCheck, EveryWrongKernelIsItsSolutionEdited) {
    for (const WrongKernel& k : WrongKernels()) {
        std::string problem;
        const std::string text = WrongKernelText(k, problem);
        EXPECT_EQ(problem, "") << k.name;
        EXPECT_FALSE(text.empty()) << k.name;
    }
}

TEST(GpuCheck, EveryWrongKernelFails) {
    REQUIRE_GPU();
    const std::string dir = MakeTempDir("wrong-kernels");
    std::vector<std::pair<std::string, std::string>> todo;
    std::vector<std::string> names;
    for (const WrongKernel& k : WrongKernels()) {
        std::string problem;
        const std::string text = WrongKernelText(k, problem);
        ASSERT_EQ(problem, "") << k.name;
        const std::string path = dir + "/" + k.name + ".cu";
        std::ofstream(path) << text;
        todo.emplace_back(k.lesson, path);
        names.push_back(k.name + ".cu");
    }
    const std::vector<Checked> checked = CheckAll(todo, names);
    for (const Checked& c : checked) {
        EXPECT_EQ(c.code, 1) << c.name << "\n" << c.j.dump(1);
        EXPECT_EQ(c.j.value("checked", false), true) << c.name << "\n" << c.j.dump(1);
        EXPECT_EQ(c.j.value("passed", true), false) << c.name << "\n" << c.j.dump(1);
        EXPECT_GE(c.j.value("cases_failed", 0), 1) << c.name;
        // Correctness failed: speed is not judged.
        ASSERT_TRUE(c.j.contains("speed")) << c.name;
        EXPECT_EQ(c.j["speed"].value("judged", true), false) << c.name;
        // A missing bounds test is caught by the guard zones, which name the buffer.
        if (c.name.find("no-bounds") == std::string::npos) continue;
        bool guarded = false;
        for (const json& k : c.j.value("cases", json::array()))
            for (const json& g : k.value("guard_zones", json::array()))
                guarded |= Has(g.value("text", ""), "past the end of");
        EXPECT_TRUE(guarded) << c.name << ": no guard zone named a write past the end\n"
                             << c.j.dump(1);
    }
    Sh("rm -rf '" + dir + "'");
}

TEST(GpuCheck, EveryReferenceSolutionPasses) {
    REQUIRE_GPU();
    // The checks keep the student's progress (several at once, under the file's lock).
    const std::string data = MakeTempDir("progress");
    const auto [files, checked] = CheckEveryExercise("solution", data);
    const auto& todo = files.todo;
    const Output progress = [&] {
        const ScopedEnv home("XDG_DATA_HOME", data);
        return Cli("progress --format json", false);
    }();
    ASSERT_EQ(progress.code, 0) << progress.text;
    std::set<std::string> passed;
    // Kept in a variable: a range-for over a member of a temporary reads a destroyed object.
    const json kept = json::parse(progress.text);
    ASSERT_TRUE(kept.contains("exercises")) << progress.text.substr(0, 2000);
    for (const json& e : kept["exercises"]) {
        EXPECT_EQ(e.value("checks", 0), 1) << e.dump();
        if (e.value("correct", false)) passed.insert(e.value("lesson", ""));
        EXPECT_NE(e.value("last_speed", ""), "not judged") << e.dump();
    }
    for (size_t i = 0; i < todo.size(); ++i)
        EXPECT_TRUE(passed.count(todo[i].first))
            << todo[i].first << ": not kept as passed in the progress; its check said on stderr:\n"
            << checked[i].err << "\nthe progress (" << data << "):\n"
            << progress.text.substr(0, 2000);
    Sh("rm -rf '" + data + "'");
    for (const Checked& c : checked) {
        EXPECT_EQ(c.code, 0) << c.name << "\n" << c.j.dump(1);
        EXPECT_EQ(c.j.value("passed", false), true) << c.name;
        EXPECT_EQ(c.j.value("right", false), true) << c.name;
        // The step's change is in the step's own kernel.
        ASSERT_TRUE(c.j.contains("change")) << c.name;
        EXPECT_EQ(c.j["change"].value("present", false), true) << c.name << "\n"
                                                               << c.j["change"].dump(1);
        // A right kernel's speed is judged: both times measured in the same run (whether the
        // target is met is the GPU's: no timing threshold here).
        ASSERT_TRUE(c.j.contains("speed")) << c.name;
        const json& speed = c.j["speed"];
        EXPECT_EQ(speed.value("judged", false), true) << c.name << "\n" << speed.dump(1);
        EXPECT_GT(speed.value("yours_ms", 0.0), 0) << c.name;
        EXPECT_GT(speed.value("step_ms", 0.0), 0) << c.name;
        EXPECT_TRUE(speed["passed"].is_boolean()) << c.name;
    }
    Sh("rm -rf '" + files.dir + "'");
}

// No starting file passes `check` (issue 44): a start that passed would let a student's check
// pass with the task not done. Each start compiles and then fails on the step's change missing
// (lessons/kernel_change.h), whatever its cases and speed say; or it is held back
// (lessons/exercise.h, HeldBack: an `#error "exercise ..."` line at column 0) and fails to compile
// at that line, with its message. Where a start compiles, the verdict names it: the table
// ($LESSONS_CHECK_TABLE) shows its time beside the step's.
TEST(GpuCheck, NoStartingFilePasses) {
    REQUIRE_GPU();
    const std::string data = MakeTempDir("start-progress");
    const auto [files, checked] = CheckEveryExercise("start", data);
    const auto& texts = files.texts;
    Sh("rm -rf '" + data + "'");
    for (size_t i = 0; i < checked.size(); ++i) {
        const Checked& c = checked[i];
        const json compile = c.j.value("compile", json::object());
        if (Has("\n" + texts[i], "\n#error \"exercise ")) {
            // Held back: it does not compile, and the compiler's words name the #error line.
            EXPECT_EQ(compile.value("status", ""), "error") << c.name << "\n" << c.j.dump(1);
            EXPECT_TRUE(Has(compile.value("log", ""), "#error")) << c.name << "\n"
                                                                 << compile.dump(1);
            EXPECT_NE(c.code, 0) << c.name;
            continue;
        }
        EXPECT_EQ(compile.value("status", ""), "ok") << c.name << "\n" << c.j.dump(1);
        // A start too slow for the time limit is stopped (timed_out): it does not pass either.
        if (c.j.value("timed_out", false)) continue;
        EXPECT_EQ(c.j.value("checked", false), true) << c.name << "\n" << c.j.dump(1);
        // The step's change (lessons/kernel_change.h) is judged, and missing from the start:
        // the verdict that tells a start that is right and fast (1.7, 2.1: the change does not
        // pay) from the solution.
        const json change = c.j.value("change", json::object());
        EXPECT_TRUE(change.value("judged", false)) << c.name << "\n" << change.dump(1);
        EXPECT_FALSE(change.value("present", true))
            << c.name << ": the step's change is found in the start\n"
            << change.dump(1);
        const bool passed = c.code == 0 && c.j.value("passed", false);
        const json speed = c.j.value("speed", json::object());
        const bool fast = speed.value("judged", false) && speed.value("passed", false);
        EXPECT_FALSE(passed) << c.name << " passes the check as it stands:\n" << c.j.dump(1);
        EXPECT_FALSE(passed && fast) << c.name << " passes the check as it stands (right, the "
                                     << "change found, and within the speed target):\n"
                                     << speed.dump(1);
    }
    Sh("rm -rf '" + files.dir + "'");
}

// A kernel that never ends: run --kernel stops it at the limit and says so; the next run works.
TEST(GpuCheck, AnEndlessKernelIsStoppedAtTheLimit) {
    REQUIRE_GPU();
    const std::string dir = MakeTempDir("endless");
    const std::string endless = dir + "/endless.cu";
    std::ofstream(endless)
        << "__global__ void gemm_naive_kernel(int m, int n, int k, const float* a,"
           " const float* b, float* c) {\n"
           "    // clock64() is read anew each time and never goes back below 0: a loop the\n"
           "    // compiler can neither prove to end nor drop (a local volatile it may drop)\n"
           "    while (clock64() >= 0) {}\n"
           "    c[0] = 0.0f;\n"
           "}\n";
    const Output o =
        Cli("run gemm/naive --set m=64 --set n=64 --set k=64 --time-limit 3 --kernel " + endless);
    EXPECT_EQ(o.code, 1) << o.text;
    EXPECT_TRUE(Has(o.text, "ran longer than the limit of 3 s")) << o.text;
    const Output c = Cli("check gemm/naive --time-limit 3 --kernel " + endless);
    EXPECT_EQ(c.code, 1) << c.text;
    EXPECT_TRUE(Has(c.text, "ran longer than the limit of 3 s")) << c.text;
    EXPECT_TRUE(Has(c.text, "case 1")) << c.text;
    // The next run works.
    const Output solution = Cli("exercise gemm/naive --solution --format json", false);
    const std::string good = dir + "/good.cu";
    std::ofstream(good) << json::parse(solution.text)["solution"].get<std::string>();
    const Output next = Cli("run gemm/naive --set m=256 --set n=256 --set k=256 --kernel " + good);
    EXPECT_EQ(next.code, 0) << next.text;
    Sh("rm -rf '" + dir + "'");
}

}  // namespace
