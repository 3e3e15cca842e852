// Chapter 10's GPU steps against the double reference at small and odd shapes: N = 1, 17, 64,
// 1000 and 4097 (no multiple of any tile), one head and several, d = 64 and 128, the causal mask
// on and off, every tile of the fused steps and the unfused step's smallest and largest block.
// One test per step and shape set (GpuAttentionStep.*/<slug>). Without a usable GPU every test
// here but CoversEveryStep reports SKIPPED with the reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "catalog.h"
#include "device.h"
#include "errors.h"
#include "gpu_lessons.h"
#include "gpu_test.h"
#include "session.h"

using namespace lessons;

namespace {

std::vector<const Lesson*> AttentionLessons() {
    return GpuLessonsOf("attention");
}

RunOptions Options(uint64_t b, uint64_t h, uint64_t n, const std::string& d,
                   const std::string& mask, uint64_t seed) {
    RunOptions o = OneRun(seed);
    o.Set("b", std::to_string(b));
    o.Set("h", std::to_string(h));
    o.Set("n", std::to_string(n));
    o.Set("d", d);
    o.Set("mask", mask);
    return o;
}

// The launch choices of a lesson the test runs each shape at: every tile, or the smallest and
// the largest block.
std::vector<std::pair<std::string, std::string>> LaunchChoices(const Lesson& lesson) {
    std::vector<std::pair<std::string, std::string>> out;
    if (const ParamSpec* tile = lesson.FindParam("tile"))
        for (const std::string& t : tile->choices) out.push_back({"tile", t});
    if (const ParamSpec* block = lesson.FindParam("block")) {
        const std::vector<ParamValue> values = block->Values();
        out.push_back({"block", std::to_string(values.front().number)});
        out.push_back({"block", std::to_string(values.back().number)});
    }
    return out;
}

const std::tuple<uint64_t, uint64_t, uint64_t> kShapes[] = {
    {1, 1, 1}, {1, 2, 17}, {2, 1, 64}, {1, 1, 1000}, {1, 3, 4097}, {3, 5, 129},
};

// The chapter's GPU steps by slug, one test each (--gtest_filter='*pipelined*' runs one step);
// every GPU step of the chapter is in the list (CoversEveryStep).
const char* const kSteps[] = {"unfused",   "fused-simt",   "mma-sync",  "swizzled",
                              "pipelined", "log2-softmax", "wgmma-tma", "warp-specialized"};

const Lesson& StepOf(const std::string& slug) {
    const Lesson* lesson = RunnableCatalog().FindLesson("attention/" + slug);
    if (!lesson) throw std::logic_error("no lesson attention/" + slug);
    return *lesson;
}

class GpuAttentionStep : public ::testing::TestWithParam<const char*> {};

std::string TestName(const ::testing::TestParamInfo<const char*>& info) {
    std::string name = info.param;
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

}  // namespace

TEST(GpuAttention, CoversEveryStep) {
    std::vector<std::string> slugs;
    for (const Lesson* l : AttentionLessons()) slugs.push_back(l->id.substr(l->id.find('/') + 1));
    EXPECT_EQ(slugs, std::vector<std::string>(std::begin(kSteps), std::end(kSteps)));
}

TEST_P(GpuAttentionStep, OddShapesHeadDimsAndMasks) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    const Lesson* lesson = &StepOf(GetParam());
    for (const auto& [name, value] : LaunchChoices(*lesson))
        for (const std::string d : {"128", "64"})
            for (const std::string mask : {"none", "causal"})
                for (const auto& [b, h, n] : kShapes) {
                    const std::string what = lesson->id + " " + name + "=" + value + " d=" + d +
                                             " " + mask + " b=" + std::to_string(b) +
                                             " h=" + std::to_string(h) + " n=" + std::to_string(n);
                    RunOptions o = Options(b, h, n, d, mask, n * 7919 + h);
                    o.Set(name, value);
                    RunResult r;
                    try {
                        r = session.Run(*lesson, o);
                    } catch (const std::exception& e) {
                        ADD_FAILURE() << what << ": " << e.what();
                        continue;
                    }
                    EXPECT_TRUE(r.verified) << what << ": " << r.check_message;
                }
}

// The default shape (B = 32, N = 1024, 16 heads of 128), its rows sampled: the first and last
// rows of the first and last heads among them.
TEST_P(GpuAttentionStep, DefaultShape) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    const Lesson& lesson = StepOf(GetParam());
    RunOptions o;
    o.reps = 1;
    o.measure_ceilings = false;
    const RunResult r = session.Run(lesson, o);
    EXPECT_TRUE(r.verified) << lesson.id << ": " << r.check_message;
}

INSTANTIATE_TEST_SUITE_P(Steps, GpuAttentionStep, ::testing::ValuesIn(kSteps), TestName);
