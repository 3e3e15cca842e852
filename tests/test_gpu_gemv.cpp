// Chapter 4's GPU steps against the CPU reference: edge shapes (1 × 1, 1 × n, m × 1, odd n,
// n not a multiple of 4, so rows start misaligned), every data kind and every block size.
// Without a usable GPU every test here reports SKIPPED with the reason.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "catalog.h"
#include "device.h"
#include "errors.h"
#include "gpu_lessons.h"
#include "gpu_test.h"
#include "session.h"

using namespace lessons;

namespace {

std::vector<const Lesson*> GemvLessons() {
    return GpuLessonsOf("gemv");
}

// Every block size the lesson accepts; one "none" for the library step.
std::vector<std::optional<int>> EveryBlock(const Lesson& lesson) {
    const ParamSpec* block = lesson.FindParam("block");
    if (!block) return {std::nullopt};
    std::vector<std::optional<int>> out;
    for (const ParamValue& v : block->Values()) out.push_back(int(v.number));
    return out;
}

RunResult RunGemv(Session& session, const Lesson& lesson, uint64_t m, uint64_t n,
                  const std::string& data, std::optional<int> block, uint64_t seed) {
    RunOptions o;
    o.Set("m", std::to_string(m));
    o.Set("n", std::to_string(n));
    o.Set("data", data);
    if (block) o.Set("block", std::to_string(*block));
    o.reps = 1;
    o.seed = seed;
    o.measure_ceilings = false;
    return session.Run(lesson, o);
}

// Lesson 4.3 (the vector step) right against the reference at every n of `ns` by every m of
// `ms` at every block of `blocks`, each seeded m * seed_step + n.
void ExpectVectorStepRight(const std::vector<uint64_t>& ns, const std::vector<uint64_t>& ms,
                           const std::vector<int>& blocks, uint64_t seed_step) {
    Session session(RunnableCatalog());
    const Lesson* lesson = RunnableCatalog().FindLesson("gemv/vectorized-rows-per-warp");
    ASSERT_NE(lesson, nullptr);
    for (uint64_t n : ns)
        for (uint64_t m : ms)
            for (int block : blocks) {
                const RunResult r =
                    RunGemv(session, *lesson, m, n, "random", block, m * seed_step + n);
                ASSERT_TRUE(r.verified)
                    << m << "x" << n << " block " << block << ": " << r.check_message;
            }
}

const std::pair<uint64_t, uint64_t> kEdgeShapes[] = {
    {1, 1}, {1, 2},   {1, 3},    {1, 5},  {1, 4099}, {1000, 1},    {2, 3},     {5, 7},
    {7, 8}, {17, 33}, {31, 129}, {33, 4}, {3, 4099}, {1000, 1001}, {129, 130},
};

}  // namespace

TEST(GpuGemv, EveryStepAtEdgeShapesAndDataKinds) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    ASSERT_EQ(GemvLessons().size(), 4u);
    for (const Lesson* lesson : GemvLessons())
        for (const std::string& data : lesson->FindParam("data")->choices)
            for (const auto& [m, n] : kEdgeShapes)
                for (std::optional<int> block :
                     {std::optional<int>(32), std::optional<int>(256), std::optional<int>(1024)}) {
                    if (!lesson->FindParam("block")) block.reset();
                    const RunResult r = RunGemv(session, *lesson, m, n, data, block, m * 7919 + n);
                    ASSERT_TRUE(r.verified)
                        << lesson->id << " " << m << "x" << n << " " << data << " block "
                        << block.value_or(0) << ": " << r.check_message;
                    EXPECT_EQ(r.work.bytes_read, (m * n + n) * 4);
                    EXPECT_EQ(r.work.bytes_written, m * 4);
                    EXPECT_EQ(r.work.flops, 2 * m * n);
                    if (data == "ones") {
                        EXPECT_EQ(r.Value("max_error").value_or(-1), 0.0);
                    }
                }
}

TEST(GpuGemv, EveryAcceptedBlockSize) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    for (const Lesson* lesson : GemvLessons())
        for (const std::optional<int>& block : EveryBlock(*lesson))
            for (const auto& [m, n] : {std::pair<uint64_t, uint64_t>{1, 1},
                                       {1, 4099},
                                       {1000, 1},
                                       {17, 33},
                                       {1000, 1001},
                                       {3, 4099}}) {
                const RunResult r =
                    RunGemv(session, *lesson, m, n, "random", block, m + n + block.value_or(0));
                ASSERT_TRUE(r.verified) << lesson->id << " " << m << "x" << n << " block "
                                        << block.value_or(0) << ": " << r.check_message;
                if (block) {
                    EXPECT_TRUE(r.attributes.has_value()) << lesson->id;
                }
            }
}

// Lesson 30 gives a row 1 to 32 lanes by its length, and starts rows at every alignment: every
// n from 1 to 72 (each group size, head and tail) with row counts that fill part of a warp.
TEST(GpuGemv, VectorStepEveryGroupHeadAndTail) {
    REQUIRE_GPU();
    std::vector<uint64_t> every_n;
    for (uint64_t n = 1; n <= 72; ++n) every_n.push_back(n);
    ExpectVectorStepRight(every_n, {1, 3, 31, 33}, {32, 96}, 100);
}

// Rows long enough for the whole block (at least 4 float4s per thread, power-of-two blocks):
// the block's warps meet in shared memory. Lengths around the threshold, every alignment of the
// row starts, a block that is not a power of two (96: warp groups), row counts of 1 to 5.
TEST(GpuGemv, VectorStepWholeBlockPerLongRow) {
    REQUIRE_GPU();
    ExpectVectorStepRight({253, 256, 257, 1021, 1024, 1027, 4099, 16386}, {1, 3, 5},
                          {64, 96, 128, 512, 1024}, 31);
}

// Lesson 4.3's ablation toggles: every combination of `loads` and `row_lanes` against the
// reference, at the shapes where groups, heads, tails and whole-block rows show, and each runs
// the kernel its load width names with the lanes its choice gives.
TEST(GpuGemv, VectorStepEveryToggleCombination) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    const Lesson* lesson = RunnableCatalog().FindLesson("gemv/vectorized-rows-per-warp");
    ASSERT_NE(lesson, nullptr);
    const ParamSpec* loads = lesson->FindParam("loads");
    const ParamSpec* lanes = lesson->FindParam("row_lanes");
    ASSERT_TRUE(loads && lanes);
    ASSERT_EQ(loads->choices.size() * lanes->choices.size(), 6u);
    for (const std::string& load : loads->choices)
        for (const std::string& lane : lanes->choices)
            for (const auto& [m, n] : {std::pair<uint64_t, uint64_t>{1, 1},
                                       {3, 5},
                                       {33, 7},
                                       {5, 1027},
                                       {3, 4099},
                                       {2, 16386},
                                       {129, 130}})
                for (int block : {32, 96, 256, 1024}) {
                    RunOptions o = OneRun(m * 131 + n);
                    o.Set("m", std::to_string(m));
                    o.Set("n", std::to_string(n));
                    o.Set("block", std::to_string(block));
                    o.Set("loads", load);
                    o.Set("row_lanes", lane);
                    const RunResult r = session.Run(*lesson, o);
                    ASSERT_TRUE(r.verified) << load << " " << lane << " " << m << "x" << n
                                            << " block " << block << ": " << r.check_message;
                    EXPECT_EQ(r.params.Choice("loads"), load);
                    EXPECT_EQ(r.params.Choice("row_lanes"), lane);
                    ASSERT_TRUE(r.attributes.has_value());
                    EXPECT_EQ(r.attributes->kernel, load == "float4"
                                                        ? "gemv_vectorized_rows_per_warp_kernel"
                                                        : "gemv_rows_per_warp_scalar_loads_kernel");
                }
}

TEST(GpuGemv, LargerThanDeviceMemoryIsAClearUsageErrorNamingTheSize) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    for (const Lesson* lesson : GemvLessons()) {
        try {
            RunGemv(session, *lesson, 2147483647, 2147483647, "random", std::nullopt, 1);
            ADD_FAILURE() << lesson->id << " accepted a matrix larger than the GPU";
        } catch (const UsageError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("memory"), std::string::npos) << what;
            EXPECT_NE(what.find("m = 2147483647"), std::string::npos) << what;
            EXPECT_NE(what.find("n = 2147483647"), std::string::npos) << what;
        }
        EXPECT_TRUE(RunGemv(session, *lesson, 3, 5, "random", std::nullopt, 1).verified)
            << "the session goes on";
    }
}

TEST(GpuGemv, OutOfRangeDimensionsAreUsageErrors) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    const Lesson* lesson = RunnableCatalog().FindLesson("gemv/warp-per-row");
    ASSERT_NE(lesson, nullptr);
    for (const char* bad : {"0", "2147483648"}) {
        RunOptions o;
        o.Set("m", bad);
        o.reps = 1;
        try {
            session.Run(*lesson, o);
            ADD_FAILURE() << "m=" << bad << " was accepted";
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find("(m)"), std::string::npos) << e.what();
        }
    }
}
