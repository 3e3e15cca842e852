// The ranks of chapter 7's multi-process steps, without a GPU: the launcher (RankGroup) with
// small shell programs standing in for ranks (answering, dying, hanging, failing, starting a
// child of their own), its settings from the environment, the alpha-beta fit, and the CLI's
// `rank` entry refusing bad arguments.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "allreduce_chapter.h"
#include "catalog.h"
#include "cli_path.h"
#include "errors.h"
#include "rank_group.h"
#include "shell.h"

namespace lessons::allreduce {
namespace {

using namespace std::chrono_literals;

RankSpec Sh(const std::string& script, std::vector<std::string> env = {}) {
    return RankSpec{{"/bin/sh", "-c", script}, std::move(env), "test"};
}

std::string FailureOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const RankError& e) {
        return e.what();
    }
    return "no RankError";
}

TEST(RankGroup, RequestsAndAnswersGoBothWaysAndStopEndsEveryRank) {
    std::vector<pid_t> pids;
    {
        RankGroup g({Sh("while read l; do [ \"$l\" = quit ] && exit 0; echo \"got $l\"; done"),
                     Sh("while read l; do [ \"$l\" = quit ] && exit 0; echo \"two $l\"; done")},
                    5s);
        ASSERT_EQ(g.size(), 2);
        g.SendAll("hello");
        EXPECT_EQ(g.ReceiveAll(), (std::vector<std::string>{"got hello", "two hello"}));
        g.Send(1, "again");
        EXPECT_EQ(g.Receive(1), "two again");
        EXPECT_NE(g.Name(1).find("rank 1 (test, pid "), std::string::npos) << g.Name(1);
        pids = {g.pid(0), g.pid(1)};
    }
    for (pid_t p : pids) EXPECT_FALSE(ProcessAlive(p)) << p;
}

TEST(RankGroup, AKilledRankIsNamedWithItsSignalAndTheOthersEnd) {
    RankGroup g({Sh("read l; echo fine; sleep 1000"), Sh("read l; kill -9 $$")}, 10s);
    const pid_t first = g.pid(0);
    g.SendAll("go");
    const std::string e = FailureOf([&] { g.ReceiveAll(); });
    EXPECT_NE(e.find("rank 1 ("), std::string::npos) << e;
    EXPECT_NE(e.find("killed by signal 9"), std::string::npos) << e;
    EXPECT_FALSE(ProcessAlive(first)) << "rank 0 was left waiting";
}

TEST(RankGroup, ARankThatExitsSaysItsStatusAndItsLastOutput) {
    RankGroup g({Sh("echo 'cuda: no device' >&2; exit 4")}, 10s);
    const std::string e = FailureOf([&] { g.Receive(0); });
    EXPECT_NE(e.find("rank 0 (test, pid "), std::string::npos) << e;
    EXPECT_NE(e.find("exited with status 4"), std::string::npos) << e;
    EXPECT_NE(e.find("cuda: no device"), std::string::npos) << e;
}

TEST(RankGroup, AHungRankIsNamedAfterTheTimeoutAndWhatItStartedEndsToo) {
    const std::string file = ::testing::TempDir() + "/rank_child_" + std::to_string(getpid());
    RankGroup g({Sh("echo up; sleep 1000 & echo $! > " + file + "; wait"),
                 Sh("echo up; read l; echo answered")},
                300ms);
    EXPECT_EQ(g.ReceiveAll(), (std::vector<std::string>{"up", "up"}));
    pid_t grandchild = 0;
    for (int i = 0; i < 100 && !grandchild; ++i) {
        std::ifstream(file) >> grandchild;
        std::this_thread::sleep_for(10ms);
    }
    ASSERT_GT(grandchild, 0);
    EXPECT_TRUE(ProcessAlive(grandchild));
    g.SendAll("go");
    // "did not answer in" is said only once the 300 ms have passed; a hang is ctest's to catch.
    const std::string e = FailureOf([&] { g.ReceiveAll(); });
    EXPECT_NE(e.find("rank 0 ("), std::string::npos) << e;
    EXPECT_NE(e.find("did not answer in"), std::string::npos) << e;
    for (int i = 0; i < 100 && ProcessAlive(grandchild); ++i) std::this_thread::sleep_for(10ms);
    EXPECT_FALSE(ProcessAlive(grandchild)) << "the rank's own child was left";
    std::remove(file.c_str());
}

TEST(RankGroup, AnErrorAnswerIsNamedAtOnceWhileTheOthersStillWait) {
    RankGroup g({Sh("sleep 1000"), Sh("echo 'error ncclCommInitRank: unhandled system error'")},
                30s);
    // Waiting for the silent rank would end in its "rank 0 ... did not answer in 30 s": the
    // message tells "at once" from "after the timeout", with no clock in the test.
    const std::string e = FailureOf([&] { g.ReceiveAll(); });
    EXPECT_NE(e.find("rank 1 (test, pid "), std::string::npos) << e;
    EXPECT_EQ(e.find("did not answer"), std::string::npos) << e;
    EXPECT_NE(e.find("failed: ncclCommInitRank: unhandled system error"), std::string::npos) << e;
}

TEST(RankGroup, AMissingProgramIsNamed) {
    RankGroup g({RankSpec{{"/nonexistent/cuda-lessons-cli", "rank"}, {}, "GPU 0"}}, 10s);
    const std::string e = FailureOf([&] { g.Receive(0); });
    EXPECT_NE(e.find("rank 0 (GPU 0, pid "), std::string::npos) << e;
    EXPECT_NE(e.find("exited with status 127"), std::string::npos) << e;
    EXPECT_NE(e.find("/nonexistent/cuda-lessons-cli"), std::string::npos) << e;
}

TEST(RankGroup, SendingToADeadRankIsAnErrorNotSigpipe) {
    RankGroup g({Sh("exit 0")}, 10s);
    std::this_thread::sleep_for(200ms);
    std::string e;
    for (int i = 0; i < 50 && e.empty(); ++i) {  // the first writes may still be buffered
        try {
            g.Send(0, std::string(1 << 16, 'x'));
        } catch (const RankError& err) {
            e = err.what();
        }
    }
    EXPECT_NE(e.find("rank 0 ("), std::string::npos) << e;
}

TEST(RankGroup, SettingsAreAddedReplacedAndRemoved) {
    setenv("RANKS_TEST_KEEP", "kept", 1);
    setenv("RANKS_TEST_DROP", "there", 1);
    setenv("RANKS_TEST_SET", "old", 1);
    RankGroup g({Sh("echo \"$RANKS_TEST_KEEP ${RANKS_TEST_DROP-gone} $RANKS_TEST_SET $RANKS_NEW\"",
                    {"RANKS_TEST_DROP", "RANKS_TEST_SET=new", "RANKS_NEW=added"})},
                10s);
    EXPECT_EQ(g.Receive(0), "kept gone new added");
    unsetenv("RANKS_TEST_KEEP");
    unsetenv("RANKS_TEST_DROP");
    unsetenv("RANKS_TEST_SET");
}

TEST(RankGroup, CancellingStopsTheWait) {
    std::atomic<bool> cancel{false};
    RankGroup g({Sh("sleep 1000")}, 60s, &cancel);
    std::thread t([&] {
        std::this_thread::sleep_for(200ms);
        cancel = true;
    });
    EXPECT_THROW(g.Receive(0), Cancelled);
    t.join();
}

TEST(RankSettings, TheTimeoutHostsAndShellComeFromTheEnvironmentAndBadOnesAreSaid) {
    std::string note;
    unsetenv("CUDA_LESSONS_RANK_TIMEOUT");
    EXPECT_EQ(RankTimeout(120s, &note), 120s);
    setenv("CUDA_LESSONS_RANK_TIMEOUT", "7", 1);
    EXPECT_EQ(RankTimeout(120s, &note), 7s);
    EXPECT_TRUE(note.empty());
    for (const char* bad : {"0", "-3", "1e9", "ten", "90000", "5s"}) {
        note.clear();
        setenv("CUDA_LESSONS_RANK_TIMEOUT", bad, 1);
        EXPECT_EQ(RankTimeout(120s, &note), 120s) << bad;
        EXPECT_NE(note.find("CUDA_LESSONS_RANK_TIMEOUT"), std::string::npos) << bad;
    }
    unsetenv("CUDA_LESSONS_RANK_TIMEOUT");

    unsetenv("CUDA_LESSONS_HOSTS");
    EXPECT_TRUE(RankHosts().empty());
    setenv("CUDA_LESSONS_HOSTS", " nodeA, node-b.example.org ,10.0.0.3,", 1);
    EXPECT_EQ(RankHosts(), (std::vector<std::string>{"nodeA", "node-b.example.org", "10.0.0.3"}));
    setenv("CUDA_LESSONS_HOSTS", "me@nodeA,fe80::1", 1);
    EXPECT_EQ(RankHosts(), (std::vector<std::string>{"me@nodeA", "fe80::1"}));
    for (const char* bad : {"a,,b", "a;rm -rf /", "-oProxyCommand=x", "a b", "host:22", "@host",
                            "-o@host", "a@b@c", "me@"}) {
        setenv("CUDA_LESSONS_HOSTS", bad, 1);
        EXPECT_THROW(RankHosts(), UsageError) << bad;
    }
    unsetenv("CUDA_LESSONS_HOSTS");

    unsetenv("CUDA_LESSONS_RSH");
    EXPECT_EQ(RemoteShell(), (std::vector<std::string>{"ssh", "-o", "BatchMode=yes"}));
    setenv("CUDA_LESSONS_RSH", "  ssh  -p 2222 ", 1);
    EXPECT_EQ(RemoteShell(), (std::vector<std::string>{"ssh", "-p", "2222"}));
    unsetenv("CUDA_LESSONS_RSH");
    EXPECT_TRUE(IsThisHost("localhost"));
    EXPECT_FALSE(IsThisHost("no-such-host-of-ours.invalid"));
}

TEST(AlphaBeta, TheFitRecoversTheModelsConstants) {
    // T = 2 (G - 1) alpha + 2 (G - 1) / G S / beta with alpha = 20 us, beta = 3 GB/s, G = 2.
    const double alpha_ms = 0.020, beta = 3e6;  // bytes per ms
    std::vector<std::pair<uint64_t, double>> points;
    for (uint64_t s = 4096; s <= (uint64_t(1) << 30); s *= 4)
        points.push_back({s, 2 * alpha_ms + double(s) / beta});
    AlphaBetaFit fit = FitAlphaBeta(points, 2);
    ASSERT_TRUE(fit.ok) << fit.why;
    EXPECT_NEAR(fit.alpha_us, 20.0, 0.01);
    EXPECT_NEAR(fit.beta_gbps, 3.0, 1e-6);
    EXPECT_LT(fit.worst_error, 1e-9);
    // With 4 GPUs the same times mean other constants.
    fit = FitAlphaBeta(points, 4);
    ASSERT_TRUE(fit.ok);
    EXPECT_NEAR(fit.alpha_us, 2 * 20.0 / 6, 0.01);
    EXPECT_NEAR(fit.beta_gbps, 4.5, 1e-6);  // 2 (G - 1) / G = 1.5 times the G = 2 figure
    // Noise of a few percent keeps them near.
    for (size_t i = 0; i < points.size(); ++i) points[i].second *= i % 2 ? 1.04 : 0.97;
    fit = FitAlphaBeta(points, 2);
    ASSERT_TRUE(fit.ok);
    EXPECT_NEAR(fit.alpha_us, 20.0, 2.0);
    EXPECT_NEAR(fit.beta_gbps, 3.0, 0.2);
    EXPECT_GT(fit.worst_error, 0.02);
}

TEST(AlphaBeta, TooFewSizesOneGpuOrTimesThatFallAreNotFitted) {
    EXPECT_FALSE(FitAlphaBeta({{4096, 1.0}}, 2).ok);
    EXPECT_FALSE(FitAlphaBeta({{4096, 1.0}, {4096, 1.1}}, 2).ok);
    EXPECT_FALSE(FitAlphaBeta({{4096, 1.0}, {1 << 20, 2.0}}, 1).ok);
    const AlphaBetaFit falling = FitAlphaBeta({{4096, 5.0}, {1 << 20, 1.0}}, 2);
    EXPECT_FALSE(falling.ok);
    EXPECT_FALSE(falling.why.empty());
    EXPECT_FALSE(FitAlphaBeta({{4096, std::nan("")}, {1 << 20, -1.0}}, 2).ok);
}

TEST(AlphaBeta, TheChapterPrintsTheFitInBothLanguages) {
    const Lesson* l = Catalog().FindLesson("allreduce/leaving-nvlink");
    ASSERT_NE(l, nullptr);
    const Chapter& chapter = Catalog().ChapterOf(*l);
    ASSERT_TRUE(chapter.size_fit);
    std::vector<std::pair<uint64_t, double>> points;
    for (uint64_t s = 4096; s <= (uint64_t(1) << 30); s *= 4)
        points.push_back({s, 0.05 + double(s) / 2.8e6});  // alpha 25 us, beta 2.8 GB/s at G = 2
    ParamValues p;
    p.Set("gpus", ParamValue::Number(2));
    unsetenv("CUDA_LESSONS_HOSTS");
    const Chapter::Fit fit = chapter.size_fit(points, p);
    EXPECT_NE(fit.en.find("G = 2: alpha = 25.00 us per step, beta = 2.8 GB/s per link"),
              std::string::npos)
        << fit.en;
    EXPECT_NE(fit.zh.find("alpha = 每步 25.00 us，beta = 每条链路 2.8 GB/s"), std::string::npos)
        << fit.zh;
    // Across two hosts the same gpus is twice the ranks.
    setenv("CUDA_LESSONS_HOSTS", "nodeA,nodeB", 1);
    EXPECT_NE(chapter.size_fit(points, p).en.find("G = 4"), std::string::npos);
    unsetenv("CUDA_LESSONS_HOSTS");
}

std::string CliOutput(const std::string& args, int* code) {
    const Output out = Cli(args);
    *code = out.code;
    return out.text;
}

TEST(RankEntry, TheCliRefusesARankWithoutALessonOrWithBadArguments) {
    int code = 0;
    std::string out = CliOutput("rank", &code);
    EXPECT_EQ(code, 2);
    EXPECT_NE(out.find("started by that step"), std::string::npos) << out;
    out = CliOutput("rank allreduce/nccl", &code);  // a one-process step
    EXPECT_EQ(code, 2);
    EXPECT_NE(out.find("(allreduce/nccl) is not a multi-process step"), std::string::npos) << out;
    out = CliOutput("rank 1.1", &code);  // a lesson that exists
    EXPECT_EQ(code, 2);
    EXPECT_NE(out.find("lesson 1.1 (split/naive-scan) is not a multi-process step"),
              std::string::npos)
        << out;
    out = CliOutput("rank no/such", &code);
    EXPECT_EQ(code, 2);
    EXPECT_NE(out.find("'no/such' is no such lesson"), std::string::npos) << out;
    out = CliOutput(
        "rank allreduce/one-process-per-gpu --rank 0 --rank 0 --ranks 1 --device 0 --count 4 "
        "--data ones --seed 1",
        &code);
    EXPECT_EQ(code, 2) << out;
    EXPECT_NE(out.find("--rank is given twice"), std::string::npos) << out;
    const Lesson* l = Catalog().FindLesson("allreduce/one-process-per-gpu");
    ASSERT_NE(l, nullptr);
    out = CliOutput(
        "rank allreduce/one-process-per-gpu --rank 3 --ranks 2 --device 0 --count 4 "
        "--data ones --seed 1",
        &code);
    EXPECT_EQ(code, 2) << out;
    EXPECT_EQ(out, "error rank: --rank must be below --ranks\n");
    out = CliOutput(
        "rank allreduce/one-process-per-gpu --rank 0 --ranks 1 --device 0 --count 4 "
        "--data ones --seed 1 --evil 1",
        &code);
    EXPECT_EQ(code, 2) << out;
    EXPECT_NE(out.find("'--evil 1' is no valid argument"), std::string::npos) << out;
}

}  // namespace
}  // namespace lessons::allreduce

namespace lessons::allreduce {

// A rank on another host is started through a remote shell that, like OpenSSH, joins its
// arguments into one line for a shell (tests/rsh-as-hosts.sh does the same): every value of the
// environment and every word of the command reaches the program as it was, and nothing in them
// runs on that shell.
TEST(RankOptions, ARemoteCommandReachesTheProgramWordForWord) {
    char pattern[] = "/tmp/lessons-rsh-XXXXXX";
    ASSERT_TRUE(mkdtemp(pattern));
    const std::string dir = pattern;
    const std::string tools = dir + "/x$(touch " + dir + "/pwned-path)/My Tools";
    ASSERT_EQ(std::system(("mkdir -p " + ShellQuote(tools)).c_str()), 0);
    const std::string program = tools + "/cli";
    std::ofstream(program) << "#!/bin/sh\nprintf '%s\\n' \"$NCCL_NVLS_ENABLE\" "
                              "\"${NCCL_ALGO-unset}\" \"$@\"\n";
    ASSERT_EQ(chmod(program.c_str(), 0755), 0);
    setenv("CUDA_LESSONS_RSH", LESSONS_SOURCE_DIR "/tests/rsh-as-hosts.sh", 1);
    setenv("NCCL_ALGO", "Ring", 1);
    const std::string nvls = "0 ; touch " + dir + "/pwned-nvls ;";
    const std::vector<std::string> argv = RemoteCommand(
        "node0", {"NCCL_NVLS_ENABLE=" + nvls, "NCCL_ALGO"}, {program, "rank", "it's", "$HOME", ""});
    unsetenv("NCCL_ALGO");
    unsetenv("CUDA_LESSONS_RSH");
    ASSERT_EQ(argv.size(), 3u) << "the remote shell, the host, one command line";
    std::string line;
    for (const std::string& w : argv) line += ShellQuote(w) + " ";
    FILE* pipe = popen(line.c_str(), "r");
    ASSERT_TRUE(pipe);
    std::string out;
    char buf[512];
    for (size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
    EXPECT_EQ(pclose(pipe), 0) << out;
    EXPECT_EQ(out, nvls + "\nunset\nrank\nit's\n$HOME\n\n");
    EXPECT_NE(access((dir + "/pwned-nvls").c_str(), F_OK), 0) << "a value ran on the remote shell";
    EXPECT_NE(access((dir + "/pwned-path").c_str(), F_OK), 0) << "the path ran on the remote shell";
    std::system(("rm -rf " + ShellQuote(dir)).c_str());
}

TEST(RankOptions, ShellQuoteKeepsEveryByte) {
    for (const std::string w : {"", "a b", "'", "it's", "$(id)", "`id`", "a\nb", "\\", "!x"}) {
        FILE* pipe = popen(("printf %s " + ShellQuote(w)).c_str(), "r");
        ASSERT_TRUE(pipe);
        std::string out;
        char buf[64];
        for (size_t n; (n = fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
        pclose(pipe);
        EXPECT_EQ(out, w);
    }
}

}  // namespace lessons::allreduce
