// The page model (lessons/page.h, docs/pages.md): parts, references resolved from recordings,
// no typed figures, the glossary, the chapter at a glance, and the CLI's page command.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "catalog.h"
#include "glossary.h"
#include "page.h"
#include "recordings.h"
#include "resources.h"
#include "shell.h"

using namespace lessons;

namespace {

const std::vector<RunResult>& Recorded() {
    static const std::vector<RunResult> all = LoadRecordedResults(nullptr);
    return all;
}

PageData ReferenceData(const std::string& gpu = std::string(kReferenceGpu)) {
    PageData d;
    d.registry = &Catalog();
    d.gpu = gpu;
    for (const RunResult& r : Recorded()) d.recorded.push_back(&r);
    for (const RunResult& r : RecordedCpuResults()) d.recorded.push_back(&r);
    return d;
}

const char* kModelPage = R"(# A warp adds its values in registers

Each warp adds its 32 values with shuffles. No shared memory is needed.

## Change
- five shuffles per warp

## Prediction
About the same as before: {{ms}}.

## Why
The tree is a small share.

## Try this
Sweep the sizes.

## Questions
1. Why no barrier?
   Answer: a shuffle is synchronous.

## Evidence
The spread: {{spread}}.

## Background
The seed measured {{given 0.970 ms | seed 003}}.
)";

}  // namespace

TEST(Page, ParsesItsParts) {
    const LessonPage page = ParsePage(kModelPage);
    EXPECT_TRUE(page.in_model);
    EXPECT_TRUE(page.problems.empty()) << page.problems.front();
    EXPECT_EQ(page.title, "A warp adds its values in registers");
    ASSERT_EQ(page.sections.size(), 8u);
    EXPECT_EQ(page.sections[0].part, PagePart::kIntro);
    EXPECT_NE(page.sections[0].text.find("Each warp"), std::string::npos);
    EXPECT_EQ(page.sections[6].part, PagePart::kEvidence);
    EXPECT_TRUE(IsFolded(PagePart::kEvidence));
    EXPECT_FALSE(IsFolded(PagePart::kWhy));
    EXPECT_STREQ(PartHeading(PagePart::kTryThis, TextLanguage::kChinese), "试一试");
}

TEST(Page, NamesWhatBreaksTheModel) {
    const LessonPage unknown = ParsePage("# T\n\nIdea.\n\n## Change\n- a\n\n## Notes\nx\n");
    ASSERT_FALSE(unknown.problems.empty());
    EXPECT_NE(unknown.problems.front().find("unknown section '## Notes'"), std::string::npos);
    const LessonPage order = ParsePage("# T\n\n## Why\nx\n\n## Change\n- a\n\n## Prediction\ny\n");
    bool out_of_order = false;
    for (const std::string& p : order.problems)
        out_of_order = out_of_order || p.find("out of order") != std::string::npos;
    EXPECT_TRUE(out_of_order);
    const LessonPage bullets =
        ParsePage("# T\n\n## Change\n- a\n- b\n- c\n- d\n\n## Prediction\ny\n\n## Why\nz\n");
    ASSERT_EQ(bullets.problems.size(), 1u);
    EXPECT_NE(bullets.problems[0].find("three bullets"), std::string::npos);
    // An older text, without sections, is one intro and not in the model.
    EXPECT_FALSE(ParsePage("# T\n\n**What changed.** x\n").in_model);
}

TEST(Page, CountsTheCoreWithoutAnswersOrFoldedSections) {
    const LessonPage page = ParsePage(kModelPage);
    // Title excluded; intro 13, change 4, prediction 6 (a reference is one word), why 6,
    // try 3, the question 4 with its number (its answer excluded).
    EXPECT_EQ(CoreLength(page, TextLanguage::kEnglish), 13 + 4 + 6 + 6 + 3 + 4);
    EXPECT_EQ(CoreLength(ParsePage("# T\n\n线程束用洗牌相加。\n"), TextLanguage::kChinese), 8);
}

TEST(Page, ParsesReferences) {
    std::string error;
    auto r = ParseRef("speedup @v3-unrolled-last-warp vs=@cub block=1024", &error);
    ASSERT_TRUE(r) << error;
    EXPECT_EQ(r->quantity, "speedup");
    EXPECT_EQ(r->step, "v3-unrolled-last-warp");
    EXPECT_EQ(r->vs, "cub");
    ASSERT_EQ(r->settings.size(), 1u);
    EXPECT_EQ(r->settings[0].second, "1024");
    r = ParseRef("counter dram__throughput.avg.pct_of_peak_sustained_elapsed kernel=1", &error);
    ASSERT_TRUE(r) << error;
    EXPECT_EQ(r->subject, "dram__throughput.avg.pct_of_peak_sustained_elapsed");
    EXPECT_EQ(r->kernel, 1);
    r = ParseRef("given 4.8 TB/s | H200 datasheet", &error);
    ASSERT_TRUE(r) << error;
    EXPECT_EQ(r->given_text, "4.8 TB/s");
    EXPECT_EQ(r->given_source, "H200 datasheet");
    r = ParseRef("anchor torch.softmax m=16384 vs=@vectorized", &error);
    ASSERT_TRUE(r) << error;
    EXPECT_EQ(r->subject, "torch.softmax");
    EXPECT_EQ(r->vs, "vectorized");
    for (const char* bad : {"", "furlongs", "counter", "ms LDG", "given 4 ms", "pct vs=@x",
                            "speedup vs=x", "ms @a @b", "ms block=", "anchor", "anchor m=1"}) {
        error.clear();
        EXPECT_FALSE(ParseRef(bad, &error)) << bad;
        EXPECT_FALSE(error.empty()) << bad;
    }
}

TEST(Page, FindsTypedFigures) {
    const auto typed = TypedFigures(
        "It takes 0.506 ms, 2122 GB/s, 67% of the bound, 1.9x the CPU, 3 times less, 4.8 TB/s, "
        "12 µs, 2.5 倍, 40 TFLOP/s and 1,234 GFLOP/s.");
    const std::vector<std::string> want = {"0.506 ms",   "2122 GB/s",    "67%",   "1.9x",
                                           "3 times",    "4.8 TB/s",     "12 µs", "2.5 倍",
                                           "40 TFLOP/s", "1,234 GFLOP/s"};
    EXPECT_EQ(typed, want);
    EXPECT_TRUE(TypedFigures("block 256, 2^28 floats, float4, 16-byte loads, sm_90, 0x1F, a 4x4 "
                             "tile, t % 2s == 0, {{ms @v3 block=1024}}, {{given 0.9 ms | seed}}")
                    .empty());
}

TEST(Page, ResolvesFromTheChosenGpuWithTheLiveResultBeside) {
    const Registry& catalog = Catalog();
    const Lesson* v4 = catalog.FindLesson("reduce/v4-warp-shuffle");
    const Lesson* v3 = catalog.FindLesson("reduce/v3-unrolled-last-warp");
    ASSERT_TRUE(v4 && v3);
    auto make = [](const Lesson& l, double ms, const std::string& gpu, uint64_t size) {
        RunResult r;
        r.id = l.id;
        r.chapter = l.chapter;
        r.kind = StepKind::kGpu;
        for (const ParamSpec& s : l.params) r.params.Set(s.name, s.Default());
        r.params.Set("size", ParamValue::Number(size));
        r.median_ms = r.min_ms = r.max_ms = ms;
        r.gbps = double(size) / ms / 1e6;
        r.pct_of_ceiling = 50;
        r.verified = true;
        r.devices = {gpu};
        r.timestamp = "2026-01-02T03:04:05Z";
        r.recorded = true;
        return r;
    };
    const uint64_t size = uint64_t(1) << 30;
    std::vector<RunResult> results = {make(*v3, 0.8, "Test GPU", size),
                                      make(*v4, 0.5, "Test GPU", size),
                                      make(*v4, 9.0, "Other GPU", size)};
    RunResult live = make(*v4, 0.25, "My GPU", uint64_t(64) << 20);
    live.recorded = false;
    PageData data;
    data.registry = &catalog;
    data.gpu = "Test GPU";
    for (const RunResult& r : results) data.recorded.push_back(&r);
    data.live.push_back(&live);
    data.settings.Set("size", ParamValue::Number(uint64_t(64) << 20));

    std::string error;
    RefValue v = ResolveRef(*ParseRef("ms", &error), *v4, data, TextLanguage::kEnglish);
    ASSERT_TRUE(v.ok) << v.text;
    EXPECT_EQ(v.text, "0.500 ms");  // the recording at another size: the only one of Test GPU
    EXPECT_EQ(v.yours, "yours: 0.250 ms");  // the live run at the page's size
    v = ResolveRef(*ParseRef("speedup", &error), *v4, data, TextLanguage::kEnglish);
    ASSERT_TRUE(v.ok) << v.text;
    EXPECT_EQ(v.text, "1.60×");
    v = ResolveRef(*ParseRef("pct @v3-unrolled-last-warp", &error), *v4, data,
                   TextLanguage::kEnglish);
    EXPECT_EQ(v.text, "50.0%");
    v = ResolveRef(*ParseRef("ms block=128", &error), *v4, data, TextLanguage::kEnglish);
    EXPECT_FALSE(v.ok);  // named settings must be met
    v = ResolveRef(*ParseRef("ms @no-such-step", &error), *v4, data, TextLanguage::kEnglish);
    EXPECT_FALSE(v.ok);
    EXPECT_NE(v.text.find("no-such-step"), std::string::npos);

    const ResolvedPage page = ResolvePage(kModelPage, *v4, data, TextLanguage::kEnglish);
    EXPECT_TRUE(page.unresolved.empty()) << page.unresolved.front();
    EXPECT_NE(page.sections[2].text.find("0.500 ms (yours: 0.250 ms)"), std::string::npos)
        << page.sections[2].text;
    EXPECT_NE(page.sections[7].text.find("0.970 ms"), std::string::npos);
    EXPECT_EQ(page.footer, "Figures: Test GPU, recorded 2026-01-02 03:04 UTC");
    const ResolvedPage zh = ResolvePage(kModelPage, *v4, data, TextLanguage::kChinese);
    EXPECT_NE(zh.sections[2].text.find("0.500 ms（你的：0.250 ms）"), std::string::npos);
    EXPECT_EQ(zh.footer, "数据：Test GPU，录制于 2026-01-02 03:04 UTC");
}

TEST(Page, StaleRecordingsAreNotRead) {
    const Registry& catalog = Catalog();
    const Lesson* v4 = catalog.FindLesson("reduce/v4-warp-shuffle");
    ASSERT_TRUE(v4);
    if (v4->source_key.empty()) GTEST_SKIP() << "this build compiled no PTX (no CUDA compiler)";
    RunResult r;
    r.id = v4->id;
    r.kind = StepKind::kGpu;
    for (const ParamSpec& s : v4->params) r.params.Set(s.name, s.Default());
    r.median_ms = 1;
    r.verified = true;
    r.recorded = true;
    r.devices = {"Test GPU"};
    r.source_key = v4->source_key;
    EXPECT_FALSE(IsStale(r, catalog));
    PageData data;
    data.registry = &catalog;
    data.gpu = "Test GPU";
    data.recorded.push_back(&r);
    std::string error;
    EXPECT_TRUE(ResolveRef(*ParseRef("ms", &error), *v4, data, TextLanguage::kEnglish).ok);
    r.source_key = "0" + v4->source_key.substr(1) + "-other";
    EXPECT_TRUE(IsStale(r, catalog));
    const RefValue stale = ResolveRef(*ParseRef("ms", &error), *v4, data, TextLanguage::kEnglish);
    EXPECT_FALSE(stale.ok);
    EXPECT_NE(stale.text.find("is stale"), std::string::npos) << stale.text;
    r.source_key.clear();  // recorded before keys: cannot tell
    EXPECT_FALSE(IsStale(r, catalog));
}

// {{anchor OP ...}} reads another program's rate recorded on the page's GPU (PyTorch's softmax,
// assets/anchors/), at exactly the settings asked; with vs=@step, the step's recorded rate at the
// same settings over it. Every anchor file loads and names its program, GPU and time.
TEST(Page, AnchorsReadAnotherProgramsRecordedRate) {
    int files = 0;
    Json softmax_bf16;  // torch.softmax at 16384 x 4096 bf16 on the H200, as the file says
    for (const auto& [path, text] : EmbeddedFiles()) {
        if (path.rfind("assets/anchors/", 0) != 0) continue;
        ++files;
        const Json j = Json::parse(text.begin(), text.end(), nullptr, false);
        ASSERT_TRUE(j.is_object()) << path;
        for (const char* key : {"program", "device", "recorded", "chapter"})
            EXPECT_TRUE(j.contains(key) && j[key].is_string()) << path << ": " << key;
        ASSERT_TRUE(j.contains("results") && j["results"].is_array()) << path;
        EXPECT_FALSE(j["results"].empty()) << path;
        for (const Json& e : j["results"]) {
            EXPECT_TRUE(e.contains("op") && e["op"].is_string()) << path;
            EXPECT_TRUE(e.contains("gbps") && e["gbps"].is_number() && e["gbps"] > 0) << path;
            if (j.value("device", "") == "NVIDIA H200" && e.value("op", "") == "torch.softmax" &&
                e.value("m", 0) == 16384 && e.value("n", 0) == 4096 &&
                e.value("dtype", "") == "bf16")
                softmax_bf16 = e;
        }
    }
    ASSERT_GT(files, 0);
    ASSERT_TRUE(softmax_bf16.is_object()) << "no torch.softmax at 16384 x 4096 bf16 on the H200";
    const double anchor = softmax_bf16["gbps"].get<double>();

    const Lesson* vectorized = Catalog().FindLesson("softmax/vectorized");
    ASSERT_TRUE(vectorized);
    RunResult r;
    r.id = vectorized->id;
    r.chapter = vectorized->chapter;
    r.kind = StepKind::kGpu;
    for (const ParamSpec& spec : vectorized->params) r.params.Set(spec.name, spec.Default());
    r.params.Set("m", ParamValue::Number(16384));
    r.params.Set("n", ParamValue::Number(4096));
    r.params.Set("dtype", ParamValue::Choice("bf16"));
    r.median_ms = r.min_ms = r.max_ms = 0.1;
    r.gbps = 2 * anchor;
    r.verified = true;
    r.recorded = true;
    r.devices = {"NVIDIA H200"};
    r.timestamp = "2026-01-02T03:04:05Z";
    PageData data;
    data.registry = &Catalog();
    data.gpu = "NVIDIA H200";
    data.recorded.push_back(&r);
    const auto resolve = [&](const char* written) {
        std::string error;
        const auto ref = ParseRef(written, &error);
        EXPECT_TRUE(ref) << written << ": " << error;
        return ref ? ResolveRef(*ref, *vectorized, data, TextLanguage::kEnglish) : RefValue{};
    };
    RefValue v = resolve("anchor torch.softmax m=16384 n=4096 dtype=bf16");
    ASSERT_TRUE(v.ok) << v.text;
    EXPECT_EQ(v.text, FormatFigure(anchor) + " GB/s");
    EXPECT_NE(v.provenance.find("PyTorch"), std::string::npos) << v.provenance;
    EXPECT_NE(v.provenance.find("NVIDIA H200"), std::string::npos) << v.provenance;
    EXPECT_EQ(v.file.rfind("assets/anchors/", 0), 0u) << v.file;
    v = resolve("anchor torch.softmax m=16384 n=4096 dtype=bf16 vs=@vectorized");
    ASSERT_TRUE(v.ok) << v.text;
    EXPECT_EQ(v.text, "2.00×");
    // Not at another shape, not another op, not on another GPU, not without the step's recording.
    v = resolve("anchor torch.softmax m=1000 n=4096 dtype=bf16");
    EXPECT_FALSE(v.ok);
    EXPECT_NE(v.text.find("m=1000"), std::string::npos) << v.text;
    v = resolve("anchor torch.tanh m=16384 n=4096 dtype=bf16");
    EXPECT_FALSE(v.ok);
    EXPECT_NE(v.text.find("torch.tanh"), std::string::npos) << v.text;
    v = resolve("anchor torch.softmax m=16384 n=4096 dtype=bf16 on=NoSuchGpu");
    EXPECT_FALSE(v.ok);
    v = resolve("anchor torch.softmax m=65536 n=1024 dtype=fp32 vs=@vectorized");
    EXPECT_FALSE(v.ok);  // the anchor is recorded there, the step (in this data) is not
    // The footer names the anchor's program apart from the GPU's recordings.
    const ResolvedPage page = ResolvePage(
        "# Beside PyTorch\n\n{{gbps m=16384 n=4096 dtype=bf16}} against "
        "{{anchor torch.softmax m=16384 n=4096 dtype=bf16}}: "
        "{{anchor torch.softmax m=16384 n=4096 dtype=bf16 vs=@vectorized}}.\n",
        *vectorized, data, TextLanguage::kEnglish);
    EXPECT_TRUE(page.unresolved.empty()) << page.unresolved.front();
    EXPECT_EQ(page.footer.rfind("Figures: NVIDIA H200, recorded 2026-01-02 03:04 UTC; PyTorch", 0),
              0u)
        << page.footer;
}

// Every page of the catalogue, in both languages, is in the model and keeps its rules.
TEST(Page, EveryPageIsInTheModel) {
    for (const Lesson& l : Catalog().lessons()) {
        for (const auto& [language, text] : {std::pair{TextLanguage::kEnglish, &l.text_en},
                                             std::pair{TextLanguage::kChinese, &l.text_zh}}) {
            const char* lang = language == TextLanguage::kChinese ? "zh" : "en";
            for (const std::string& p : PageProblems(*text, language))
                ADD_FAILURE() << l.Name() << " (" << lang << "): " << p;
        }
    }
}

// A page in the model anywhere (a chapter part-way through its rewrite too) types no figure and
// names no date or clock time.
TEST(Page, NoPageInTheModelTypesAFigure) {
    int pages = 0;
    for (const Lesson& l : Catalog().lessons()) {
        for (const auto& [language, text] : {std::pair{TextLanguage::kEnglish, &l.text_en},
                                             std::pair{TextLanguage::kChinese, &l.text_zh}}) {
            if (!ParsePage(*text).in_model) continue;
            ++pages;
            for (const std::string& p : PageProblems(*text, language))
                if (p.rfind("a typed figure", 0) == 0 || p.rfind("a date", 0) == 0)
                    ADD_FAILURE() << l.Name() << ": " << p;
        }
    }
    EXPECT_GE(pages, 2 * 9);  // chapter 3 at least
}

TEST(Page, PageProblemsNamesEachKind) {
    EXPECT_TRUE(PageProblems(kModelPage, TextLanguage::kEnglish).empty());
    const auto problems =
        PageProblems(std::string(kModelPage) + "\nIt took 1.5 ms on 2026-11-27 at 12:06.\n",
                     TextLanguage::kEnglish);
    std::string all;
    for (const std::string& p : problems) all += p + "\n";
    EXPECT_NE(all.find("a typed figure, '1.5 ms'"), std::string::npos) << all;
    EXPECT_NE(all.find("'2026-11-27'"), std::string::npos) << all;
    EXPECT_NE(all.find("'12:06'"), std::string::npos) << all;
    std::string long_core = "# Long\n\n";
    for (int i = 0; i < 301; ++i) long_core += "word ";
    long_core += "\n\n## Change\n- one\n";
    std::string over;
    for (const std::string& p : PageProblems(long_core, TextLanguage::kEnglish)) over += p + "\n";
    EXPECT_NE(over.find("the core is 30"), std::string::npos) << over;
    EXPECT_NE(PageProblems("# Old text\n\nNo sections.\n", TextLanguage::kEnglish)
                  .front()
                  .find("not in the page model"),
              std::string::npos);
}

TEST(Page, EveryReferenceResolvesOnTheReferenceGpu) {
    const PageData data = ReferenceData();
    for (const Lesson& l : Catalog().lessons()) {
        for (const auto& [language, text] : {std::pair{TextLanguage::kEnglish, &l.text_en},
                                             std::pair{TextLanguage::kChinese, &l.text_zh}}) {
            if (!ParsePage(*text).in_model) continue;
            const ResolvedPage page = ResolvePage(*text, l, data, language);
            for (const std::string& u : page.unresolved)
                ADD_FAILURE() << l.Name() << " on " << data.gpu << ": " << u;
        }
    }
}

// on=TEXT reads another GPU's recording (for "On another GPU"), and the footer names that GPU
// apart from the page's.
TEST(Page, OnReadsAnotherGpusRecording) {
    const PageData data = ReferenceData();
    const Lesson* v4 = Catalog().FindLesson("reduce/v4-warp-shuffle");
    ASSERT_TRUE(v4);
    std::string error;
    const RefValue h100 =
        ResolveRef(*ParseRef("ms block=256 on=H100", &error), *v4, data, TextLanguage::kEnglish);
    ASSERT_TRUE(h100.ok) << h100.text;
    EXPECT_NE(h100.provenance.find("H100"), std::string::npos) << h100.provenance;
    const RefValue h200 =
        ResolveRef(*ParseRef("ms block=256", &error), *v4, data, TextLanguage::kEnglish);
    ASSERT_TRUE(h200.ok) << h200.text;
    EXPECT_NE(h200.provenance.find("H200"), std::string::npos) << h200.provenance;
    EXPECT_NE(h100.text, h200.text);
    const RefValue none =
        ResolveRef(*ParseRef("ms on=NoSuchGpu", &error), *v4, data, TextLanguage::kEnglish);
    EXPECT_FALSE(none.ok);
    EXPECT_NE(none.text.find("NoSuchGpu"), std::string::npos) << none.text;
    const ResolvedPage page =
        ResolvePage("# Two GPUs\n\nHere {{ms block=256}}, there {{ms block=256 on=H100}}.\n", *v4,
                    data, TextLanguage::kEnglish);
    EXPECT_TRUE(page.unresolved.empty());
    EXPECT_EQ(page.footer.rfind("Figures: NVIDIA H200, recorded ", 0), 0u) << page.footer;
    EXPECT_NE(page.footer.find("; NVIDIA H100"), std::string::npos) << page.footer;
    // A CPU step reads the host of the GPU it reads, though both machines' hosts carry the same
    // CPU model name.
    const Lesson* scan = Catalog().FindLesson("split/naive-scan");
    ASSERT_TRUE(scan);
    const RefValue here = ResolveRef(*ParseRef("ms", &error), *scan, data, TextLanguage::kEnglish);
    const RefValue there =
        ResolveRef(*ParseRef("ms on=H100", &error), *scan, data, TextLanguage::kEnglish);
    ASSERT_TRUE(here.ok && there.ok) << here.text << " / " << there.text;
    EXPECT_EQ(here.provenance.rfind("NVIDIA H200 host, ", 0), 0u) << here.provenance;
    EXPECT_EQ(there.provenance.rfind("NVIDIA H100", 0), 0u) << there.provenance;
    EXPECT_NE(here.text, there.text);
}

// The result row reads alone: which step the speed-up is over, and which bound the share is of,
// with its value (a new student's reading of the cores could not tell either).
TEST(Page, TheResultRowNamesItsBaselineAndItsBound) {
    const PageData data = ReferenceData();
    const Lesson* l = Catalog().FindLesson("gemv/vectorized-rows-per-warp");
    ASSERT_TRUE(l);
    const std::string en = ResultRow(*l, data, TextLanguage::kEnglish);
    EXPECT_NE(en.find(" ms \xC2\xB7 "), std::string::npos) << en;
    EXPECT_NE(en.find("\xC3\x97 lesson 4.2 \xC2\xB7 "), std::string::npos) << en;
    EXPECT_NE(en.find("% of the read-only bandwidth ("), std::string::npos) << en;
    // The read ceiling, measured over the step's own footprint, says over how much.
    EXPECT_NE(en.find(" GB/s over "), std::string::npos) << en;
    EXPECT_NE(en.find(" MiB)"), std::string::npos) << en;
    const std::string zh = ResultRow(*l, data, TextLanguage::kChinese);
    EXPECT_NE(zh.find("第 4.2 课的 "), std::string::npos) << zh;
    EXPECT_NE(zh.find("只读带宽（"), std::string::npos) << zh;
    // A tensor-core step's bound is the library's rate, not a peak.
    const Lesson* wgmma = Catalog().FindLesson("tensor-cores/wgmma");
    ASSERT_TRUE(wgmma);
    EXPECT_NE(ResultRow(*wgmma, data, TextLanguage::kEnglish).find("cuBLAS bf16 GEMM rate"),
              std::string::npos)
        << ResultRow(*wgmma, data, TextLanguage::kEnglish);
}

// A live CPU result that shared its cores with other programs says so; one that had them, or a
// GPU step, says nothing.
TEST(Page, ACpuResultThatSharedItsCoresSaysSo) {
    RunResult r;
    r.kind = StepKind::kCpu;
    r.params.Set("threads", ParamValue::Number(2));
    r.other_cores_busy = 0.9;
    const std::string en = SharedCoresNote(r, 2, TextLanguage::kEnglish);
    EXPECT_NE(en.find("0.9 of this machine's 2 cores"), std::string::npos) << en;
    EXPECT_NE(SharedCoresNote(r, 2, TextLanguage::kChinese).find("2 个核心中的 0.9"),
              std::string::npos);
    r.other_cores_busy = 0.3;
    EXPECT_EQ(SharedCoresNote(r, 2, TextLanguage::kEnglish), "") << "half a core of slack";
    r.params.Set("threads", ParamValue::Number(1));
    r.other_cores_busy = 0.9;
    EXPECT_EQ(SharedCoresNote(r, 2, TextLanguage::kEnglish), "") << "one thread, one free core";
    r.other_cores_busy.reset();
    EXPECT_EQ(SharedCoresNote(r, 2, TextLanguage::kEnglish), "") << "not measured";
    r.other_cores_busy = 5;
    r.kind = StepKind::kGpu;
    EXPECT_EQ(SharedCoresNote(r, 2, TextLanguage::kEnglish), "");
}

TEST(Page, TheChapterAtAGlanceReadsTheRecordings) {
    const PageData data = ReferenceData();
    const Chapter* reduce = Catalog().FindChapter("reduce");
    ASSERT_TRUE(reduce);
    const auto rows = ChapterAtAGlance(*reduce, data, TextLanguage::kEnglish);
    ASSERT_EQ(rows.size(), Catalog().LessonsOf(*reduce).size());
    int with_time = 0;
    for (const GlanceRow& r : rows) with_time += r.time.find(" ms") != std::string::npos;
    EXPECT_EQ(with_time, int(rows.size()));  // the CPU step from the host recorded beside
    const std::string md = GlanceMarkdown(*reduce, rows, TextLanguage::kChinese);
    EXPECT_NE(md.find("| 课 | 思路 |"), std::string::npos);
    EXPECT_NE(md.find("| 3.8 |"), std::string::npos);
    EXPECT_EQ(md.find("第 3."), std::string::npos) << "the idea column holds the idea alone";
}

TEST(Glossary, BothLanguagesHaveTheSameEntries) {
    for (const std::string& p : GlossaryProblems()) ADD_FAILURE() << p;
    EXPECT_GE(Glossary(TextLanguage::kEnglish).size(), 80u);
    for (const GlossaryEntry& e : Glossary(TextLanguage::kEnglish))
        for (const std::string& f : TypedFigures(e.definition))
            ADD_FAILURE() << "glossary '" << e.key << "': a typed figure, '" << f << "'";
}

TEST(Glossary, EveryRecordedCounterIsExplained) {
    std::set<std::string> keys;
    for (const GlossaryEntry& e : Glossary(TextLanguage::kEnglish)) keys.insert(e.key);
    const std::regex metric(R"re("([a-z0-9_]+__[a-zA-Z0-9_.]+)")re");
    for (const auto& [path, text] : EmbeddedFiles()) {
        if (path.rfind("assets/counters/", 0) != 0) continue;
        const std::string s(text);
        for (std::sregex_iterator it(s.begin(), s.end(), metric), end; it != end; ++it)
            EXPECT_TRUE(keys.count((*it)[1].str()))
                << (*it)[1].str() << " (" << path << ") has no glossary entry";
    }
}

TEST(Glossary, LinksTheFirstUseOfATermOnly) {
    std::vector<std::string> problems;
    const auto glossary = ParseGlossary(
        "# Glossary\n\n## warp\nterm: warp\nmatch: warp, warps\nThirty-two threads.\n\n"
        "## warp-shuffle\nterm: warp shuffle\nmatch: warp shuffle\nA register exchange.\n\n"
        "## bad\nterm: bad\n",
        &problems);
    ASSERT_EQ(glossary.size(), 3u);
    ASSERT_EQ(problems.size(), 1u);  // "bad" has no match and no definition
    const std::string text = "A `warp` in code, then a warp shuffle, then warps and a warp.";
    const auto uses = FirstUses(text, glossary);
    ASSERT_EQ(uses.size(), 2u);
    EXPECT_EQ(text.substr(uses[0].at, uses[0].length), "warp shuffle");
    EXPECT_EQ(uses[0].entry->key, "warp-shuffle");
    EXPECT_EQ(text.substr(uses[1].at, uses[1].length), "warps");
    EXPECT_TRUE(FirstUses("warpage and {{ms}} [[warp]]", glossary).empty());
    // Latin letters without case, a whole word only; a match not taken after an earlier one's
    // place is blocked (the first "Warp" is inside a word, the second is whole).
    const std::string shouted = "subWarp, WARP Shuffle; Warp";
    const auto found = FirstUses(shouted, glossary);
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(shouted.substr(found[0].at, found[0].length), "WARP Shuffle");
    EXPECT_EQ(shouted.substr(found[1].at, found[1].length), "Warp");
    EXPECT_EQ(found[1].at, shouted.size() - 4);
}

TEST(PageCli, PrintsAPageResolvedAndFailsOnAnUnknownGpu) {
    const Output page = Cli("page reduce/v4-warp-shuffle", false);
    EXPECT_EQ(page.code, 0) << page.text;
    EXPECT_NE(page.text.find("Figures: NVIDIA H200"), std::string::npos) << page.text;
    EXPECT_EQ(page.text.find("{{"), std::string::npos) << page.text;
    const Output zh = Cli("page reduce/v3-unrolled-last-warp --lang zh --format json", false);
    EXPECT_EQ(zh.code, 0) << zh.text;
    EXPECT_NE(zh.text.find("\"in_model\": true"), std::string::npos) << zh.text;
    const Output glance = Cli("page reduce --glance", false);
    EXPECT_EQ(glance.code, 0) << glance.text;
    EXPECT_NE(glance.text.find("| 3.8 |"), std::string::npos) << glance.text;
    const Output unknown = Cli("page reduce/v3-unrolled-last-warp --gpu 'No Such GPU'");
    EXPECT_EQ(unknown.code, 2) << unknown.text;
    EXPECT_NE(unknown.text.find("recorded on:"), std::string::npos) << unknown.text;
    EXPECT_EQ(Cli("page reduce/v3-unrolled-last-warp --lang fr").code, 2);
}

// --text FILE shows a draft of a lesson's text as the page would show it, and checks it against
// docs/pages.md: a writer's loop without a rebuild.
TEST(PageCli, ChecksADraftTextFromAFile) {
    const std::string dir = MakeTempDir("page-draft");
    std::ofstream(dir + "/good.en.md") << kModelPage << "See [[v3-unrolled-last-warp]].\n";
    const Output good = Cli("page reduce/v4-warp-shuffle --text " + dir + "/good.en.md");
    EXPECT_EQ(good.code, 0) << good.text;
    EXPECT_NE(good.text.find("# Lesson 3.6 — A warp adds its values in registers"),
              std::string::npos)
        << good.text;
    EXPECT_NE(good.text.find("See 3.5."), std::string::npos) << good.text;
    std::ofstream(dir + "/typed.en.md") << kModelPage << "It took 1.5 ms. See [[nowhere]].\n";
    const Output typed =
        Cli("page reduce/v4-warp-shuffle --text " + dir + "/typed.en.md --format json");
    EXPECT_EQ(typed.code, 1) << typed.text;
    EXPECT_NE(typed.text.find("a typed figure, '1.5 ms'"), std::string::npos) << typed.text;
    EXPECT_NE(typed.text.find("[[nowhere]] names no lesson"), std::string::npos) << typed.text;
    EXPECT_EQ(Cli("page reduce/v4-warp-shuffle --text " + dir).code, 2);  // a folder
    const Output missing = Cli("page reduce/v4-warp-shuffle --text " + dir + "/none.md");
    EXPECT_EQ(missing.code, 2) << missing.text;
    EXPECT_NE(missing.text.find("none.md"), std::string::npos) << missing.text;
    EXPECT_EQ(Cli("page reduce/v4-warp-shuffle --text /dev/zero").code, 2);  // not a regular file
    EXPECT_EQ(Cli("page reduce --glance --text " + dir + "/good.en.md").code, 2);
    std::filesystem::remove_all(dir);
}
