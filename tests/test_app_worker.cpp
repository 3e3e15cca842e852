// The GUI's worker handling with real child processes: a fake worker that crashes mid-run, one
// of an older protocol, and the real `cuda-lessons-cli serve`.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

#include "catalog.h"
#include "cli_path.h"
#include "controller.h"
#include "worker_process.h"

using namespace lessons;
using namespace lessons::app;

namespace {

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

bool HasResult(const Controller& c, int lesson) {
    for (const StoredResult& s : c.results())
        if (s.result.lesson == lesson && s.origin != Origin::kRecorded) return true;
    return false;
}

}  // namespace

TEST(AppWorker, CrashMidRunIsReportedRestartedAndResultsKept) {
    const std::string script = std::string(LESSONS_SOURCE_DIR) + "/tests/fake_worker_crash.sh";
    int started = 0;
    Controller c(
        Catalog(),
        [&] {
            ++started;
            return std::make_unique<WorkerProcess>(std::vector<std::string>{"/bin/sh", script});
        },
        {});
    c.Start();
    const Lesson& three = *Catalog().FindLesson(3);
    ASSERT_TRUE(WaitFor(c, [&] { return c.Mode(three) == LessonMode::kLive; }));
    RunSettings settings;
    settings.params["size"] = "1024";
    c.RunWithPrevious(three, settings);
    ASSERT_TRUE(WaitFor(c, [&] { return c.restarts() == 1; }))
        << "the worker died and was restarted";
    EXPECT_EQ(started, 2);
    EXPECT_TRUE(HasResult(c, 2)) << "the result that came before the crash is kept";
    ASSERT_FALSE(c.notices().empty());
    const std::string& notice = c.notices().back();
    EXPECT_NE(notice.find("stopped (exit code 3"), std::string::npos) << notice;
    EXPECT_NE(notice.find("while running lesson 3"), std::string::npos) << notice;
    EXPECT_NE(notice.find("every result so far is kept"), std::string::npos) << notice;
    // The new worker serves: the list arrives again and lesson 2 runs.
    ASSERT_TRUE(WaitFor(c, [&] { return !c.Busy() && c.Mode(three) == LessonMode::kLive; }));
    c.RunWithPrevious(*Catalog().FindLesson(2), settings);
    ASSERT_TRUE(WaitFor(c, [&] { return !c.Busy(); }));
    int lesson2_results = 0;
    for (const StoredResult& s : c.results()) lesson2_results += s.result.lesson == 2;
    EXPECT_EQ(lesson2_results, 2);
}

TEST(AppWorker, CrashLoopStopsRestartingAndSaysSo) {
    const std::string script = std::string(LESSONS_SOURCE_DIR) + "/tests/fake_worker_crash.sh";
    Controller c(
        Catalog(),
        [&] {
            return std::make_unique<WorkerProcess>(std::vector<std::string>{"/bin/sh", script});
        },
        {});
    c.Start();
    const Lesson& three = *Catalog().FindLesson(3);
    RunSettings settings;
    for (int i = 0; i < 3; ++i) {
        ASSERT_TRUE(WaitFor(c, [&] { return c.Mode(three) == LessonMode::kLive && !c.Busy(); }))
            << i;
        c.RunWithPrevious(three, settings);
        ASSERT_TRUE(WaitFor(
            c, [&] { return c.WorkerState() != "running lesson 2, lesson 3" && !c.Busy(); }));
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

TEST(AppWorker, RealWorkerRunsLessonThree) {
    Controller c(
        Catalog(),
        [] {
            return std::make_unique<WorkerProcess>(std::vector<std::string>{CliPath(), "serve"});
        },
        {});
    c.Start();
    const Lesson& three = *Catalog().FindLesson(3);
    ASSERT_TRUE(
        WaitFor(c, [&] { return c.Mode(three) == LessonMode::kLive && !c.device().empty(); }));
    RunSettings settings;
    settings.params = {{"size", std::to_string(1 << 20)}, {"threads", "2"}};
    c.RunWithPrevious(three, settings);
    ASSERT_TRUE(WaitFor(c, [&] { return !c.Busy(); }));
    const ParamValues values = ChapterValues(Catalog().ChapterOf(three), settings);
    EXPECT_EQ(values.Number("size"), 1u << 20);
    EXPECT_EQ(values.Choice("data"), "random");
    const StoredResult* r = c.Latest(3, values);
    ASSERT_NE(r, nullptr);
    EXPECT_TRUE(r->result.verified);
    EXPECT_EQ(r->result.Number("threads"), 2u);
    EXPECT_NE(c.Latest(2, values), nullptr);
}
