// Tuning per machine: what a step's tuning varies and tries, where the user's tunings live,
// reading them as untrusted input (corrupt, huge, a FIFO, wrong shapes), saving without losing
// other entries, choosing the user's over the shipped ones; and the CLI's `tune` end to end on
// a CPU step (a GPU step where there is a GPU).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "catalog.h"
#include "device.h"
#include "errors.h"
#include "serve_replies.h"
#include "shell.h"
#include "tuning.h"

using namespace lessons;
using Json = nlohmann::ordered_json;

namespace {

const Lesson& L(const char* key) {
    const Lesson* l = Catalog().FindLesson(key);
    if (!l) throw std::logic_error(std::string("no lesson ") + key);
    return *l;
}

std::string Slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

Tuning Make(const std::string& id, const std::string& machine, uint64_t block,
            const std::string& when = "2026-11-27T00:00Z") {
    Tuning t;
    t.id = id;
    t.machine = machine;
    t.values.Set("block", ParamValue::Number(block));
    t.at.Set("size", ParamValue::Number(1 << 30));
    t.best_ms = 0.3;
    t.default_ms = 0.4;
    t.when = when;
    return t;
}

}  // namespace

TEST(Tuning, WhatEachKindOfStepVaries) {
    EXPECT_EQ(TunedParams(L("split/one-thread-per-pair")), std::vector<std::string>{"block"});
    EXPECT_EQ(TunedParams(L("tensor-cores/tma")), std::vector<std::string>{"tile"});
    EXPECT_EQ(TunedParams(L("split/openmp")), std::vector<std::string>{"threads"});
    EXPECT_TRUE(TunedParams(L("gemm/cublas-sgemm")).empty());
    EXPECT_TRUE(TunedParams(L("split/naive-scan")).empty());
}

TEST(Tuning, CandidatesDoubleThroughTheAcceptedRange) {
    const ParamSpec& block = *L("split/one-thread-per-pair").FindParam("block");
    const std::vector<std::string> b = TuningCandidates(block, ParamValue::Number(1024));
    EXPECT_EQ(b, (std::vector<std::string>{"32", "64", "128", "256", "512", "1024"}));
    // A smaller largest value stops the doubling there (the default stays if it fits).
    const std::vector<std::string> small = TuningCandidates(block, ParamValue::Number(100));
    EXPECT_EQ(small.back(), "96");
    for (const std::string& v : small) EXPECT_TRUE(block.Reject(block.Parse(v)).empty()) << v;
    const ParamSpec& tile = *L("tensor-cores/tma").FindParam("tile");
    EXPECT_EQ(TuningCandidates(tile, {}), tile.choices);
}

TEST(Tuning, TheFolderFollowsXdgThenHome) {
    std::map<std::string, std::string> env;
    auto get = [&env](const char* name) -> const char* {
        const auto it = env.find(name);
        return it == env.end() ? nullptr : it->second.c_str();
    };
    env = {{"XDG_DATA_HOME", "/data"}, {"HOME", "/home/u"}};
    EXPECT_EQ(TuningsPath(get), "/data/cuda-lessons/tunings.json");
    env = {{"XDG_DATA_HOME", "relative"}, {"HOME", "/home/u"}};
    EXPECT_EQ(TuningsPath(get), "/home/u/.local/share/cuda-lessons/tunings.json");
    env = {{"HOME", "not/absolute"}};
    EXPECT_EQ(TuningsPath(get), "");
}

TEST(Tuning, SavedEntriesReplaceTheirOwnAndKeepTheRest) {
    const std::string path = MakeTempDir("tuning") + "/deeper/folder/tunings.json";
    SaveTuning(path, Make("split/one-thread-per-pair", "NVIDIA H200", 256));
    SaveTuning(path, Make("split/one-thread-per-pair", "NVIDIA H100 80GB HBM3", 512));
    SaveTuning(path, Make("split/one-thread-per-pair", "NVIDIA H200", 1024));  // replaces
    std::string problem;
    const std::vector<Tuning> all = ReadTunings(path, &problem);
    EXPECT_EQ(problem, "");
    ASSERT_EQ(all.size(), 2u);
    const std::optional<Tuning> h200 =
        FindTuning(L("split/one-thread-per-pair"), "NVIDIA H200", all);
    ASSERT_TRUE(h200.has_value());
    EXPECT_EQ(h200->values.Number("block"), 1024u);
    EXPECT_EQ(h200->origin, "this machine");
    EXPECT_FALSE(FindTuning(L("split/one-thread-per-pair"), "NVIDIA A100", all).has_value());
    // Another lesson on that GPU gets nothing of the user's entry (at most a shipped tuning).
    const std::optional<Tuning> other = FindTuning(L("split/pinned-memory"), "NVIDIA H200", all);
    EXPECT_TRUE(!other || other->origin == "shipped");
}

// A full file (kMaxTunings entries, which this program can write) is read whole and saved into:
// the oldest tuning makes room, nothing is called the wrong shape.
TEST(Tuning, AFullFileKeepsTheNewest) {
    const std::string path = MakeTempDir("tuning-full") + "/tunings.json";
    Json list = Json::array();
    for (size_t i = 0; i < kMaxTunings; ++i) {
        char when[32];
        std::snprintf(when, sizeof when, "2026-10-%02dT00:00Z", int(1 + i % 28));
        list.push_back(TuningToJson(Make("split/one-thread-per-pair", "G" + std::to_string(i), 256,
                                         i == 7 ? "2026-01-01T00:00Z" : when)));
    }
    std::ofstream(path) << list.dump();
    std::string problem;
    EXPECT_EQ(ReadTunings(path, &problem).size(), kMaxTunings);
    EXPECT_EQ(problem, "");
    SaveTuning(path, Make("split/one-thread-per-pair", "new", 512, "2026-11-29T00:00Z"));
    const std::vector<Tuning> after = ReadTunings(path, &problem);
    EXPECT_EQ(problem, "");
    ASSERT_EQ(after.size(), kMaxTunings);
    EXPECT_TRUE(FindTuning(L("split/one-thread-per-pair"), "new", after).has_value());
    EXPECT_FALSE(FindTuning(L("split/one-thread-per-pair"), "G7", after).has_value())
        << "the oldest made room";
}

TEST(Tuning, TheLatestOfOneOriginWins) {
    const std::vector<Tuning> user = {Make("split/one-thread-per-pair", "G", 64, "2026-11-01"),
                                      Make("split/one-thread-per-pair", "G", 128, "2026-11-20"),
                                      Make("split/one-thread-per-pair", "G", 32, "2026-11-10")};
    EXPECT_EQ(FindTuning(L("split/one-thread-per-pair"), "G", user)->values.Number("block"), 128u);
}

TEST(Tuning, HostileFilesAreRefusedWithAReasonAndNeverOverwritten) {
    const std::string dir = MakeTempDir("tuning");
    const std::string corrupt = dir + "/corrupt.json";
    std::ofstream(corrupt) << "[{\"id\": ";
    std::string problem;
    EXPECT_TRUE(ReadTunings(corrupt, &problem).empty());
    EXPECT_NE(problem.find("not a JSON list"), std::string::npos) << problem;
    EXPECT_THROW(SaveTuning(corrupt, Make("split/one-thread-per-pair", "G", 64)), UsageError);
    EXPECT_EQ(Slurp(corrupt), "[{\"id\": ") << "a file it cannot read is left as it was";

    const std::string shapes = dir + "/shapes.json";
    std::ofstream(shapes) << R"([42, {"id": "a"}, {"id": "split/openmp", "machine": "CPU: x",
        "values": {"threads": 4}, "at": {}, "best_ms": 1.5, "default_ms": 2},
        {"id": "b", "machine": "m", "values": {"block": -3}, "best_ms": 1, "default_ms": 1},
        {"id": "c", "machine": "m", "values": {"block": 32}, "best_ms": "x", "default_ms": 1}])";
    problem.clear();
    const std::vector<Tuning> kept = ReadTunings(shapes, &problem);
    ASSERT_EQ(kept.size(), 1u);
    EXPECT_EQ(kept[0].values.Number("threads"), 4u);
    EXPECT_NE(problem.find("4 entries of the wrong shape"), std::string::npos) << problem;

    const std::string fifo = dir + "/fifo.json";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    problem.clear();
    EXPECT_TRUE(ReadTunings(fifo, &problem).empty());  // and does not block
    EXPECT_NE(problem.find("not a regular file"), std::string::npos) << problem;

    const std::string huge = dir + "/huge.json";
    {
        std::ofstream out(huge);
        out << "[";
        out << std::string(5u << 20, ' ');
        out << "]";
    }
    problem.clear();
    EXPECT_TRUE(ReadTunings(huge, &problem).empty());
    EXPECT_NE(problem.find("bytes"), std::string::npos) << problem;
    problem.clear();
    EXPECT_TRUE(ReadTunings(dir + "/none.json", &problem).empty());
    EXPECT_EQ(problem, "") << "no file is no tunings, not a problem";
}

TEST(CliTune, ACpuStepIsTunedAndRemembered) {
    const std::string home = MakeTempDir("tuning");
    const Output out =
        Sh("HOME=" + home + " XDG_DATA_HOME= " + CliPath() + " tune split/openmp --size 1MiB 2>&1");
    ASSERT_EQ(out.code, 0) << out.text;
    EXPECT_NE(out.text.find("<- best"), std::string::npos) << out.text;
    EXPECT_NE(out.text.find("the default"), std::string::npos) << out.text;
    std::string problem;
    const std::vector<Tuning> saved =
        ReadTunings(home + "/.local/share/cuda-lessons/tunings.json", &problem);
    ASSERT_EQ(saved.size(), 1u) << problem;
    EXPECT_EQ(saved[0].id, "split/openmp");
    EXPECT_EQ(saved[0].machine.rfind("CPU: ", 0), 0u) << saved[0].machine;
    EXPECT_TRUE(saved[0].values.Has("threads"));
    EXPECT_EQ(saved[0].at.Number("size"), 1u << 20);
    EXPECT_GT(saved[0].best_ms, 0);
    EXPECT_LE(saved[0].best_ms, saved[0].default_ms);

    const Output dry = Sh("HOME=" + home + " " + CliPath() +
                          " tune split/openmp --size 1MiB --no-save --format json 2>/dev/null");
    ASSERT_EQ(dry.code, 0) << dry.text;
    const Json j = Json::parse(dry.text);
    EXPECT_TRUE(j["saved_to"].is_null());
    EXPECT_GE(j["runs"].size(), 1u);
}

// Where the tuning cannot be kept, tune says so before it measures anything.
TEST(CliTune, AnUnusableTuningsFileIsSaidBeforeMeasuring) {
    const std::string home = MakeTempDir("tuning");
    const std::string dir = home + "/.local/share/cuda-lessons";
    Sh("mkdir -p " + dir);
    std::ofstream(dir + "/tunings.json") << "[{broken";
    const Output out =
        Sh("HOME=" + home + " XDG_DATA_HOME= " + CliPath() + " tune split/openmp --size 1MiB 2>&1");
    EXPECT_EQ(out.code, 2) << out.text;
    EXPECT_NE(out.text.find("cannot keep a tuning"), std::string::npos) << out.text;
    EXPECT_EQ(out.text.find("median ms"), std::string::npos) << "measured first: " << out.text;
    EXPECT_EQ(Slurp(dir + "/tunings.json"), "[{broken");
    const Output no_home = Sh("env -u HOME -u XDG_DATA_HOME " + CliPath() +
                              " tune split/openmp --size 1MiB --no-save 2>&1");
    EXPECT_EQ(no_home.code, 0) << no_home.text;
}

TEST(CliTune, WhatCannotBeTunedIsRefused) {
    for (const char* args : {"tune gemm/cublas-sgemm", "tune split/naive-scan",
                             "tune split/openmp --set threads=2", "tune split/openmp --set x=1"}) {
        const Output out = Sh(CliPath() + " " + args + " 2>&1");
        EXPECT_EQ(out.code, 2) << args << "\n" << out.text;
        EXPECT_NE(out.text.find("error:"), std::string::npos) << out.text;
    }
    if (!GetDeviceInfo().available()) {
        const Output gpu = Sh(CliPath() + " tune split/one-thread-per-pair --size 1MiB 2>&1");
        EXPECT_EQ(gpu.code, 1) << gpu.text;
        EXPECT_NE(gpu.text.find("there is none"), std::string::npos) << gpu.text;
    }
}

// On a GPU machine: a GPU step's block size tuned and saved under the GPU's name.
TEST(CliTune, AGpuStepIsTunedForThisGpuModel) {
    if (!GetDeviceInfo().available())
        GTEST_SKIP() << "no GPU: " << GetDeviceInfo().unavailable.text;
    const std::string home = MakeTempDir("tuning");
    const Output out = Sh("HOME=" + home + " " + CliPath() +
                          " tune split/one-thread-per-pair --size 16MiB --format json 2>/dev/null");
    ASSERT_EQ(out.code, 0) << out.text;
    const Json j = Json::parse(out.text);
    EXPECT_EQ(j["machine"], GetDevices().devices.front().name);
    ASSERT_TRUE(j["values"].contains("block"));
    // Lesson 1.4 copies the text in and the offsets out: the kernel time decides, not the whole
    // run's median, which the copies' noise would decide.
    ASSERT_TRUE(j["runs"].is_array() && !j["runs"].empty());
    const Json& at_default = j["runs"][0];
    EXPECT_LT(at_default["rate_ms"].get<double>(), at_default["median_ms"].get<double>());
    EXPECT_DOUBLE_EQ(j["default_ms"].get<double>(), at_default["rate_ms"].get<double>());
    bool found = false;
    for (const Json& r : j["runs"])
        if (r["params"]["block"] == j["values"]["block"]) {
            found = true;
            EXPECT_DOUBLE_EQ(j["best_ms"].get<double>(), r["rate_ms"].get<double>());
        }
    EXPECT_TRUE(found) << j.dump();
}

// The reference GPUs' tunings that ship with the program name real lessons and values those
// lessons accept (a renamed lesson or a changed tile table shows here).
TEST(Tuning, ShippedTuningsNameLessonsAndAcceptedValues) {
    const std::vector<Tuning>& shipped = ShippedTunings();
    ASSERT_FALSE(shipped.empty()) << "assets/tunings/*.json embedded";
    for (const Tuning& t : shipped) {
        const Lesson* l = Catalog().FindLesson(t.id);
        ASSERT_NE(l, nullptr) << t.id;
        EXPECT_EQ(t.origin, "shipped");
        const std::vector<std::string> tuned = TunedParams(*l);
        for (const auto& [name, value] : t.values.entries()) {
            const ParamSpec* spec = l->FindParam(name);
            ASSERT_NE(spec, nullptr) << t.id << " " << name;
            EXPECT_EQ(spec->Reject(value), "") << t.id;
            EXPECT_NE(std::find(tuned.begin(), tuned.end(), name), tuned.end())
                << t.id << ": " << name << " is not what tune varies";
        }
        EXPECT_GT(t.best_ms, 0) << t.id;
        EXPECT_LE(t.best_ms, t.default_ms) << t.id;
    }
    EXPECT_TRUE(
        FindTuning(*Catalog().FindLesson("gemv/thread-per-row"), "NVIDIA H100 80GB HBM3", {})
            .has_value());
}

// The worker's `tune` request: each run as a result with its point, then the tuning, kept in
// the user's data folder; one that cannot be kept, or a lesson with nothing to tune, is an
// error before anything is measured.
TEST(ServeTune, TheWorkerTunesACpuStepAndKeepsIt) {
    const std::string home = MakeTempDir("tuning");
    const std::string requests = home + "/requests.jsonl";
    std::ofstream(requests)
        << R"({"op":"tune","id":1,"lesson":"split/openmp","params":{"size":"1MiB","threads":1}})"
        << "\n"
        << R"({"op":"tune","id":2,"lesson":"split/naive-scan"})"
        << "\n";
    const Output out = Sh("HOME=" + home + " XDG_DATA_HOME= " + CliPath() + " serve < " + requests +
                          " 2>/dev/null");
    std::map<int, std::vector<Json>> by_id = RepliesById(out.text);
    int results = 0;
    Json tuning;
    for (const Json& m : by_id[1]) {
        if (m["type"] == "result") {
            ++results;
            EXPECT_LT(m["point"].get<int>(), m["points"].get<int>());
        }
        if (m["type"] == "tuning") tuning = m["tuning"];
    }
    EXPECT_GE(results, 2) << out.text;
    ASSERT_TRUE(tuning.is_object()) << out.text;
    EXPECT_EQ(tuning["id"], "split/openmp");
    EXPECT_TRUE(tuning["values"].contains("threads"));
    EXPECT_EQ(tuning["all_right"], true);
    const std::string path = home + "/.local/share/cuda-lessons/tunings.json";
    EXPECT_EQ(tuning["saved_to"], path);
    EXPECT_EQ(by_id[1].back()["status"], "ok");
    std::string problem;
    ASSERT_EQ(ReadTunings(path, &problem).size(), 1u) << problem;
    ASSERT_EQ(by_id[2].size(), 2u) << out.text;
    EXPECT_NE(by_id[2][0]["error"].get<std::string>().find("nothing to tune"), std::string::npos);
    EXPECT_EQ(by_id[2][1]["status"], "error");
    // A tunings file that cannot be kept: said before measuring.
    std::ofstream(path) << "[{broken";
    const Output refused = Sh("HOME=" + home + " XDG_DATA_HOME= " + CliPath() + " serve < " +
                              requests + " 2>/dev/null");
    EXPECT_NE(refused.text.find("cannot keep a tuning"), std::string::npos) << refused.text;
    EXPECT_EQ(refused.text.find("\"result\""), std::string::npos) << "measured first";
    EXPECT_EQ(Slurp(path), "[{broken");
}
