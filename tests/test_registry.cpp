#include <gtest/gtest.h>

#include <algorithm>

#include "catalog.h"
#include "registry.h"
#include "resources.h"

using namespace lessons;

namespace {

bool Mentions(const std::vector<std::string>& problems, const std::string& needle) {
    return std::any_of(problems.begin(), problems.end(),
                       [&](const std::string& p) { return p.find(needle) != std::string::npos; });
}

Chapter GoodChapter(int number, const std::string& id) {
    Chapter c;
    c.number = number;
    c.id = id;
    c.title = "A chapter";
    c.make_workload = [](const WorkloadSpec&) -> std::shared_ptr<Workload> { return nullptr; };
    c.workload_host_bytes = [](uint64_t n) { return n; };
    c.data_kinds = {DataKind::kRandom};
    return c;
}

Lesson GoodLesson(int number, const std::string& id, int previous) {
    Lesson l;
    l.number = number;
    l.id = id;
    l.chapter = id.substr(0, id.find('/'));
    l.title = "A lesson";
    l.previous = previous;
    l.source_path = "kernels/x.cpp";
    l.source = "int x;";
    l.text_en = "text";
    l.text_zh = "文本";
    l.needs = [](uint64_t) { return MemoryNeeds{}; };
    l.make = [](const Workload&, const StepConfig&) -> std::unique_ptr<StepInstance> {
        return nullptr;
    };
    return l;
}

}  // namespace

TEST(Catalog, IsSound) {
    EXPECT_EQ(CatalogProblems(), std::vector<std::string>{});
    EXPECT_GE(Catalog().lessons().size(), 4u);
}

TEST(Catalog, EveryLessonHasBothTextsAndItsSource) {
    for (const Lesson& l : Catalog().lessons()) {
        EXPECT_GT(l.text_en.size(), 400u) << l.id << ": English text is too short to teach";
        EXPECT_GT(l.text_zh.size(), 400u) << l.id << ": Chinese text is too short to teach";
        EXPECT_EQ(l.source, EmbeddedFile(l.source_path)) << l.id;
        EXPECT_NE(l.source.find("Lesson " + std::to_string(l.number)), std::string::npos)
            << l.id << ": the step file opens with what changed";
    }
}

TEST(Catalog, LookupByNumberAndId) {
    const Registry& r = Catalog();
    ASSERT_NE(r.FindLesson("4"), nullptr);
    EXPECT_EQ(r.FindLesson("4"), r.FindLesson("split/04-one-thread-per-pair"));
    EXPECT_EQ(r.FindLesson("999"), nullptr);
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
    bad_default.blocks = BlockSpec{32, 1024, 96, true, "interleaving"};
    r.AddLesson(bad_default);

    const auto problems = r.Validate();
    EXPECT_TRUE(Mentions(problems, "chapter 1 (a): number 1 is used twice"));
    EXPECT_TRUE(Mentions(problems, "chapter 1 (a): id is used twice"));
    EXPECT_TRUE(Mentions(problems, "number 1 is used twice"));
    EXPECT_TRUE(Mentions(problems, "id 'a/01-x' is used twice"));
    EXPECT_TRUE(Mentions(problems, "previous lesson 99 does not exist"));
    EXPECT_TRUE(Mentions(problems, "previous lesson 6 must come before it"));
    EXPECT_TRUE(Mentions(problems, "lesson 7 (a/07-u): no Chinese text"));
    EXPECT_TRUE(Mentions(problems, "lesson 8 (a/08-t): a GPU lesson must declare its block sizes"));
    EXPECT_TRUE(Mentions(problems, "lesson 9 (b/09-s): chapter 'b' does not exist"));
    EXPECT_TRUE(Mentions(problems, "default block size 96 is not accepted"));
}

TEST(Registry, PreviousInAnotherChapter) {
    Registry r;
    r.AddChapter(GoodChapter(1, "a"));
    r.AddChapter(GoodChapter(2, "b"));
    r.AddLesson(GoodLesson(1, "a/01-x", 0));
    r.AddLesson(GoodLesson(2, "b/02-y", 1));
    EXPECT_TRUE(Mentions(r.Validate(), "previous lesson 1 is in another chapter"));
}

TEST(BlockSpec, AcceptsAndChoices) {
    BlockSpec any{32, 1024, 256, false, ""};
    EXPECT_TRUE(any.Accepts(96));
    EXPECT_FALSE(any.Accepts(100));
    EXPECT_FALSE(any.Accepts(0));
    EXPECT_FALSE(any.Accepts(2048));
    EXPECT_EQ(any.Choices().size(), 32u);
    BlockSpec pow2{64, 512, 256, true, "interleaving"};
    EXPECT_FALSE(pow2.Accepts(96));
    EXPECT_FALSE(pow2.Accepts(32));
    EXPECT_EQ(pow2.Choices(), (std::vector<int>{64, 128, 256, 512}));
}
