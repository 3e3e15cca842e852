// Chapter 5's GPU steps against the CPU reference: edge shapes (1 × 1 × 1, odd and prime
// sizes that leave partial tiles on every side, one large enough for the sampled check), every
// tile configuration (or block size), both data kinds. Without a usable GPU every test here
// reports SKIPPED with the reason.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "catalog.h"
#include "device.h"
#include "errors.h"
#include "runner.h"

using namespace lessons;

namespace {

#define REQUIRE_GPU()                                                         \
    do {                                                                      \
        if (!GetDeviceInfo().available())                                     \
            GTEST_SKIP() << "no GPU: " << GetDeviceInfo().unavailable_reason; \
    } while (0)

std::vector<const Lesson*> GemmLessons() {
    std::vector<const Lesson*> out;
    for (const Lesson& l : RunnableCatalog().lessons())
        if (l.chapter == "gemm" && l.kind == StepKind::kGpu) out.push_back(&l);
    return out;
}

// The values of the lesson's configuration control: every tile, or three block sizes, or
// nothing (cuBLAS).
std::vector<std::pair<std::string, std::string>> Configurations(const Lesson& lesson) {
    std::vector<std::pair<std::string, std::string>> out;
    if (const ParamSpec* tile = lesson.FindParam("tile"))
        for (const std::string& c : tile->choices) out.push_back({"tile", c});
    else if (lesson.FindParam("block"))
        for (const char* b : {"32", "256", "1024"}) out.push_back({"block", b});
    else
        out.push_back({"", ""});
    return out;
}

bool Tf32Unsupported(const Lesson& lesson) {
    const DeviceInfo& d = GetDevices().devices[0];
    return lesson.number == 41 && d.cc_major < 8;
}

struct Shape {
    uint64_t m, n, k;
};
const Shape kShapes[] = {{1, 1, 1}, {17, 33, 65}, {127, 129, 31}, {1030, 263, 531}};

}  // namespace

TEST(GpuGemm, EveryStepAndConfigurationAtEdgeShapes) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    ASSERT_EQ(GemmLessons().size(), 11u);
    for (const Lesson* lesson : GemmLessons())
        for (const auto& [name, value] : Configurations(*lesson))
            for (const Shape& s : kShapes)
                for (const char* data : {"random", "ones"}) {
                    if (std::string(data) == "ones" && s.m != 17) continue;
                    RunOptions o;
                    o.Set("m", std::to_string(s.m));
                    o.Set("n", std::to_string(s.n));
                    o.Set("k", std::to_string(s.k));
                    o.Set("data", data);
                    if (!name.empty()) o.Set(name, value);
                    o.reps = 1;
                    o.seed = s.m * 131 + s.k;
                    o.measure_ceilings = false;
                    const std::string what = lesson->id + " " + name + "=" + value + " " +
                                             std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                                             std::to_string(s.k) + " " + data;
                    if (Tf32Unsupported(*lesson)) {
                        EXPECT_ANY_THROW(session.Run(*lesson, o)) << what;
                        continue;
                    }
                    const RunResult r = session.Run(*lesson, o);
                    ASSERT_TRUE(r.verified) << what << ": " << r.check_message;
                    EXPECT_EQ(r.work.flops, 2 * s.m * s.n * s.k) << what;
                    EXPECT_EQ(r.work.bytes_read, (s.m * s.k + s.k * s.n) * 4) << what;
                    EXPECT_EQ(r.work.bytes_written, s.m * s.n * 4) << what;
                    EXPECT_EQ(r.work.bound, Bound::kFp32);
                }
}

TEST(GpuGemm, TooLargeIsAClearUsageError) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    const Lesson* lesson = RunnableCatalog().FindLesson("gemm/38-warp-tiling");
    ASSERT_NE(lesson, nullptr);
    RunOptions o;
    o.Set("m", "32768");
    o.Set("n", "32768");
    o.Set("k", "32768");
    o.reps = 1;
    o.measure_ceilings = false;
    if (GetDevices().devices[0].total_memory < (uint64_t(12) << 30)) {
        try {
            session.Run(*lesson, o);
            ADD_FAILURE() << "accepted 3 x 4 GiB on a GPU with less memory";
        } catch (const UsageError& e) {
            EXPECT_NE(std::string(e.what()).find("memory"), std::string::npos) << e.what();
        }
    }
    o.Set("m", "32769");
    EXPECT_THROW(session.Run(*lesson, o), UsageError);
}

TEST(GpuGemm, EveryTileReportsItsKernelsResources) {
    REQUIRE_GPU();
    for (const Lesson* lesson : GemmLessons()) {
        const ParamSpec* tile = lesson->FindParam("tile");
        if (!tile || Tf32Unsupported(*lesson)) continue;
        ASSERT_GE(tile->choices.size(), 4u) << lesson->id;
        for (const std::string& c : tile->choices) {
            ParamValues p;
            p.Set("tile", ParamValue::Choice(c));
            const KernelAttributes a = lesson->runner.attributes(p);
            EXPECT_GT(a.registers, 0) << lesson->id << " " << c;
            EXPECT_GT(a.active_blocks_per_sm, 0) << lesson->id << " " << c << ": cannot run";
            EXPECT_NE(a.kernel.find("gemm_"), std::string::npos) << a.kernel;
        }
    }
}
