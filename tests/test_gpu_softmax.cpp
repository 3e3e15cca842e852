// Chapter 9's GPU steps against the double reference: odd shapes (1 × 1, 3 × 33, 1000 × 1023,
// 7 × 262145, and the shapes where an instance changes), both dtypes, both data kinds (±80
// included), several block sizes. Without a usable GPU every test here reports SKIPPED with the
// reason; the cuDNN step, where cuDNN is absent, must say so (UnavailableError) and is skipped.
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

std::vector<const Lesson*> SoftmaxLessons() {
    return GpuLessonsOf("softmax");
}

RunOptions Options(uint64_t m, uint64_t n, const std::string& dtype, const std::string& data,
                   std::optional<int> block, uint64_t seed) {
    RunOptions o;
    o.Set("m", std::to_string(m));
    o.Set("n", std::to_string(n));
    o.Set("dtype", dtype);
    o.Set("data", data);
    if (block) o.Set("block", std::to_string(*block));
    o.reps = 1;
    o.seed = seed;
    o.measure_ceilings = false;
    return o;
}

// Runs the lesson; false when it is unavailable here (the cuDNN step without cuDNN).
bool RunAndCheck(Session& session, const Lesson& lesson, const RunOptions& o,
                 const std::string& what) {
    RunResult r;
    try {
        r = session.Run(lesson, o);
    } catch (const UnavailableError& e) {
        EXPECT_TRUE(lesson.library) << what << ": " << e.what();
        EXPECT_NE(std::string(e.what()).find("install"), std::string::npos) << e.what();
        return false;
    }
    EXPECT_TRUE(r.verified) << what << ": " << r.check_message;
    return true;
}

const std::pair<uint64_t, uint64_t> kShapes[] = {
    {1, 1},    {3, 33},   {1000, 1023}, {7, 262145}, {2, 1024},  {5, 1025},   {4, 2048},
    {3, 2056}, {9, 4096}, {2, 8200},    {2, 32768},  {3, 65536}, {1, 262144}, {33, 7},
};

}  // namespace

TEST(GpuSoftmax, EveryStepAtOddShapesDtypesAndData) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    ASSERT_EQ(SoftmaxLessons().size(), 8u);
    for (const Lesson* lesson : SoftmaxLessons())
        for (const std::string dtype : {"fp32", "bf16"})
            for (const std::string& data : lesson->FindParam("data")->choices)
                for (const auto& [m, n] : kShapes) {
                    std::optional<int> block;
                    if (lesson->FindParam("block")) block = 256;
                    const std::string what = lesson->id + " " + std::to_string(m) + "x" +
                                             std::to_string(n) + " " + dtype + " " + data;
                    if (!RunAndCheck(session, *lesson,
                                     Options(m, n, dtype, data, block, m * 7919 + n), what))
                        break;
                }
}

// Every block size changes which rows fit in registers (the block per row) and how many rows a
// block holds (the warp per row).
TEST(GpuSoftmax, EveryBlockSize) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    const std::pair<uint64_t, uint64_t> shapes[] = {{37, 1000}, {5, 3000}, {3, 20000}, {2, 65540}};
    for (const Lesson* lesson : SoftmaxLessons()) {
        if (!lesson->FindParam("block")) continue;
        for (const ParamValue& b : lesson->FindParam("block")->Values())
            for (const std::string dtype : {"fp32", "bf16"})
                for (const auto& [m, n] : shapes) {
                    const int block = int(b.number);
                    const std::string what = lesson->id + " block " + std::to_string(block) + " " +
                                             std::to_string(m) + "x" + std::to_string(n) + " " +
                                             dtype;
                    RunAndCheck(session, *lesson, Options(m, n, dtype, "large", block, n + block),
                                what);
                }
    }
}

// The NaN fill catches a row or an element a step does not write: a run over many rows whose
// count is no multiple of any block's rows.
TEST(GpuSoftmax, ManyRowsEveryRowWritten) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    for (const Lesson* lesson : SoftmaxLessons())
        for (const std::string dtype : {"fp32", "bf16"}) {
            std::optional<int> block;
            if (lesson->FindParam("block")) block = 1024;
            RunAndCheck(session, *lesson, Options(100003, 64, dtype, "random", block, 5),
                        lesson->id + " 100003x64 " + dtype);
        }
}

// Every variant (9.5's and 9.8's threads a row, 9.7's blocks a row: each choice, "auto" among
// them) at the odd shapes, where 9.7's auto takes 16 blocks and where a fixed choice's part
// outgrows a block's shared memory (the split), in both dtypes, at two block sizes (a fixed
// choice above the block is held to the block).
TEST(GpuSoftmax, EveryVariant) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    const std::pair<uint64_t, uint64_t> shapes[] = {
        {1, 1}, {3, 33}, {1000, 1023}, {7, 262145}, {9, 4096}, {3, 65536}, {2, 131080}};
    int variants = 0;
    for (const Lesson* lesson : SoftmaxLessons())
        for (const char* name : {"lanes", "cluster"}) {
            const ParamSpec* p = lesson->FindParam(name);
            if (!p) continue;
            for (const std::string& choice : p->choices) {
                ++variants;
                for (const int block : {256, 1024})
                    for (const std::string dtype : {"fp32", "bf16"})
                        for (const auto& [m, n] : shapes) {
                            RunOptions o = Options(m, n, dtype, "large", block, m * 31 + n);
                            o.Set(name, choice);
                            RunAndCheck(session, *lesson, o,
                                        lesson->id + " " + name + "=" + choice + " block " +
                                            std::to_string(block) + " " + std::to_string(m) + "x" +
                                            std::to_string(n) + " " + dtype);
                        }
            }
        }
    EXPECT_EQ(variants, 10 + 10 + 6);  // 9.5's and 9.8's lanes, 9.7's clusters
}

// The kernel attributes a run reports are asked at the shared memory its blocks have: 9.7's
// cluster keeps a block's part of the row there (bf16, 262144 columns, 8 blocks a row: 64 KiB
// each), so an SM holds as many blocks as that leaves room for, not as many as its registers
// allow.
TEST(GpuSoftmax, AttributesCountTheSharedMemoryOfTheRowsPart) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    const Lesson* cluster = RunnableCatalog().FindLesson("softmax/cluster");
    ASSERT_NE(cluster, nullptr);
    RunOptions o = Options(2, 262144, "bf16", "random", 256, 7);
    o.Set("cluster", "8");
    const RunResult r = session.Run(*cluster, o);
    ASSERT_TRUE(r.verified) << r.check_message;
    ASSERT_TRUE(r.attributes.has_value());
    EXPECT_EQ(r.attributes->dynamic_smem_bytes, 262144 * 2 / 8);
    // The most shared memory an SM of any CUDA GPU has (sm_90 and sm_100: 228 KiB); at block 256
    // the registers alone would allow 8 blocks of this kernel.
    const int shared_per_sm = 228 * 1024;
    EXPECT_GE(r.attributes->active_blocks_per_sm, 1);
    EXPECT_LE(r.attributes->active_blocks_per_sm, shared_per_sm / r.attributes->dynamic_smem_bytes)
        << "blocks an SM as if the part took no shared memory";
}
