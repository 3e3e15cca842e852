// exercise and run --kernel: a student's kernel for a step, compiled with NVRTC and, with a
// GPU, run through the step's harness (the same data, check and timing).
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <functional>
#include <map>
#include <mutex>

#include "catalog.h"
#include "check.h"
#include "commands.h"
#include "device.h"
#include "errors.h"
#include "exercise.h"
#include "exercise_runner.h"
#include "files.h"
#include "host.h"
#include "kernel_change.h"
#include "nvrtc_loader.h"
#include "progress.h"
#include "report.h"
#include "units.h"

namespace lessons::cli {

using json = nlohmann::ordered_json;

namespace {

const Exercise& FindExerciseOrThrow(const Lesson& lesson) {
    const Exercise* e = FindExercise(lesson.id);
    if (e) return *e;
    std::string have;
    for (const Exercise& x : Exercises()) {
        const Lesson* l = RunnableCatalog().FindLesson(x.lesson);
        have += (have.empty() ? "" : ", ") + (l ? l->label + " (" + x.lesson + ")" : x.lesson);
    }
    throw UsageError(lesson.Name() + " has no exercise yet; exercises: " + have +
                     " (see 'cuda-lessons-cli exercise')");
}

// How the student's kernel for `lesson` is compiled: its step kind's exercise spec, with the
// kernel's name from the step's source (Exercise::kernel).
KernelSpec SpecOf(const Lesson& lesson, const Exercise& exercise) {
    return ExerciseKernelSpec(RunnableCatalog(), lesson, exercise.kernel);
}

// "__global__ void name(types)", or why this build cannot say (no CUDA: the step kinds'
// exercise implementations live in the GPU library).
std::string SignatureOf(const Lesson& lesson, const Exercise& exercise) {
    try {
        return "__global__ void " + exercise.kernel + "(" + SpecOf(lesson, exercise).signature +
               ")";
    } catch (const UnavailableError& e) {
        return "__global__ void " + exercise.kernel + "(...) [" + e.what() + "]";
    }
}

// The student's file, read whole if it is a regular file of at most kMaxKernelSourceBytes; a
// larger one is refused (`refusal` says why, and nothing is read).
std::string ReadKernelFile(const std::string& path, std::string* refusal) {
    const uint64_t size = RegularFileSize(path, "kernel file");
    if (size > kMaxKernelSourceBytes) {
        *refusal = "the kernel file is " + std::to_string(size) + " bytes, more than the " +
                   std::to_string(kMaxKernelSourceBytes / 1024) + " KiB a kernel file may have";
        return "";
    }
    std::string text(size, '\0');
    ReadRegularFile(path, text.data(), size, CancelFlag(), "kernel file");
    return text;
}

// This GPU's architecture (compute capability 9.0: 90), or sm_90 without a GPU.
// `spec`'s architecture suffix (sm_90a) is named in the note as the compile uses it.
int TargetArch(const KernelSpec& spec, std::string* note) {
    const DeviceList& list = GetDevices();
    if (list.available() && !list.devices.empty())
        return list.devices.front().cc_major * 10 + list.devices.front().cc_minor;
    *note = "no GPU here (" + list.unavailable.text + "): compiled for sm_" +
            std::to_string(kDefaultKernelArch) + spec.arch_suffix +
            ", the architecture of the reference GPUs (H100, H200)";
    return kDefaultKernelArch;
}

json ResourcesJson(const KernelResources& k) {
    return json{{"symbol", k.function},
                {"registers", k.registers},
                {"spill_store_bytes", k.spill_store_bytes},
                {"spill_load_bytes", k.spill_load_bytes},
                {"stack_bytes", k.stack_bytes},
                {"shared_bytes", k.shared_bytes},
                {"barriers", k.barriers}};
}

// NVRTC's own file for looking the kernel's name up ("__nv_name_map"): where the student's
// kernel has another name, its error ("Error in parsing name expression for lowered name
// lookup") only repeats, in the compiler's internal words, what the exercise's signature check
// says in ours. Dropped wherever another error explains the failure (review 2026-11-28, row
// 29), as the GUI does; kept when it is the only account.
void DropNameLookupEcho(CompileResult* c) {
    const auto echo = [](const Diagnostic& d) { return d.file == "__nv_name_map"; };
    const bool explained =
        std::any_of(c->diagnostics.begin(), c->diagnostics.end(),
                    [&](const Diagnostic& d) { return !echo(d) && d.severity == "error"; });
    if (!explained) return;
    c->diagnostics.erase(std::remove_if(c->diagnostics.begin(), c->diagnostics.end(), echo),
                         c->diagnostics.end());
}

json CompileJson(const CompileResult& c, const std::string& path) {
    json diagnostics = json::array();
    for (const Diagnostic& d : c.diagnostics)
        diagnostics.push_back(json{{"file", d.file == kKernelFileName ? path : d.file},
                                   {"line", d.line},
                                   {"column", d.column},
                                   {"severity", d.severity},
                                   {"message", d.message}});
    json out{{"file", path},
             {"status", ToString(c.status)},
             {"message", c.message},
             {"arch", c.arch},
             {"options", c.options},
             {"compiler", nvrtc::Describe()},
             {"errors", c.Errors()},
             {"warnings", c.Warnings()},
             {"diagnostics", diagnostics},
             {"kernel", c.ok() ? ResourcesJson(c.kernel) : json()},
             {"log", c.log},
             {"ptx", c.ptx}};
    return out;
}

std::string ResourcesText(const KernelResources& k) {
    return std::to_string(k.registers) + " registers, " +
           std::to_string(k.spill_store_bytes + k.spill_load_bytes) + " bytes spilled (stores " +
           std::to_string(k.spill_store_bytes) + ", loads " + std::to_string(k.spill_load_bytes) +
           "), " + std::to_string(k.stack_bytes) + " B stack, " + std::to_string(k.shared_bytes) +
           " B static shared memory, " + std::to_string(k.barriers) + " barriers";
}

}  // namespace

namespace {

// What compiling the student's file for the CLI gave.
struct Compiled {
    json out;                                // the command's json so far: the lesson, the compile
    int rc = kExitOk;                        // the exit code when it goes no further
    std::string why_not;                     // why it goes no further
    std::shared_ptr<StudentKernel> student;  // null when it goes no further (refused, not
                                             // compiled, no GPU to run it)
};

// Reads and compiles the student's file for the CLI (run --kernel, check), printing what the
// compiler said in `format`.
Compiled CompileForCli(const Lesson& lesson, const Exercise& exercise, const std::string& path,
                       Format format) {
    Compiled r;
    r.out = json{{"lesson", lesson.label}, {"id", lesson.id}, {"kernel", exercise.kernel}};
    json& out = r.out;
    std::string refusal;
    const std::string source = ReadKernelFile(path, &refusal);
    const KernelSpec spec = SpecOf(lesson, exercise);
    std::string arch_note;
    const int arch = TargetArch(spec, &arch_note);
    CompileResult c;
    if (refusal.empty()) {
        c = CompileKernel(source, spec, arch, CancelFlag());
        DropNameLookupEcho(&c);
    } else {  // as CompileKernel refuses it, without reading it
        c.arch = "sm_" + std::to_string(spec.arch_suffix.empty() ? arch : 90) + spec.arch_suffix;
        c.message = refusal;
    }
    out["compile"] = CompileJson(c, path);
    if (c.status == CompileStatus::kRefused) {
        std::cerr << "error: '" << Excerpt(path) << "' refused: " << c.message << "\n";
        r.rc = kExitUsage, r.why_not = c.message;
        return r;
    }
    if (c.status == CompileStatus::kUnavailable) {
        std::cerr << "error: " << c.message << "\n";
        r.rc = kExitFailed, r.why_not = c.message;
        return r;
    }
    if (c.status == CompileStatus::kError) {
        // Diagnostics with a line say it all; otherwise (an error ptxas reports, a limit, a
        // crash) the log is the only account, so the table shows it too, as json does.
        if (format == Format::kTable) {
            std::cout << FormatDiagnostics(c, path);
            if (c.Errors() == 0 && !c.log.empty()) {
                std::cout << "the compiler's log:\n" << c.log;
                if (c.log.back() != '\n') std::cout << "\n";
            }
        }
        std::cerr << "error: your kernel for " << lesson.Name() << " did not compile (";
        if (c.Errors() > 0) std::cerr << c.Errors() << (c.Errors() == 1 ? " error, " : " errors, ");
        std::cerr << c.arch << "): " << c.message << "\n";
        r.rc = c.stopped ? kExitFailed : kExitUsage, r.why_not = "it did not compile";
        return r;
    }
    if (format == Format::kTable) {
        std::cout << "lesson " << lesson.label << " (" << lesson.id << "): your " << exercise.kernel
                  << " compiled for " << c.arch << " (" << nvrtc::Describe() << ")\n  "
                  << ResourcesText(c.kernel) << "\n";
        if (c.Warnings() > 0) std::cout << FormatDiagnostics(c, path);
        if (!arch_note.empty()) std::cout << "  " << arch_note << "\n";
    }
    const DeviceList& devices = GetDevices();
    if (!devices.available()) {
        r.why_not = "running it needs an NVIDIA GPU: " + devices.unavailable.text;
        r.rc = kExitFailed;
        return r;
    }
    r.student = std::make_shared<StudentKernel>();
    r.student->name = exercise.kernel;
    r.student->lowered_name = c.lowered_name;
    r.student->cubin = c.cubin;
    return r;
}

// The watchdog's account of a run past the limit, on stderr (and as json on stdout).
std::function<void(const std::string&)> LimitMessage(const Lesson& lesson, double limit_s,
                                                     Format format, const json* so_far) {
    return [&lesson, limit_s, format, so_far](const std::string& label) {
        const std::string text = "your kernel for " + lesson.Name() +
                                 " ran longer than the limit of " + Fixed(limit_s, 0) + " s" +
                                 (label.empty() ? "" : " (" + label + ")") +
                                 ": it was stopped with this process; the next run starts afresh "
                                 "(--time-limit SECONDS to allow more)";
        if (format == Format::kJson) {
            json out = so_far ? *so_far : json::object();
            out["timed_out"] = true;
            out["time_limit_s"] = limit_s;
            out["message"] = text;
            std::cout << out.dump(2) << "\n";
        }
        std::cerr << "error: " << text << "\n";
    };
}

}  // namespace

int RunKernel(const std::string& key, const std::string& path, const Options& options,
              Format format, double time_limit_s, bool guard_zones) {
    const Lesson& lesson = FindLessonOrThrow(key);
    const Exercise& exercise = FindExerciseOrThrow(lesson);
    if (format == Format::kCsv) throw UsageError("run --kernel writes a table or json, not csv");
    CheckRun(RunnableCatalog(), lesson, options.run);  // bad options, on every machine
    if (const std::string conflict = FixedParamsConflict(exercise, options.run.params);
        !conflict.empty())
        throw UsageError(conflict);
    Compiled attempt = CompileForCli(lesson, exercise, path, format);
    json& out = attempt.out;
    const std::string& why_not = attempt.why_not;
    if (!attempt.student) {
        if (why_not.starts_with("running it needs")) std::cerr << "note: " << why_not << "\n";
        if (format == Format::kJson) {
            out["run"] = json();
            out["not_run"] = why_not;
            std::cout << out.dump(2) << "\n";
        }
        return attempt.rc;
    }
    const Lesson yours = WithStudentKernel(RunnableCatalog(), lesson, attempt.student);
    Session session(RunnableCatalog());
    RunResult r;
    std::vector<GuardDamage> damage;
    {
        KernelWatchdog watchdog(time_limit_s, LimitMessage(lesson, time_limit_s, format, &out));
        watchdog.Arm("");
        // Guard zones around the step's buffers (unless asked not to): a write past an end is a
        // wrong run even where the answer is right. They are filled when the buffers are made
        // and read when they are freed, never inside the timed runs.
        TakeGuardDamage();
        SetGuardZones(guard_zones);
        try {
            r = session.Run(yours, options.run, CancelControl());
        } catch (...) {
            SetGuardZones(false);
            throw;
        }
        SetGuardZones(false);
        damage = TakeGuardDamage();
        watchdog.Disarm();
    }
    if (!damage.empty() && r.verified) {
        r.verified = false;
        r.check_message = damage.front().text;
    }
    out["guard_zones"] = guard_zones;
    if (format == Format::kJson) {
        out["run"] = ToJson(r);
        std::cout << out.dump(2) << "\n";
    } else {
        std::cout << "  " << (r.verified ? "verified against the CPU reference" : "WRONG") << ": "
                  << "median " << Ms(r.median_ms) << " ms (min " << Ms(r.min_ms) << ", max "
                  << Ms(r.max_ms) << ") over " << r.reps << " runs, " << Fixed(r.Rate(), 1) << " "
                  << r.RateUnit() << "\n";
    }
    if (!r.verified)
        std::cerr << "your kernel for " << lesson.Name()
                  << " gave a WRONG result: " << r.check_message << "\n";
    return r.verified ? kExitOk : kExitFailed;
}

namespace {

// The path of this program, to run it again under compute-sanitizer.
std::string SelfPath() {
    char buffer[4096];
    const ssize_t n = readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
    return n > 0 ? std::string(buffer, static_cast<size_t>(n)) : std::string();
}

// compute-sanitizer on PATH, or "".
std::string FindOnPath(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::string_view rest = path ? path : "";
    while (!rest.empty()) {
        const size_t colon = rest.find(':');
        const std::string dir(rest.substr(0, colon));
        rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
        const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
        if (access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return "";
}

// Runs `argv` and waits for it; its exit code (128 + signal when killed), -1 when it could not
// start.
int RunProgram(const std::vector<std::string>& args) {
    const pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        std::vector<char*> argv;
        for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv(argv[0], argv.data());
        std::_Exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) return -1;
    }
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return -1;
}

}  // namespace

namespace {

// A check whose cases ran, kept in the progress file (lessons/progress.h) for the student and
// their teacher; a file that cannot be written is said, and the check's answer stands.
void RecordCheckProgress(const Lesson& lesson, size_t failed, size_t total, bool right,
                         const SpeedVerdict& speed, const ChangeVerdict& change) {
    CheckRecord r;
    r.correct = right;
    r.change = !change.judged ? "" : change.present ? "found" : "missing";
    r.cases_failed = static_cast<int>(failed);
    r.cases_total = static_cast<int>(total);
    r.speed_judged = speed.judged;
    r.speed_met = speed.passed;
    r.yours_ms = speed.yours_ms;
    r.step_ms = speed.step_ms;
    try {
        std::string notice;
        UpdateProgress(
            ProgressPath(), [&](Progress& p) { RecordCheck(p, lesson.id, r, UtcTimestamp()); },
            &notice);
        if (!notice.empty()) std::cerr << "note: " << notice << "\n";
    } catch (const std::exception& e) {
        std::cerr << "note: this check was not kept in your progress: " << e.what() << "\n";
    }
}

// The step's change in the student's kernel (lessons/kernel_change.h), from the PTX of its
// compile (`compile`, CompileJson's object): the step's start and solution compiled for the same
// architecture. Not judged where the student's kernel did not compile.
ChangeVerdict ChangeOfCompile(const Lesson& lesson, const Exercise& exercise, const json& compile) {
    if (compile.value("status", "") != ToString(CompileStatus::kOk)) {
        ChangeVerdict v;
        v.why_not = "your kernel did not compile";
        v.why_not_zh = "你的 kernel 没有编译通过";
        return v;
    }
    const KernelSpec spec = SpecOf(lesson, exercise);
    std::string note;
    const int arch = TargetArch(spec, &note);
    return JudgeChange(StepChangeOf(exercise, lesson, spec, arch, CancelFlag()),
                       compile.value("ptx", ""));
}

// The last student kernel StudentForWorker compiled, per lesson: its compile object, for the
// worker's `check` that follows it in the same request (engine/serve.cpp: student, then check).
std::mutex g_worker_compiles_mutex;
std::map<std::string, json> g_worker_compiles;

}  // namespace

int CheckKernel(const std::string& key, const std::string& path, const KernelCheckOptions& o,
                Format format) {
    const Lesson& lesson = FindLessonOrThrow(key);
    const Exercise& exercise = FindExerciseOrThrow(lesson);
    if (format == Format::kCsv) throw UsageError("check writes a table or json, not csv");
    if (o.lang != "en" && o.lang != "zh")
        throw UsageError("unknown language '" + Excerpt(o.lang, 20) + "': use en or zh");
    const bool zh = o.lang == "zh";
    if (o.memcheck) {
        const std::string sanitizer = FindOnPath("compute-sanitizer");
        if (sanitizer.empty()) {
            std::cerr << "error: compute-sanitizer is not installed here (not on PATH), so the "
                         "memory checker cannot run; 'check' without --memcheck still checks "
                         "every case with guard zones around each buffer\n";
            return kExitFailed;
        }
        // The same check, under memcheck: its report, then the check's own lines. A kernel
        // under memcheck runs many times slower, so its time limit is 20 times as long.
        std::vector<std::string> args = {
            sanitizer,
            "--tool",
            "memcheck",
            "--print-limit",
            "20",
            "--error-exitcode",
            "86",
            SelfPath(),
            "check",
            lesson.id,
            "--kernel",
            path,
            "--lang",
            o.lang,
            "--format",
            format == Format::kJson ? "json" : "table",
            "--time-limit",
            Fixed(std::min(o.time_limit_s * 20, kMaxKernelTimeLimitS), 0),
            "--no-guard-zones",
            "--no-speed"};
        std::cout.flush();
        std::cerr << (zh ? "在 compute-sanitizer memcheck 下运行全部用例："
                         : "running every case under compute-sanitizer memcheck: ")
                  << sanitizer << "\n";
        const int rc = RunProgram(args);
        if (rc == 86) {
            std::cerr << (zh ? "memcheck 报告了内存错误（见上面的报告）\n"
                             : "memcheck reported memory errors (its report is above)\n");
            return kExitFailed;
        }
        if (rc < 0) {
            std::cerr << "error: could not start " << sanitizer << "\n";
            return kExitFailed;
        }
        std::cerr << (zh ? "memcheck 没有报告内存错误\n" : "memcheck reported no memory error\n");
        return rc;
    }
    const ExerciseCaseSet set = CasesOf(RunnableCatalog(), lesson);
    Compiled attempt = CompileForCli(lesson, exercise, path, format);
    json& out = attempt.out;
    const std::string& why_not = attempt.why_not;
    if (!attempt.student) {
        const bool compiled = out["compile"]["status"] == ToString(CompileStatus::kOk);
        const std::string note = compiled ? (zh ? "已编译，未检查：需要 GPU（"
                                                : "compiled, not checked: needs a GPU (") +
                                                why_not + (zh ? "）" : ")")
                                          : why_not;
        ChangeVerdict change;
        if (compiled) {
            change = ChangeOfCompile(lesson, exercise, out["compile"]);
            std::cerr << note << "\n";
            if (format == Format::kTable)
                std::cout << (zh ? "速度：未评判（需要 GPU）\n"
                                 : "speed: not judged (needs a GPU)\n")
                          << ChangeText(change, zh);
        }
        if (format == Format::kJson) {
            out["checked"] = false;
            out["not_checked"] = note;
            out["cases"] = json::array();
            if (compiled) {
                out["speed"] = ToJson(SpeedNotJudged(why_not, "运行它需要 NVIDIA GPU"));
                out["change"] = ToJson(change);
            }
            if (o.json_out)
                o.json_out(out);
            else
                std::cout << out.dump(2) << "\n";
        }
        return attempt.rc;
    }
    RawParams fixed;
    for (const ExerciseParam& f : exercise.fixed) fixed.emplace_back(f.name, f.value);
    const Lesson yours = WithStudentKernel(RunnableCatalog(), lesson, attempt.student);
    Session session(RunnableCatalog());
    out["cases"] = json::array();
    KernelWatchdog watchdog(o.time_limit_s, LimitMessage(lesson, o.time_limit_s, format, &out));
    if (format == Format::kTable)
        std::cout << (zh ? "隐藏用例 " : "hidden cases ") << set.cases.size()
                  << (o.guard_zones ? (zh ? " 个（每个缓冲区前后都有保护区）：\n"
                                          : ", each with guard zones around its buffers:\n")
                                    : (zh ? " 个（没有保护区）：\n" : ", without guard zones:\n"));
    const std::vector<CaseOutcome> outcomes = RunCases(
        session, yours, set, fixed, CancelControl(),
        [&](const CaseOutcome& c, size_t i, size_t total) {
            watchdog.Disarm();
            out["cases"].push_back(ToJson(c));
            if (format != Format::kTable) return;
            std::cout << "  [" << i + 1 << "/" << total << "] "
                      << (c.passed ? (zh ? "通过  " : "passed ") : (zh ? "失败  " : "FAILED "))
                      << (zh ? c.name_zh : c.name);
            if (c.ran) std::cout << " (" << Ms(c.ms) << " ms)";
            std::cout << "\n";
            if (!c.passed) {
                const std::string& m = zh && !c.message_zh.empty() ? c.message_zh : c.message;
                std::cout << "      " << (zh ? "第一处不符：" : "first mismatch: ") << m << "\n";
                for (size_t g = 1; g < c.guards.size(); ++g)
                    std::cout << "      " << (zh ? c.guards[g].text_zh : c.guards[g].text) << "\n";
            }
            std::cout.flush();
        },
        [&](const ExerciseCase& c, size_t i) {
            watchdog.Arm("case " + std::to_string(i + 1) + ", " + c.name);
        },
        o.guard_zones);
    watchdog.Disarm();
    size_t failed = 0;
    for (const CaseOutcome& c : outcomes) failed += c.passed ? 0 : 1;
    // The speed target, apart from correctness: judged only where every case passed.
    std::string wrong, wrong_zh;
    SpeedVerdict speed =
        failed > 0 ? SpeedNotJudged("a hidden case failed: speed is judged only for a right kernel",
                                    "有隐藏用例失败：只有正确的 kernel 才评判速度")
        : o.no_speed ? SpeedNotJudged("left out (--no-speed)", "已略去（--no-speed）")
                     : MeasureSpeed(
                           session, yours, lesson, fixed, CancelControl(),
                           [&](const std::string& phase) {
                               if (phase == "yours")
                                   watchdog.Arm("timing at the default settings");
                               else
                                   watchdog.Disarm();
                           },
                           &wrong, &wrong_zh);
    watchdog.Disarm();
    const bool right = failed == 0 && wrong.empty();
    // The third verdict: the step's change is in the kernel (a right, fast start is no pass).
    const ChangeVerdict change = ChangeOfCompile(lesson, exercise, out["compile"]);
    const bool passed = right && change.present;
    out["checked"] = true;
    out["cases_total"] = outcomes.size();
    out["cases_failed"] = failed;
    out["right"] = right;
    out["passed"] = passed;
    if (!wrong.empty()) {
        out["wrong_at_default"] = wrong;
        out["wrong_at_default_zh"] = wrong_zh;
    }
    out["speed"] = ToJson(speed);
    out["change"] = ToJson(change);
    if (o.record) RecordCheckProgress(lesson, failed, outcomes.size(), right, speed, change);
    if (format == Format::kJson) {
        if (o.json_out)
            o.json_out(out);
        else
            std::cout << out.dump(2) << "\n";
    } else {
        if (!wrong.empty())
            std::cout << (zh ? "计时运行的结果不对，" : "the timed run was WRONG ")
                      << (zh ? wrong_zh : wrong) << "\n";
        std::cout << (passed ? (zh ? "全部 " : "all ") + std::to_string(outcomes.size()) +
                                   (zh ? " 个用例通过，且有这一步的改动：你的 kernel 通过了检查\n"
                                       : " cases passed and the step's change is in it: your "
                                         "kernel passes the check\n")
                      : right ? (zh ? "全部 " : "all ") + std::to_string(outcomes.size()) +
                                    (zh ? " 个用例通过，但你的 kernel "
                                          "里还没有这一步的改动：它还没有通过检查\n"
                                        : " cases passed, but the step's change is not in your "
                                          "kernel: it does not pass the check yet\n")
                      : failed == 0
                          ? (zh ? "你的 kernel 没有通过检查\n"
                                : "your kernel does not pass the check\n")
                          : std::to_string(failed) + (zh ? " / " : " of ") +
                                std::to_string(outcomes.size()) +
                                (zh ? " 个用例失败：你的 kernel 没有通过检查\n"
                                    : " cases FAILED: your kernel does not pass the check\n"))
                  << SpeedText(speed, zh) << "\n"
                  << ChangeText(change, zh);
    }
    // The exit status is the pass's (right, and the step's change in it): a passing kernel that
    // misses the speed target exits 0 (the speed verdict is in the output).
    return passed ? kExitOk : kExitFailed;
}

json CheckForWorker(const Lesson& yours, const Lesson& lesson, const RunControl& control,
                    const std::function<void(const json&, int, int)>& emit,
                    const std::function<void(const std::string&)>& timing) {
    const DeviceList& devices = GetDevices();
    if (!devices.available())
        return json{
            {"checked", false},
            {"passed", false},
            {"not_checked",
             "compiled, not checked: needs a GPU (" + devices.unavailable.text + ")"},
            {"not_checked_zh", "已编译，未检查：需要 GPU（" + devices.unavailable.text + "）"},
            {"speed", ToJson(SpeedNotJudged("needs a GPU (" + devices.unavailable.text + ")",
                                            "需要 GPU（" + devices.unavailable.text + "）"))}};
    const ExerciseCaseSet set = CasesOf(RunnableCatalog(), lesson);
    RawParams fixed;
    if (const Exercise* e = FindExercise(lesson.id))
        for (const ExerciseParam& f : e->fixed) fixed.emplace_back(f.name, f.value);
    Session session(RunnableCatalog());
    const std::vector<CaseOutcome> outcomes = RunCases(
        session, yours, set, fixed, control, [&](const CaseOutcome& c, size_t i, size_t total) {
            emit(ToJson(c), static_cast<int>(i), static_cast<int>(total));
        });
    size_t failed = 0;
    for (const CaseOutcome& c : outcomes) failed += c.passed ? 0 : 1;
    std::string wrong, wrong_zh;
    const SpeedVerdict speed =
        failed > 0
            ? SpeedNotJudged("a hidden case failed: speed is judged only for a right kernel",
                             "有隐藏用例失败：只有正确的 kernel 才评判速度")
            : MeasureSpeed(session, yours, lesson, fixed, control, timing, &wrong, &wrong_zh);
    // The step's change, from the compile StudentForWorker made of this kernel.
    ChangeVerdict change;
    change.why_not = "your kernel's compile is not known to the checker";
    change.why_not_zh = "检查器不知道你的 kernel 的编译结果";
    json compile;
    {
        const std::lock_guard<std::mutex> lock(g_worker_compiles_mutex);
        if (const auto it = g_worker_compiles.find(lesson.id); it != g_worker_compiles.end())
            compile = it->second;
    }
    if (const Exercise* e = FindExercise(lesson.id); e && !compile.is_null())
        change = ChangeOfCompile(lesson, *e, compile);
    const bool right = failed == 0 && wrong.empty();
    json out{{"checked", true},
             {"right", right},
             {"passed", right && change.present},
             {"cases_total", outcomes.size()},
             {"cases_failed", failed}};
    if (!wrong.empty()) {
        out["wrong_at_default"] = wrong;
        out["wrong_at_default_zh"] = wrong_zh;
    }
    out["speed"] = ToJson(speed);
    out["change"] = ToJson(change);
    return out;
}

StudentBuild StudentForWorker(const Lesson& lesson, const std::string& source,
                              const RawParams* params, const std::atomic<bool>* cancel) {
    StudentBuild b;
    const Exercise* exercise = FindExercise(lesson.id);
    if (!exercise) {
        b.problem = lesson.Name() + " has no exercise: there is no kernel of yours to compile";
        b.compile = json{{"status", ToString(CompileStatus::kRefused)}, {"message", b.problem}};
        return b;
    }
    if (params) b.problem = FixedParamsConflict(*exercise, *params);
    if (!b.problem.empty()) {
        b.compile = json{{"status", ToString(CompileStatus::kRefused)}, {"message", b.problem}};
        return b;
    }
    KernelSpec spec;
    try {
        spec = SpecOf(lesson, *exercise);
    } catch (const UnavailableError& e) {
        b.problem = e.what();
        b.status = "unavailable";
        b.compile = json{{"status", ToString(CompileStatus::kUnavailable)}, {"message", b.problem}};
        return b;
    }
    std::string arch_note;
    const int arch = TargetArch(spec, &arch_note);
    CompileResult c = CompileKernel(source, spec, arch, cancel);
    DropNameLookupEcho(&c);
    b.compile = CompileJson(c, kKernelFileName);
    b.compile["arch_note"] = arch_note;
    b.compiled = c.ok();
    {
        const std::lock_guard<std::mutex> lock(g_worker_compiles_mutex);
        if (c.ok())
            g_worker_compiles[lesson.id] = b.compile;
        else
            g_worker_compiles.erase(lesson.id);
    }
    if (!c.ok()) {
        b.status = c.status == CompileStatus::kUnavailable ? "unavailable" : "error";
        b.problem = c.status == CompileStatus::kError
                        ? "your kernel did not compile (" + std::to_string(c.Errors()) +
                              (c.Errors() == 1 ? " error" : " errors") + ", " + c.arch +
                              "): " + c.message
                        : c.message;
        return b;
    }
    auto student = std::make_shared<StudentKernel>();
    student->name = exercise->kernel;
    student->lowered_name = c.lowered_name;
    student->cubin = c.cubin;
    try {
        b.lesson = WithStudentKernel(RunnableCatalog(), lesson, student);
    } catch (const UnavailableError& e) {
        b.problem = e.what();
        b.status = "unavailable";
    } catch (const UsageError& e) {
        b.problem = e.what();
    }
    return b;
}

namespace {

// The choices the exercise's kernel is written for: {"tile": "..."}.
json FixedJson(const Exercise& e) {
    json fixed = json::object();
    for (const ExerciseParam& f : e.fixed) fixed[f.name] = f.value;
    return fixed;
}

}  // namespace

int ShowExercise(const std::string& key, const ExerciseOptions& o, Format format) {
    if (format == Format::kCsv) throw UsageError("exercise writes a table or json, not csv");
    if (key.empty()) {  // every exercise
        json all = json::array();
        TextTable table({"#", "id", "kernel", "starting file"});
        for (const Exercise& e : Exercises()) {
            const Lesson* l = RunnableCatalog().FindLesson(e.lesson);
            all.push_back(json{{"lesson", l ? l->label : ""},
                               {"id", e.lesson},
                               {"kernel", e.kernel},
                               {"signature", l ? SignatureOf(*l, e) : ""},
                               {"hints", e.hints.size()},
                               {"fixed", FixedJson(e)}});
            table.AddRow({l ? l->label : "?", e.lesson, e.kernel, e.start});
        }
        if (format == Format::kJson)
            std::cout << all.dump(2) << "\n";
        else
            std::cout << table.Render()
                      << "Show one: cuda-lessons-cli exercise LESSON [--hints N] [--solution] "
                         "[--write FILE]; check yours: cuda-lessons-cli run LESSON --kernel FILE\n";
        return kExitOk;
    }
    const Lesson& lesson = FindLessonOrThrow(key);
    const Exercise& e = FindExerciseOrThrow(lesson);
    if (o.hints < 0 || o.hints > static_cast<int>(e.hints.size()))
        throw UsageError("--hints " + std::to_string(o.hints) + ": this exercise has " +
                         std::to_string(e.hints.size()) + " hints (0 to " +
                         std::to_string(e.hints.size()) + ")");
    if (o.lang != "en" && o.lang != "zh")
        throw UsageError("unknown language '" + Excerpt(o.lang, 20) + "': use en or zh");
    const std::string_view start = StartingFile(e);
    if (!o.write.empty()) WriteNewFile(o.write, start);  // never over their work
    const bool zh = o.lang == "zh";
    if (format == Format::kJson) {
        json hints = json::array();
        for (int i = 0; i < o.hints; ++i)
            hints.push_back(json{{"en", e.hints[i].en}, {"zh", e.hints[i].zh}});
        json out{{"lesson", lesson.label},
                 {"id", lesson.id},
                 {"title", lesson.title},
                 {"kernel", e.kernel},
                 {"signature", SignatureOf(lesson, e)},
                 {"task_en", e.task_en},
                 {"task_zh", e.task_zh},
                 {"hints_total", e.hints.size()},
                 {"hints", hints},
                 {"start_path", e.start},
                 {"start", std::string(start)},
                 {"fixed", FixedJson(e)},
                 {"written_to", o.write}};
        if (o.solution) out["solution"] = SolutionOf(lesson);
        std::cout << out.dump(2) << "\n";
        return kExitOk;
    }
    std::cout << "Exercise " << lesson.label << " (" << lesson.id
              << "): " << (zh ? lesson.title_zh : lesson.title) << "\n\n"
              << (zh ? e.task_zh : e.task_en) << "\n\n"
              << (zh ? "签名（由 harness 固定）：" : "Signature (fixed by the harness): ")
              << SignatureOf(lesson, e) << "\n";
    for (const ExerciseParam& f : e.fixed)
        std::cout << (zh ? "按此设置编写（你的 kernel 只在此设置下运行）："
                         : "Written for (your kernel runs only at it): ")
                  << f.name << "=" << f.value << "\n";
    for (int i = 0; i < o.hints; ++i)
        std::cout << "\n"
                  << (zh ? "提示 " : "Hint ") << i + 1 << ": "
                  << (zh ? e.hints[i].zh : e.hints[i].en) << "\n";
    if (o.hints < static_cast<int>(e.hints.size()))
        std::cout << "\n"
                  << e.hints.size() - o.hints << " more hint(s): --hints " << o.hints + 1 << "\n";
    if (!o.write.empty()) std::cout << "\nStarting file written to " << o.write << "\n";
    std::cout << "Check yours: cuda-lessons-cli run " << lesson.label << " --kernel FILE.cu\n";
    if (o.solution) std::cout << "\n--- the lesson's own kernel ---\n" << SolutionOf(lesson);
    return kExitOk;
}

int ShowProgress(Format format) {
    const std::string path = ProgressPath();
    if (path.empty()) throw UsageError("no folder holds the progress: set HOME or XDG_DATA_HOME");
    std::string problem;
    bool corrupt = false;
    const Progress p = ReadProgress(path, &problem, &corrupt);
    if (!problem.empty()) {
        std::cerr << "error: the progress file cannot be read whole: " << problem
                  << (corrupt ? " (it is left as it is; the next check or the GUI sets it aside "
                                "as " +
                                    path + ".corrupt-<time> and starts a new one)"
                              : "")
                  << "\n";
        if (p.empty()) return kExitFailed;
    }
    const auto label = [](const std::string& id) {
        const Lesson* l = RunnableCatalog().FindLesson(id);
        return l ? l->label : std::string();
    };
    if (format == Format::kCsv) {
        std::cout << ProgressCsv(p, StudentName(), label);
    } else if (format == Format::kJson) {
        json out = ProgressExport(p, StudentName(), label);
        out["file"] = path;
        std::cout << out.dump(2) << "\n";
    } else {
        std::cout << "progress kept in " << path << (p.empty() ? " (none yet)" : "") << "\n";
        if (!p.exercises.empty()) {
            TextTable t({"#", "exercise", "passed", "speed target", "yours / step ms", "checks",
                         "last checked"});
            for (const auto& [id, e] : p.exercises)
                t.AddRow({label(id), id, e.correct ? "yes (" + e.correct_at + ")" : "no",
                          e.speed_met        ? "met (" + e.speed_met_at + ")"
                          : e.best_ratio > 0 ? "not met"
                                             : "not judged",
                          e.best_ratio > 0 ? Ms(e.yours_ms) + " / " + Ms(e.step_ms) : "-",
                          std::to_string(e.checks), e.last_at});
            std::cout << t.Render();
        }
        if (!p.predictions.empty()) {
            TextTable t({"#", "prediction", "guess", "measured", "off by", "when"});
            for (const auto& [id, q] : p.predictions)
                t.AddRow({label(id), id, q.skipped ? "skipped" : Fixed(q.value, 3) + " " + q.unit,
                          q.measured ? Fixed(*q.measured, 3) + " " + q.unit : "-",
                          q.off_by ? Fixed(*q.off_by, 2) + "x" : "-", q.made_at});
            std::cout << t.Render();
        }
        if (!p.parsons.empty()) {
            TextTable t({"#", "Parsons problem", "solved", "attempts", "last", "last tried"});
            for (const auto& [id, q] : p.parsons)
                t.AddRow({label(id), id, q.solved ? "yes (" + q.solved_at + ")" : "no",
                          std::to_string(q.attempts), q.last_result, q.last_at});
            std::cout << t.Render();
        }
    }
    return problem.empty() ? kExitOk : kExitFailed;
}

}  // namespace lessons::cli
