#include <gtest/gtest.h>

#include "catalog.h"
#include "report.h"

using namespace lessons;
using json = nlohmann::ordered_json;

namespace {

RunResult MakeResult() {
    RunResult r;
    r.lesson = 4;
    r.id = "split/04-one-thread-per-pair";
    r.title = "CUDA: one thread per pair";
    r.chapter = "split";
    r.kind = StepKind::kGpu;
    r.size_bytes = 1 << 30;
    r.block = 256;
    r.data = "random";
    r.seed = 1;
    r.reps = 3;
    r.median_ms = 100.5;
    r.min_ms = 99.0;
    r.max_ms = 110.25;
    r.samples_ms = {99.0, 100.5, 110.25};
    r.h2d_ms = 98.0;
    r.kernel_ms = 1.375;
    r.d2h_ms = 0.125;
    r.bytes_moved = (1u << 30) + 8 * 16432;
    r.gbps = 781.25;
    r.ceiling_gbps = 2995.0;
    r.pct_of_ceiling = 26.1;
    r.verified = true;
    r.found = 16432;
    r.device = "NVIDIA H100 80GB HBM3";
    r.attributes = KernelAttributes{"k", 16, 0, 1024, 8, 1.0};
    r.timestamp = "2026-11-21T19:00:00Z";
    return r;
}

}  // namespace

TEST(Report, RunJsonHasTheDocumentedFields) {
    const json j = ToJson(MakeResult());
    for (const char* key :
         {"lesson", "id", "title", "kind", "size_bytes", "block", "threads", "median_ms", "min_ms",
          "max_ms", "gbps", "verified", "found", "h2d_ms", "kernel_ms", "d2h_ms", "device"})
        EXPECT_TRUE(j.contains(key)) << key;
    EXPECT_EQ(j["kind"], "gpu");
    EXPECT_TRUE(j["threads"].is_null()) << "not applicable: null";
    EXPECT_EQ(j["found"], 16432);
}

TEST(Report, JsonRoundTrip) {
    const RunResult a = MakeResult();
    const RunResult b = RunResultFromJson(json::parse(ToJson(a).dump()));
    EXPECT_EQ(ToJson(a), ToJson(b));
    RunResult cpu = a;
    cpu.kind = StepKind::kCpu;
    cpu.block.reset();
    cpu.threads = 8;
    cpu.h2d_ms.reset();
    cpu.kernel_ms.reset();
    cpu.d2h_ms.reset();
    cpu.attributes.reset();
    cpu.pct_of_ceiling.reset();
    EXPECT_EQ(ToJson(cpu), ToJson(RunResultFromJson(ToJson(cpu))));
}

TEST(Report, MalformedRecordedResultThrows) {
    EXPECT_THROW(RunResultFromJson(json{{"lesson", 1}}), json::exception);
    EXPECT_THROW(RunResultFromJson(json{{"lesson", "x"}, {"id", 3}}), json::exception);
}

TEST(Report, CsvRowMatchesHeader) {
    auto columns = [](const std::string& line) {
        return std::count(line.begin(), line.end(), ',') + 1;
    };
    RunResult r = MakeResult();
    r.device = "GPU, with a comma";
    EXPECT_EQ(columns(CsvHeader()), columns(CsvRow(MakeResult())));
    EXPECT_NE(CsvRow(r).find("\"GPU, with a comma\""), std::string::npos);
}

TEST(Report, ListJsonOfEveryLesson) {
    const Registry& reg = Catalog();
    for (const Lesson& l : reg.lessons()) {
        const json j = LessonToJson(reg, l, "");
        for (const char* key : {"lesson", "id", "chapter", "title", "kind", "available"})
            EXPECT_TRUE(j.contains(key)) << key;
        EXPECT_EQ(j["available"], true);
        EXPECT_EQ(LessonToJson(reg, l, "no GPU")["available"], false);
    }
}

TEST(Report, TextTableAlignsUnicode) {
    TextTable t({"a", "b"}, {false, true});
    t.AddRow({"✓", "1"});
    t.AddRow({"xx", "100"});
    EXPECT_EQ(t.Render(), "a     b\n--  ---\n✓     1\nxx  100\n");
}
