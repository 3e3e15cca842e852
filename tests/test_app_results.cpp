// What the page shows of the results (model/results_view.h): the results table's columns, and
// the recorded results embedded for machines without a GPU.
#include <gtest/gtest.h>

#include <algorithm>

#include "catalog.h"
#include "model/results_view.h"
#include "report.h"
#include "worker/controller.h"

using namespace lessons;
using namespace lessons::app;

TEST(AppTable, ColumnsComeFromTheFieldTableAndTheChaptersParameters) {
    const Chapter& split = *Catalog().FindChapter("split");
    const std::vector<ResultColumn> en = ResultColumns(Catalog(), split, "en");
    std::vector<std::string> headers;
    for (const ResultColumn& c : en) headers.push_back(c.header);
    std::vector<std::string> expected = {"lesson",       "Data size",  "Data",
                                         "Host threads", "Block size", "Output of the offsets",
                                         "GPUs"};
    for (const ResultField& f : ResultFields())
        if (f.header_en && std::string_view(f.name) != "lesson") expected.push_back(f.header_en);
    EXPECT_EQ(headers, expected);
    for (const char* h : {"median ms", "GB/s", "GFLOP/s", "% ceiling", "check"})
        EXPECT_NE(std::find(headers.begin(), headers.end(), h), headers.end()) << h;

    const std::vector<ResultColumn> zh = ResultColumns(Catalog(), split, "zh");
    ASSERT_EQ(zh.size(), en.size());
    EXPECT_EQ(zh[0].header, "课");
    EXPECT_EQ(zh[1].header, "数据规模");

    const Lesson& lesson = *Catalog().FindLesson("split/one-thread-per-pair");
    RunResult r;
    r.lesson = lesson.number;
    r.id = lesson.id;
    r.params.Set("block", ParamValue::Number(512));
    r.params.Set("size", ParamValue::Number(64u << 20));
    r.median_ms = 1.5;
    for (const ResultColumn& c : en) {
        const ResultField* f = FindResultField(c.key);
        const std::string want = c.key == "lesson"          ? lesson.label  // never its number
                                 : c.key == "param:block"   ? "512"
                                 : c.key == "param:size"    ? "64 MiB"
                                 : c.key == "param:threads" ? "-"
                                 : c.key == "param:data"    ? "-"
                                 : c.key == "param:output"  ? "-"
                                 : c.key == "param:gpus"    ? "-"
                                                            : f->text(r);
        EXPECT_EQ(c.text(r), want) << c.key;
    }
}

TEST(AppRecorded, EmbeddedResultsAreGpuLessonsFromTheReferenceGpu) {
    std::string problems;
    const auto recorded = LoadRecordedResults(&problems);
    EXPECT_TRUE(problems.empty()) << problems;
    ASSERT_FALSE(recorded.empty());
    for (const RunResult& r : recorded) {
        EXPECT_EQ(r.kind, StepKind::kGpu);
        EXPECT_TRUE(r.recorded);
        EXPECT_TRUE(r.verified);
        EXPECT_FALSE(r.Device().empty());
        EXPECT_TRUE(r.Number("size") || (r.Number("m") && r.Number("n")))
            << r.id << ": recorded before parameters were named";
        EXPECT_NE(Catalog().FindLesson(r.id), nullptr)
            << r.id << ": the catalogue knows every id recorded, old ones too";
    }
}
