// cuda-lessons-cli as a user runs it: output formats, exit codes, messages.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "report.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "device.h"
#include "shell.h"

using json = nlohmann::ordered_json;

namespace {

void ExpectUsageError(const std::string& args, const std::string& message) {
    const Output out = Cli(args);
    EXPECT_EQ(out.code, 2) << args << "\n" << out.text;
    EXPECT_NE(out.text.find(message), std::string::npos) << args << "\n" << out.text;
}

}  // namespace

TEST(Cli, ListJson) {
    const Output out = Cli("list --format json", false);
    ASSERT_EQ(out.code, 0);
    const json lessons = json::parse(out.text);
    ASSERT_GE(lessons.size(), 4u);
    for (const json& l : lessons)
        for (const char* key : {"lesson", "id", "chapter", "title", "kind", "available"})
            EXPECT_TRUE(l.contains(key)) << key;
    EXPECT_EQ(lessons[0]["id"], "split/naive-scan");
    EXPECT_EQ(lessons[0]["available"], true);
    EXPECT_EQ(lessons[3]["kind"], "gpu");
    EXPECT_EQ(lessons[3]["available"], lessons::GetDevices().available());
}

TEST(Cli, ListTableShowsEveryLesson) {
    const Output out = Cli("list");
    ASSERT_EQ(out.code, 0);
    EXPECT_NE(out.text.find("split/openmp"), std::string::npos);
    EXPECT_NE(out.text.find("Chapter 1"), std::string::npos);
}

TEST(Cli, RunJsonHasEveryField) {
    const Output out =
        Cli("run split/openmp --size 10000 --threads 2 --reps 2 --format json", false);
    ASSERT_EQ(out.code, 0) << out.text;
    const json r = json::parse(out.text);
    for (const lessons::ResultField& f : lessons::ResultFields()) {
        if (f.name && f.to_json) {
            EXPECT_TRUE(r.contains(f.name)) << f.name;
        }
    }
    EXPECT_EQ(r["lesson"], "1.3");
    EXPECT_EQ(r["kind"], "cpu");
    // Two samples: their range, at 50%.
    EXPECT_EQ(r["median_level"], 0.5);
    EXPECT_LE(r["median_lo_ms"].get<double>(), r["median_ms"].get<double>());
    EXPECT_GE(r["median_hi_ms"].get<double>(), r["median_ms"].get<double>());
    EXPECT_EQ(r["params"], (json{{"threads", 2}, {"size", 10000}, {"data", "random"}}));
    EXPECT_EQ(r["verified"], true);
    EXPECT_TRUE(r["parts"].empty()) << "a CPU step has no copies or kernel";
    EXPECT_TRUE(r["values"].contains("found"));
    EXPECT_EQ(r["work"]["bytes_read"], 10000);
}

// `compare`: the lessons timed in turn, each pooled over its trials, each against the first with
// the interval of its speed-up; in JSON, CSV and a table that says the order.
TEST(Cli, CompareTimesLessonsInTurnInEveryFormat) {
    const Output out = Cli(
        "compare 1.2 split/openmp --size 65536 --set threads=2 --reps 4 --trials 2 --format json",
        false);
    ASSERT_EQ(out.code, 0) << out.text;
    const json j = json::parse(out.text);
    EXPECT_EQ(j["trials"], 2);
    EXPECT_EQ(j["order"], "1.2 1.3, 1.3 1.2");
    ASSERT_EQ(j["results"].size(), 2u);
    EXPECT_EQ(j["results"][0]["lesson"], "1.2");
    EXPECT_EQ(j["results"][1]["lesson"], "1.3");
    for (const json& r : j["results"]) {
        EXPECT_EQ(r["trials"], 2);
        EXPECT_EQ(r["reps"], 4) << "4 reps shared among 2 trials";
    }
    EXPECT_TRUE(j["results"][0]["speedup_vs_first"].is_null());
    const json& second = j["results"][1];
    const double x = second["speedup_vs_first"].get<double>();
    EXPECT_LE(second["speedup_lo"].get<double>(), x);
    EXPECT_GE(second["speedup_hi"].get<double>(), x);
    EXPECT_TRUE(second["within_noise_of_first"].is_boolean());
    const Output table = Cli("compare 1.2 1.3 --size 65536 --reps 2 --trials 1", false);
    ASSERT_EQ(table.code, 0) << table.text;
    EXPECT_NE(table.text.find("Timed in turn, 1 trial each (1.2 1.3)"), std::string::npos)
        << table.text;
    EXPECT_NE(table.text.find("vs 1.2"), std::string::npos) << table.text;
    const Output csv = Cli("compare 1.2 1.3 --size 65536 --reps 2 --format csv", false);
    ASSERT_EQ(csv.code, 0) << csv.text;
    EXPECT_NE(csv.text.find(",trials,speedup_vs_first,speedup_lo,speedup_hi"), std::string::npos)
        << csv.text;
    ExpectUsageError("compare 1.2", "At least 2 required");
    ExpectUsageError("compare 1.2 1.3 --trials 21", "not in range 1 to 20");
    ExpectUsageError("compare 1.2 1.2 --size 65536", "given twice");
    ExpectUsageError("compare 1.2 9.99", "9.99");
    ExpectUsageError("compare 1.2 1.3 --set blocks=4", "blocks");
}

TEST(Cli, RunByIdTableAndCsv) {
    Output out = Cli("run split/even-positions --size 1KiB --data dense --reps 1");
    EXPECT_EQ(out.code, 0) << out.text;
    EXPECT_NE(out.text.find("verified against the CPU reference"), std::string::npos);
    out = Cli("run split/naive-scan --size 0 --format csv --reps 1", false);
    EXPECT_EQ(out.code, 0) << out.text;
    EXPECT_EQ(out.text.rfind("lesson,id,", 0), 0u);
}

TEST(Cli, BadArgumentsExitWithTwoAndNameTheProblem) {
    ExpectUsageError("run split/naive-scan --size 12QB", "bad size unit");
    ExpectUsageError("run split/naive-scan --size -5", "bad size");
    ExpectUsageError("run 999", "unknown lesson '999'");
    ExpectUsageError("run split/nope", "unknown lesson");
    ExpectUsageError("run split/one-thread-per-pair --block 2000",
                     "Block size (block) 2000 is not accepted: use a "
                     "multiple of 32 from 32 to 1024");
    ExpectUsageError("run split/one-thread-per-pair --block 48", "multiple of 32");
    ExpectUsageError("run split/openmp --threads 0",
                     "Host threads (threads) 0 is not accepted: use from 1");
    ExpectUsageError("run split/naive-scan --data sparse",
                     "Data (data) 'sparse' is not accepted: use random, "
                     "dense or none");
    ExpectUsageError("run split/naive-scan --set nope=1",
                     "lesson 1.1 has no parameter 'nope': use size, data");
    ExpectUsageError("run split/openmp --set threads", "--set needs NAME=VALUE");
    ExpectUsageError("run 19 --set size=1001", "whole number of 4-byte elements");
    ExpectUsageError("run split/openmp --set threads=", "empty value");
    ExpectUsageError("sweep split/naive-scan --over size", "--over needs NAME=RANGE");
    ExpectUsageError("sweep split/naive-scan --over nope=1..2",
                     "lesson 1.1 has no parameter 'nope' to sweep");
    ExpectUsageError("sweep split/naive-scan --over size=1KiB --blocks 32",
                     "exactly one of --over");
    ExpectUsageError("bench 1 --set nope=3", "no lesson of chapter split has a parameter 'nope'");
    ExpectUsageError("run split/naive-scan --format xml", "use table, json or csv");
    ExpectUsageError("run split/naive-scan --input /no/such/file", "cannot open input file");
    ExpectUsageError("run split/naive-scan --reps 0", "reps '0' is out of range");
    ExpectUsageError("run split/naive-scan --min-time fast", "--min-time");
    ExpectUsageError("run", "lesson is required");
    ExpectUsageError("sweep split/naive-scan --blocks 32..64", "no block size to sweep");
    ExpectUsageError("sweep split/naive-scan", "exactly one of --over NAME=RANGE");
    ExpectUsageError("sweep split/one-thread-per-pair --blocks 1024..32", "runs backwards");
    ExpectUsageError("bench 11", "unknown chapter");
    ExpectUsageError("", "A subcommand is required");
    ExpectUsageError("frobnicate", "unknown command 'frobnicate'");
}

TEST(Cli, TooLargeSizeNamesTheMemoryLimit) {
    ExpectUsageError("run split/naive-scan --size 16TiB", "host memory");
}

TEST(Cli, InfoListsEveryDevice) {
    const Output out = Cli("info --format json", false);
    ASSERT_EQ(out.code, 0) << out.text;
    const json info = json::parse(out.text);
    ASSERT_TRUE(info["devices"].is_array());
    EXPECT_EQ(info["devices"].size(), lessons::GetDevices().devices.size());
    EXPECT_EQ(info["device"]["available"], lessons::GetDevices().available());
    EXPECT_TRUE(info["host"].contains("hardware_threads"));
    const Output table = Cli("info");
    ASSERT_EQ(table.code, 0) << table.text;
    EXPECT_NE(table.text.find(lessons::GetDevices().available() ? "fp32 peak" : "GPU: none"),
              std::string::npos)
        << table.text;
    ExpectUsageError("info --format csv", "not csv");
}

TEST(Cli, GpuLessonWithoutGpuFailsClearly) {
    if (lessons::GetDevices().available()) GTEST_SKIP() << "a GPU is present";
    const Output out = Cli("run split/one-thread-per-pair --size 1KiB");
    EXPECT_EQ(out.code, 1);
    EXPECT_NE(out.text.find("cannot run here"), std::string::npos) << out.text;
}

TEST(Cli, SweepSizes) {
    const Output out =
        Cli("sweep split/even-positions --sizes 1KiB..4KiB --reps 1 --format json", false);
    ASSERT_EQ(out.code, 0) << out.text;
    const json rows = json::parse(out.text);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[2]["params"]["size"], 4096);
}

TEST(Cli, SetAndOverWorkOnAnyParameter) {
    Output out =
        Cli("run split/openmp --set threads=1 --set size=2KiB --set data=dense --reps 1 --format "
            "json",
            false);
    ASSERT_EQ(out.code, 0) << out.text;
    EXPECT_EQ(json::parse(out.text)["params"],
              (json{{"threads", 1}, {"size", 2048}, {"data", "dense"}}));
    out = Cli("sweep split/openmp --over threads=1..4 --size 8KiB --reps 1 --format json", false);
    ASSERT_EQ(out.code, 0) << out.text;
    const json rows = json::parse(out.text);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[2]["params"]["threads"], 4);
    out = Cli("sweep split/naive-scan --over data=all --size 8KiB --reps 1 --format csv", false);
    ASSERT_EQ(out.code, 0) << out.text;
    EXPECT_NE(out.text.find("lesson,id,kind,size,data,"), std::string::npos) << out.text;
    EXPECT_NE(out.text.find(",none,"), std::string::npos) << out.text;
}

TEST(Cli, AnOptionALessonDoesNotUseGetsANotice) {
    Output out = Cli("run split/naive-scan --block 64 --size 1KiB --reps 1");
    ASSERT_EQ(out.code, 0) << out.text;
    EXPECT_NE(out.text.find("note: lesson 1.1 has no parameter 'block' (it runs on the CPU)"),
              std::string::npos)
        << out.text;
    out = Cli("run split/one-thread-per-pair --threads 4 --size 1KiB --reps 1");
    EXPECT_NE(out.text.find("has no parameter 'threads' (it runs on the GPU)"), std::string::npos)
        << out.text;
    out = Cli("bench 1 --block 64 --size 1KiB --reps 1");
    EXPECT_EQ(out.text.find("note:"), std::string::npos) << "some lesson of the chapter uses it";
}

TEST(Cli, ListJsonHasEachLessonsParameters) {
    const Output out = Cli("list --format json", false);
    ASSERT_EQ(out.code, 0);
    const json lessons = json::parse(out.text);
    const json& three = lessons[2];
    ASSERT_EQ(three["params"].size(), 3u);
    EXPECT_EQ(three["params"][0]["name"], "threads");
    EXPECT_EQ(three["params"][0]["label"]["zh"], "CPU 线程数");
    EXPECT_EQ(lessons[3]["params"][0]["name"], "block");
    EXPECT_EQ(lessons[3]["params"][0]["values"][0], 32);
}

TEST(Cli, BenchChapterOne) {
    const Output out = Cli("bench 1 --size 64KiB --reps 2");
    ASSERT_EQ(out.code, 0) << out.text;
    for (const char* id :
         {"split/naive-scan", "split/even-positions", "split/openmp", "split/one-thread-per-pair"})
        EXPECT_NE(out.text.find(id), std::string::npos) << id;
    const Output csv = Cli("bench split --size 64KiB --reps 1 --format csv", false);
    ASSERT_EQ(csv.code, 0);
    EXPECT_NE(csv.text.find("speedup_vs_previous"), std::string::npos);
}

// Every table names a lesson by its number in its chapter ("3.2"), as list, the GUI and the
// pages do, never by its position in the whole catalogue; and shows the median's interval.
TEST(Cli, TablesShowChapterStepNumbers) {
    const Output bench = Cli("bench 3 --size 4KiB --reps 7");
    ASSERT_EQ(bench.code, 0) << bench.text;
    int rows = 0;
    std::istringstream lines(bench.text);
    for (std::string line; std::getline(lines, line);) {
        if (line.find("reduce/") == std::string::npos) continue;
        ++rows;
        std::string first;
        std::istringstream(line) >> first;
        EXPECT_EQ(first.rfind("3.", 0), 0u) << "a global index, not chapter.step: " << line;
    }
    EXPECT_GE(rows, 2) << bench.text;
    EXPECT_NE(bench.text.find("median CI ms"), std::string::npos) << bench.text;
    EXPECT_NE(bench.text.find("(98.4%)"), std::string::npos) << "7 samples: [min, max]";
    const Output run = Cli("run 3.1 --size 4KiB --reps 20");
    ASSERT_EQ(run.code, 0) << run.text;
    EXPECT_NE(run.text.find("lesson 3.1"), std::string::npos) << run.text;
    EXPECT_NE(run.text.find("median's interval"), std::string::npos) << run.text;
    EXPECT_NE(run.text.find("(95.8%)"), std::string::npos) << run.text;
    const Output sweep = Cli("sweep 3.1 --over size=1KiB..4KiB --reps 6");
    ASSERT_EQ(sweep.code, 0) << sweep.text;
    EXPECT_NE(sweep.text.find("median CI ms"), std::string::npos) << sweep.text;
    EXPECT_NE(sweep.text.find("(96.8%)"), std::string::npos) << sweep.text;
}

TEST(Cli, OffsetsOutOfARealFile) {
    const std::string dir = ::testing::TempDir();
    const std::string input = dir + "/cli_in.txt", offsets = dir + "/cli_offsets.txt";
    FILE* f = std::fopen(input.c_str(), "wb");
    std::fputs("a\r\nbb\r\n\r\r\n", f);
    std::fclose(f);
    const Output out = Cli("run split/even-positions --input " + input + " --offsets-out " +
                           offsets + " --reps 1");
    ASSERT_EQ(out.code, 0) << out.text;
    f = std::fopen(offsets.c_str(), "r");
    ASSERT_NE(f, nullptr);
    char buf[64] = {};
    const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    std::fclose(f);
    EXPECT_EQ(std::string(buf, n), "3\n7\n10\n");
}

namespace {

std::string TempFile(const std::string& name) {
    return ::testing::TempDir() + "/cli_" + std::to_string(getpid()) + "_" + name;
}

std::string Contents(const std::string& path) {
    std::string text;
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return "(missing)";
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
    std::fclose(f);
    return text;
}

// Runs a shell command line as Sh does, under a file size limit of `bytes` and with SIGXFSZ
// at its default disposition (a test runner or shell may have left it ignored).
Output ShWithFileLimit(const std::string& command, rlim_t bytes) {
    int fds[2];
    Output out;
    if (pipe(fds) != 0) return out;
    const pid_t pid = fork();
    if (pid == 0) {
        signal(SIGXFSZ, SIG_DFL);
        const rlimit limit{bytes, bytes};
        setrlimit(RLIMIT_FSIZE, &limit);
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    close(fds[1]);
    char buf[4096];
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof buf)) > 0) out.text.append(buf, size_t(n));
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    out.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return out;
}

}  // namespace

TEST(CliHostile, InputMustBeARegularFile) {
    const std::string fifo = TempFile("fifo");
    std::remove(fifo.c_str());
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    // A FIFO with no writer used to block in open() for ever; `timeout` ends such a run.
    const Output out = Sh("timeout -s KILL 60 " + CliPath() +
                          " run split/naive-scan --reps 1 --input " + fifo + " 2>&1");
    EXPECT_EQ(out.code, 2) << out.text;
    EXPECT_NE(out.text.find("a pipe (FIFO), not a regular file"), std::string::npos) << out.text;
    std::remove(fifo.c_str());
    ExpectUsageError("run split/naive-scan --reps 1 --input " + ::testing::TempDir(),
                     "is a directory");
    ExpectUsageError("run split/naive-scan --reps 1 --input /dev/zero", "not a regular file");
    ExpectUsageError("run split/even-positions --reps 1 --input /dev/urandom",
                     "not a regular file");
    ExpectUsageError("bench 1 --reps 1 --input /dev/null", "not a regular file");
}

TEST(CliHostile, FailedWritesAreErrors) {
    // /dev/full: every write fails with ENOSPC.
    Output out =
        Cli("run split/even-positions --size 64KiB --data dense --reps 1 --offsets-out /dev/full");
    EXPECT_EQ(out.code, 1) << out.text;
    EXPECT_NE(out.text.find("cannot write '/dev/full': No space left"), std::string::npos)
        << out.text;
    // /proc takes no new file.
    out = Cli(
        "run split/even-positions --size 64KiB --data dense --reps 1 --offsets-out /proc/version");
    EXPECT_EQ(out.code, 1) << out.text;
    EXPECT_NE(out.text.find("/proc/version"), std::string::npos) << out.text;
    // Standard output on a full device.
    out =
        Sh(CliPath() + " run split/naive-scan --size 1KiB --reps 1 --format json 2>&1 >/dev/full");
    EXPECT_EQ(out.code, 1) << out.text;
    EXPECT_NE(out.text.find("cannot write to standard output"), std::string::npos) << out.text;
}

TEST(CliHostile, FullDiskLeavesNoHalfWrittenFile) {
    // A file size limit stands in for a full disk: writes past 16 KiB fail (EFBIG).
    const std::string offsets = TempFile("offsets.txt");
    {
        FILE* f = std::fopen(offsets.c_str(), "wb");
        std::fputs("old\n", f);
        std::fclose(f);
    }
    // With SIGXFSZ at its default (which kills): the CLI itself must take the failed write.
    const Output out = ShWithFileLimit(
        CliPath() + " run split/even-positions --size 256KiB --data dense --reps 1 " +
            "--offsets-out " + offsets + " 2>&1",
        16 << 10);
    EXPECT_EQ(out.code, 1) << out.text;
    EXPECT_NE(out.text.find("cannot write '" + offsets + "'"), std::string::npos) << out.text;
    EXPECT_TRUE(Contents(offsets) == "old\n") << "the old file stays whole";
    const std::string name = offsets.substr(offsets.rfind('/') + 1);
    const Output listing =
        Sh("ls -A " + ::testing::TempDir() + " | grep -c -F '." + name + ".tmp-'");
    EXPECT_EQ(listing.text, "0\n") << "no temporary left behind";
    std::remove(offsets.c_str());
}

TEST(CliHostile, EmptyAndMalformedValuesExitTwo) {
    const std::string digits400(400, '9');
    ExpectUsageError("run split/naive-scan --size " + digits400, "size too large");
    ExpectUsageError("run split/naive-scan --size 0." + std::string(400, '0') + "1",
                     "not a whole number");
    for (const char* option : {"--size", "--threads", "--reps", "--min-time", "--data", "--seed",
                               "--block", "--input", "--offsets-out"})
        ExpectUsageError(std::string("run split/openmp ") + option + " ''", "empty value");
    ExpectUsageError("bench ''", "empty value");
    ExpectUsageError("sweep split/one-thread-per-pair --blocks ''", "empty value");
    for (const char* bad : {"5abc", "0.25s", "1,5", "0x1", "1e3", "-1", "nan", "inf"})
        ExpectUsageError(std::string("run split/naive-scan --min-time ") + bad, "--min-time");
    ExpectUsageError("run split/naive-scan --min-time 61", "out of range");
    ExpectUsageError("run split/openmp --threads " + digits400, "too large");
    ExpectUsageError("run split/naive-scan --reps 1.5", "not a whole number");
    ExpectUsageError("sweep split/one-thread-per-pair --blocks 32,", "empty value");
    ExpectUsageError("sweep split/one-thread-per-pair --blocks 32,,64", "empty value");
    const Output ok = Cli("run split/naive-scan --size 1KiB --reps 1 --min-time 0.5");
    EXPECT_EQ(ok.code, 0) << ok.text;
}

TEST(CliHostile, SweepWhereNoPointRunsIsAnError) {
    const Output out =
        Cli("sweep split/one-thread-per-pair --blocks 18446744073709551615 --size 1KiB");
    EXPECT_EQ(out.code, 2) << out.text;
    EXPECT_NE(out.text.find("nothing to sweep"), std::string::npos) << out.text;
    EXPECT_NE(out.text.find("multiple of 32"), std::string::npos) << "the reasons: " << out.text;
}

TEST(CliHostile, MemoryEstimateDoesNotWrap) {
    // 9n + 16 bytes wraps past 2^64 for this n: a wrapped estimate passed the check.
    ExpectUsageError("run split/naive-scan --size 2049638230412172800", "host memory");
    ExpectUsageError("run split/even-positions --size 4611686018427387904", "host memory");
}

// Under a file size limit with SIGXFSZ at its default, standard output that is cut is an
// error (exit 1, "File too large"), never a death by the signal (exit 153).
TEST(CliHostile, AFileSizeLimitOnStandardOutputIsAnError) {
    const std::string big = TempFile("big.json");
    const Output out = ShWithFileLimit(CliPath() + " list --format json 2>&1 >" + big, 4096);
    EXPECT_EQ(out.code, 1) << out.text;
    EXPECT_NE(out.text.find("File too large"), std::string::npos) << out.text;
    std::remove(big.c_str());
}

// OpenMP's thread count from the environment, far above the processors: every live run still
// works (generation and the OpenMP steps used to crash or fail to create threads).
TEST(CliHostile, AHugeOmpNumThreadsIsLimited) {
    for (const char* args :
         {"run split/naive-scan --size 1MiB --reps 1",
          "run split/openmp --threads 2 --size 64KiB --reps 1", "run 19 --size 64KiB --reps 1"}) {
        const Output out = Sh("OMP_NUM_THREADS=100000 " + CliPath() + " " + args + " 2>&1");
        EXPECT_EQ(out.code, 0) << args << "\n" << out.text;
        EXPECT_NE(out.text.find("note: OMP_NUM_THREADS asks for 100000 threads"), std::string::npos)
            << out.text;
    }
}

// --offsets-out /dev/stdout with standard output redirected to a file: the offsets and the
// table both reach the file, in that order (the file was replaced and the table lost).
TEST(CliHostile, OffsetsToStandardOutputKeepTheTable) {
    const std::string result = TempFile("res.txt");
    const Output out =
        Sh(CliPath() +
           " run split/naive-scan --size 64KiB --data dense --reps 1 --offsets-out /dev/stdout >" +
           result + " 2>&1");
    EXPECT_EQ(out.code, 0) << out.text;
    const std::string text = Contents(result);
    const size_t table = text.find("verified against the CPU reference");
    EXPECT_NE(table, std::string::npos) << "the table was lost: " << text.substr(0, 300);
    EXPECT_EQ(text.find_first_of("0123456789"), 0u)
        << "the offsets come first: " << text.substr(0, 200);
    EXPECT_GT(text.size(), 5000u) << "the offsets are there too";
    std::remove(result.c_str());
    // Standard output a pipe: both go through it, as before.
    const Output piped =
        Sh(CliPath() +
           " run split/naive-scan --size 64KiB --data dense --reps 1 --offsets-out /dev/stdout "
           "2>&1 | cat");
    EXPECT_EQ(piped.code, 0) << piped.text.substr(0, 300);
    EXPECT_NE(piped.text.find("verified against the CPU reference"), std::string::npos);
    EXPECT_GT(piped.text.size(), 5000u);
    // A link that leads nowhere is refused, not replaced by a file.
    const std::string dangling = TempFile("dangling");
    std::remove(dangling.c_str());
    ASSERT_EQ(symlink((dangling + "-target-missing").c_str(), dangling.c_str()), 0);
    const Output refused =
        Cli("run split/naive-scan --size 64KiB --data dense --reps 1 --offsets-out " + dangling);
    EXPECT_EQ(refused.code, 1) << refused.text;
    EXPECT_NE(refused.text.find("symbolic link that leads to no file"), std::string::npos)
        << refused.text;
    struct stat st {};
    EXPECT_EQ(lstat(dangling.c_str(), &st), 0);
    EXPECT_TRUE(S_ISLNK(st.st_mode)) << "the link was replaced";
    std::remove(dangling.c_str());
    // A name of about 250 bytes (allowed) still gets its temporary file (the name is this
    // process's own, so copies of the test running side by side do not share it).
    const std::string long_name = TempFile(std::string(235, 'o'));
    const Output long_out =
        Cli("run split/naive-scan --size 64KiB --data dense --reps 1 --offsets-out " + long_name);
    EXPECT_EQ(long_out.code, 0) << long_out.text;
    EXPECT_NE(Contents(long_name), "(missing)");
    std::remove(long_name.c_str());
}

// Kernel files report a size that is not what they hold: refused, with what to do.
TEST(CliHostile, ProcAndSysFilesAreRefusedAsInput) {
    ExpectUsageError("run split/naive-scan --reps 1 --input /proc/cpuinfo", "kernel file (/proc)");
    ExpectUsageError("run split/naive-scan --reps 1 --input /proc/self/status",
                     "copy it to a regular file");
    struct stat st {};
    if (stat("/sys/kernel/mm/transparent_hugepage/enabled", &st) == 0)
        ExpectUsageError(
            "run split/naive-scan --reps 1 --input /sys/kernel/mm/transparent_hugepage/enabled",
            "kernel file (/sys)");
}

// bench checks every lesson's values before running any; a chapter where nothing can run is a
// failure, as run of such a lesson is.
TEST(CliHostile, BenchChecksEveryValueFirstAndFailsWhenNothingRuns) {
    ExpectUsageError("bench 1 --block 33 --size 1KiB --reps 1", "33 is not accepted");
    ExpectUsageError("bench 1 --set block=999999 --size 1KiB --reps 1", "999999 is not accepted");
    ExpectUsageError("bench 5 --set tile=x --reps 1", "'x' is not accepted");
    const Output late = Cli("bench --size 3 --reps 1");
    EXPECT_EQ(late.code, 2) << late.text;
    EXPECT_EQ(late.text.find("Chapter 1"), std::string::npos)
        << "nothing runs before the value is refused: " << late.text.substr(0, 400);
    if (lessons::GetDevices().available()) GTEST_SKIP() << "a GPU is present";
    const Output none = Cli("bench 4 --size 1KiB --reps 1");
    EXPECT_EQ(none.code, 1) << none.text;
    EXPECT_NE(none.text.find("not run:"), std::string::npos) << "the table is printed";
    EXPECT_NE(none.text.find("cannot run here"), std::string::npos) << none.text;
}

// A point over the memory available is skipped when it comes; what was measured is printed.
TEST(CliHostile, ASweepKeepsItsPointsWhenALaterSizeIsTooLarge) {
    for (const char* format : {"json", "table"}) {
        const Output out = Cli(
            std::string("sweep split/naive-scan --sizes 1KiB,2KiB,1TiB --min-time 0 --format ") +
            format);
        EXPECT_EQ(out.code, 0) << out.text;
        EXPECT_NE(out.text.find("skipped: size 1 TiB: "), std::string::npos) << out.text;
        EXPECT_NE(out.text.find("host memory"), std::string::npos) << out.text;
        EXPECT_NE(out.text.find(std::string(format) == "json" ? "\"size\": 2048" : "2 KiB"),
                  std::string::npos)
            << out.text;
    }
    ExpectUsageError("sweep split/naive-scan --sizes 1TiB --min-time 0", "host memory");
}

// A sweep over a long list of choices is refused before any point, briefly (it took seconds and
// printed a megabyte); a long value or name is quoted in part. (How fast is not judged here: no
// timing thresholds in tests.)
TEST(CliHostile, LongChoiceListsAndValuesAreRefusedBriefly) {
    std::string values;
    for (int i = 0; i < 15000; ++i) values += (i ? ",a" : "a") + std::to_string(i);
    Output out = Cli("sweep split/naive-scan --over data=" + values + " --size 1KiB");
    EXPECT_EQ(out.code, 2) << out.text.substr(0, 500);
    EXPECT_LT(out.text.size(), 2000u) << out.text.substr(0, 500);
    EXPECT_NE(out.text.find("more than 4096 values"), std::string::npos) << out.text.substr(0, 500);
    out = Cli("sweep split/naive-scan --over data=" + values.substr(0, 4000) + " --size 1KiB");
    EXPECT_EQ(out.code, 2);
    EXPECT_LT(out.text.size(), 2000u) << "at most a few reasons: " << out.text.substr(0, 500);
    EXPECT_NE(out.text.find("more)"), std::string::npos) << out.text.substr(0, 500);
    const std::string x(100000, 'x');
    out = Cli("run split/naive-scan --set data=" + x);
    EXPECT_EQ(out.code, 2);
    EXPECT_LT(out.text.size(), 1000u) << out.text.substr(0, 300);
    out = Cli("run split/naive-scan --set " + x + "=1");
    EXPECT_EQ(out.code, 2);
    EXPECT_LT(out.text.size(), 1000u) << out.text.substr(0, 300);
}

// M2, M3, M4, M6: one phrasing each, no double negative, no name twice, one range, no note
// that the error after it contradicts.
TEST(CliHostile, MessagesSayOneThingOnce) {
    Output out = Cli("bench 4 --size 1KiB --reps 1");
    EXPECT_EQ(out.text.find("has no parameter 'size'"), std::string::npos) << out.text;
    out = Cli("bench gemv --threads 2 --reps 1");
    EXPECT_NE(out.text.find("no lesson of chapter gemv has a parameter 'threads'"),
              std::string::npos)
        << out.text;
    out = Cli("run 5.1 --set m=0");
    EXPECT_EQ(out.code, 2) << out.text;
    EXPECT_EQ(out.text.find("(m) (m)"), std::string::npos) << out.text;
    EXPECT_NE(out.text.find("(m) 0 is not accepted"), std::string::npos) << out.text;
    ExpectUsageError("run split/naive-scan --reps 0", "from 1 to 100000");
    ExpectUsageError("run split/naive-scan --reps 1000000000000", "from 1 to 100000");
    const std::string input = TempFile("m6.txt");
    std::ofstream(input) << "a\r\n";
    out = Cli("run 19 --input " + input + " --size 1KiB --reps 1");
    EXPECT_EQ(out.code, 2) << out.text;
    EXPECT_NE(out.text.find("does not take an input file"), std::string::npos) << out.text;
    EXPECT_EQ(out.text.find("the input file sets the data"), std::string::npos) << out.text;
    std::remove(input.c_str());
}

// A file too large for memory is named as the file it is, and its estimate as the most it may
// need (it said "N of random text needs about ...").
TEST(CliHostile, AFileTooLargeForMemoryIsDescribedAsAFile) {
    const std::string input = TempFile("sparse.txt");
    { std::ofstream(input) << ""; }
    uint64_t available_kib = 0;
    {
        std::ifstream meminfo("/proc/meminfo");
        std::string key, unit;
        uint64_t value = 0;
        while (meminfo >> key >> value >> unit)
            if (key == "MemAvailable:") available_kib = value;
    }
    ASSERT_GT(available_kib, 0u);
    ASSERT_EQ(truncate(input.c_str(), off_t(available_kib) * 1024), 0);  // sparse: no disk used
    const Output out = Cli("run split/naive-scan --reps 1 --input " + input);
    EXPECT_EQ(out.code, 2) << out.text;
    EXPECT_NE(out.text.find("the input file '" + input + "'"), std::string::npos) << out.text;
    EXPECT_NE(out.text.find("may need up to"), std::string::npos) << out.text;
    EXPECT_EQ(out.text.find("random text"), std::string::npos) << out.text;
    std::remove(input.c_str());
}

// A parameter given twice (a shorthand and --set, or --set twice) is refused: one value would
// have been dropped without a word.
TEST(Cli, AParameterGivenTwiceIsRefused) {
    const Output both = Cli("run 1.1 --size 2KiB --set size=1KiB");
    EXPECT_EQ(both.code, 2) << both.text;
    EXPECT_NE(both.text.find("give it once"), std::string::npos) << both.text;
    const Output twice = Cli("run 1.1 --set size=2KiB --set size=1KiB");
    EXPECT_EQ(twice.code, 2) << twice.text;
    EXPECT_NE(twice.text.find("--set size= is given twice"), std::string::npos) << twice.text;
    EXPECT_EQ(Cli("run 1.1 --set size=2KiB --reps 1 --format json", false).code, 0);
}

// `progress`: what the GUI and `check` keep in the data folder, for a teacher (issue 41, item 7):
// none yet, a table, csv and json; a corrupt file is named and left as it is.
TEST(Cli, ProgressIsReadFromTheDataFolder) {
    const std::string dir = MakeTempDir("progress");
    const std::string env = "XDG_DATA_HOME='" + dir + "' USER=ada ";
    Output o = Sh(env + CliPath() + " progress 2>&1");
    EXPECT_EQ(o.code, 0) << o.text;
    EXPECT_NE(o.text.find("(none yet)"), std::string::npos) << o.text;
    Sh("mkdir -p '" + dir + "/cuda-lessons'");
    std::ofstream(dir + "/cuda-lessons/progress.json")
        << R"({"format": "cuda-lessons progress 1", "exercises": [{"lesson": "gemv/warp-per-row",
            "checks": 2, "correct": true, "correct_at": "2026-11-29T08:00:00Z", "speed_met": true,
            "speed_met_at": "2026-11-29T08:05:00Z", "best_ratio": 0.9, "yours_ms": 0.9,
            "step_ms": 1.0, "last_at": "2026-11-29T08:05:00Z", "last_correct": true,
            "last_cases_failed": 0, "last_cases_total": 9, "last_speed": "met"}],
            "predictions": [{"lesson": "reduce/cub", "skipped": true, "made_at": "t"}]})";
    o = Sh(env + CliPath() + " progress 2>&1");
    EXPECT_EQ(o.code, 0) << o.text;
    EXPECT_NE(o.text.find("met (2026-11-29T08:05:00Z)"), std::string::npos) << o.text;
    EXPECT_NE(o.text.find("skipped"), std::string::npos) << o.text;
    o = Sh(env + CliPath() + " progress --format csv 2>&1");
    EXPECT_EQ(o.code, 0) << o.text;
    EXPECT_EQ(o.text.rfind("student,lesson,label,exercise_correct,", 0), 0u) << o.text;
    // The label is the lesson's number as shown (found by id: it moves when a lesson is added).
    const size_t row = o.text.find("ada,gemv/warp-per-row,");
    ASSERT_NE(row, std::string::npos) << o.text;
    EXPECT_NE(o.text.find(",yes,2026-11-29T08:00:00Z,yes,", row), std::string::npos) << o.text;
    EXPECT_NE(o.text.substr(row + 22, 1), ",") << "a label: " << o.text;
    o = Sh(env + CliPath() + " progress --format json 2>/dev/null");
    ASSERT_EQ(o.code, 0) << o.text;
    const nlohmann::json j = nlohmann::json::parse(o.text);
    EXPECT_EQ(j["student"], "ada");
    EXPECT_EQ(j["exercises"][0]["speed_met"], true);
    EXPECT_FALSE(j["predictions"][0]["label"].get<std::string>().empty());
    // Corrupt: said, exit 1, and the file is left as it is for the next write to set aside.
    std::ofstream(dir + "/cuda-lessons/progress.json") << "{ not json";
    o = Sh(env + CliPath() + " progress 2>&1");
    EXPECT_EQ(o.code, 1) << o.text;
    EXPECT_NE(o.text.find("cannot be read whole"), std::string::npos) << o.text;
    EXPECT_NE(o.text.find("sets it aside"), std::string::npos) << o.text;
    std::ifstream kept(dir + "/cuda-lessons/progress.json");
    std::string text((std::istreambuf_iterator<char>(kept)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, "{ not json");
    Sh("rm -rf '" + dir + "'");
}
