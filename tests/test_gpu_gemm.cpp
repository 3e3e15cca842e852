// Chapter 5's GPU steps against the CPU reference: edge shapes (1 × 1 × 1, odd and prime
// sizes that leave partial tiles on every side, one large enough for the sampled check), every
// tile configuration (or block size), both data kinds. Without a usable GPU every test here
// reports SKIPPED with the reason.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "catalog.h"
#include "device.h"
#include "errors.h"
#include "gpu_lessons.h"
#include "gpu_test.h"
#include "session.h"

using namespace lessons;

namespace {

const Chapter& GemmChapter() {
    return RunnableChapter("gemm");
}

std::vector<const Lesson*> GemmLessons() {
    return GpuLessonsOf("gemm");
}

// The ceiling the step's declared work holds it to: the TF32 one for the tensor-core steps.
Bound DeclaredBound(const Lesson& lesson) {
    ParamValues p;
    for (const char* d : {"m", "n", "k"}) p.Set(d, ParamValue::Number(64));
    const std::optional<Work> work = EstimateWork(lesson, GemmChapter(), p);
    return work ? work->bound : Bound::kNone;
}

// The first GPU step that is (or is not) a library call and is held to `bound`.
const Lesson* FindStep(bool library, Bound bound) {
    for (const Lesson* l : GemmLessons())
        if (l->library == library && DeclaredBound(*l) == bound) return l;
    return nullptr;
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

// A tensor-core kernel of our own needs compute capability 8.0 (cuBLAS falls back by itself).
bool Tf32Unsupported(const Lesson& lesson) {
    const DeviceInfo& d = GetDevices().devices[0];
    return !lesson.library && DeclaredBound(lesson) == Bound::kTf32 && d.cc_major < 8;
}

struct Shape {
    uint64_t m, n, k;
};
const Shape kShapes[] = {{1, 1, 1}, {17, 33, 65}, {127, 129, 31}, {1030, 263, 531}};

}  // namespace

// The TF32 ceiling is measured only when something needs it: an fp32 step's run does not.
// (First in this file: nothing before it in the process may have measured it.)
TEST(GpuGemm, AnFp32StepDoesNotMeasureTheTf32Ceiling) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    RunOptions o;
    for (const char* d : {"m", "n", "k"}) o.Set(d, "64");
    o.reps = 1;
    const Lesson* cublas = FindStep(true, Bound::kFp32);
    ASSERT_NE(cublas, nullptr) << "no fp32 library step";
    const RunResult r = session.Run(*cublas, o);
    ASSERT_TRUE(r.verified) << r.check_message;
    EXPECT_EQ(r.work.bound, Bound::kFp32);
    EXPECT_EQ(KnownTf32Ceiling(0).gflops, 0) << "measured without a tensor-core step";
}

// The TF32 ceiling (cuBLAS's own TF32 SGEMM) is above the fp32 peak on sm_80 and later, measured
// once per process (how long it takes is printed, not judged), and cuBLAS's TF32 step at 4096^3
// reaches 50-110% of it; the WMMA step is held to the same figure. Below sm_80 there is none, with
// the reason.
TEST(GpuGemm, Tf32CeilingIsAboveFp32AndCublasTf32IsHeldToIt) {
    REQUIRE_GPU();
    const Registry& reg = RunnableCatalog();
    const Lesson* cublas_tf32 = FindStep(true, Bound::kTf32);
    const Lesson* wmma = FindStep(false, Bound::kTf32);
    ASSERT_TRUE(cublas_tf32 && wmma) << "no TF32 library step, or no TF32 kernel of our own";
    const DeviceInfo& d = GetDevices().devices[0];
    if (d.cc_major < 8) {
        const Tf32Ceiling none = GetTf32Ceiling(0);
        EXPECT_EQ(none.gflops, 0);
        EXPECT_NE(none.unavailable.find("8.0"), std::string::npos) << none.unavailable;
        GTEST_SKIP() << d.name << " has no TF32 tensor cores: " << none.unavailable;
    }
    const auto start = std::chrono::steady_clock::now();
    const Tf32Ceiling tf32 = GetTf32Ceiling(0);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_GT(tf32.gflops, 0) << tf32.unavailable;
    const double fp32 = GetCeilings(0).fp32_gflops;
    std::printf("TF32 ceiling on %s: %.0f GFLOP/s (fp32 peak %.0f), measured in %.3f s\n",
                d.name.c_str(), tf32.gflops, fp32, seconds);
    EXPECT_GT(tf32.gflops, fp32);
    EXPECT_EQ(GetTf32Ceiling(0).gflops, tf32.gflops) << "measured once per process";
    EXPECT_EQ(KnownTf32Ceiling(0).gflops, tf32.gflops);

    Session session(reg);
    RunOptions o;
    for (const char* dim : {"m", "n", "k"}) o.Set(dim, "4096");
    const RunResult r = session.Run(*cublas_tf32, o);
    ASSERT_TRUE(r.verified) << r.check_message;
    EXPECT_EQ(r.work.bound, Bound::kTf32);
    ASSERT_TRUE(r.ceiling && r.pct_of_ceiling && r.gflops);
    EXPECT_EQ(*r.ceiling, tf32.gflops);
    EXPECT_TRUE(r.ceiling_note.empty()) << r.ceiling_note;
    std::printf("%s at 4096^3: %.3f ms, %.0f GFLOP/s, %.1f%% of the TF32 ceiling\n",
                cublas_tf32->id.c_str(), r.median_ms, *r.gflops, *r.pct_of_ceiling);
    // The share is the step's rate over that ceiling. How large it is is a measurement (a GPU
    // shared with another process measured the ceiling at half its rate: 188.6%), printed above
    // and judged by the benchmark, not here.
    EXPECT_NEAR(*r.pct_of_ceiling, 100.0 * r.Rate() / *r.ceiling, 1e-6 * *r.pct_of_ceiling);
    ASSERT_TRUE(r.attainable_gflops);
    EXPECT_GT(*r.attainable_gflops, fp32) << "its roof is the TF32 one";

    RunOptions small;
    for (const char* dim : {"m", "n", "k"}) small.Set(dim, "1024");
    small.reps = 3;
    const RunResult rw = session.Run(*wmma, small);
    ASSERT_TRUE(rw.verified) << rw.check_message;
    EXPECT_EQ(rw.work.bound, Bound::kTf32);
    ASSERT_TRUE(rw.ceiling);
    EXPECT_EQ(*rw.ceiling, tf32.gflops);
}

TEST(GpuGemm, EveryStepAndConfigurationAtEdgeShapes) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    ASSERT_FALSE(GemmLessons().empty());
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
                    ExpectProductWork(r.work, s.m, s.n, s.k, 4, what);
                    // The run is held to the ceiling its declaration predicts: the TF32 peak
                    // for the tensor-core steps, fp32's for the others.
                    EXPECT_EQ(r.work.bound, DeclaredBound(*lesson)) << what;
                }
}

TEST(GpuGemm, TooLargeIsAClearUsageError) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    const Lesson* lesson = RunnableCatalog().FindLesson("gemm/warp-tiling");
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
        ASSERT_FALSE(tile->choices.empty()) << lesson->id;
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

// Lesson 5.6's ablation that keeps the A tile as A is stands for lesson 5.5's layout on 5.6's
// default tile: the compiler then reads A along k and holds several k-steps of it, so the kernel
// needs more registers, and fewer of its blocks fit on an SM (the text's "why", from the
// kernels' own attributes).
TEST(GpuGemm, WithoutTheTransposedATileTheKernelHoldsMoreRegisters) {
    REQUIRE_GPU();
    const Lesson* lesson = RunnableCatalog().FindLesson("gemm/vectorized-transposed-a");
    ASSERT_NE(lesson, nullptr);
    ParamValues as_written, untransposed;
    as_written.Set("tile", ParamValue::Choice("256t-128x128x16-8x8"));
    untransposed.Set("tile", ParamValue::Choice("256t-128x128x16-8x8-a-untransposed"));
    const KernelAttributes a = lesson->runner.attributes(as_written);
    const KernelAttributes b = lesson->runner.attributes(untransposed);
    EXPECT_GT(b.registers, a.registers);
    EXPECT_LT(b.active_blocks_per_sm, a.active_blocks_per_sm);
    std::printf("5.6 as written: %d registers, %d blocks per SM; A untransposed: %d, %d\n",
                a.registers, a.active_blocks_per_sm, b.registers, b.active_blocks_per_sm);
}
