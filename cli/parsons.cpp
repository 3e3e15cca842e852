// `parsons LESSON [--order 3,1,4,...]`: a chapter's Parsons problem (lessons/parsons.h). Without
// an order, the lines shuffled by the student's seed; with one, the kernel assembled in that
// order: which places are out of place (not what goes there), then compiled with NVRTC and, with
// a GPU, checked over the exercise's hidden cases by `check`'s own path. Each attempt that is
// read is kept in the progress file.
#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <iostream>
#include <string>

#include "catalog.h"
#include "check.h"
#include "commands.h"
#include "device.h"
#include "errors.h"
#include "exercise.h"
#include "exercise_runner.h"
#include "files.h"
#include "host.h"
#include "kernel_compile.h"
#include "parsons.h"
#include "progress.h"
#include "report.h"

namespace lessons::cli {

using json = nlohmann::ordered_json;

namespace {

const ParsonsProblem& FindParsonsOrThrow(const Lesson& lesson) {
    if (const ParsonsProblem* p = FindParsons(lesson.id)) return *p;
    std::string have;
    for (const ParsonsProblem& p : ParsonsProblems()) {
        const Lesson* l = RunnableCatalog().FindLesson(p.lesson);
        have += (have.empty() ? "" : ", ") + (l ? l->label + " (" + p.lesson + ")" : p.lesson);
    }
    throw UsageError(lesson.Name() +
                     " has no Parsons problem; each chapter's is on its key step: " + have);
}

uint64_t SeedOf(const ParsonsOptions& o, const std::string& lesson_id, std::string* student) {
    *student = StudentName();
    if (o.seed.empty()) return ParsonsSeed(*student, lesson_id);
    uint64_t seed = 0;
    const auto [ptr, ec] = std::from_chars(o.seed.data(), o.seed.data() + o.seed.size(), seed);
    if (ec != std::errc() || ptr != o.seed.data() + o.seed.size())
        throw UsageError("--seed '" + Excerpt(o.seed, 30) +
                         "' is not a whole number from 0 to 18446744073709551615");
    return seed;
}

// The GPU's architecture (90 for compute capability 9.0), or sm_90 without one.
int ArchHere() {
    const DeviceList& list = GetDevices();
    if (list.available() && !list.devices.empty())
        return list.devices.front().cc_major * 10 + list.devices.front().cc_minor;
    return kDefaultKernelArch;
}

std::string Places(const std::vector<int>& places) {
    std::string out;
    for (size_t i = 0; i < places.size(); ++i)
        out += (i == 0 ? "" : i + 1 == places.size() ? " and " : ", ") + std::to_string(places[i]);
    return out;
}

std::string PlacesZh(const std::vector<int>& places) {
    std::string out;
    for (size_t i = 0; i < places.size(); ++i)
        out += (i == 0 ? "" : "、") + std::to_string(places[i]);
    return out;
}

// The attempt, kept in the progress file; a file that cannot be written is said.
void Keep(const Lesson& lesson, const std::string& result) {
    try {
        std::string notice;
        UpdateProgress(
            ProgressPath(),
            [&](Progress& p) { RecordParsons(p, lesson.id, result, UtcTimestamp()); }, &notice);
        if (!notice.empty()) std::cerr << "note: " << notice << "\n";
    } catch (const std::exception& e) {
        std::cerr << "note: this attempt was not kept in your progress: " << e.what() << "\n";
    }
}

int ShowProblem(const Lesson& lesson, const ParsonsProblem& problem,
                const std::vector<size_t>& shown, uint64_t seed, const std::string& student,
                const ParsonsOptions& o, Format format) {
    const bool zh = o.lang == "zh";
    if (format == Format::kJson) {
        json lines = json::array();
        for (size_t i = 0; i < shown.size(); ++i)
            lines.push_back(json{{"n", i + 1}, {"text", problem.pool(shown[i])}});
        json out{{"lesson", lesson.label},
                 {"id", lesson.id},
                 {"kernel", problem.kernel},
                 {"student", student},
                 {"seed", seed},
                 {"core_lines", problem.core.size()},
                 {"lines", lines},
                 {"context_before", problem.context_before},
                 {"context_after", problem.context_after}};
        if (o.answer) out["answer"] = ParsonsAnswer(problem, shown);
        std::cout << out.dump(2) << "\n";
        return kExitOk;
    }
    std::cout << (zh ? "Parsons 题 " : "Parsons problem ") << lesson.label << " (" << lesson.id
              << "): " << (zh ? lesson.title_zh : lesson.title) << "\n\n"
              << (zh ? "把下面的行排成 " + problem.kernel + " 的核心部分（" +
                           std::to_string(problem.core.size()) +
                           " 行）；其中有几行是错的，不要用它们。缩进会自动补上。\n"
                     : "Put these lines in order to make the core of " + problem.kernel + " (" +
                           std::to_string(problem.core.size()) +
                           " lines); a few of them are wrong: leave those out. The indentation "
                           "is restored for you.\n")
              << (zh ? "打乱的种子：" : "shuffled with seed ") << seed
              << (student.empty() ? ""
                                  : (zh ? "（学生 " : " (student ") + student + (zh ? "）" : ")"))
              << (zh ? "；老师可用 --seed " : "; a teacher sees the same with --seed ") << seed
              << "\n\n"
              << (zh ? "你的行周围的 kernel：\n" : "The kernel around your lines:\n")
              << problem.context_before << (zh ? "    [你的行]\n" : "    [your lines]\n")
              << problem.context_after << "\n"
              << (zh ? "行：\n" : "Lines:\n");
    for (size_t i = 0; i < shown.size(); ++i)
        std::cout << (i + 1 < 10 ? "   " : "  ") << i + 1 << "  " << problem.pool(shown[i]) << "\n";
    if (o.answer) {
        std::string order;
        for (const int n : ParsonsAnswer(problem, shown))
            order += (order.empty() ? "" : ",") + std::to_string(n);
        std::cout << "\n"
                  << (zh ? "答案（给老师）：--order " : "The answer (for a teacher): --order ")
                  << order << "\n";
    }
    std::cout << "\n"
              << (zh ? "排好后：cuda-lessons-cli parsons " : "Then: cuda-lessons-cli parsons ")
              << lesson.label << " --order 3,1,4,..." << (o.seed.empty() ? "" : " --seed " + o.seed)
              << "\n";
    return kExitOk;
}

}  // namespace

int Parsons(const std::string& key, const ParsonsOptions& o, Format format) {
    const Lesson& lesson = FindLessonOrThrow(key);
    if (format == Format::kCsv) throw UsageError("parsons writes a table or json, not csv");
    if (o.lang != "en" && o.lang != "zh")
        throw UsageError("unknown language '" + Excerpt(o.lang, 20) + "': use en or zh");
    const ParsonsProblem& problem = FindParsonsOrThrow(lesson);
    std::string student;
    const uint64_t seed = SeedOf(o, lesson.id, &student);
    const std::vector<size_t> shown = ParsonsShuffle(problem, seed);
    if (o.order.empty()) return ShowProblem(lesson, problem, shown, seed, student, o, format);

    const bool zh = o.lang == "zh";
    std::string unreadable;
    const std::vector<int> order = ParseParsonsOrder(o.order, shown.size(), &unreadable);
    if (!unreadable.empty()) throw UsageError("--order: " + unreadable);
    const ParsonsAttempt a = AssembleParsons(problem, shown, order);
    json out{{"lesson", lesson.label}, {"id", lesson.id}, {"seed", seed}, {"order", order}};
    json lines = json::array();
    for (size_t i = 0; i < a.lines.size(); ++i)
        lines.push_back(json{{"place", i + 1}, {"n", order[i]}, {"text", a.lines[i]}});
    out["lines"] = lines;
    out["out_of_place"] = a.out_of_place;
    out["missing"] = a.missing;
    out["in_lesson_order"] = a.in_order;
    out["core"] = a.core;
    const bool table = format == Format::kTable;
    if (table) {
        std::cout << (zh ? "你的顺序（种子 " : "your order (seed ") << seed
                  << (zh ? "）：\n" : "):\n");
        std::vector<bool> flagged(a.lines.size() + 1, false);
        for (const int p : a.out_of_place) flagged[static_cast<size_t>(p)] = true;
        const std::vector<std::string> indented = [&] {
            std::vector<std::string> v;
            for (size_t start = 0; start < a.core.size();) {
                const size_t end = a.core.find('\n', start);
                v.push_back(a.core.substr(start, end - start));
                start = end + 1;
            }
            return v;
        }();
        for (size_t i = 0; i < a.lines.size(); ++i)
            std::cout << (flagged[i + 1] ? " x " : "   ") << (i + 1 < 10 ? " " : "") << i + 1
                      << " [" << order[i] << "] " << indented[i] << "\n";
        if (a.out_of_place.empty() && a.missing == 0)
            std::cout << (zh ? "顺序与本课的 kernel 一致。\n" : "The order is the lesson's own.\n");
        if (!a.out_of_place.empty())
            std::cout << (zh ? "第 " + PlacesZh(a.out_of_place) +
                                   " 个位置不对（一行错的，或一行对的放错了地方；不说是哪种）。\n"
                             : std::string(a.out_of_place.size() == 1 ? "Place " : "Places ") +
                                   Places(a.out_of_place) +
                                   (a.out_of_place.size() == 1 ? " is" : " are") +
                                   " out of place (a wrong line, or a right line in the wrong "
                                   "place: which, is not said). Marked x.\n");
        if (a.missing > 0)
            std::cout << (zh ? "kernel 还缺 " + std::to_string(a.missing) +
                                   " 行（被放在一边了）。\n"
                             : std::to_string(a.missing) +
                                   (a.missing == 1 ? " line of the kernel is"
                                                   : " lines of the kernel are") +
                                   " set aside.\n");
    }

    // Compiled as the exercise's kernel is (its spec, this GPU's architecture).
    const KernelSpec spec = ExerciseKernelSpec(RunnableCatalog(), lesson, problem.kernel);
    const CompileResult c = CompileKernel(a.source, spec, ArchHere(), CancelFlag());
    json diagnostics = json::array();
    for (const Diagnostic& d : c.diagnostics) {
        const int place = d.file == kKernelFileName ? a.PlaceOfSourceLine(d.line) : 0;
        diagnostics.push_back(json{{"place", place > 0 ? json(place) : json()},
                                   {"line", d.line},
                                   {"severity", d.severity},
                                   {"message", d.message}});
    }
    out["compile"] = json{{"status", ToString(c.status)},
                          {"message", c.message},
                          {"arch", c.arch},
                          {"diagnostics", diagnostics}};
    const auto finish = [&](const std::string& result, int rc) {
        out["result"] = result;
        out["solved"] = result == "solved";
        Keep(lesson, result);
        if (format == Format::kJson) std::cout << out.dump(2) << "\n";
        return rc;
    };
    if (c.status == CompileStatus::kUnavailable) {
        std::cerr << "error: " << c.message << "\n";
        out["result"] = "not compiled";
        if (format == Format::kJson) std::cout << out.dump(2) << "\n";
        return kExitFailed;
    }
    if (!c.ok()) {
        if (table) {
            std::cout << (zh ? "没有编译通过（" : "It did not compile (") << c.Errors()
                      << (zh                ? " 个错误）：\n"
                          : c.Errors() == 1 ? " error):\n"
                                            : " errors):\n");
            for (const Diagnostic& d : c.diagnostics) {
                const bool in_kernel = d.file == kKernelFileName;
                const int place = in_kernel ? a.PlaceOfSourceLine(d.line) : 0;
                std::string where;
                if (place > 0)
                    where = zh ? "第 " + std::to_string(place) + " 个位置"
                               : "place " + std::to_string(place);
                else if (in_kernel)
                    where = zh ? "你的行之外（kernel 第 " + std::to_string(d.line) + " 行）"
                               : "outside your lines (line " + std::to_string(d.line) +
                                     " of the kernel)";
                else
                    where = zh ? "kernel 之后（练习对 kernel 名字和签名的检查）"
                               : "after the kernel (the exercise's check of its name and "
                                 "signature)";
                std::cout << "  " << where << ": " << d.severity << ": " << d.message << "\n";
            }
            if (c.diagnostics.empty() && !c.message.empty()) std::cout << "  " << c.message << "\n";
        }
        return finish("did not compile", kExitFailed);
    }
    if (table)
        std::cout << (zh ? "编译通过（" : "It compiled (") << c.arch << ", " << c.kernel.registers
                  << (zh ? " 个寄存器）。\n" : " registers).\n");
    const DeviceList& devices = GetDevices();
    if (!devices.available()) {
        const std::string note =
            zh ? "已编译，未检查：需要 GPU（" + devices.unavailable.text + "）"
               : "compiled, not checked: needs a GPU (" + devices.unavailable.text + ")";
        out["checked"] = false;
        out["not_checked"] = note;
        if (table) std::cout << note << "\n";
        return finish("not checked", kExitFailed);
    }
    // Checked as `check` checks an exercise's kernel: the same hidden cases, guard zones and time
    // limit; without the speed target (the order is what is asked) and kept as a Parsons attempt.
    const TempFile file(a.source, "parsons", "the assembled kernel");
    KernelCheckOptions check;
    check.lang = o.lang;
    check.time_limit_s = o.time_limit_s;
    check.no_speed = true;
    check.record = false;
    check.json_out = [&](const json& j) { out["check"] = j; };
    if (table) std::cout << "\n";
    const int rc = CheckKernel(lesson.id, file.path(), check, format);
    out["checked"] = true;
    const bool solved = rc == kExitOk;
    if (table)
        std::cout << (solved ? (zh ? "解出来了：组装的 kernel 通过了全部隐藏用例。\n"
                                   : "Solved: the kernel your order makes passes every hidden "
                                     "case.\n")
                             : (zh ? "还没解出来：组装的 kernel 没有通过检查。\n"
                                   : "Not solved yet: the kernel your order makes does not pass "
                                     "the check.\n"));
    return finish(solved ? "solved" : "wrong", solved ? kExitOk : kExitFailed);
}

}  // namespace lessons::cli
