// The step declaration: a lesson is one row of its chapter's table. These tests build small
// catalogues of their own to show what adding a step or a chapter touches, and check that the
// join between rows and the GPU library (step kinds, kernels registered by their files) reports
// every mistake.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "catalog.h"
#include "chapter_fixture.h"
#include "declare.h"
#include "kernels_of.h"
#include "report.h"
#include "step_kinds.h"

using namespace lessons;

namespace fixture {

// A kernel descriptor and two step kinds, as a chapter's kernel folder and steps header have.
struct FakeKernel {
    const char* name;
};
struct Kernel {
    const char* name;  // which of this file's kernels the step launches
};
struct Library {
    static constexpr bool kLibrary = true;
};
struct Unimplemented {};

const FakeKernel kKernels[] = {{"naive"}, {"coalesced"}, {"tiled"}};

// This file plays the kernel file: the rows name it as their source.
constexpr const char* kHere = "tests/test_declare.cpp";

struct NoWorkload : Workload {
    uint64_t SizeBytes() const override { return 0; }
};

StepRunner RunnerNamed(const std::string& name) {
    StepRunner r;
    r.make = [name](const Workload&, const StepContext&) -> std::unique_ptr<StepInstance> {
        throw std::runtime_error(name);
    };
    return r;
}

}  // namespace fixture

LESSONS_KERNELS(fixture::kKernels);

namespace fixture {

LESSONS_STEP_KIND(Kernel, [](const Kernel& k, const StepSite& site) {
    for (const FakeKernel* f : KernelsOf<FakeKernel>(site))
        if (std::string(f->name) == k.name) return RunnerNamed(k.name);
    throw std::logic_error(std::string("no kernel '") + k.name + "'");
});
LESSONS_STEP_KIND(Library, [](const Library&, const StepSite&) { return RunnerNamed("library"); });

Chapter MakeChapter(const std::string& id) {
    return NothingChapter(id);
}

// The kernel families this file registered (the catalogue's own files register theirs too).
std::vector<KernelFamily> FamiliesOfThisFile() {
    std::vector<KernelFamily> out;
    for (const KernelFamily& f : KernelFamilies())
        if (SameSourceFile(f.file, kHere)) out.push_back(f);
    return out;
}

// A chapter before the one under test, so numbers are not all "1.x".
void AddFirstChapter(Registry& r) {
    AddChapter(r, MakeChapter("first"), "tests/first",
               {{.slug = "only", .title = "Only", .source = kHere, .step = Library{}}});
}

const ParamSpec kBlock = BlockParam(32, 1024, 256);

}  // namespace fixture

using namespace fixture;

// A chapter's rows take their file ("<kernels>/<slug>.cu", ".cpp" for a CPU step) and their
// memory needs from the chapter's RowDefaults; a row's own .source and .needs win.
TEST(Declaration, RowsTakeTheirFileAndNeedsFromTheChapterUnlessTheyNameTheirOwn) {
    const auto chapter_needs = [](const ParamValues&) { return MemoryNeeds{1, 2}; };
    const auto own_needs = [](const ParamValues&) { return MemoryNeeds{3, 4}; };
    Registry r;
    AddChapter(
        r, MakeChapter("gemm"), "tests/gemm", {.kernels = "kernels/gemm", .needs = chapter_needs},
        {{.slug = "naive", .title = "Naive", .step = Library{}},
         {.slug = "on-the-host", .title = "On the host"},
         {.slug = "own", .title = "Own", .source = kHere, .step = Library{}, .needs = own_needs}});
    ASSERT_EQ(r.lessons().size(), 3u);
    EXPECT_EQ(r.lessons()[0].source_path, "kernels/gemm/naive.cu");
    EXPECT_EQ(r.lessons()[1].source_path, "kernels/gemm/on-the-host.cpp");
    EXPECT_EQ(r.lessons()[2].source_path, kHere);
    const ParamValues none;
    EXPECT_EQ(r.lessons()[0].needs(none).device_bytes, 2u);
    EXPECT_EQ(r.lessons()[1].needs(none).host_bytes, 1u);
    EXPECT_EQ(r.lessons()[2].needs(none).device_bytes, 4u);
    Registry plain;  // without defaults a row names its own file, and has no needs unless it says
    AddChapter(plain, MakeChapter("gemm"), "tests/gemm",
               {{.slug = "naive", .title = "Naive", .step = Library{}}});
    EXPECT_EQ(plain.lessons()[0].source_path, "");
    EXPECT_FALSE(plain.lessons()[0].needs);
}

// Inserting a step in the middle of a chapter is one row: the numbers after it move, the ids,
// the old numbers and the runners do not.
TEST(Declaration, InsertingAStepIsOneRow) {
    const std::vector<LessonRow> rows = {
        {.slug = "naive",
         .title = "Naive",
         .source = kHere,
         .step = Kernel{"naive"},
         .params = {kBlock},
         .focus = {"LDG"},
         .was = 32},
        {.slug = "tiled",
         .title = "Tiled",
         .source = kHere,
         .step = Kernel{"tiled"},
         .params = {kBlock},
         .focus = {"LDS"},
         .was = 34},
        {.slug = "library",
         .title = "Library",
         .source = kHere,
         .step = Library{},
         .previous = "naive",
         .was = 40},
    };
    // The new step: this row is the whole change.
    std::vector<LessonRow> inserted = rows;
    inserted.insert(inserted.begin() + 1, LessonRow{.slug = "coalesced",
                                                    .title = "Coalesced",
                                                    .source = kHere,
                                                    .step = Kernel{"coalesced"},
                                                    .params = {kBlock},
                                                    .focus = {"LDG"}});
    Registry before, after;
    AddFirstChapter(before);
    AddChapter(before, MakeChapter("gemm"), "tests/gemm", rows);
    AddFirstChapter(after);
    AddChapter(after, MakeChapter("gemm"), "tests/gemm", inserted);
    EXPECT_EQ(AttachGpuRunners(before, FamiliesOfThisFile()), std::vector<std::string>{});
    EXPECT_EQ(AttachGpuRunners(after, FamiliesOfThisFile()), std::vector<std::string>{});

    auto label = [](const Registry& r, const char* name) {
        const Lesson* l = r.FindLesson(name);
        return l ? l->label : std::string("none");
    };
    EXPECT_EQ(label(before, "gemm/tiled"), "2.2");
    EXPECT_EQ(label(after, "gemm/tiled"), "2.3");
    EXPECT_EQ(label(after, "gemm/coalesced"), "2.2");
    EXPECT_EQ(label(after, "gemm/library"), "2.4");
    // Old names keep finding the same lessons.
    EXPECT_EQ(after.FindLesson("34")->id, "gemm/tiled");
    EXPECT_EQ(after.FindLesson("gemm/34-tiled")->id, "gemm/tiled");
    EXPECT_EQ(after.FindLesson("2.2")->id, "gemm/coalesced");
    EXPECT_EQ(after.FindLesson("gemm/coalesced")->was, 0);
    // The row above is the previous lesson, unless a row names another.
    EXPECT_EQ(after.FindLesson(after.FindLesson("gemm/tiled")->previous)->id, "gemm/coalesced");
    EXPECT_EQ(before.FindLesson(before.FindLesson("gemm/tiled")->previous)->id, "gemm/naive");
    EXPECT_EQ(after.FindLesson(after.FindLesson("gemm/library")->previous)->id, "gemm/naive");
    EXPECT_EQ(after.FindLesson("gemm/naive")->previous, 0) << "a chapter's first row";
    // Each step's runner is its kind's, over its own kernel.
    for (const char* id : {"gemm/naive", "gemm/coalesced", "gemm/tiled"}) {
        const Lesson* l = after.FindLesson(id);
        ASSERT_TRUE(l->runner.make) << id;
        try {
            const NoWorkload none;
            const ParamValues params;
            l->runner.make(none, StepContext{params, {}});
            ADD_FAILURE() << id;
        } catch (const std::runtime_error& e) {
            EXPECT_EQ(std::string(id).substr(5), e.what());
        }
    }
    EXPECT_TRUE(after.FindLesson("gemm/library")->library) << "from the kind";
    EXPECT_EQ(after.FindLesson("gemm/library")->kind, StepKind::kGpu);
}

// A new chapter is its own folders plus one registration: it takes the next number.
TEST(Declaration, ANewChapterIsOneRegistration) {
    Registry r;
    AddFirstChapter(r);
    AddChapter(r, MakeChapter("scan"), "tests/scan",
               {{.slug = "blelloch",
                 .title = "Work-efficient scan",
                 .source = kHere,
                 .step = Kernel{"tiled"},
                 .params = {kBlock},
                 .focus = {"LDS", "BAR"}}});
    ASSERT_NE(r.FindChapter("scan"), nullptr);
    EXPECT_EQ(r.FindChapter("scan")->number, 2);
    EXPECT_EQ(r.FindChapter("2"), r.FindChapter("scan"));
    EXPECT_EQ(r.FindLesson("2.1")->id, "scan/blelloch");
    EXPECT_EQ(r.FindLesson("2.1")->params.front().name, "block");
    EXPECT_EQ(AttachGpuRunners(r, FamiliesOfThisFile()), std::vector<std::string>{});
}

// A chapter declared by its id alone takes its title, Chinese title and work rule from its texts
// beside its lessons' (chapter.en.md: "# title" and the rule, chapter.zh.md: "# 标题"); a folder
// without them is a problem of the catalogue, named.
TEST(Declaration, AChapterDeclaredByItsIdTakesItsHeadingFromItsTexts) {
    const Chapter* gemv = Catalog().FindChapter("gemv");
    ASSERT_NE(gemv, nullptr);
    EXPECT_EQ(gemv->title, "GEMV: y = A·x");
    EXPECT_EQ(gemv->title_zh, "GEMV：矩阵乘向量 y = A·x");
    EXPECT_EQ(gemv->work_rule,
              "reads A once (m·n floats) and x (n floats) and writes y (m floats); 2·m·n flops; "
              "GPU steps are compared with the read-only bandwidth");
    for (const Chapter& c : Catalog().chapters()) {
        EXPECT_FALSE(c.title.empty()) << c.id;
        EXPECT_FALSE(c.title_zh.empty()) << c.id;
        EXPECT_FALSE(c.work_rule.empty()) << c.id;
    }
    Chapter untitled = MakeChapter("untitled");
    untitled.title = untitled.title_zh = "";
    Registry r;
    AddChapter(r, untitled, "tests/untitled",
               {{.slug = "only", .title = "Only", .source = kHere, .step = Library{}}});
    const std::vector<std::string> problems = r.Validate();
    EXPECT_NE(std::find(problems.begin(), problems.end(),
                        "chapter untitled: tests/untitled/chapter.en.md and chapter.zh.md give no "
                        "heading (\"# title\", and the work rule after the English one)"),
              problems.end())
        << ::testing::PrintToString(problems);
}

TEST(Declaration, TheJoinReportsEveryMistake) {
    Registry r;
    AddChapter(r, MakeChapter("bad"), "tests/bad",
               {
                   {.slug = "no-kernels",
                    .title = "A file that registers nothing",
                    .source = "kernels/none/no-kernels.cu",
                    .step = Kernel{"naive"},
                    .params = {kBlock},
                    .focus = {"LDG"}},
                   {.slug = "wrong-kernel",
                    .title = "A kernel the file does not have",
                    .source = kHere,
                    .step = Kernel{"nope"},
                    .params = {kBlock},
                    .focus = {"LDG"}},
                   {.slug = "no-kind",
                    .title = "A kind the GPU library does not implement",
                    .source = kHere,
                    .step = Unimplemented{},
                    .params = {kBlock},
                    .focus = {"LDG"}},
                   {.slug = "later",
                    .title = "x",
                    .source = kHere,
                    .step = Library{},
                    .previous = "nowhere"},
               });
    std::vector<KernelFamily> families = FamiliesOfThisFile();
    families.push_back({"/build/kernels/gemm/orphan.cu", typeid(FakeKernel), kKernels, 1});
    const std::vector<std::string> problems = AttachGpuRunners(r, families);
    auto mentions = [&](const std::string& what) {
        return std::any_of(problems.begin(), problems.end(),
                           [&](const std::string& p) { return p.find(what) != std::string::npos; });
    };
    EXPECT_TRUE(
        mentions("lesson 1.1 (bad/no-kernels): 'kernels/none/no-kernels.cu' registers no "
                 "kernel"));
    EXPECT_TRUE(mentions("lesson 1.2 (bad/wrong-kernel): no kernel 'nope'"));
    EXPECT_TRUE(mentions("lesson 1.3 (bad/no-kind): the GPU library implements no step kind"));
    EXPECT_TRUE(
        mentions("'/build/kernels/gemm/orphan.cu' registers kernels, and no lesson "
                 "names it"));
    const std::vector<std::string> declared = r.Validate();
    EXPECT_TRUE(std::any_of(declared.begin(), declared.end(), [](const std::string& p) {
        return p.find("previous lesson 'nowhere' is no earlier row") != std::string::npos;
    }));
    // A GPU step of its own kernels without its focus is refused too.
    Registry no_focus;
    AddChapter(no_focus, MakeChapter("nf"), "tests/nf",
               {{.slug = "x",
                 .title = "x",
                 .source = kHere,
                 .step = Kernel{"naive"},
                 .params = {kBlock}}});
    const std::vector<std::string> nf = no_focus.Validate();
    EXPECT_TRUE(std::any_of(nf.begin(), nf.end(), [](const std::string& p) {
        return p.find("must name the instruction classes it is about") != std::string::npos;
    }));
}

TEST(Declaration, SourceFilesMatchWhereverTheBuildNamedThem) {
    EXPECT_TRUE(SameSourceFile("/work/main/kernels/gemm/naive.cu", "kernels/gemm/naive.cu"));
    EXPECT_TRUE(SameSourceFile("kernels/gemm/naive.cu", "kernels/gemm/naive.cu"));
    EXPECT_FALSE(SameSourceFile("/work/main/kernels/gemm/un-naive.cu", "kernels/gemm/naive.cu"));
    EXPECT_FALSE(SameSourceFile("/work/other_kernels/gemm/naive.cu", "kernels/gemm/naive.cu"));
    EXPECT_FALSE(SameSourceFile("/x.cu", ""));
}

// Every GPU step of the catalogue has results recorded on the reference GPU (what the program
// shows without one), found by its id or by the id it was recorded under; and every recorded
// result, of every GPU's folder too, belongs to a lesson.
TEST(Catalog, EveryGpuStepHasRecordedResults) {
    const Registry& catalog = Catalog();
    std::set<std::string> recorded;
    const std::filesystem::path dir =
        std::filesystem::path(LESSONS_SOURCE_DIR) / "assets/reference";
    int files = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
        if (entry.path().extension() != ".json") continue;
        ++files;
        std::ifstream in(entry.path());
        const Json array = Json::parse(in, nullptr, false);
        ASSERT_TRUE(array.is_array()) << entry.path();
        for (const Json& j : array) {
            RunResult r = RunResultFromJson(j);
            EXPECT_TRUE(AdoptCatalogIdentity(catalog, r)) << entry.path() << ": " << r.id;
            EXPECT_EQ(catalog.FindLesson(r.lesson)->id, r.id);
            recorded.insert(r.id);
        }
    }
    EXPECT_GT(files, 0);
    for (const Lesson& l : catalog.lessons())
        if (l.kind == StepKind::kGpu)
            EXPECT_TRUE(recorded.count(l.id))
                << l.label << " " << l.id << " has no recorded result";
}
