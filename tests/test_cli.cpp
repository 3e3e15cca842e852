// cuda-lessons-cli as a user runs it: output formats, exit codes, messages.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_path.h"
#include "device.h"

using json = nlohmann::ordered_json;

namespace {

struct Output {
    int code = -1;
    std::string text;  // stdout, then stderr
};

Output Cli(const std::string& args, bool with_stderr = true) {
    const std::string command = CliPath() + " " + args + (with_stderr ? " 2>&1" : " 2>/dev/null");
    FILE* pipe = popen(command.c_str(), "r");
    Output out;
    if (!pipe) return out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.text.append(buf, n);
    const int status = pclose(pipe);
    out.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return out;
}

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
    EXPECT_EQ(lessons[0]["id"], "split/01-naive-scan");
    EXPECT_EQ(lessons[0]["available"], true);
    EXPECT_EQ(lessons[3]["kind"], "gpu");
    EXPECT_EQ(lessons[3]["available"], lessons::GetDeviceInfo().available());
}

TEST(Cli, ListTableShowsEveryLesson) {
    const Output out = Cli("list");
    ASSERT_EQ(out.code, 0);
    EXPECT_NE(out.text.find("split/03-openmp"), std::string::npos);
    EXPECT_NE(out.text.find("Chapter 1"), std::string::npos);
}

TEST(Cli, RunJsonHasEveryField) {
    const Output out = Cli("run 3 --size 10000 --threads 2 --reps 2 --format json", false);
    ASSERT_EQ(out.code, 0) << out.text;
    const json r = json::parse(out.text);
    for (const char* key :
         {"lesson", "id", "title", "kind", "size_bytes", "block", "threads", "median_ms", "min_ms",
          "max_ms", "gbps", "verified", "found", "h2d_ms", "kernel_ms", "d2h_ms", "device"})
        EXPECT_TRUE(r.contains(key)) << key;
    EXPECT_EQ(r["lesson"], 3);
    EXPECT_EQ(r["kind"], "cpu");
    EXPECT_EQ(r["threads"], 2);
    EXPECT_EQ(r["size_bytes"], 10000);
    EXPECT_EQ(r["verified"], true);
    EXPECT_TRUE(r["block"].is_null());
    EXPECT_TRUE(r["h2d_ms"].is_null());
}

TEST(Cli, RunByIdTableAndCsv) {
    Output out = Cli("run split/02-even-positions --size 1KiB --data dense --reps 1");
    EXPECT_EQ(out.code, 0) << out.text;
    EXPECT_NE(out.text.find("verified against the CPU reference"), std::string::npos);
    out = Cli("run 1 --size 0 --format csv --reps 1", false);
    EXPECT_EQ(out.code, 0) << out.text;
    EXPECT_EQ(out.text.rfind("lesson,id,", 0), 0u);
}

TEST(Cli, BadArgumentsExitWithTwoAndNameTheProblem) {
    ExpectUsageError("run 1 --size 12QB", "bad size unit");
    ExpectUsageError("run 1 --size -5", "bad size");
    ExpectUsageError("run 42", "unknown lesson '42'");
    ExpectUsageError("run split/nope", "unknown lesson");
    ExpectUsageError("run 4 --block 2000", "multiple of 32 from 32 to 1024");
    ExpectUsageError("run 4 --block 48", "multiple of 32");
    ExpectUsageError("run 3 --threads 0", "thread count 0 is out of range");
    ExpectUsageError("run 1 --data sparse", "use random, dense or none");
    ExpectUsageError("run 1 --format xml", "use table, json or csv");
    ExpectUsageError("run 1 --input /no/such/file", "cannot open input file");
    ExpectUsageError("run 1 --reps 0", "reps 0 is out of range");
    ExpectUsageError("run 1 --min-time fast", "--min-time");
    ExpectUsageError("run", "lesson is required");
    ExpectUsageError("sweep 1 --blocks 32..64", "no block size to sweep");
    ExpectUsageError("sweep 1", "exactly one of --blocks");
    ExpectUsageError("sweep 4 --blocks 1024..32", "runs backwards");
    ExpectUsageError("bench 9", "unknown chapter");
    ExpectUsageError("", "A subcommand is required");
    ExpectUsageError("frobnicate", "unknown command 'frobnicate'");
}

TEST(Cli, TooLargeSizeNamesTheMemoryLimit) {
    ExpectUsageError("run 1 --size 16TiB", "host memory");
}

TEST(Cli, GpuLessonWithoutGpuFailsClearly) {
    if (lessons::GetDeviceInfo().available()) GTEST_SKIP() << "a GPU is present";
    const Output out = Cli("run 4 --size 1KiB");
    EXPECT_EQ(out.code, 1);
    EXPECT_NE(out.text.find("cannot run here"), std::string::npos) << out.text;
}

TEST(Cli, SweepSizes) {
    const Output out = Cli("sweep 2 --sizes 1KiB..4KiB --reps 1 --format json", false);
    ASSERT_EQ(out.code, 0) << out.text;
    const json rows = json::parse(out.text);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[2]["size_bytes"], 4096);
}

TEST(Cli, BenchChapterOne) {
    const Output out = Cli("bench 1 --size 64KiB --reps 2");
    ASSERT_EQ(out.code, 0) << out.text;
    for (const char* id : {"split/01-naive-scan", "split/02-even-positions", "split/03-openmp",
                           "split/04-one-thread-per-pair"})
        EXPECT_NE(out.text.find(id), std::string::npos) << id;
    const Output csv = Cli("bench split --size 64KiB --reps 1 --format csv", false);
    ASSERT_EQ(csv.code, 0);
    EXPECT_NE(csv.text.find("speedup_vs_previous"), std::string::npos);
}

TEST(Cli, OffsetsOutOfARealFile) {
    const std::string dir = ::testing::TempDir();
    const std::string input = dir + "/cli_in.txt", offsets = dir + "/cli_offsets.txt";
    FILE* f = std::fopen(input.c_str(), "wb");
    std::fputs("a\r\nbb\r\n\r\r\n", f);
    std::fclose(f);
    const Output out = Cli("run 2 --input " + input + " --offsets-out " + offsets + " --reps 1");
    ASSERT_EQ(out.code, 0) << out.text;
    f = std::fopen(offsets.c_str(), "r");
    ASSERT_NE(f, nullptr);
    char buf[64] = {};
    const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    std::fclose(f);
    EXPECT_EQ(std::string(buf, n), "3\n7\n10\n");
}

namespace {

// Runs a shell command line; stdout and stderr as the command line routes them.
Output Sh(const std::string& command) {
    FILE* pipe = popen(command.c_str(), "r");
    Output out;
    if (!pipe) return out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.text.append(buf, n);
    const int status = pclose(pipe);
    out.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return out;
}

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

}  // namespace

TEST(CliHostile, InputMustBeARegularFile) {
    const std::string fifo = TempFile("fifo");
    std::remove(fifo.c_str());
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    // A FIFO with no writer used to block in open() for ever; `timeout` ends such a run.
    const Output out =
        Sh("timeout -s KILL 60 " + CliPath() + " run 1 --reps 1 --input " + fifo + " 2>&1");
    EXPECT_EQ(out.code, 2) << out.text;
    EXPECT_NE(out.text.find("a pipe (FIFO), not a regular file"), std::string::npos) << out.text;
    std::remove(fifo.c_str());
    ExpectUsageError("run 1 --reps 1 --input " + ::testing::TempDir(), "is a directory");
    ExpectUsageError("run 1 --reps 1 --input /dev/zero", "not a regular file");
    ExpectUsageError("run 2 --reps 1 --input /dev/urandom", "not a regular file");
    ExpectUsageError("bench 1 --reps 1 --input /dev/null", "not a regular file");
}

TEST(CliHostile, FailedWritesAreErrors) {
    // /dev/full: every write fails with ENOSPC.
    Output out = Cli("run 2 --size 64KiB --data dense --reps 1 --offsets-out /dev/full");
    EXPECT_EQ(out.code, 1) << out.text;
    EXPECT_NE(out.text.find("cannot write '/dev/full': No space left"), std::string::npos)
        << out.text;
    // /proc takes no new file.
    out = Cli("run 2 --size 64KiB --data dense --reps 1 --offsets-out /proc/version");
    EXPECT_EQ(out.code, 1) << out.text;
    EXPECT_NE(out.text.find("/proc/version"), std::string::npos) << out.text;
    // Standard output on a full device.
    out = Sh(CliPath() + " run 1 --size 1KiB --reps 1 --format json 2>&1 >/dev/full");
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
    const Output out =
        Sh("bash -c \"trap '' XFSZ; ulimit -f 16; exec " + CliPath() +
           " run 2 --size 256KiB --data dense --reps 1 --offsets-out " + offsets + "\" 2>&1");
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
    ExpectUsageError("run 1 --size " + digits400, "size too large");
    ExpectUsageError("run 1 --size 0." + std::string(400, '0') + "1", "not a whole number");
    for (const char* option : {"--size", "--threads", "--reps", "--min-time", "--data", "--seed",
                               "--block", "--input", "--offsets-out"})
        ExpectUsageError(std::string("run 3 ") + option + " ''", "empty value");
    ExpectUsageError("bench ''", "empty value");
    ExpectUsageError("sweep 4 --blocks ''", "empty value");
    for (const char* bad : {"5abc", "0.25s", "1,5", "0x1", "1e3", "-1", "nan", "inf"})
        ExpectUsageError(std::string("run 1 --min-time ") + bad, "--min-time");
    ExpectUsageError("run 1 --min-time 61", "out of range");
    ExpectUsageError("run 3 --threads " + digits400, "out of range");
    ExpectUsageError("run 1 --reps 1.5", "not a whole number");
    ExpectUsageError("sweep 4 --blocks 32,", "empty value");
    ExpectUsageError("sweep 4 --blocks 32,,64", "empty value");
    const Output ok = Cli("run 1 --size 1KiB --reps 1 --min-time 0.5");
    EXPECT_EQ(ok.code, 0) << ok.text;
}

TEST(CliHostile, SweepWhereNoPointRunsIsAnError) {
    const Output out = Cli("sweep 4 --blocks 18446744073709551615 --size 1KiB");
    EXPECT_EQ(out.code, 2) << out.text;
    EXPECT_NE(out.text.find("no point of the sweep can run"), std::string::npos) << out.text;
    EXPECT_NE(out.text.find("multiple of 32"), std::string::npos) << "the reasons: " << out.text;
}

TEST(CliHostile, MemoryEstimateDoesNotWrap) {
    // 9n + 16 bytes wraps past 2^64 for this n: a wrapped estimate passed the check.
    ExpectUsageError("run 1 --size 2049638230412172800", "host memory");
    ExpectUsageError("run 2 --size 4611686018427387904", "host memory");
}
