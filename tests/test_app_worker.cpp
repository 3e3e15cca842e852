// The GUI's worker handling with real child processes: a fake worker that crashes mid-run, one
// of an older protocol, and the real `cuda-lessons-cli serve`.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <future>
#include <map>
#include <stdexcept>
#include <string_view>
#include <thread>

#include "catalog.h"
#include "cli_path.h"
#include "words/words.h"
#include "worker/controller.h"
#include "worker/worker_process.h"

using namespace lessons;
using namespace lessons::app;

namespace {

// A factory of workers that run tests/<name> under /bin/sh, counting each start in `started`.
auto ScriptWorkers(const std::string& name, int& started) {
    const std::string script = std::string(LESSONS_SOURCE_DIR) + "/tests/" + name;
    return [script, &started] {
        ++started;
        return std::make_unique<WorkerProcess>(std::vector<std::string>{"/bin/sh", script});
    };
}

// Calls Update() until `done` holds or 20 s pass.
template <typename Pred>
bool WaitFor(Controller& c, Pred done) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
        c.Update();
        if (done()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

// The lesson the catalogue gives for `name` (a label, an id or an old number); throws (failing
// the test) when there is none.
const Lesson& LessonNamed(std::string_view name) {
    const Lesson* lesson = Catalog().FindLesson(name);
    if (!lesson) throw std::runtime_error("no lesson " + std::string(name));
    return *lesson;
}

bool HasResult(const Controller& c, const Lesson& lesson) {
    for (const StoredResult& s : c.results())
        if (s.result.lesson == lesson.number && s.origin != Origin::kRecorded) return true;
    return false;
}

using Seconds = std::chrono::duration<double>;

// Runs `close` (which ends a worker) on another thread and returns the seconds it took, or -1
// when it had not returned after 60 s (hung: closing takes a few seconds at most, the worker's
// grace times of worker_process.cpp); then `unstick` is called so that the test can end. A hang
// guard only: how fast closing is belongs in no test.
template <typename Close, typename Unstick>
double TimedClose(Close close, Unstick unstick) {
    const auto start = std::chrono::steady_clock::now();
    std::future<void> closing = std::async(std::launch::async, close);
    if (closing.wait_for(std::chrono::seconds(60)) != std::future_status::ready) {
        unstick();
        closing.wait();
        return -1;
    }
    return Seconds(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST(AppWorker, AWorkerThatIgnoresShutdownAndSigtermIsKilledOnClose) {
    const std::string script = std::string(LESSONS_SOURCE_DIR) + "/tests/fake_worker_stubborn.sh";
    const std::string pid_file = ::testing::TempDir() + "/fake_worker_stubborn.pid";
    std::remove(pid_file.c_str());
    setenv("FAKE_WORKER_PID_FILE", pid_file.c_str(), 1);
    auto worker = std::make_unique<WorkerProcess>(std::vector<std::string>{"/bin/sh", script});
    std::string error;
    ASSERT_TRUE(worker->Start(&error)) << error;
    pid_t pid = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (pid <= 0 && std::chrono::steady_clock::now() < deadline) {
        std::ifstream(pid_file) >> pid;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ASSERT_GT(pid, 0) << "the fake worker never started";
    const double seconds = TimedClose([&] { worker.reset(); },
                                      [&] {
                                          kill(-pid, SIGKILL);
                                          kill(pid, SIGKILL);
                                      });
    ASSERT_GE(seconds, 0) << "closing hung: it still waited for the worker after 60 s";
    EXPECT_NE(kill(pid, 0), 0) << "the worker is still alive";
}

TEST(AppWorker, ClosingDuringASizeSweepEndsTheRealWorkerAtOnce) {
    auto c = std::make_unique<Controller>(
        Catalog(),
        [] {
            return std::make_unique<WorkerProcess>(std::vector<std::string>{CliPath(), "serve"});
        },
        std::vector<RunResult>{});
    c->Start();
    const Lesson& three = LessonNamed("split/openmp");
    ASSERT_TRUE(WaitFor(*c, [&] { return c->Mode(three) == LessonMode::kLive; }));
    RunSettings settings;
    settings.params = {{"size", ParamValue::Number(32 << 20)}, {"threads", ParamValue::Number(2)}};
    c->SweepSizes(three, settings);
    // Both sweeps (this lesson and the previous one, 16 sizes each) take many seconds; close during
    // the first.
    ASSERT_TRUE(WaitFor(*c, [&] { return c->Progress() >= 0 || !c->results().empty(); }));
    ASSERT_TRUE(c->Busy());
    EXPECT_TRUE(c->MeasuringCpuStep()) << "a CPU step is swept: the GUI draws a frame a second";
    const double seconds = TimedClose([&] { c.reset(); }, [] {});
    EXPECT_GE(seconds, 0) << "closing hung: it still waited for the sweep after 60 s";
}

TEST(AppWorker, AWorkerThatNeverSaysHelloIsStoppedWithAMessage) {
    int started = 0;
    Controller c(Catalog(), ScriptWorkers("fake_worker_silent.sh", started), {});
    c.SetHelloTimeout(std::chrono::seconds(2));
    c.Start();
    ASSERT_TRUE(WaitFor(c, [&] { return !c.notices().empty(); })) << c.WorkerState();
    const std::string notice = c.notices().back();
    EXPECT_NE(notice.find("said nothing"), std::string::npos) << notice;
    EXPECT_NE(notice.find("cuda-lessons-cli"), std::string::npos) << notice;
    EXPECT_EQ(c.WorkerState(), "cannot start");
    EXPECT_EQ(started, 1) << "not restarted";
}

TEST(AppWorker, AWorkerProgramThatIsNotFoundOrNotExecutableIsExplained) {
    const std::string not_executable = ::testing::TempDir() + "/cuda-lessons-cli-not-executable";
    std::ofstream(not_executable) << "#!/bin/sh\n";
    for (const auto& [program, what] :
         {std::pair<std::string, std::string>{"cuda-lessons-cli-not-on-path", "not found"},
          {not_executable, "not executable"}}) {
        int started = 0;
        Controller c(Catalog(),
                     [&] {
                         ++started;
                         // As the GUI starts a worker found on PATH: env exits 127 or 126.
                         return std::make_unique<WorkerProcess>(
                             std::vector<std::string>{"/usr/bin/env", program, "serve"});
                     },
                     {});
        c.SetWorkerHint("looked for it in /nowhere");
        c.Start();
        ASSERT_TRUE(WaitFor(c, [&] { return c.WorkerState() != "idle" && !c.notices().empty(); }))
            << program;
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        c.Update();
        const std::string notice = c.notices().back();
        EXPECT_NE(notice.find(what), std::string::npos) << notice;
        EXPECT_NE(notice.find("looked for it in /nowhere"), std::string::npos) << notice;
        EXPECT_EQ(c.WorkerState(), "cannot start") << program;
        EXPECT_EQ(started, 1) << "not restarted: " << program;
    }
}

TEST(AppWorker, FindWorkerSaysWhereItLookedAndWhatIsWrong) {
    const std::string dir = ::testing::TempDir() + "/find_worker";
    std::remove((dir + "/cuda-lessons-cli").c_str());
    mkdir(dir.c_str(), 0755);
    WorkerLocation where = FindWorker(dir);
    EXPECT_EQ(where.command,
              (std::vector<std::string>{"/usr/bin/env", "cuda-lessons-cli", "serve"}));
    EXPECT_NE(where.hint.find(dir + "/cuda-lessons-cli, " + dir + "/../cli/cuda-lessons-cli"),
              std::string::npos)
        << where.hint;
    EXPECT_NE(where.hint.find("PATH"), std::string::npos) << where.hint;
    std::ofstream(dir + "/cuda-lessons-cli") << "#!/bin/sh\n";
    where = FindWorker(dir);
    EXPECT_NE(where.hint.find(dir + "/cuda-lessons-cli exists but is not executable"),
              std::string::npos)
        << where.hint;
    chmod((dir + "/cuda-lessons-cli").c_str(), 0755);
    where = FindWorker(dir);
    EXPECT_EQ(where.command, (std::vector<std::string>{dir + "/cuda-lessons-cli", "serve"}));
}

TEST(AppWorker, AnOverlongLineIsDroppedWithANoticeAndReadingGoesOn) {
    const std::string script = std::string(LESSONS_SOURCE_DIR) + "/tests/fake_worker_no_newline.sh";
    WorkerProcess worker({"/bin/sh", script});
    std::string error;
    ASSERT_TRUE(worker.Start(&error)) << error;
    std::vector<Json> got;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    auto has_hello = [&] {
        for (const Json& m : got)
            if (m.value("type", "") == "hello") return true;
        return false;
    };
    while (!has_hello() && std::chrono::steady_clock::now() < deadline) {
        for (Json& m : worker.Drain()) got.push_back(std::move(m));
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ASSERT_TRUE(has_hello()) << "the line after the long one was not read";
    ASSERT_EQ(got.size(), 2u);
    const std::string notice = got[0].value("error", "");
    EXPECT_NE(notice.find("longer than 4 MiB"), std::string::npos) << notice.substr(0, 300);
    EXPECT_LT(notice.size(), 1000u);
    EXPECT_LE(worker.LargestBuffer(), (4u << 20) + 65536u) << "the long line was held whole";
}

TEST(AppWorker, CrashMidRunIsReportedRestartedAndResultsKept) {
    int started = 0;
    Controller c(Catalog(), ScriptWorkers("fake_worker_crash.sh", started), {});
    c.Start();
    const Lesson& three = LessonNamed("split/openmp");
    const Lesson& two = LessonNamed("split/even-positions");
    ASSERT_TRUE(WaitFor(c, [&] { return c.Mode(three) == LessonMode::kLive; }));
    RunSettings settings;
    settings.params["size"] = ParamValue::Number(1024);
    // 1.2 alone first (the lesson before it is not live here): a result before the crash.
    c.RunWithPrevious(two, settings);
    ASSERT_TRUE(WaitFor(c, [&] { return !c.Busy(); }));
    ASSERT_TRUE(HasResult(c, two));
    // 1.2 and 1.3, two CPU steps, are timed in turn in one request; the worker dies in it.
    c.RunWithPrevious(three, settings);
    ASSERT_TRUE(WaitFor(c, [&] { return c.restarts() == 1; }))
        << "the worker died and was restarted";
    EXPECT_EQ(started, 2);
    EXPECT_TRUE(HasResult(c, two)) << "the result that came before the crash is kept";
    ASSERT_FALSE(c.notices().empty());
    const std::string& notice = c.notices().back();
    EXPECT_NE(notice.find("stopped (exit code 3"), std::string::npos) << notice;
    EXPECT_NE(notice.find("while running lessons " + two.label + " and " + three.label +
                          ", timed in turn"),
              std::string::npos)
        << notice;
    EXPECT_EQ(Say("zh", notice).find("timed"), std::string::npos) << Say("zh", notice);
    EXPECT_NE(notice.find("every result so far is kept"), std::string::npos) << notice;
    // The new worker serves: the list arrives again and the previous lesson runs.
    ASSERT_TRUE(WaitFor(c, [&] { return !c.Busy() && c.Mode(three) == LessonMode::kLive; }));
    c.RunWithPrevious(two, settings);
    ASSERT_TRUE(WaitFor(c, [&] { return !c.Busy(); }));
    int two_results = 0;
    for (const StoredResult& s : c.results()) two_results += s.result.lesson == two.number;
    EXPECT_EQ(two_results, 2);
}

TEST(AppWorker, CrashLoopStopsRestartingAndSaysSo) {
    int started = 0;
    Controller c(Catalog(), ScriptWorkers("fake_worker_crash.sh", started), {});
    c.Start();
    const Lesson& three = LessonNamed("split/openmp");
    const std::string both = "running lessons " + LessonNamed("split/even-positions").label +
                             " and " + three.label + ", timed in turn";
    RunSettings settings;
    for (int i = 0; i < 3; ++i) {
        ASSERT_TRUE(WaitFor(c, [&] { return c.Mode(three) == LessonMode::kLive && !c.Busy(); }))
            << i;
        c.RunWithPrevious(three, settings);
        ASSERT_TRUE(WaitFor(c, [&] { return c.WorkerState() != both && !c.Busy(); }));
    }
    ASSERT_TRUE(WaitFor(c, [&] { return c.WorkerState() == "stopped"; }));
    EXPECT_NE(c.notices().back().find("not restarted"), std::string::npos) << c.notices().back();
    c.RestartWorker();
    EXPECT_TRUE(WaitFor(c, [&] { return c.WorkerState() == "idle"; }));
}

TEST(AppWorker, WorkerOfAnotherProtocolIsRefusedAndNotRestarted) {
    const std::string script = std::string(LESSONS_SOURCE_DIR) + "/tests/fake_worker_old.sh";
    const std::string log = ::testing::TempDir() + "/fake_worker_old.log";
    std::remove(log.c_str());
    int started = 0;
    Controller c(Catalog(),
                 [&] {
                     ++started;
                     return std::make_unique<WorkerProcess>(
                         std::vector<std::string>{"/bin/sh", script, log});
                 },
                 {});
    c.Start();
    ASSERT_TRUE(WaitFor(c, [&] { return c.WorkerState() == "refused"; })) << c.WorkerState();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    c.Update();
    EXPECT_EQ(started, 1) << "not restarted";
    ASSERT_FALSE(c.notices().empty());
    EXPECT_NE(c.notices().back().find("the worker speaks protocol 1, this program needs 2"),
              std::string::npos)
        << c.notices().back();
    std::ifstream received(log);
    std::string line;
    EXPECT_FALSE(std::getline(received, line)) << "it was sent: " << line;
}

TEST(AppWorker, MissingWorkerProgramIsReportedNotFatal) {
    Controller c(Catalog(),
                 [] {
                     return std::make_unique<WorkerProcess>(
                         std::vector<std::string>{"/nonexistent/cuda-lessons-cli", "serve"});
                 },
                 {});
    c.Start();
    ASSERT_FALSE(c.notices().empty());
    EXPECT_NE(c.notices().back().find("Cannot start the worker"), std::string::npos)
        << c.notices().back();
    EXPECT_EQ(c.WorkerState(), "cannot start");
}

TEST(AppWorker, RealWorkerRunsTheOpenMpLesson) {
    Controller c(
        Catalog(),
        [] {
            return std::make_unique<WorkerProcess>(std::vector<std::string>{CliPath(), "serve"});
        },
        {});
    c.Start();
    const Lesson& three = LessonNamed("split/openmp");
    ASSERT_TRUE(
        WaitFor(c, [&] { return c.Mode(three) == LessonMode::kLive && c.devices().reported; }));
    RunSettings settings;
    settings.params = {{"size", ParamValue::Number(1 << 20)}, {"threads", ParamValue::Number(2)}};
    c.RunWithPrevious(three, settings);
    ASSERT_TRUE(WaitFor(c, [&] { return !c.Busy(); }));
    const ParamValues values = ChapterValues(Catalog().ChapterOf(three), settings);
    EXPECT_EQ(values.Number("size"), 1u << 20);
    EXPECT_EQ(values.Choice("data"), "random");
    const StoredResult* r = c.Latest(three, values);
    ASSERT_NE(r, nullptr);
    EXPECT_TRUE(r->result.verified);
    EXPECT_EQ(r->result.Number("threads"), 2u);
    EXPECT_EQ(r->result.id, "split/openmp") << "named by its current id";
    EXPECT_EQ(r->result.trials, kCompareTrials) << "timed in turn with 1.2";
    const StoredResult* before = c.Latest(LessonNamed("split/even-positions"), values);
    ASSERT_NE(before, nullptr);
    EXPECT_EQ(before->result.trials, kCompareTrials);
    EXPECT_GE(before->result.reps, kMinReps);
}

// Every op the GUI sends (SentOps: the worker client's table, through which each request names its
// op) is one the real worker handles. Each is sent alone, without a lesson, "shutdown" last: each
// is answered with its "done", never with "unknown op".
TEST(AppWorker, EveryOpTheGuiSendsIsOneTheRealWorkerHandles) {
    std::vector<std::string> ops = SentOps();
    ASSERT_FALSE(ops.empty());
    const auto last = std::find(ops.begin(), ops.end(), OpName(Op::kShutdown));
    ASSERT_NE(last, ops.end()) << "the client ends its worker with shutdown";
    std::rotate(last, last + 1, ops.end());  // shutdown last: it ends the worker
    WorkerProcess worker({CliPath(), "serve"});
    std::string error;
    ASSERT_TRUE(worker.Start(&error)) << error;
    for (size_t i = 0; i < ops.size(); ++i)
        ASSERT_TRUE(worker.Send({{"op", ops[i]}, {"id", static_cast<int>(i) + 1}})) << ops[i];
    std::map<int, std::string> done, unknown;
    bool exited = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!exited && std::chrono::steady_clock::now() < deadline) {
        for (const Json& m : worker.Drain()) {
            const std::string type = m.value("type", "");
            const int id = m.contains("id") && m["id"].is_number_integer() ? m["id"].get<int>() : 0;
            if (type == "worker_exit") exited = true;
            if (type == "done") done[id] = m.value("status", "");
            if (type == "error" && m.value("error", "").rfind("unknown op", 0) == 0)
                unknown[id] = m["error"].get<std::string>();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_TRUE(exited) << "shutdown ends the worker";
    for (size_t i = 0; i < ops.size(); ++i) {
        const int id = static_cast<int>(i) + 1;
        EXPECT_EQ(unknown.count(id), 0u) << ops[i] << ": " << unknown[id];
        EXPECT_EQ(done.count(id), 1u) << ops[i] << " was not answered";
    }
}

// The worker is untrusted input: lines that are valid JSON of another shape become one notice
// each; the GUI goes on with the same worker, and an exit message the worker wrote itself is
// not taken for its exit (it used to start a second worker beside the first).
TEST(AppWorker, LinesOfTheWrongShapeAreNoticesAndCannotForgeAnExit) {
    int started = 0;
    Controller c(Catalog(), ScriptWorkers("fake_worker_hostile.sh", started), {});
    c.Start();
    const Lesson& three = LessonNamed("split/openmp");
    ASSERT_TRUE(WaitFor(c, [&] { return c.Mode(three) == LessonMode::kLive && !c.Busy(); }));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    c.Update();
    EXPECT_EQ(started, 1);
    EXPECT_EQ(c.restarts(), 0) << "a line that says worker_exit is not the worker's exit";
    EXPECT_EQ(c.WorkerState(), "idle");
    ASSERT_EQ(c.notices().size(), 10u);
    for (const std::string& n : c.notices()) {
        EXPECT_NE(n.find("cannot read"), std::string::npos) << n;
        EXPECT_EQ(n.find("json.exception"), std::string::npos) << n;
    }
}

// A worker that stops reading its input: the GUI's writes never block (the outbox waits), and
// after the stall limit the worker is stopped with a notice and replaced.
TEST(AppWorker, AWorkerThatStopsReadingNeverBlocksTheGuiAndIsReplaced) {
    const std::string script = std::string(LESSONS_SOURCE_DIR) + "/tests/fake_worker_deaf.sh";
    const std::string pid_file = ::testing::TempDir() + "/deaf_worker.pid";
    setenv("FAKE_WORKER_PID_FILE", pid_file.c_str(), 1);
    int started = 0;
    auto c = std::make_unique<Controller>(
        Catalog(),
        [&] {
            ++started;
            auto w = std::make_unique<WorkerProcess>(std::vector<std::string>{"/bin/sh", script});
            w->SetStallLimit(std::chrono::milliseconds(1500));
            return w;
        },
        std::vector<RunResult>{});
    c->Start();
    const Lesson& three = LessonNamed("split/openmp");
    ASSERT_TRUE(WaitFor(*c, [&] { return c->Mode(three) == LessonMode::kLive && !c->Busy(); }));
    RunSettings settings;
    settings.params["size"] = ParamValue::Number(1024);
    // Far more than a pipe holds (64 KiB): about 600 KB of requests.
    const double seconds = TimedClose(
        [&] {
            for (int i = 0; i < 1000; ++i) c->RunWithPrevious(three, settings);
        },
        [&] {  // ends the worker by its id, which ends the blocked write
            std::ifstream in(pid_file);
            pid_t pid = 0;
            if (in >> pid && pid > 0) kill(pid, SIGKILL);
        });
    ASSERT_GE(seconds, 0) << "hung: a write to the worker blocked for 60 s";
    ASSERT_TRUE(WaitFor(*c, [&] { return c->restarts() >= 1; })) << "the stuck worker was kept";
    bool said = false;
    for (const std::string& n : c->notices()) said = said || n.find("took no input") != n.npos;
    EXPECT_TRUE(said);
    EXPECT_GE(started, 2);
    const double closing = TimedClose([&] { c.reset(); }, [] {});
    EXPECT_GE(closing, 0) << "closing hung for 60 s";
    unsetenv("FAKE_WORKER_PID_FILE");
}
