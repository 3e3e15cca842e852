#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "catalog.h"
#include "device.h"
#include "errors.h"
#include "report.h"
#include "resources.h"
#include "session.h"

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
    r.params.Set("block", ParamValue::Number(256));
    r.params.Set("size", ParamValue::Number(1 << 30));
    r.params.Set("data", ParamValue::Choice("random"));
    r.seed = 1;
    r.reps = 3;
    r.median_ms = 100.5;
    r.min_ms = 99.0;
    r.max_ms = 110.25;
    r.samples_ms = {99.0, 100.5, 110.25};
    r.parts = {{"h2d", 98.0}, {"kernel", 1.375}, {"d2h", 0.125}};
    r.work.bytes_read = 1u << 30;
    r.work.bytes_written = 8 * 16432;
    r.work.h2d_bytes = 1u << 30;
    r.work.bound = Bound::kRead;
    r.verified = true;
    r.values = {{"found", 16432}};
    r.devices = {"NVIDIA H100 80GB HBM3"};
    r.attributes = KernelAttributes{"k", 16, 0, 0, 1024, 8, 1.0};
    r.timestamp = "2026-11-21T19:00:00Z";
    const CeilingFigures c{3150, 2995, 60000, 55, 0, 0, {}};
    DeriveMetrics(r, &c);
    return r;
}

}  // namespace

TEST(Report, RunJsonHasTheDocumentedFields) {
    const json j = ToJson(MakeResult());
    for (const char* key : {"lesson",    "id",
                            "title",     "kind",
                            "params",    "median_ms",
                            "min_ms",    "max_ms",
                            "parts",     "work",
                            "gbps",      "gflops",
                            "ceiling",   "pct_of_ceiling",
                            "intensity", "attainable_gflops",
                            "verified",  "values",
                            "devices",   "attributes"})
        EXPECT_TRUE(j.contains(key)) << key;
    EXPECT_EQ(j["kind"], "gpu");
    EXPECT_EQ(j["params"]["block"], 256);
    EXPECT_EQ(j["params"]["data"], "random");
    EXPECT_EQ(j["values"]["found"], 16432) << "whole numbers stay whole";
    EXPECT_EQ(j["parts"]["kernel"], 1.375);
    EXPECT_TRUE(j["gflops"].is_null()) << "no arithmetic: null";
}

TEST(Report, RatesComeFromTheWorkAndTheMatchingCeiling) {
    const RunResult r = MakeResult();
    // (2^30 + 8 x 16432) bytes over the kernel's 1.375 ms, against the read ceiling.
    const double gbps = (double(1u << 30) + 8 * 16432) / 1.375e-3 * 1e-9;
    EXPECT_NEAR(r.gbps, gbps, 1e-6);
    ASSERT_TRUE(r.ceiling && r.pct_of_ceiling);
    EXPECT_EQ(*r.ceiling, 3150);
    EXPECT_NEAR(*r.pct_of_ceiling, 100 * gbps / 3150, 1e-9);
    EXPECT_EQ(*r.intensity, 0.0);
    // A step with arithmetic is placed on the roofline: min(peak, intensity x bandwidth).
    RunResult sum = r;
    sum.work.flops = 1u << 28;
    sum.work.bytes_written = 0;
    const CeilingFigures c{3000, 2900, 60000, 55, 0, 0, {}};
    DeriveMetrics(sum, &c);
    EXPECT_NEAR(*sum.intensity, 0.25, 1e-12);
    EXPECT_NEAR(*sum.attainable_gflops, 750, 1e-9);
    EXPECT_NEAR(*sum.gflops, double(1u << 28) / 1.375e-3 * 1e-9, 1e-6);
    // A copy-bound step against the copy ceiling; an arithmetic-bound one against fp32.
    sum.work.bound = Bound::kCopy;
    DeriveMetrics(sum, &c);
    EXPECT_EQ(*sum.ceiling, 2900);
    sum.work.bound = Bound::kFp32;
    DeriveMetrics(sum, &c);
    EXPECT_EQ(*sum.ceiling, 60000);
    EXPECT_STREQ(sum.RateUnit(), "GFLOP/s");
    EXPECT_NEAR(*sum.pct_of_ceiling, 100 * *sum.gflops / 60000, 1e-9);
    // Lesson 11's kind: the whole time against the host-to-device copy.
    RunResult overlapped = r;
    overlapped.parts.clear();
    overlapped.work.bound = Bound::kH2D;
    DeriveMetrics(overlapped, &c);
    EXPECT_NEAR(overlapped.gbps, double(1u << 30) / 100.5e-3 * 1e-9, 1e-6);
    EXPECT_EQ(*overlapped.ceiling, 55);
    // CPU steps have no ceiling.
    RunResult cpu = r;
    cpu.kind = StepKind::kCpu;
    DeriveMetrics(cpu, nullptr);
    EXPECT_FALSE(cpu.ceiling || cpu.pct_of_ceiling || cpu.attainable_gflops);
}

// A memory-bound step's ceiling names the footprint it was measured over; other bounds none.
TEST(Report, AMemoryCeilingNamesTheFootprintItWasMeasuredOver) {
    RunResult r = MakeResult();
    CeilingFigures c{3000, 2900, 60000, 55, 0, 0, {}};
    c.memory_bytes = uint64_t(272) << 20;
    DeriveMetrics(r, &c);
    ASSERT_TRUE(r.ceiling_bytes);
    EXPECT_EQ(*r.ceiling_bytes, uint64_t(272) << 20);
    const RunResult back = RunResultFromJson(json::parse(ToJson(r).dump()));
    ASSERT_TRUE(back.ceiling_bytes);
    EXPECT_EQ(*back.ceiling_bytes, *r.ceiling_bytes);
    r.work.bound = Bound::kCopy;
    DeriveMetrics(r, &c);
    EXPECT_TRUE(r.ceiling_bytes);
    r.work.bound = Bound::kFp32;
    DeriveMetrics(r, &c);
    EXPECT_FALSE(r.ceiling_bytes) << "an arithmetic ceiling has no footprint";
    EXPECT_TRUE(ToJson(r)["ceiling_bytes"].is_null());
}

// The footprint a memory ceiling is measured over: the step's bytes rounded up to five
// significant bits, at least four L2s and 64 MiB, at most the standard footprint.
TEST(Report, MemoryCeilingFootprintRoundsUpWithinItsBounds) {
    const uint64_t MiB = uint64_t(1) << 20, GiB = uint64_t(1) << 30, l2 = 50 * MiB;
    // GEMV at 8192 x 8192: 256 MiB of matrix and 64 KiB of vectors -> 272 MiB (17 x 16 MiB).
    EXPECT_EQ(MemoryCeilingFootprint(256 * MiB + 64 * 1024, l2, GiB), 272 * MiB);
    EXPECT_EQ(MemoryCeilingFootprint(256 * MiB, l2, GiB), 256 * MiB) << "exact stays exact";
    EXPECT_EQ(MemoryCeilingFootprint(1, l2, GiB), 200 * MiB) << "four L2s";
    EXPECT_EQ(MemoryCeilingFootprint(201 * MiB, l2, GiB), 208 * MiB) << "rounded up by 8 MiB here";
    EXPECT_EQ(MemoryCeilingFootprint(1, 0, GiB), 64 * MiB) << "never below 64 MiB";
    EXPECT_EQ(MemoryCeilingFootprint(3 * GiB, l2, GiB), GiB) << "never above the standard";
    EXPECT_EQ(MemoryCeilingFootprint(3 * GiB, l2, 0), 3 * GiB) << "no standard known";
    for (uint64_t bytes = 1; bytes < 4 * GiB; bytes = bytes * 3 + 7) {
        const uint64_t at = MemoryCeilingFootprint(bytes, l2, 0);
        EXPECT_GE(at, bytes);
        EXPECT_LE(double(at), std::max(double(bytes), 200.0 * MiB) * 1.0625 + 1) << bytes;
    }
}

// Tensor-core steps (41, 42) are held to the TF32 ceiling: parsed, named, compared with it when
// measured, and with the fp32 peak, saying so, when not.
TEST(Report, Tf32BoundParsesAndHoldsTensorCoreStepsToItsCeiling) {
    EXPECT_EQ(ParseBound("tf32"), Bound::kTf32);
    EXPECT_STREQ(ToString(Bound::kTf32), "tf32");
    EXPECT_STREQ(CeilingDescription(Bound::kTf32), "cuBLAS TF32 GEMM rate");  // not a peak
    EXPECT_STREQ(CeilingDescriptionZh(Bound::kTf32), "cuBLAS TF32 GEMM 速率");
    EXPECT_TRUE(IsArithmetic(Bound::kTf32) && IsArithmetic(Bound::kFp32));
    EXPECT_FALSE(IsArithmetic(Bound::kRead));

    RunResult r = MakeResult();
    r.work.flops = uint64_t(1) << 40;  // 2^40 flops in 1.375 ms: 800 TFLOP/s
    r.work.bound = Bound::kTf32;
    CeilingFigures c{3000, 2900, 60000, 55, 0, 0, {}};
    c.tf32_gflops = 400000;
    DeriveMetrics(r, &c);
    EXPECT_STREQ(r.RateUnit(), "GFLOP/s");
    ASSERT_TRUE(r.ceiling && r.pct_of_ceiling && r.attainable_gflops && r.intensity);
    EXPECT_EQ(*r.ceiling, 400000);
    EXPECT_NEAR(*r.pct_of_ceiling, 100 * *r.gflops / 400000, 1e-9);
    EXPECT_TRUE(r.ceiling_note.empty());
    EXPECT_EQ(r.CeilingOf(Bound::kTf32), 400000);
    EXPECT_FALSE(r.CeilingOf(Bound::kFp32));
    // The roofline's peak is TF32's: min(400000, intensity x copy bandwidth).
    EXPECT_NEAR(*r.attainable_gflops, std::min(400000.0, *r.intensity * 2900), 1e-6);
    // Round trip: the bound and the ceiling survive JSON.
    const RunResult back = RunResultFromJson(json::parse(ToJson(r).dump()));
    EXPECT_EQ(back.work.bound, Bound::kTf32);
    EXPECT_EQ(ToJson(back)["bound"], "tf32");
    EXPECT_EQ(back.CeilingOf(Bound::kTf32), 400000);
    EXPECT_TRUE(ToJson(r)["ceiling_note"].is_null());

    // No TF32 ceiling: the fp32 peak, with the reason, never a silent TF32 percentage.
    c.tf32_gflops = 0;
    c.tf32_unavailable = "this build has no cuBLAS";
    DeriveMetrics(r, &c);
    ASSERT_TRUE(r.ceiling);
    EXPECT_EQ(*r.ceiling, 60000);
    EXPECT_NE(r.ceiling_note.find("this build has no cuBLAS"), std::string::npos) << r.ceiling_note;
    EXPECT_NE(r.ceiling_note.find("fp32"), std::string::npos) << r.ceiling_note;
    EXPECT_FALSE(r.CeilingOf(Bound::kTf32)) << "the fp32 figure is not a TF32 ceiling";
    const RunResult fallback = RunResultFromJson(json::parse(ToJson(r).dump()));
    EXPECT_EQ(fallback.ceiling_note, r.ceiling_note);
    EXPECT_FALSE(fallback.CeilingOf(Bound::kTf32));
    // Measured afresh with a TF32 figure, the note goes.
    c.tf32_gflops = 400000;
    DeriveMetrics(r, &c);
    EXPECT_TRUE(r.ceiling_note.empty());
}

// Lessons 41 and 42 recorded before the TF32 ceiling (bound fp32 in the file) take the bound the
// catalogue declares now, without the fp32 comparison; other lessons are left alone.
TEST(Report, ResultsRecordedBeforeTheTf32CeilingAdoptTheDeclaredBound) {
    const json old42 = json::parse(R"({"lesson":42,"id":"gemm/cublas-tf32","kind":"gpu",
        "params":{"m":4096,"n":4096,"k":4096,"data":"random"},"median_ms":0.408,"rate_ms":0.408,
        "work":{"bytes_read":134217728,"bytes_written":67108864,"flops":137438953472,
        "bound":"fp32","rate_part":"kernel"},"gflops":336846.97,"bound":"fp32",
        "ceiling":64912.65,"pct_of_ceiling":518.9,"attainable_gflops":64912.65,
        "verified":true,"devices":["NVIDIA H100 80GB HBM3"]})");
    RunResult r = RunResultFromJson(old42);
    EXPECT_EQ(r.work.bound, Bound::kFp32);
    ASSERT_TRUE(AdoptDeclaredBound(Catalog(), r));
    EXPECT_EQ(r.work.bound, Bound::kTf32);
    EXPECT_FALSE(r.ceiling || r.pct_of_ceiling || r.attainable_gflops);
    EXPECT_FALSE(r.ceiling_note.empty());
    EXPECT_FALSE(AdoptDeclaredBound(Catalog(), r)) << "once only";
    json old40 = old42;
    old40["lesson"] = 40;
    old40["id"] = "gemm/cublas-sgemm";
    RunResult r40 = RunResultFromJson(old40);
    EXPECT_FALSE(AdoptDeclaredBound(Catalog(), r40));
    EXPECT_EQ(r40.work.bound, Bound::kFp32);
    EXPECT_EQ(r40.ceiling, 64912.65);
    // The catalogue's own declaration: 41 and 42 on TF32, 40 on fp32.
    for (const auto& [number, bound] :
         {std::pair{40, Bound::kFp32}, std::pair{41, Bound::kTf32}, std::pair{42, Bound::kTf32}}) {
        const Lesson& l = *Catalog().FindLesson(number);
        const std::optional<Work> w = EstimateWork(l, Catalog().ChapterOf(l), ResolveParams(l, {}));
        ASSERT_TRUE(w) << number;
        EXPECT_EQ(w->bound, bound) << number;
        EXPECT_EQ(w->flops, 2ull * 4096 * 4096 * 4096) << number;
    }
}

TEST(Report, JsonRoundTrip) {
    const RunResult a = MakeResult();
    const RunResult b = RunResultFromJson(json::parse(ToJson(a).dump()));
    EXPECT_EQ(ToJson(a), ToJson(b));
    RunResult cpu = a;
    cpu.kind = StepKind::kCpu;
    cpu.params = {};
    cpu.params.Set("threads", ParamValue::Number(8));
    cpu.parts.clear();
    cpu.attributes.reset();
    DeriveMetrics(cpu, nullptr);
    EXPECT_EQ(ToJson(cpu), ToJson(RunResultFromJson(ToJson(cpu))));
}

TEST(Report, ReadsResultsRecordedBeforeNamedParameters) {
    const json old = json::parse(R"({"lesson":4,"id":"split/04-one-thread-per-pair","title":"t",
        "chapter":"split","kind":"gpu","size_bytes":1073741824,"block":256,"threads":null,
        "data":"random","seed":1,"cold_l2":false,"reps":3,"median_ms":143.3,"min_ms":127.0,
        "max_ms":154.0,"samples_ms":[127.0,143.3,154.0],"h2d_ms":141.9,"kernel_ms":1.33,
        "d2h_ms":0.1,"bytes_moved":1073872896,"gbps":807.0,"ceiling_gbps":3017.0,
        "pct_of_ceiling":26.7,"verified":true,"check":"","found":16382,"value":null,
        "expected":null,"extra":{"alloc_pinned_ms":376.5},"device":"NVIDIA H100 80GB HBM3",
        "attributes":null,"timestamp":"2026-11-21T19:16:00Z","recorded":true})");
    const RunResult r = RunResultFromJson(old);
    EXPECT_EQ(r.Number("size"), uint64_t(1) << 30);
    EXPECT_EQ(r.Number("block"), 256u);
    EXPECT_FALSE(r.params.Has("threads"));
    EXPECT_EQ(r.ChoiceOr("data", ""), "random");
    EXPECT_EQ(r.Part("h2d"), 141.9);
    EXPECT_EQ(r.Part("kernel"), 1.33);
    EXPECT_EQ(r.Value("found"), 16382);
    EXPECT_EQ(r.Value("alloc_pinned_ms"), 376.5);
    EXPECT_EQ(r.Device(), "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(r.gbps, 807.0);
    EXPECT_EQ(r.pct_of_ceiling, 26.7);
    EXPECT_TRUE(r.recorded);
}

TEST(Report, EveryRecordedReferenceResultParses) {
    // The reference files are embedded in the GUI; here they are read from the tree.
    for (const char* file : {"split.json", "reduce.json"}) {
        // From the source tree, or from the working directory where the tests run elsewhere.
        std::ifstream in(std::string(LESSONS_SOURCE_DIR) + "/assets/reference/" + file);
        if (!in) in.open(std::string("assets/reference/") + file);
        ASSERT_TRUE(in) << file;
        const json all = json::parse(in);
        for (const json& j : all) {
            const RunResult r = RunResultFromJson(j);
            EXPECT_TRUE(r.Number("size")) << r.id;
            EXPECT_TRUE(r.params.Has("data")) << r.id;
            EXPECT_GT(r.median_ms, 0) << r.id;
            EXPECT_FALSE(r.Device().empty()) << r.id;
        }
    }
}

TEST(Report, MalformedRecordedResultThrows) {
    EXPECT_THROW(RunResultFromJson(json{{"lesson", 1}}), UsageError);
    EXPECT_THROW(
        RunResultFromJson(json{{"lesson", "x"}, {"id", 3}, {"kind", "gpu"}, {"median_ms", 1}}),
        json::exception);
    EXPECT_THROW(RunResultFromJson(json::array()), UsageError);
}

TEST(Report, OneFieldTableDrivesJsonAndCsv) {
    auto columns = [](const std::string& line) {
        return std::count(line.begin(), line.end(), ',') + 1;
    };
    const std::vector<std::string> names = {"block", "size", "data"};
    RunResult r = MakeResult();
    r.devices = {"GPU, with a comma"};
    EXPECT_EQ(columns(CsvHeader(names)), columns(CsvRow(MakeResult(), names)));
    EXPECT_NE(CsvRow(r, names).find("\"GPU, with a comma\""), std::string::npos);
    EXPECT_NE(CsvHeader(names).find("kind,block,size,data"), std::string::npos) << CsvHeader(names);
    EXPECT_NE(CsvRow(r, names).find("gpu,256,1073741824,random"), std::string::npos);
    // Every JSON key comes from the field table, and every table field is in the JSON but the
    // tables' own columns (no to_json: "median_ci" shows median_lo_ms..median_hi_ms).
    const json j = ToJson(r);
    size_t named = 0;
    for (const ResultField& f : ResultFields()) {
        if (!f.name) continue;
        EXPECT_EQ(FindResultField(f.name), &f);
        if (!f.to_json) {
            EXPECT_FALSE(f.csv) << f.name;
            EXPECT_TRUE(f.header_en && f.text) << f.name << ": a field of no format";
            continue;
        }
        ++named;
        EXPECT_TRUE(j.contains(f.name)) << f.name;
    }
    EXPECT_EQ(j.size(), named);
}

TEST(Report, ListJsonOfEveryLessonHasItsParameters) {
    const Registry& reg = Catalog();
    for (const Lesson& l : reg.lessons()) {
        const json j = LessonToJson(reg, l, "");
        for (const char* key : {"lesson", "id", "chapter", "title", "kind", "available", "params"})
            EXPECT_TRUE(j.contains(key)) << key;
        EXPECT_EQ(j["available"], true);
        EXPECT_EQ(LessonToJson(reg, l, "no GPU")["available"], false);
        ASSERT_EQ(j["params"].size(), l.params.size());
        for (const json& p : j["params"]) {
            for (const char* key : {"name", "label", "type", "default", "unit", "log_scale"})
                EXPECT_TRUE(p.contains(key)) << l.id << " " << key;
            EXPECT_TRUE(p["label"].contains("zh"));
        }
    }
    const json four = LessonToJson(reg, *reg.FindLesson("split/one-thread-per-pair"), "");
    EXPECT_EQ(four["params"][0]["name"], "block");
    EXPECT_EQ(four["params"][0]["values"].size(), 32u);
    EXPECT_EQ(four["params"][1]["name"], "size");
    EXPECT_EQ(four["params"][1]["log_scale"], true);
    EXPECT_EQ(four["params"][2]["choices"], (json{"random", "dense", "none"}));
}

TEST(Report, TextTableAlignsUnicode) {
    TextTable t({"a", "b"}, {false, true});
    t.AddRow({"✓", "1"});
    t.AddRow({"xx", "100"});
    EXPECT_EQ(t.Render(), "a     b\n--  ---\n✓     1\nxx  100\n");
}

// The engine's and the chapters' messages carry an id and arguments beside their English: a
// front end renders them from the form by id, and shows the English where it has none.
TEST(Messages, RenderFromTheFormByIdElseTheEnglish) {
    const Message old = Message::Of(kTooOld, {"Tesla K80", "3.7"});
    EXPECT_EQ(old.id, "device.too-old");
    EXPECT_EQ(old.text, "Tesla K80 has compute capability 3.7; CUDA Lessons needs 7.5 or newer");
    EXPECT_EQ(Render(old, "en"), old.text);
    EXPECT_EQ(Render(old, "zh"), "Tesla K80 的计算能力为 3.7；CUDA Lessons 需要 7.5 或更高");
    Message short_of_args = old;
    short_of_args.args.pop_back();
    EXPECT_EQ(Render(short_of_args, "zh"), old.text) << "another form's arguments: the English";
    Message unknown = old;
    unknown.id = "device.from-the-future";
    EXPECT_EQ(Render(unknown, "zh"), old.text);
    EXPECT_EQ(Render(Message::Plain("libfoo said no"), "zh"), "libfoo said no");
    EXPECT_EQ(FillForm("{2} before {1}, {3} kept", {"a", "b"}), "b before a, {3} kept");

    // Over the protocol: {"id", "args"} beside the English, read back field by field.
    EXPECT_EQ(MessageFromJson(MessageIdJson(old), old.text), old);
    EXPECT_TRUE(MessageIdJson(Message::Plain("x")).is_null());
    EXPECT_EQ(MessageFromJson(json{{"id", 5}}, "text"), Message::Plain("text"));
    EXPECT_EQ(MessageFromJson(json{{"id", "a"}, {"args", {1, 2}}}, "text"), Message::Plain("text"));
}

TEST(Messages, EveryChaptersFormIsFoundByIdWithTheSameArgumentsInBothLanguages) {
    size_t forms = 0;
    for (const Chapter& chapter : Catalog().chapters())
        for (const MessageForm& form : chapter.messages) {
            ++forms;
            SCOPED_TRACE(std::string(form.id));
            ASSERT_NE(FindMessageForm(form.id), nullptr);
            EXPECT_EQ(FindMessageForm(form.id)->zh, form.zh);
            for (int slot = 1; slot <= 9; ++slot) {
                const std::string name = "{" + std::to_string(slot) + "}";
                EXPECT_EQ(form.en.find(name) == std::string_view::npos,
                          form.zh.find(name) == std::string_view::npos)
                    << name;
            }
        }
    EXPECT_GE(forms, 5u) << "split's and reduce's checks";
}

TEST(Messages, AResultCarriesItsChecksIdThroughJson) {
    ASSERT_FALSE(Catalog().chapters().empty());  // registers the chapters' forms
    RunResult r;
    r.lesson = 1;
    r.id = "reduce/cub";
    Check check;
    check.Fail(*FindMessageForm("reduce.wrong-sum"), {"1", "2", "1", "0"});
    EXPECT_EQ(check.message, "sum 1, expected 2: off by 1, more than the tolerance 0");
    r.check_message = check.message;
    r.check_message_id = check.message_id;
    r.check_message_args = check.message_args;
    const json j = ToJson(r);
    EXPECT_EQ(j["check"], check.message);
    EXPECT_EQ(j["check_message"]["id"], "reduce.wrong-sum");
    const RunResult back = RunResultFromJson(j);
    EXPECT_EQ(back.CheckMessage(), r.CheckMessage());
    EXPECT_EQ(Render(back.CheckMessage(), "zh"), "和为 1，应为 2：相差 1，超过容差 0");
    r.check_message_id.clear();
    r.check_message_args.clear();
    EXPECT_TRUE(ToJson(r)["check_message"].is_null()) << "free text has no id";
}
