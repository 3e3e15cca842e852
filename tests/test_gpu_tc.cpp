// Chapter 8's GPU steps against the CPU reference: every step at every tile configuration at
// odd shapes (1 × 1 × 1, and shapes that leave partial tiles on every side and k not a
// multiple of 8, so the harness's zero padding is read), the bf16 tensor-core ceiling, and the
// Hopper steps' refusal below compute capability 9.0. Without a usable GPU every test here
// reports SKIPPED with the reason.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "catalog.h"
#include "cli_path.h"
#include "device.h"
#include "errors.h"
#include "gpu_lessons.h"
#include "gpu_test.h"
#include "session.h"
#include "tc/tc_tiles.h"

using namespace lessons;

namespace {

std::vector<const Lesson*> TcLessons() {
    return GpuLessonsOf("tensor-cores");
}

// Every tile of the lesson, or nothing to set (cuBLAS).
std::vector<std::string> Tiles(const Lesson& lesson) {
    if (const ParamSpec* tile = lesson.FindParam("tile")) return tile->choices;
    return {""};
}

// The Hopper steps: their kernels are compiled for sm_90a alone (wgmma, TMA). Known from the
// source file, as the build knows them.
bool NeedsHopper(const Lesson& lesson) {
    for (const char* f : {"kernels/tc/wgmma.cu", "kernels/tc/tma.cu",
                          "kernels/tc/warp-specialization.cu", "kernels/tc/persistent.cu"})
        if (lesson.source_path == f) return true;
    return false;
}

int ComputeCapability() {
    const DeviceInfo& d = GetDevices().devices[0];
    return d.cc_major * 10 + d.cc_minor;
}

struct Shape {
    uint64_t m, n, k;
};
const Shape kShapes[] = {{1, 1, 1}, {17, 33, 65}, {127, 4099, 255}, {2049, 2047, 33}};

RunOptions Options(const Shape& s, const std::string& tile) {
    RunOptions o;
    o.Set("m", std::to_string(s.m));
    o.Set("n", std::to_string(s.n));
    o.Set("k", std::to_string(s.k));
    if (!tile.empty()) o.Set("tile", tile);
    o.reps = 1;
    o.seed = s.m * 131 + s.k;
    o.measure_ceilings = false;
    return o;
}

}  // namespace

TEST(GpuTc, EveryStepAndConfigurationAtOddShapes) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    ASSERT_FALSE(TcLessons().empty());
    int runs = 0;
    for (const Lesson* lesson : TcLessons())
        for (const std::string& tile : Tiles(*lesson))
            for (const Shape& s : kShapes) {
                const std::string what = lesson->id + " tile=" + tile + " " + std::to_string(s.m) +
                                         "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
                const RunOptions o = Options(s, tile);
                if ((NeedsHopper(*lesson) && ComputeCapability() < 90) ||
                    ComputeCapability() < 80) {
                    EXPECT_THROW(session.Run(*lesson, o), UnavailableError) << what;
                    continue;
                }
                const RunResult r = session.Run(*lesson, o);
                ASSERT_TRUE(r.verified) << what << ": " << r.check_message;
                ExpectProductWork(r.work, s.m, s.n, s.k, 2, what);
                EXPECT_EQ(r.work.bound, Bound::kBf16) << what;
                ++runs;
            }
    std::printf("%d verified runs\n", runs);
}

// Below compute capability 9.0 the Hopper steps say what they need (the GUI then shows their
// recorded results); on Hopper they run.
TEST(GpuTc, HopperStepsNameWhatTheyNeed) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    int hopper = 0;
    for (const Lesson* lesson : TcLessons()) {
        if (!NeedsHopper(*lesson)) continue;
        ++hopper;
        if (ComputeCapability() >= 90) continue;
        try {
            session.Run(*lesson, Options({64, 64, 64}, ""));
            ADD_FAILURE() << lesson->id << " ran below compute capability 9.0";
        } catch (const UnavailableError& e) {
            EXPECT_NE(std::string(e.what()).find("needs Hopper (compute capability 9.0)"),
                      std::string::npos)
                << e.what();
        }
    }
    if (ComputeCapability() >= 90)
        GTEST_SKIP() << GetDevices().devices[0].name << " is a Hopper GPU: its " << hopper
                     << " Hopper steps run (EveryStepAndConfigurationAtOddShapes)";
}

// The bf16 ceiling (cuBLAS's bf16 GEMM, median of nine runs) is above the TF32 one, measured
// once per process, and cuBLAS's bf16 step at 4096^3 is held to it, within 80-120% of it.
TEST(GpuTc, Bf16CeilingHoldsTheCublasStep) {
    REQUIRE_GPU();
    if (ComputeCapability() < 80) {
        const TensorCeiling none = GetTensorCeiling(Bound::kBf16, 0);
        EXPECT_EQ(none.gflops, 0);
        GTEST_SKIP() << "no bf16 tensor cores: " << none.unavailable;
    }
    EXPECT_EQ(KnownTensorCeiling(Bound::kBf16, 0).gflops, 0) << "measured before it was asked";
    const TensorCeiling bf16 = GetTensorCeiling(Bound::kBf16, 0);
    ASSERT_GT(bf16.gflops, 0) << bf16.unavailable;
    const TensorCeiling tf32 = GetTf32Ceiling(0);
    std::printf("bf16 ceiling %.0f GFLOP/s, TF32 %.0f\n", bf16.gflops, tf32.gflops);
    if (tf32.gflops > 0) EXPECT_GT(bf16.gflops, tf32.gflops);
    EXPECT_EQ(GetTensorCeiling(Bound::kBf16, 0).gflops, bf16.gflops) << "measured once";

    const Lesson* cublas = RunnableCatalog().FindLesson("tensor-cores/cublas-bf16");
    ASSERT_NE(cublas, nullptr);
    Session session(RunnableCatalog());
    RunOptions o;
    for (const char* d : {"m", "n", "k"}) o.Set(d, "4096");
    const RunResult r = session.Run(*cublas, o);
    ASSERT_TRUE(r.verified) << r.check_message;
    ASSERT_TRUE(r.ceiling && r.pct_of_ceiling);
    EXPECT_EQ(*r.ceiling, bf16.gflops);
    EXPECT_TRUE(r.ceiling_note.empty()) << r.ceiling_note;
    std::printf("cuBLAS bf16 at 4096^3: %.3f ms, %.1f%% of the ceiling\n", r.median_ms,
                *r.pct_of_ceiling);
    // Its share of the ceiling is its rate over it; how large the share is is a measurement,
    // printed above and judged by the benchmark (a GPU shared with another process measures
    // the ceiling low).
    EXPECT_NEAR(*r.pct_of_ceiling, 100.0 * r.Rate() / *r.ceiling, 1e-6 * *r.pct_of_ceiling);
}

TEST(GpuTc, EveryTileReportsItsKernelsResources) {
    REQUIRE_GPU();
    for (const Lesson* lesson : TcLessons()) {
        const ParamSpec* tile = lesson->FindParam("tile");
        if (!tile) continue;
        if ((NeedsHopper(*lesson) && ComputeCapability() < 90) || ComputeCapability() < 80)
            continue;
        for (const std::string& c : tile->choices) {
            ParamValues p;
            for (const ParamSpec& spec : lesson->params) p.Set(spec.name, spec.Default());
            p.Set("tile", ParamValue::Choice(c));
            const KernelAttributes a = lesson->runner.attributes(p);
            EXPECT_GT(a.registers, 0) << lesson->id << " " << c;
            EXPECT_GT(a.active_blocks_per_sm, 0) << lesson->id << " " << c;
        }
    }
}

// cuBLAS is loaded on its first call (engine/cublas_loader.h). Where it cannot be loaded (here:
// CUDA_LESSONS_CUBLAS names a file that does not exist), every cuBLAS step of chapters 4, 5, 8
// and 10 fails with a message naming what to install, exit 1 and no abort, and a step of our
// own still runs.
TEST(GpuTc, WithoutCublasTheLibraryStepsSaySoAndTheOthersRun) {
    REQUIRE_GPU();
    const std::string env = "CUDA_LESSONS_CUBLAS=/nonexistent/libcublas.so.13 ";
    auto run = [&](const std::string& args, std::string* text) {
        FILE* pipe = popen((env + CliPath() + " run " + args + " 2>&1").c_str(), "r");
        if (!pipe) return -1;
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) text->append(buf, n);
        const int status = pclose(pipe);
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    };
    for (const char* lesson : {"gemv/cublas --set m=512 --set n=512",
                               "gemm/cublas-sgemm --set m=256 --set n=256 --set k=256",
                               "gemm/cublas-tf32 --set m=256 --set n=256 --set k=256",
                               "tensor-cores/cublas-bf16 --set m=256 --set n=256 --set k=256",
                               "attention/unfused --set b=1 --set h=1 --set n=64"}) {
        std::string text;
        const int code = run(std::string(lesson) + " --reps 1 --no-ceilings", &text);
        EXPECT_EQ(code, 1) << lesson << ": " << text;
        EXPECT_NE(text.find("cuBLAS could not be loaded (tried /nonexistent/libcublas.so.13"),
                  std::string::npos)
            << lesson << ": " << text;
        EXPECT_NE(text.find("install cuBLAS"), std::string::npos) << lesson << ": " << text;
    }
    std::string text;
    EXPECT_EQ(run("gemv/warp-per-row --set m=512 --set n=512 --reps 1 --no-ceilings", &text), 0)
        << text;
}
