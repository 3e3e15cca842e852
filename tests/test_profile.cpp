// Profiling with Nsight Compute: finding ncu, the command line, ncu's CSV report parsed, its
// refusals explained, profiles as JSON and back, the recorded ones; and the CLI's `profile`
// end to end: without ncu or a GPU it says why and falls back to the recorded counters; on a
// GPU machine a stand-in ncu (a script that writes a report) checks the whole path, and the
// real ncu, where present, profiles a step.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <functional>
#include <future>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "catalog.h"
#include "device.h"
#include "errors.h"
#include "machine_code.h"
#include "profile.h"
#include "resources.h"
#include "session.h"
#include "shell.h"

using namespace lessons;
using Json = nlohmann::ordered_json;

namespace {

// A report as ncu 2025 writes it with --csv --page details --print-units base: its own lines
// first, a header, then one row per launch and metric; thousands separators in big values.
const char* kReport =
    "==PROF== Connected to process 4242 (/opt/cuda-lessons-cli)\n"
    "==PROF== Profiling \"gemm_vectorized_transposed_a_kernel\" - 0: 0%....50%....100% - 9 passes\n"
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\","
    "\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\","
    "\"Metric Unit\",\"Metric Value\"\n"
    "\"0\",\"4242\",\"cuda-lessons-cli\",\"127.0.0.1\",\"void lessons::gemm::"
    "gemm_vectorized_transposed_a_kernel<128, 128, 16, 8, 8>(int, int, int, const float *, const "
    "float "
    "*, float *)\",\"1\",\"7\",\"(256, 1, 1)\",\"(32, 32, 1)\",\"0\",\"9.0\",\"Command line "
    "profiler metrics\",\"dram__bytes_read.sum\",\"byte\",\"201,326,592\"\n"
    "\"0\",\"4242\",\"cuda-lessons-cli\",\"127.0.0.1\",\"void lessons::gemm::"
    "gemm_vectorized_transposed_a_kernel<128, 128, 16, 8, 8>(int, int, int, const float *, const "
    "float "
    "*, float *)\",\"1\",\"7\",\"(256, 1, 1)\",\"(32, 32, 1)\",\"0\",\"9.0\",\"Command line "
    "profiler metrics\",\"launch__registers_per_thread\",\"register/thread\",\"127\"\n"
    "\"1\",\"4242\",\"cuda-lessons-cli\",\"127.0.0.1\",\"void lessons::gemm::"
    "gemm_vectorized_transposed_a_kernel<128, 128, 16, 8, 8>(int, int, int, const float *, const "
    "float "
    "*, float *)\",\"1\",\"7\",\"(256, 1, 1)\",\"(32, 32, 1)\",\"0\",\"9.0\",\"Command line "
    "profiler metrics\",\"sm__warps_active.avg.pct_of_peak_sustained_active\",\"%\",\"24.93\"\n"
    "\"1\",\"4242\",\"cuda-lessons-cli\",\"127.0.0.1\",\"void lessons::gemm::"
    "gemm_vectorized_transposed_a_kernel<128, 128, 16, 8, 8>(int, int, int, const float *, const "
    "float "
    "*, float *)\",\"1\",\"7\",\"(256, 1, 1)\",\"(32, 32, 1)\",\"0\",\"9.0\",\"Command line "
    "profiler metrics\",\"smsp__thread_inst_executed_per_inst_executed.ratio\",\"\",\"n/a\"\n"
    "\"1\",\"4242\",\"broken row with too few fields\"\n"
    "==PROF== Disconnected from process 4242\n";

void WriteExecutable(const std::string& path, const std::string& text) {
    std::ofstream(path) << text;
    chmod(path.c_str(), 0755);
}

const Lesson& L(const char* key) {
    const Lesson* l = Catalog().FindLesson(key);
    if (!l) throw std::logic_error(std::string("no lesson ") + key);
    return *l;
}

}  // namespace

TEST(NcuReport, LaunchesCountersUnitsAndNumbers) {
    const std::vector<ProfiledKernel> k = ParseNcuCsv(kReport);
    ASSERT_EQ(k.size(), 2u);
    EXPECT_EQ(k[0].id, 0);
    EXPECT_EQ(k[1].id, 1);
    EXPECT_NE(k[0].name.find("gemm_vectorized_transposed_a_kernel<128, 128, 16, 8, 8>"),
              std::string::npos);
    EXPECT_EQ(k[0].block, "(256, 1, 1)");
    EXPECT_EQ(k[0].grid, "(32, 32, 1)");
    ASSERT_EQ(k[0].counters.size(), 2u);
    const NcuCounter* bytes = k[0].Find("dram__bytes_read.sum");
    ASSERT_NE(bytes, nullptr);
    EXPECT_EQ(bytes->unit, "byte");
    ASSERT_TRUE(bytes->value.has_value());
    EXPECT_EQ(*bytes->value, 201326592.0);  // the thousands separators read as such
    EXPECT_EQ(*k[0].Find("launch__registers_per_thread")->value, 127.0);
    EXPECT_DOUBLE_EQ(*k[1].Find("sm__warps_active.avg.pct_of_peak_sustained_active")->value, 24.93);
    const NcuCounter* na = k[1].Find("smsp__thread_inst_executed_per_inst_executed.ratio");
    ASSERT_NE(na, nullptr);
    EXPECT_FALSE(na->value.has_value());
    EXPECT_EQ(na->text, "n/a");
    EXPECT_EQ(k[1].Find("no_such_metric"), nullptr);
}

TEST(NcuReport, NoHeaderNoRowsAndNoNumbersInDisguise) {
    EXPECT_TRUE(ParseNcuCsv("").empty());
    EXPECT_TRUE(ParseNcuCsv("==PROF== Connected\n\"0\",\"k\",\"m\",\"u\",\"1\"\n").empty());
    // "1,5" is not 15 (a decimal comma of another locale), "12,34,567" not a grouping.
    const std::string text =
        "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
        "\"0\",\"k\",\"a\",\"%\",\"1,5\"\n"
        "\"0\",\"k\",\"b\",\"\",\"12,34,567\"\n"
        "\"0\",\"k\",\"c\",\"\",\"1,234.5\"\n"
        "\"0\",\"k\",\"d\",\"\",\"-3e-2\"\n"
        "\"x\",\"k\",\"e\",\"\",\"1\"\n";
    const std::vector<ProfiledKernel> k = ParseNcuCsv(text);
    ASSERT_EQ(k.size(), 1u);
    EXPECT_FALSE(k[0].Find("a")->value.has_value());
    EXPECT_FALSE(k[0].Find("b")->value.has_value());
    EXPECT_EQ(*k[0].Find("c")->value, 1234.5);
    EXPECT_EQ(*k[0].Find("d")->value, -0.03);
    EXPECT_EQ(k[0].Find("e"), nullptr) << "a row whose ID is not a number is skipped";
}

TEST(NcuReport, FailuresAreNamedWithTheirRemedy) {
    const std::string perm = NcuFailure(
        "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU "
        "Performance Counters on the target device 0.\n",
        1, 0);
    EXPECT_NE(perm.find("ERR_NVGPUCTRPERM"), std::string::npos) << perm;
    EXPECT_NE(perm.find("NVreg_RestrictProfilingToAdminUsers=0"), std::string::npos) << perm;
    EXPECT_NE(perm.find("administrator"), std::string::npos) << perm;
    EXPECT_NE(NcuFailure("==ERROR== Failed to profile kernel\n", 1, 0).find("Failed to profile"),
              std::string::npos);
    EXPECT_NE(NcuFailure("", 3, 0).find("status 3"), std::string::npos);
    EXPECT_NE(NcuFailure("", 0, 0).find("no kernel"), std::string::npos);
    EXPECT_EQ(NcuFailure(kReport, 0, 2), "");
}

TEST(NcuLocation, TheNamedFileFirstThenPathThenCudaHome) {
    const std::string dir = MakeTempDir("profile");
    WriteExecutable(dir + "/ncu", "#!/bin/sh\nexit 0\n");
    std::ofstream(dir + "/plain") << "not executable";
    std::map<std::string, std::string> env;
    auto get = [&env](const char* name) -> const char* {
        const auto it = env.find(name);
        return it == env.end() ? nullptr : it->second.c_str();
    };
    std::string looked;
    env = {{"PATH", dir}};
    EXPECT_EQ(FindNcu(&looked, get).value_or(""), dir + "/ncu");
    mkdir((dir + "/bin").c_str(), 0755);
    WriteExecutable(dir + "/bin/ncu", "#!/bin/sh\nexit 0\n");
    env = {{"PATH", "/nonexistent"}, {"CUDA_HOME", dir}};
    EXPECT_EQ(FindNcu(&looked, get).value_or(""), dir + "/bin/ncu");
    env = {{"CUDA_LESSONS_NCU", dir + "/plain"}, {"PATH", dir}};
    EXPECT_FALSE(FindNcu(&looked, get).has_value()) << "a named file that cannot run is no ncu";
    EXPECT_NE(looked.find("CUDA_LESSONS_NCU"), std::string::npos) << looked;
    env = {{"CUDA_LESSONS_NCU", dir + "/ncu"}};
    EXPECT_EQ(FindNcu(&looked, get).value_or(""), dir + "/ncu");
    env = {{"PATH", "/nonexistent:"}};
    looked.clear();
    const std::optional<std::string> none = FindNcu(&looked, get);
    if (!none) {
        EXPECT_NE(looked.find("PATH"), std::string::npos) << looked;
    }
}

TEST(NcuCommandLine, ProfilesTheStepsKernelsAtThePageSettings) {
    const Lesson& l = L("gemm/vectorized-transposed-a");
    ParamValues v;
    for (const ParamSpec& spec : l.params) v.Set(spec.name, spec.Default());
    v.Set("m", ParamValue::Number(1024));
    const std::vector<std::string> a =
        NcuArgs("/opt/ncu", l, Catalog().FindLesson(l.previous), v, "/bin/cli", "/tmp/r.csv");
    auto has = [&a](const std::string& s) { return std::find(a.begin(), a.end(), s) != a.end(); };
    EXPECT_EQ(a.front(), "/opt/ncu");
    for (const char* s : {"--csv", "--log-file", "/tmp/r.csv", "--kernel-name", "/bin/cli", "run",
                          "gemm/vectorized-transposed-a", "--no-ceilings", "--reps", "m=1024"})
        EXPECT_TRUE(has(s)) << s;
    const auto metrics = std::find(a.begin(), a.end(), "--metrics");
    ASSERT_NE(metrics, a.end());
    for (const char* m : {"dram__bytes_read.sum", "launch__registers_per_thread",
                          "sm__warps_active.avg.pct_of_peak_sustained_active",
                          "smsp__issue_active.avg.pct_of_peak_sustained_active"})
        EXPECT_NE((metrics + 1)->find(m), std::string::npos) << m;
    // A library step: no kernel names to limit ncu to.
    const Lesson& cublas = L("gemm/cublas-sgemm");
    const std::vector<std::string> b = NcuArgs("/opt/ncu", cublas, nullptr, {}, "/bin/cli", "/r");
    EXPECT_EQ(std::find(b.begin(), b.end(), "--kernel-name"), b.end());
}

// The command a student copies from the code view is the profile the app runs: read back by a
// shell, its words are NcuArgs's, but for where ncu writes its report (the app's --csv --page
// details --log-file FILE, and the run's --format json), for every GPU lesson at its defaults;
// and both ask for EvidenceMetrics.
TEST(NcuCommandLine, TheCopiedCommandIsTheProfileTheAppRuns) {
    int checked = 0;
    for (const Lesson& l : Catalog().lessons()) {
        if (l.kind != StepKind::kGpu) continue;
        const Lesson* previous = l.previous ? Catalog().FindLesson(l.previous) : nullptr;
        const ParamValues values = ResolveParams(l, {});
        const std::string copied = NcuCommand(l, previous, values, "cuda-lessons-cli");
        const Output words = Sh("printf '%s\\n' " + copied);
        ASSERT_EQ(words.code, 0) << copied;
        std::vector<std::string> read_back;
        std::istringstream lines(words.text);
        for (std::string w; std::getline(lines, w);) read_back.push_back(w);

        std::vector<std::string> run =
            NcuArgs("ncu", l, previous, values, "cuda-lessons-cli", "/tmp/report.csv");
        const auto metrics = std::find(run.begin(), run.end(), "--metrics");
        ASSERT_NE(metrics, run.end()) << l.id;
        std::string evidence;
        for (const std::string& m : EvidenceMetrics(l))
            evidence += (evidence.empty() ? "" : ",") + m;
        EXPECT_EQ(*(metrics + 1), evidence) << l.id;
        const auto copied_metrics = std::find(read_back.begin(), read_back.end(), "--metrics");
        ASSERT_NE(copied_metrics, read_back.end()) << copied;
        ASSERT_NE(copied_metrics + 1, read_back.end()) << copied;
        EXPECT_EQ(*(copied_metrics + 1), evidence) << l.id;

        // The app's run, less its report options, is the copied command word for word.
        const auto drop = [&run](const std::vector<std::string>& option) {
            const auto at = std::search(run.begin(), run.end(), option.begin(), option.end());
            ASSERT_NE(at, run.end()) << option.front();
            run.erase(at, at + std::ptrdiff_t(option.size()));
        };
        drop({"--csv"});
        drop({"--page", "details"});
        drop({"--log-file", "/tmp/report.csv"});
        drop({"--format", "json"});
        EXPECT_EQ(read_back, run) << l.id << ": " << copied;
        ++checked;
    }
    EXPECT_GT(checked, 40);
}

// A size goes to the profiled run exactly: its short form would be rounded (100 MB is
// "95.4MiB", which run refuses) where it is not exact.
TEST(NcuCommandLine, SizesGoAsTheirExactBytes) {
    const Lesson& l = L("split/one-thread-per-pair");
    ParamValues v;
    for (const ParamSpec& spec : l.params) v.Set(spec.name, spec.Default());
    auto size_arg = [&](uint64_t bytes) {
        v.Set("size", ParamValue::Number(bytes));
        const std::vector<std::string> a = NcuArgs("ncu", l, nullptr, v, "cli", "log");
        for (const std::string& s : a)
            if (s.rfind("size=", 0) == 0) return s;
        return std::string();
    };
    EXPECT_EQ(size_arg(100000000), "size=100000000");
    EXPECT_EQ(size_arg(1025000), "size=1025000");
    EXPECT_EQ(size_arg(1ull << 30), "size=1GiB");
}

// A profile from the worker is untrusted: fields of other types are read as missing, never
// thrown on while the GUI draws.
TEST(NcuProfileJson, FieldsOfTheWrongTypeAreIgnored) {
    const Json j = Json::parse(R"({"kernels": [{"id": "x", "name": 3, "block": [1],
        "counters": {"a": {"value": 1, "unit": 7}, "b": 5, "c": {"value": [1]}}},
        {"id": 1e300, "counters": []}]})");
    std::vector<ProfiledKernel> k;
    ASSERT_NO_THROW(k = KernelsFromJson(j));
    ASSERT_EQ(k.size(), 2u);
    EXPECT_EQ(k[0].id, -1);
    EXPECT_EQ(k[0].name, "");
    ASSERT_NE(k[0].Find("a"), nullptr);
    EXPECT_EQ(k[0].Find("a")->unit, "");
    EXPECT_EQ(*k[0].Find("a")->value, 1.0);
    EXPECT_EQ(k[0].Find("b"), nullptr);
    ASSERT_NE(k[0].Find("c"), nullptr);
    EXPECT_FALSE(k[0].Find("c")->value.has_value());
    EXPECT_EQ(k[1].id, -1);
}

TEST(NcuProfileJson, RoundTripAndNoRecordingYet) {
    const Lesson& l = L("gemm/vectorized-transposed-a");
    ParamValues v;
    v.Set("m", ParamValue::Number(64));
    const Json j = ProfileToJson(l, v, ParseNcuCsv(kReport), "NVIDIA H100 80GB HBM3", "2026");
    EXPECT_EQ(j["id"], l.id);
    EXPECT_EQ(j["kernels"].size(), 2u);
    EXPECT_EQ(j["kernels"][0]["counters"]["dram__bytes_read.sum"]["value"], 201326592.0);
    const std::vector<ProfiledKernel> back = KernelsFromJson(j);
    ASSERT_EQ(back.size(), 2u);
    EXPECT_EQ(*back[0].Find("launch__registers_per_thread")->value, 127.0);
    EXPECT_EQ(back[1].Find("smsp__thread_inst_executed_per_inst_executed.ratio")->text, "n/a");
    EXPECT_TRUE(KernelsFromJson(Json::parse("{\"kernels\": 3}")).empty());
    EXPECT_TRUE(KernelsFromJson(Json::parse("{\"kernels\": [1, {\"counters\": 2}]}")).size() == 1);
}

// Counters are recorded at a chapter's benchmark size (lesson 2.3 at 256 MiB), the page opens at
// the lesson's default size: the recorded profile of the page's other settings is found anyway,
// a setting profiled on its own comes before the defaults, and an unprofiled one (offset 8)
// gets the defaults'.
TEST(RecordedProfiles, ThePagesSettingsComeBeforeItsDataSize) {
    const Lesson& l = L("basics/coalescing");
    ParamValues v;
    for (const ParamSpec& spec : l.params) v.Set(spec.name, spec.Default());
    std::string problem;
    const auto at_defaults = FindRecordedProfile(l, v, &problem);
    ASSERT_TRUE(at_defaults) << problem;
    EXPECT_EQ((*at_defaults)["params"]["stride"], 1);
    EXPECT_EQ((*at_defaults)["params"]["size"], 268435456);  // 256 MiB, not the page's size
    v.Set("stride", ParamValue::Number(16));
    const auto at_16 = FindRecordedProfile(l, v, &problem);
    ASSERT_TRUE(at_16) << problem;
    EXPECT_EQ((*at_16)["params"]["stride"], 16);
    v.Set("stride", ParamValue::Number(1));
    v.Set("offset", ParamValue::Number(8));  // never profiled: the defaults' profile
    const auto at_8 = FindRecordedProfile(l, v, &problem);
    ASSERT_TRUE(at_8) << problem;
    EXPECT_EQ((*at_8)["params"]["offset"], 0);
    v.Set("offset", ParamValue::Number(0));
    // At the recorded size itself the exact profile is the one found.
    v.Set("stride", ParamValue::Number(32));
    v.Set("size", ParamValue::Number(268435456));
    const auto exact = FindRecordedProfile(l, v, &problem);
    ASSERT_TRUE(exact) << problem;
    EXPECT_EQ((*exact)["params"]["stride"], 32);
}

// What the page says of counters recorded at other settings than its own.
TEST(RecordedProfiles, TheSettingsTheyWereRecordedAtAreNamedWhereTheyDiffer) {
    const Lesson& l = L("basics/coalescing");
    ParamValues v;
    for (const ParamSpec& spec : l.params) v.Set(spec.name, spec.Default());
    v.Set("offset", ParamValue::Number(8));
    std::string problem;
    const auto p = FindRecordedProfile(l, v, &problem);
    ASSERT_TRUE(p) << problem;
    ParamValues other = RecordedAtOtherSettings(l, v, *p);
    ASSERT_TRUE(other.Find("offset"));
    EXPECT_EQ(other.Find("offset")->number, 0u);
    ASSERT_TRUE(other.Find("size"));
    EXPECT_EQ(other.Find("size")->number, 268435456u);
    EXPECT_FALSE(other.Find("block"));  // the page's own block size
    EXPECT_FALSE(other.Find("stride"));
    // At the recorded settings, nothing to say.
    v.Set("offset", ParamValue::Number(0));
    v.Set("size", ParamValue::Number(268435456));
    EXPECT_TRUE(RecordedAtOtherSettings(l, v, *p).entries().empty());
}

// The CLI says so too: on standard error, and in the JSON for scripts.
TEST(CliProfile, RecordedCountersAtOtherSettingsSaySo) {
    const Output json =
        Sh(CliPath() + " profile basics/coalescing --recorded --set offset=8 --format json");
    ASSERT_EQ(json.code, 0) << json.text;
    const Json j = Json::parse(json.text, nullptr, false);
    ASSERT_TRUE(j.is_object()) << json.text;
    EXPECT_EQ(j["source"], "recorded");
    EXPECT_EQ(j["params"]["offset"], 0);  // offset 8 was never profiled: the defaults'
    EXPECT_EQ(j["recorded_at_other_settings"]["offset"], 0);
    EXPECT_EQ(j["recorded_at_other_settings"]["size"], 268435456);
    EXPECT_FALSE(j["recorded_at_other_settings"].contains("stride"));
    const Output table =
        Sh(CliPath() + " profile basics/coalescing --recorded --set offset=8 2>&1");
    EXPECT_EQ(table.code, 0) << table.text;
    EXPECT_NE(table.text.find("note: recorded at other settings than asked: offset = 0, size = "
                              "256 MiB"),
              std::string::npos)
        << table.text;
    // At the recorded settings: no note, no field.
    const Output same =
        Sh(CliPath() +
           " profile basics/coalescing --recorded --set stride=16 --size 256MiB --format json");
    ASSERT_EQ(same.code, 0) << same.text;
    EXPECT_FALSE(Json::parse(same.text, nullptr, false).contains("recorded_at_other_settings"));
}

// Every lesson that has recorded counters finds them at the settings its page opens with.
TEST(RecordedProfiles, EveryProfiledStepFindsItsCountersAtItsDefaults) {
    int checked = 0;
    for (const Lesson& l : Catalog().lessons()) {
        const auto file = EmbeddedFiles().find("assets/counters/" + l.chapter + ".json");
        if (file == EmbeddedFiles().end()) continue;
        const Json all = Json::parse(file->second, nullptr, false);
        bool recorded = false;
        for (const Json& p : all)
            recorded = recorded || (p.is_object() && p.value("id", std::string()) == l.id);
        if (!recorded) continue;
        ParamValues v;
        for (const ParamSpec& spec : l.params) v.Set(spec.name, spec.Default());
        std::string problem;
        EXPECT_TRUE(FindRecordedProfile(l, v, &problem)) << l.id << ": " << problem;
        ++checked;
    }
    EXPECT_GE(checked, 40);  // 46 of the catalogue's GPU steps were profiled on 2026-11-27
}

// A chapter recorded only on a later reference GPU (chapter 9 on the H200, in
// assets/counters/h200/) has its counters too: every GPU step of it, at its defaults.
TEST(RecordedProfile, AChapterRecordedOnAnotherReferenceGpuOnlyIsFound) {
    int found = 0;
    for (const Lesson& l : Catalog().lessons()) {
        if (l.chapter != "softmax" || l.kind != StepKind::kGpu) continue;
        ASSERT_EQ(EmbeddedFiles().count("assets/counters/softmax.json"), 0u);
        ParamValues v;
        for (const ParamSpec& spec : l.params) v.Set(spec.name, spec.Default());
        std::string problem;
        const auto p = FindRecordedProfile(l, v, &problem);
        ASSERT_TRUE(p) << l.id << ": " << problem;
        EXPECT_EQ((*p)["id"], l.id);
        EXPECT_EQ((*p)["device"], "NVIDIA H200") << l.id;
        ++found;
    }
    EXPECT_EQ(found, 8);  // 9.2 to 9.9
}

TEST(CliProfile, WithoutNcuOrAGpuItSaysWhyAndOffersTheRecordedCounters) {
    const Output cpu = Sh(CliPath() + " profile split/naive-scan 2>&1");
    EXPECT_EQ(cpu.code, 2) << cpu.text;
    EXPECT_NE(cpu.text.find("runs on the CPU"), std::string::npos) << cpu.text;
    const Output bad = Sh(CliPath() + " profile gemm/vectorized-transposed-a --set bogus=1 2>&1");
    EXPECT_EQ(bad.code, 2) << bad.text;
    const Output missing = Sh("CUDA_LESSONS_NCU=/nonexistent/ncu " + CliPath() +
                              " profile gemm/vectorized-transposed-a 2>&1");
    EXPECT_EQ(missing.code, 1) << missing.text;
    EXPECT_NE(missing.text.find("/nonexistent/ncu"), std::string::npos) << missing.text;
    EXPECT_NE(missing.text.find("CUDA_LESSONS_NCU"), std::string::npos) << missing.text;
    const Output recorded = Sh(CliPath() + " profile gemm/vectorized-transposed-a --recorded 2>&1");
    std::string problem;
    ParamValues defaults;
    for (const ParamSpec& spec : L("gemm/vectorized-transposed-a").params)
        defaults.Set(spec.name, spec.Default());
    if (FindRecordedProfile(L("gemm/vectorized-transposed-a"), defaults, &problem)) {
        EXPECT_EQ(recorded.code, 0) << recorded.text;
        EXPECT_NE(recorded.text.find("recorded on"), std::string::npos) << recorded.text;
    } else {
        EXPECT_EQ(recorded.code, 1) << recorded.text;
        EXPECT_NE(recorded.text.find(problem), std::string::npos) << recorded.text;
    }
}

// The whole path on a GPU machine, with a stand-in for ncu that checks its arguments, runs the
// step as ncu would and writes a report where --log-file says.
TEST(CliProfile, AStandInNcuReportIsParsedAndReturned) {
    if (!GetDeviceInfo().available())
        GTEST_SKIP() << "no GPU: " << GetDeviceInfo().unavailable.text;
    const std::string dir = MakeTempDir("profile");
    std::ofstream(dir + "/report.csv") << kReport;
    WriteExecutable(dir + "/ncu",
                    "#!/bin/bash\n"
                    "log=''; while [ $# -gt 0 ]; do case $1 in --log-file) log=$2; shift;;\n"
                    "  --metrics) shift;; */cuda-lessons-cli) break;; esac; shift; done\n"
                    "[ -n \"$log\" ] || exit 9\n"
                    "\"$@\" >/dev/null || exit 8\n"
                    "cp " +
                        dir + "/report.csv \"$log\"\n");
    const Output out = Sh("CUDA_LESSONS_NCU=" + dir + "/ncu " + CliPath() +
                          " profile gemm/vectorized-transposed-a --set m=128 --set n=128 --set "
                          "k=64 --format json 2>/dev/null");
    ASSERT_EQ(out.code, 0) << out.text;
    const Json j = Json::parse(out.text);
    EXPECT_EQ(j["source"], "live");
    EXPECT_EQ(j["kernels"].size(), 2u);
    EXPECT_EQ(j["params"]["m"], 128);
}

// The real profiler, where it is installed and the driver lets this user read counters.
TEST(CliProfile, RealNcuProfilesAStep) {
    if (!GetDeviceInfo().available())
        GTEST_SKIP() << "no GPU: " << GetDeviceInfo().unavailable.text;
    std::string looked;
    if (!FindNcu(&looked)) GTEST_SKIP() << "no ncu on this machine (looked at " << looked << ")";
    const Output out =
        Sh(CliPath() +
           " profile gemv/vectorized-rows-per-warp --set m=2048 --set n=2048 --format json");
    if (out.code != 0 && out.text.find("ERR_NVGPUCTRPERM") != std::string::npos)
        GTEST_SKIP() << "the driver refuses counters to this user";
    ASSERT_EQ(out.code, 0) << out.text;
    const Json j = Json::parse(out.text.substr(out.text.find('{')));
    ASSERT_FALSE(j["kernels"].empty());
    const Json& c = j["kernels"].back()["counters"];
    ASSERT_TRUE(c.contains("dram__bytes_read.sum")) << c.dump();
    // 2048 × 2048 floats of A are read at least once: 16 MiB.
    EXPECT_GE(c["dram__bytes_read.sum"]["value"].get<double>(), 16.0 * (1 << 20) * 0.9);
}

// The runner itself, without a GPU: a stand-in ncu that writes its report where --log-file
// says (and what the run would print on stderr); one that never ends, stopped by the timeout
// and by a cancel; one that is refused counters.
TEST(NcuRunner, ReportsTimeoutsCancelsAndRefusals) {
    const std::string dir = MakeTempDir("profile");
    std::ofstream(dir + "/report.csv") << kReport;
    const std::string log_arg =
        "log=''; while [ $# -gt 0 ]; do [ \"$1\" = --log-file ] && log=$2; shift; done\n";
    WriteExecutable(dir + "/ok", "#!/bin/bash\n" + log_arg + "cp " + dir +
                                     "/report.csv \"$log\"\necho 'a note' >&2\n");
    // Never ends on its own: a runner that waited for it would hang (the guard below).
    WriteExecutable(dir + "/slow",
                    "#!/bin/bash\necho $$ >" + dir + "/slow.pid\nexec sleep 100000\n");
    WriteExecutable(dir + "/refused", "#!/bin/bash\n" + log_arg +
                                          "echo '==ERROR== ERR_NVGPUCTRPERM - no permission' "
                                          ">\"$log\"\nexit 1\n");
    const Lesson& l = L("gemm/vectorized-transposed-a");
    ParamValues v;
    for (const ParamSpec& spec : l.params) v.Set(spec.name, spec.Default());

    const NcuRun ok = RunNcu(dir + "/ok", l, nullptr, v, "/bin/true", 20, nullptr);
    EXPECT_EQ(ok.failure, "");
    EXPECT_EQ(ok.kernels.size(), 2u);
    EXPECT_NE(ok.stderr_text.find("a note"), std::string::npos);

    // A hang guard of 120 s (the timeout is 1 s, the cancel comes after 1 s): then the stand-in is
    // killed so that the test fails instead of hanging. How soon they stop is not judged.
    const auto guarded = [&](const std::function<NcuRun()>& run) {
        std::future<NcuRun> running = std::async(std::launch::async, run);
        if (running.wait_for(std::chrono::seconds(120)) != std::future_status::ready) {
            ADD_FAILURE() << "hung: the runner still waited for the stand-in after 120 s";
            pid_t pid = 0;
            if (std::ifstream(dir + "/slow.pid") >> pid && pid > 0) kill(pid, SIGKILL);
        }
        return running.get();
    };
    const NcuRun slow =
        guarded([&] { return RunNcu(dir + "/slow", l, nullptr, v, "/bin/true", 1, nullptr); });
    EXPECT_TRUE(slow.timed_out);
    EXPECT_NE(slow.failure.find("longer than 1 s"), std::string::npos) << slow.failure;
    std::atomic<bool> cancel{false};
    int ticks = 0;
    const NcuRun cancelled = guarded([&] {
        return RunNcu(dir + "/slow", l, nullptr, v, "/bin/true", 20, &cancel, [&](int seconds) {
            ++ticks;
            if (seconds >= 1) cancel = true;
        });
    });
    EXPECT_TRUE(cancelled.cancelled);
    EXPECT_GE(ticks, 1);

    const NcuRun refused = RunNcu(dir + "/refused", l, nullptr, v, "/bin/true", 20, nullptr);
    EXPECT_NE(refused.failure.find("NVreg_RestrictProfilingToAdminUsers"), std::string::npos)
        << refused.failure;
    EXPECT_TRUE(refused.kernels.empty());
}

// A hostile ncu: one that puts a FIFO where its report should be (read without blocking and
// refused), and one whose report holds 200,000 counters for one launch and 100,000 launches
// (bounded: what is kept is capped; the parse's speed is not a test's to judge).
TEST(NcuRunner, AHostileReportIsRefusedOrBounded) {
    const std::string dir = MakeTempDir("profile-hostile");
    const std::string log_arg =
        "log=''; while [ $# -gt 0 ]; do [ \"$1\" = --log-file ] && log=$2; shift; done\n";
    WriteExecutable(dir + "/fifo", "#!/bin/bash\n" + log_arg + "rm -f \"$log\"; mkfifo \"$log\"\n");
    const Lesson& l = L("gemm/vectorized-transposed-a");
    ParamValues v;
    for (const ParamSpec& spec : l.params) v.Set(spec.name, spec.Default());
    std::string message;  // a read that blocked on the FIFO would never return
    try {
        RunNcu(dir + "/fifo", l, nullptr, v, "/bin/true", 20, nullptr);
    } catch (const UnavailableError& e) {
        message = e.what();
    }
    EXPECT_NE(message.find("not a regular file"), std::string::npos) << message;

    // An ncu that leaves a child behind in a session of its own, out of reach of the group
    // kill: it is ended with the run.
    WriteExecutable(dir + "/escapes",
                    "#!/bin/bash\nsetsid sleep 300 </dev/null >/dev/null 2>&1 &\n"
                    "echo $! > " +
                        dir + "/escaped.pid\nexit 1\n");
    RunNcu(dir + "/escapes", l, nullptr, v, "/bin/true", 20, nullptr);
    int escaped = 0;
    std::ifstream(dir + "/escaped.pid") >> escaped;
    ASSERT_GT(escaped, 1);
    for (int i = 0; i < 40 && ProcessAlive(escaped); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_FALSE(ProcessAlive(escaped)) << "the setsid child of ncu still runs";

    std::string report =
        "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";
    for (int i = 0; i < 200000; ++i)
        report += "\"0\",\"k\",\"m" + std::to_string(i) + "\",\"\",\"1\"\n";
    for (int i = 1; i < 100000; ++i)
        report += "\"" + std::to_string(i) + "\",\"k\",\"m\",\"\",\"1\"\n";
    report += "\"0\",\"k\",\"m7\",\"\",\"2\"\n";  // a counter again: its last value counts
    const std::vector<ProfiledKernel> kernels = ParseNcuCsv(report);
    ASSERT_EQ(kernels.size(), kMaxProfiledKernels);
    EXPECT_EQ(kernels[0].counters.size(), kMaxCountersPerKernel);
    ASSERT_TRUE(kernels[0].Find("m7"));
    EXPECT_EQ(kernels[0].Find("m7")->value, 2.0);
    std::system(("rm -rf '" + dir + "'").c_str());
}

// The real worker answers a `profile` request: here (no ncu or no GPU, and no counters recorded
// for the chapter) an `unavailable` that says both why not live and why not recorded; a CPU
// lesson is an error.
TEST(CliProfile, TheWorkerAnswersProfileRequests) {
    const std::string requests =
        R"({"op":"profile","id":1,"lesson":"split/naive-scan"})"
        "\n"
        R"({"op":"profile","id":2,"lesson":"gemm/vectorized-transposed-a","params":{"m":128,"n":128,"k":64}})"
        "\n";
    const Output out = Sh("printf '%s' '" + requests + "' | CUDA_LESSONS_NCU=/nonexistent/ncu " +
                          CliPath() + " serve 2>/dev/null");
    ASSERT_EQ(out.code, 0) << out.text;
    std::vector<Json> replies;
    std::istringstream lines(out.text);
    for (std::string line; std::getline(lines, line);) replies.push_back(Json::parse(line));
    auto status = [&](int id) {
        for (const Json& r : replies)
            if (r.value("id", Json()) == id && r.value("type", "") == "done")
                return r.value("status", std::string());
        return std::string("(none)");
    };
    EXPECT_EQ(status(1), "error") << out.text;
    std::string problem;
    ParamValues defaults;
    for (const ParamSpec& spec : L("gemm/vectorized-transposed-a").params)
        defaults.Set(spec.name, spec.Default());
    if (!FindRecordedProfile(L("gemm/vectorized-transposed-a"), defaults, &problem)) {
        EXPECT_EQ(status(2), "unavailable") << out.text;
        EXPECT_NE(out.text.find("/nonexistent/ncu"), std::string::npos) << out.text;
    }
}
