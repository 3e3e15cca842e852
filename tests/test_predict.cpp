// Predict, then measure: the lower bound a step's work gives on a device's ceilings, Little's
// law, and the work every lesson declares without running (EstimateWork) against the work the
// step reports when it runs.
#include <gtest/gtest.h>

#include <cmath>

#include "catalog.h"
#include "predict.h"
#include "session.h"

using namespace lessons;

namespace {

PredictCeilings H100Like() {
    PredictCeilings c;
    c.read_gbps = 3150;
    c.copy_gbps = 3000;
    c.fp32_gflops = 60000;
    c.h2d_gbps = 55;
    c.d2h_gbps = 50;
    return c;
}

ParamValues Params(const Lesson& lesson, uint64_t size, const std::string& data) {
    RawParams raw;
    if (lesson.FindParam("size")) raw.push_back({"size", std::to_string(size)});
    if (lesson.FindParam("data")) raw.push_back({"data", data});
    return ResolveParams(lesson, raw);
}

}  // namespace

TEST(Predict, AReadMostlyKernelIsItsBytesAtTheReadCeiling) {
    Work w;
    w.bytes_read = uint64_t(1) << 30;
    w.flops = uint64_t(1) << 28;
    w.bound = Bound::kRead;
    const Prediction p = Predict(w, H100Like());
    EXPECT_TRUE(p.complete);
    EXPECT_EQ(p.device_bound, Bound::kRead);
    EXPECT_DOUBLE_EQ(p.device_ceiling, 3150);
    // 1073741824 bytes / 3150e9 B/s = 0.34087 ms
    EXPECT_NEAR(p.device_ms, 1073741824.0 / 3150e9 * 1e3, 1e-12);
    EXPECT_NEAR(p.device_ms, 0.34087, 1e-5);
    EXPECT_DOUBLE_EQ(p.total_ms, p.device_ms);
    EXPECT_DOUBLE_EQ(p.rate_ms, p.device_ms);
    EXPECT_DOUBLE_EQ(p.h2d_ms, 0);
    // Flops are not the limit of a read-bound step.
    EXPECT_DOUBLE_EQ(p.flops_ms, 0);
}

TEST(Predict, ACopyLikeKernelUsesTheCopyCeilingOnReadsPlusWrites) {
    Work w;
    w.bytes_read = 1000000000;
    w.bytes_written = 1000000000;
    w.bound = Bound::kCopy;
    const Prediction p = Predict(w, H100Like());
    EXPECT_EQ(p.device_bound, Bound::kCopy);
    EXPECT_NEAR(p.device_ms, 2e9 / 3000e9 * 1e3, 1e-12);  // 0.6667 ms
}

TEST(Predict, ArithmeticIsTheLargerOfItsFlopsAndItsBytes) {
    Work w;
    w.bytes_read = 3000000000;  // 0.952 ms at 3150 GB/s
    w.flops = 120000000000;     // 2 ms at 60 TFLOP/s
    w.bound = Bound::kFp32;
    Prediction p = Predict(w, H100Like());
    EXPECT_EQ(p.device_bound, Bound::kFp32);
    EXPECT_NEAR(p.flops_ms, 2.0, 1e-12);
    EXPECT_NEAR(p.device_ms, 2.0, 1e-12);
    w.flops = 30000000000;  // 0.5 ms: the bytes are now the limit
    p = Predict(w, H100Like());
    EXPECT_EQ(p.device_bound, Bound::kRead);
    EXPECT_NEAR(p.device_ms, 3e9 / 3150e9 * 1e3, 1e-12);
}

// A tensor-core step's flops go at the TF32 peak; without one it is incomplete, never timed at
// the fp32 peak.
TEST(Predict, TensorCoreStepsUseTheTf32CeilingOrNone) {
    Work w;
    w.bytes_read = 200000000;  // 0.063 ms at 3150 GB/s
    w.flops = 137438953472;    // 4096^3 x 2: 0.344 ms at 400 TFLOP/s
    w.bound = Bound::kTf32;
    PredictCeilings c = H100Like();
    c.tf32_gflops = 400000;
    Prediction p = Predict(w, c);
    EXPECT_TRUE(p.complete);
    EXPECT_EQ(p.device_bound, Bound::kTf32);
    EXPECT_DOUBLE_EQ(p.device_ceiling, 400000);
    EXPECT_NEAR(p.flops_ms, 137438953472 / 400000e6, 1e-12);
    c.tf32_gflops = 0;
    p = Predict(w, c);
    EXPECT_FALSE(p.complete);
    EXPECT_NE(p.device_bound, Bound::kFp32);
    EXPECT_EQ(p.flops_ms, 0);
}

TEST(Predict, CopiesInTurnAddUpAndOverlappedCopiesTakeTheLonger) {
    Work w;
    w.bytes_read = uint64_t(1) << 30;
    w.h2d_bytes = uint64_t(1) << 30;  // 19.52 ms at 55 GB/s
    w.d2h_bytes = 8 * 16384 + 8;
    w.bound = Bound::kRead;
    Prediction p = Predict(w, H100Like());
    EXPECT_NEAR(p.h2d_ms, 1073741824.0 / 55e9 * 1e3, 1e-12);
    EXPECT_NEAR(p.d2h_ms, (8 * 16384 + 8) / 50e9 * 1e3, 1e-15);
    EXPECT_FALSE(p.overlapped);
    EXPECT_NEAR(p.total_ms, p.h2d_ms + p.device_ms + p.d2h_ms, 1e-12);
    EXPECT_DOUBLE_EQ(p.rate_ms, p.device_ms);  // the rate is the kernel's
    w.bound = Bound::kH2D;                     // lesson 11: the copy hides the scan
    p = Predict(w, H100Like());
    EXPECT_TRUE(p.overlapped);
    EXPECT_NEAR(p.total_ms, p.h2d_ms + p.d2h_ms, 1e-12);
    EXPECT_DOUBLE_EQ(p.rate_ms, p.total_ms);
}

TEST(Predict, AnUnknownCeilingMakesThePredictionIncompleteNotInfinite) {
    Work w;
    w.bytes_read = 1 << 20;
    w.h2d_bytes = 1 << 20;
    w.bound = Bound::kRead;
    PredictCeilings c = H100Like();
    c.h2d_gbps = 0;
    const Prediction p = Predict(w, c);
    EXPECT_FALSE(p.complete);
    EXPECT_DOUBLE_EQ(p.h2d_ms, 0);
    EXPECT_TRUE(std::isfinite(p.total_ms));
    // A CPU step has no ceiling to predict from.
    Work cpu;
    cpu.bytes_read = 1 << 20;
    EXPECT_FALSE(Predict(cpu, H100Like()).complete);
    EXPECT_DOUBLE_EQ(Predict(cpu, H100Like()).total_ms, 0);
}

TEST(Predict, LittlesLawAndTheLatencyAMeasurementImplies) {
    // An H100: 132 SMs x 2048 resident threads; 2 bytes per thread (lesson 4); 600 cycles at
    // 1980 MHz = 303 ns.
    const double threads = 132.0 * 2048;
    EXPECT_NEAR(AssumedLatencyNs(1980000), 600 / 1.98, 1e-9);
    EXPECT_NEAR(LittleGbps(2, threads, 303.03), 2 * threads / 303.03, 1e-9);
    EXPECT_NEAR(LittleGbps(2, threads, 600 / 1.98), 1784.2, 0.1);
    // The 807 GB/s recorded for lesson 4 implies 670 ns per load.
    EXPECT_NEAR(ImpliedLatencyNs(2, threads, 807), 669.98, 0.01);
    EXPECT_DOUBLE_EQ(LittleGbps(2, threads, 0), 0);
    EXPECT_DOUBLE_EQ(ImpliedLatencyNs(2, threads, 0), 0);
    EXPECT_DOUBLE_EQ(AssumedLatencyNs(0), 0);
    EXPECT_NEAR(TimesBound(0.3686, 0.3409), 1.0813, 1e-4);
    EXPECT_DOUBLE_EQ(TimesBound(1, 0), 0);
}

TEST(Predict, EveryLessonDeclaresItsWorkAndGpuKernelsTheirBytesInFlight) {
    const Registry& reg = Catalog();
    for (const Lesson& l : reg.lessons()) {
        const ParamValues p = Params(l, uint64_t(1) << 20, "random");
        const std::optional<Work> w = EstimateWork(l, reg.ChapterOf(l), p);
        // Chapters 1 and 3 declare their work; a chapter that does not gets a page that says so.
        if (l.chapter == "split" || l.chapter == "reduce") {
            ASSERT_TRUE(w) << l.id;
        }
        if (!w) continue;
        EXPECT_GT(w->bytes_read, 0u) << l.id;
        if (l.kind == StepKind::kGpu) {
            EXPECT_NE(w->bound, Bound::kNone) << l.id;
        }
        if (l.kind == StepKind::kGpu && !l.library && l.in_flight) {
            EXPECT_GT(l.in_flight(p), 0u) << l.id;
        }
    }
    // Lesson 11 overlaps its copy: it is held to the host-to-device copy; lesson 10 is not.
    const Lesson* l11 = reg.FindLesson("split/overlapped-chunks");
    const Lesson* l10 = reg.FindLesson("split/vector-loads-block-compaction");
    ASSERT_TRUE(l11 && l10);
    EXPECT_EQ(EstimateWork(*l11, reg.ChapterOf(*l11), Params(*l11, 1 << 20, "random"))->bound,
              Bound::kH2D);
    EXPECT_EQ(EstimateWork(*l10, reg.ChapterOf(*l10), Params(*l10, 1 << 20, "random"))->bound,
              Bound::kRead);
    // Lesson 25's load toggle changes its bytes in flight: 2 x 16 B, or 2 x 4 B.
    const Lesson* l25 = reg.FindLesson("reduce/v5-vectorized-one-pass");
    ASSERT_TRUE(l25 && l25->in_flight);
    RawParams scalar = {{"loads", "scalar"}};
    EXPECT_EQ(l25->in_flight(ResolveParams(*l25, {})), 32u);
    EXPECT_EQ(l25->in_flight(ResolveParams(*l25, scalar)), 8u);
}

// What the page predicts from is what the step reports when it runs: exactly for the
// reduction and for text without line breaks, and within a few per cent of the line breaks
// for random and dense text (the estimate uses their expected count).
TEST(Predict, TheEstimatedWorkIsTheWorkAStepReports) {
    Session session(Catalog());
    const Registry& reg = Catalog();
    for (const Lesson& l : reg.lessons()) {
        if (l.kind != StepKind::kCpu || !l.FindParam("data") || !l.FindParam("size")) continue;
        if (!EstimateWork(l, reg.ChapterOf(l), ResolveParams(l, {}))) continue;
        for (const std::string& data : l.FindParam("data")->choices) {
            const uint64_t size = uint64_t(4) << 20;
            RunOptions o;
            o.Set("size", std::to_string(size));
            o.Set("data", data);
            if (l.FindParam("threads")) o.Set("threads", "2");
            o.reps = 1;
            const RunResult r = session.Run(l, o);
            ASSERT_TRUE(r.verified) << l.id;
            const Work w = *EstimateWork(l, reg.ChapterOf(l), r.params);
            EXPECT_EQ(w.bytes_read, r.work.bytes_read) << l.id << " " << data;
            EXPECT_EQ(w.flops, r.work.flops) << l.id << " " << data;
            EXPECT_EQ(w.bound, r.work.bound) << l.id << " " << data;
            if (data == "none" || l.chapter == "reduce")
                EXPECT_EQ(w.bytes_written, r.work.bytes_written) << l.id << " " << data;
            else
                EXPECT_NEAR(double(w.bytes_written), double(r.work.bytes_written),
                            0.05 * double(r.work.bytes_written) + 8 * 8)
                    << l.id << " " << data;
        }
    }
}
