// cuda-lessons-cli as a user runs it: output formats, exit codes, messages.
#include <gtest/gtest.h>
#include <sys/wait.h>

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
