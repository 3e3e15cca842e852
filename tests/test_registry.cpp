#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "catalog.h"
#include "chapter_fixture.h"
#include "declare.h"
#include "device.h"
#include "errors.h"
#include "machine_code.h"
#include "registry.h"
#include "resources.h"

using namespace lessons;

namespace {

bool Mentions(const std::vector<std::string>& problems, const std::string& needle) {
    return std::any_of(problems.begin(), problems.end(),
                       [&](const std::string& p) { return p.find(needle) != std::string::npos; });
}

Chapter GoodChapter(int number, const std::string& id) {
    Chapter c = NothingChapter(id);
    c.number = number;
    c.params = {SizeParam(1024)};
    return c;
}

Lesson GoodLesson(int number, const std::string& id, int previous) {
    Lesson l;
    l.number = number;
    l.id = id;
    l.chapter = id.substr(0, id.find('/'));
    l.title = "A lesson";
    l.title_zh = "一课";
    l.previous = previous;
    l.source_path = "kernels/x.cpp";
    l.source = "int x;";
    l.text_en = "text";
    l.text_zh = "文本";
    l.needs = [](const ParamValues&) { return MemoryNeeds{}; };
    l.runner.make = [](const Workload&, const StepContext&) -> std::unique_ptr<StepInstance> {
        return nullptr;
    };
    return l;
}

}  // namespace

TEST(Catalog, IsSound) {
    EXPECT_EQ(CatalogProblems(), std::vector<std::string>{});
    EXPECT_GE(Catalog().lessons().size(), 4u);
    // With the GPU library linked, every GPU lesson has a runner and every runner a lesson.
    EXPECT_EQ(RunnableCatalogProblems(), std::vector<std::string>{});
    for (const Lesson& l : RunnableCatalog().lessons()) {
        if (l.kind == StepKind::kGpu) {
            EXPECT_EQ(bool(l.runner.make), BuiltWithCuda()) << l.id;
        }
    }
}

TEST(Catalog, EveryLessonHasItsTitleInBothLanguages) {
    for (const Lesson& l : Catalog().lessons()) {
        EXPECT_FALSE(l.title_zh.empty()) << l.id;
        EXPECT_EQ(l.title_zh.find('`'), std::string::npos) << l.id;
    }
    // A page in the page model is titled by its idea, its heading, in both languages.
    const Lesson* v3 = Catalog().FindLesson("reduce/v3-unrolled-last-warp");
    ASSERT_NE(v3, nullptr);
    EXPECT_EQ(v3->title_zh, HeadingTitle(v3->text_zh));
    EXPECT_EQ(v3->title, HeadingTitle(v3->text_en));
    EXPECT_EQ(v3->title.rfind("v3", 0), std::string::npos) << v3->title;
    EXPECT_EQ(Catalog().FindLesson("split/thrust-copy-if")->title_zh,
              "一次库调用完成压缩：Thrust 的 copy_if");
    EXPECT_EQ(HeadingTitle("# 第 4 课 — CUDA：每个线程\nrest"), "CUDA：每个线程");
    EXPECT_EQ(HeadingTitle("no heading"), "");
    for (const Chapter& c : Catalog().chapters()) EXPECT_FALSE(c.title_zh.empty()) << c.id;
}

TEST(Catalog, EveryLessonDeclaresItsParameters) {
    for (const Lesson& l : Catalog().lessons()) {
        // Attention's shape is batch, heads and sequence length (b, h, n).
        EXPECT_TRUE(l.FindParam("size") || (l.FindParam("m") && l.FindParam("n")) ||
                    (l.FindParam("b") && l.FindParam("h") && l.FindParam("n")))
            << l.id << ": the chapter's size (or matrix dimensions) is a parameter";
        EXPECT_NE(l.FindParam("data"), nullptr) << l.id;
        EXPECT_EQ(l.FindParam("block") || l.FindParam("tile"),
                  l.kind == StepKind::kGpu && !l.library)
            << l.id << ": a GPU step's block size (or tile configuration) is a parameter";
        for (const ParamSpec& p : l.params) EXPECT_EQ(p.Reject(p.Default()), "") << l.id;
    }
    EXPECT_NE(Catalog().FindLesson("split/openmp")->FindParam("threads"), nullptr);
    EXPECT_EQ(Catalog().FindLesson("split/one-thread-per-pair")->FindParam("threads"), nullptr);
}

namespace {

// The ablation toggles: each switches one idea of a step off. Today's kernel is the first
// choice, so a run without them is the lesson as written.
struct ToggleSpec {
    const char* lesson;  // its id
    const char* name;
    std::vector<std::string> choices;
};

const ToggleSpec kToggles[] = {
    {"split/vector-loads-block-compaction", "output", {"block", "per-hit"}},
    {"split/vector-loads-block-compaction", "loads", {"16-byte", "4-byte"}},
    {"split/vector-loads-block-compaction", "pair_test", {"word", "byte"}},
    {"split/vector-loads-block-compaction", "exits", {"early", "none"}},
    {"reduce/v1-shared-memory", "addressing", {"interleaved", "strided", "sequential"}},
    {"reduce/v3-unrolled-last-warp",
     "accumulate",
     {"many-per-thread", "two-per-thread", "one-per-thread"}},
    {"reduce/v3-unrolled-last-warp", "last_warp", {"unrolled", "loop"}},
    {"reduce/v5-vectorized-one-pass", "loads", {"float4", "scalar"}},
    {"reduce/v5-vectorized-one-pass", "passes", {"one", "two"}},
};

bool HasNonAscii(const std::string& s) {
    return std::any_of(s.begin(), s.end(), [](char c) { return (c & 0x80) != 0; });
}

}  // namespace

TEST(Catalog, AblationTogglesAreChoicesWithBothLabelsAndNotes) {
    for (const ToggleSpec& t : kToggles) {
        const Lesson* lesson = Catalog().FindLesson(t.lesson);
        ASSERT_NE(lesson, nullptr) << t.lesson;
        const ParamSpec* p = lesson->FindParam(t.name);
        ASSERT_NE(p, nullptr) << lesson->id << " has no '" << t.name << "'";
        SCOPED_TRACE(lesson->id + " " + t.name);
        EXPECT_EQ(p->type, ParamType::kChoice);
        EXPECT_EQ(p->choices, t.choices);
        EXPECT_EQ(p->Default().choice, t.choices.front()) << "the default is the lesson as written";
        EXPECT_FALSE(p->label_en.empty());
        EXPECT_FALSE(HasNonAscii(p->label_en)) << p->label_en;
        EXPECT_TRUE(HasNonAscii(p->label_zh)) << "a Chinese label: " << p->label_zh;
        ASSERT_EQ(p->choice_notes.size(), p->choices.size()) << "a note for every choice";
        for (const std::string& note : p->choice_notes) EXPECT_GT(note.size(), 20u) << note;
        EXPECT_NE(p->choice_notes.front().find("as written"), std::string::npos)
            << p->choice_notes.front();
        for (const ParamValue& v : p->Values()) EXPECT_EQ(p->Reject(v), "") << v.choice;
        EXPECT_TRUE(p->why.empty()) << "every combination runs: nothing to refuse";
    }
    // The neighbours run one kernel each: lesson 11 chunks lesson 10's default kernel.
    for (const char* name : {"addressing", "accumulate", "last_warp", "loads", "passes"})
        EXPECT_EQ(Catalog().FindLesson("22")->FindParam(name), nullptr) << name;
    for (const char* name : {"output", "loads", "pair_test", "exits"})
        EXPECT_EQ(Catalog().FindLesson("split/overlapped-chunks")->FindParam(name), nullptr)
            << name;
}

// The catalogue names every choice in Chinese beside the choice itself (ParamSpec::
// choice_labels_zh), so that no front end keeps a list of them; only names that read the same
// in both languages (a tile's shape) go without.
TEST(Catalog, EveryChoiceIsNamedInChineseByItsParameter) {
    for (const Lesson& lesson : Catalog().lessons())
        for (const ParamSpec& p : lesson.params) {
            if (p.type != ParamType::kChoice || p.verbatim_choices) continue;
            SCOPED_TRACE(lesson.id + " " + p.name);
            ASSERT_EQ(p.choice_labels_zh.size(), p.choices.size());
            for (size_t i = 0; i < p.choices.size(); ++i) {
                EXPECT_EQ(p.ChoiceLabel("zh", p.choices[i]), p.choice_labels_zh[i]);
                EXPECT_EQ(p.ChoiceLabel("en", p.choices[i]), p.choices[i]);
                EXPECT_FALSE(p.choice_labels_zh[i].empty()) << p.choices[i];
            }
        }
    const ParamSpec* data = Catalog().FindLesson("split/openmp")->FindParam("data");
    ASSERT_NE(data, nullptr);
    EXPECT_EQ(data->ChoiceLabel("zh", "none"), "无换行") << "named by its own parameter";
    EXPECT_EQ(data->ChoiceLabel("zh", std::string(kFileChoice)), kFileChoiceZh);
    EXPECT_EQ(data->ChoiceLabel("zh", "unheard-of"), "unheard-of");
}

TEST(Catalog, EveryLessonHasBothTextsAndItsSource) {
    for (const Lesson& l : Catalog().lessons()) {
        EXPECT_GT(l.text_en.size(), 400u) << l.id << ": English text is too short to teach";
        EXPECT_GT(l.text_zh.size(), 400u) << l.id << ": Chinese text is too short to teach";
        EXPECT_EQ(l.source, EmbeddedFile(l.source_path)) << l.id;
        EXPECT_EQ(l.source.substr(0, 3), "// ")
            << l.id << ": the step file opens with what changed";
    }
}

// A step's file is named by its slug, as its texts and exercise are ("kernels/gemm/warp-tiling.cu"
// for gemm/warp-tiling), and no kernel defined in it carries a number: the row's place numbers
// the step, and only there.
TEST(Catalog, EveryStepsFileIsNamedByItsSlug) {
    for (const Lesson& l : Catalog().lessons()) {
        const std::string slug = l.id.substr(l.id.find('/') + 1);
        const std::string file = l.source_path.substr(l.source_path.rfind('/') + 1);
        EXPECT_EQ(file.substr(0, file.rfind('.')), slug) << l.id << ": " << l.source_path;
        for (const std::string& kernel : GlobalKernelNames(l.source)) {
            // "gemm_36_2d_blocking_kernel" had one; "gemm_2d_register_blocking_kernel" has not.
            std::stringstream parts(kernel);
            bool numbered = false;
            for (std::string part; std::getline(parts, part, '_');)
                numbered =
                    numbered || (!part.empty() && std::all_of(part.begin(), part.end(), [](char c) {
                        return c >= '0' && c <= '9';
                    }));
            EXPECT_FALSE(numbered) << l.id << ": kernel '" << kernel << "' carries a number";
        }
    }
}

TEST(Catalog, LookupByLabelIdAndOldNames) {
    const Registry& r = Catalog();
    // By id, then by its label (chapter.step, whatever its place), then by the old names.
    const Lesson* gemm8 = r.FindLesson("gemm/double-buffering");
    ASSERT_NE(gemm8, nullptr);
    const std::vector<const Lesson*> in_chapter = r.LessonsOf(r.ChapterOf(*gemm8));
    const auto place = std::find(in_chapter.begin(), in_chapter.end(), gemm8) - in_chapter.begin();
    EXPECT_EQ(gemm8->label,
              std::to_string(r.ChapterOf(*gemm8).number) + "." + std::to_string(place + 1));
    EXPECT_EQ(r.FindLesson(gemm8->label), gemm8);
    // The rows whose recorded results carry an old global number keep it (`was`): chapter 3's
    // and chapter 6's H100 recordings; the others have none any more.
    const Lesson* v3 = r.FindLesson("reduce/v3-unrolled-last-warp");
    ASSERT_NE(v3, nullptr);
    EXPECT_EQ(r.FindLesson("23"), v3) << "an old global number a recording carries";
    EXPECT_EQ(r.FindLesson("reduce/23-v3-unrolled-last-warp"), v3) << "the old id";
    EXPECT_EQ(r.FindLesson("roofline/43-roofline"), r.FindLesson("roofline/roofline"));
    EXPECT_EQ(r.FindLesson("39"), nullptr) << "a retired number no recording carries";
    EXPECT_EQ(r.FindLesson("gemm/39-double-buffering"), nullptr);
    EXPECT_EQ(r.FindLesson(r.FindLesson("split/one-thread-per-pair")->label),
              r.FindLesson("split/one-thread-per-pair"));
    EXPECT_EQ(r.FindLesson("999"), nullptr);
    EXPECT_EQ(r.FindLesson("5.99"), nullptr);
    EXPECT_EQ(r.FindLesson("double-buffering"), nullptr) << "a slug alone is not an id";
    EXPECT_EQ(r.FindLesson("split/nope"), nullptr);
    EXPECT_EQ(r.FindChapter("1"), r.FindChapter("split"));
    EXPECT_EQ(r.FindChapter("nope"), nullptr);
    EXPECT_EQ(r.LessonsOf(*r.FindChapter("split")).front()->number, 1);
}

TEST(Registry, NamesEveryProblem) {
    Registry r;
    r.AddChapter(GoodChapter(1, "a"));
    r.AddChapter(GoodChapter(1, "a"));  // duplicate number and id
    r.AddLesson(GoodLesson(1, "a/01-x", 0));
    r.AddLesson(GoodLesson(1, "a/02-y", 0));  // duplicate number
    Lesson dup_id = GoodLesson(3, "a/01-x", 1);
    r.AddLesson(dup_id);
    r.AddLesson(GoodLesson(4, "a/04-z", 99));  // previous missing
    Lesson later = GoodLesson(5, "a/05-w", 6);
    r.AddLesson(later);
    r.AddLesson(GoodLesson(6, "a/06-v", 0));
    Lesson no_text = GoodLesson(7, "a/07-u", 0);
    no_text.text_zh = {};
    r.AddLesson(no_text);
    Lesson gpu = GoodLesson(8, "a/08-t", 0);
    gpu.kind = StepKind::kGpu;
    r.AddLesson(gpu);
    Lesson wrong_chapter = GoodLesson(9, "b/09-s", 0);
    r.AddLesson(wrong_chapter);
    Lesson bad_default = GoodLesson(10, "a/10-r", 0);
    bad_default.kind = StepKind::kGpu;
    bad_default.params = {BlockParam(32, 1024, 96, true, "interleaving")};
    r.AddLesson(bad_default);
    Lesson short_labels = GoodLesson(11, "a/11-q", 0);
    short_labels.params = {
        ChoiceParam("algo", "Algorithm", "算法", {"ring", "tree"}, {}, {}, {"环"})};
    r.AddLesson(short_labels);

    const auto problems = r.Validate();
    for (const char* problem : {
             "chapter 1 (a): number 1 is used twice",
             "chapter 1 (a): id is used twice",
             "number 1 is used twice",
             "id 'a/01-x' is used twice",
             "previous lesson 99 does not exist",
             "previous lesson 6 must come before it",
             "lesson 7 (a/07-u): no Chinese text",
             "lesson 8 (a/08-t): a GPU lesson must declare its block sizes",
             "lesson 9 (b/09-s): chapter 'b' does not exist",
             "the default of 'block' is refused: Block size (block) 96",
             "parameter 'algo' needs a Chinese label per choice, or none",
         })
        EXPECT_TRUE(Mentions(problems, problem)) << problem;
}

TEST(Registry, PreviousInAnotherChapter) {
    Registry r;
    r.AddChapter(GoodChapter(1, "a"));
    r.AddChapter(GoodChapter(2, "b"));
    r.AddLesson(GoodLesson(1, "a/01-x", 0));
    r.AddLesson(GoodLesson(2, "b/02-y", 1));
    EXPECT_TRUE(Mentions(r.Validate(), "previous lesson 1 is in another chapter"));
}

TEST(Params, BlockSizesAcceptAndList) {
    const ParamSpec any = BlockParam(32, 1024, 256);
    EXPECT_EQ(any.Reject(ParamValue::Number(96)), "");
    EXPECT_NE(any.Reject(ParamValue::Number(100)), "");
    EXPECT_NE(any.Reject(ParamValue::Number(0)), "");
    EXPECT_NE(any.Reject(ParamValue::Number(2048)), "");
    EXPECT_EQ(any.Values().size(), 32u);
    const ParamSpec pow2 = BlockParam(64, 512, 256, true, "interleaving");
    EXPECT_NE(pow2.Reject(ParamValue::Number(96)), "");
    EXPECT_NE(pow2.Reject(ParamValue::Number(32)), "");
    std::vector<uint64_t> values;
    for (const ParamValue& v : pow2.Values()) values.push_back(v.number);
    EXPECT_EQ(values, (std::vector<uint64_t>{64, 128, 256, 512}));
    // The message names the parameter, the value, the valid values and why.
    const std::string msg = pow2.Reject(ParamValue::Number(96));
    for (const char* part : {"Block size (block) 96", "64 to 512", "power of two",
                             "(64, 128, 256, 512)", "interleaving"})
        EXPECT_NE(msg.find(part), std::string::npos) << msg;
}

TEST(Params, ParseNamesTheParameterAndTheRange) {
    const ParamSpec size = SizeParam(1024, 4);
    EXPECT_EQ(size.Parse("1KiB").number, 1024u);
    EXPECT_EQ(size.Format(ParamValue::Number(64 << 20)), "64 MiB");
    try {
        size.Parse("10");
        FAIL() << "10 B is not whole floats";
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("4-byte elements"), std::string::npos) << e.what();
    }
    try {
        size.Parse("lots");
        FAIL();
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("Data size (size)"), std::string::npos) << e.what();
    }
    const ParamSpec data = ChoiceParam("data", "Data", "数据", {"random", "ones"});
    EXPECT_EQ(data.Parse("ones").choice, "ones");
    try {
        data.Parse("dense");
        FAIL();
    } catch (const UsageError& e) {
        EXPECT_NE(std::string(e.what()).find("random or ones"), std::string::npos) << e.what();
    }
    EXPECT_EQ(data.Default().choice, "random");
    EXPECT_EQ(data.Values().size(), 2u);
    EXPECT_TRUE(SizeParam(1).Values().empty()) << "too many sizes to list";
    EXPECT_GE(ThreadsParam().Default().number, 1u);
}

TEST(Params, ValuesKeepTheirOrderAndSubsets) {
    ParamValues v;
    v.Set("block", ParamValue::Number(256));
    v.Set("data", ParamValue::Choice("random"));
    v.Set("block", ParamValue::Number(512));
    ASSERT_EQ(v.entries().size(), 2u);
    EXPECT_EQ(v.Number("block"), 512u);
    EXPECT_EQ(v.Choice("data"), "random");
    EXPECT_THROW(v.Number("data"), UsageError);
    EXPECT_THROW(v.Choice("size"), UsageError);
    EXPECT_EQ(v.Subset({"data"}).entries().size(), 1u);
}
