// Chapter 9's reference, tolerance, check, work and memory estimates, and its CPU step (no GPU
// needed).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "catalog.h"
#include "checked.h"
#include "errors.h"
#include "lesson.h"
#include "session.h"
#include "softmax/softmax_cpu.h"
#include "softmax_chapter.h"

using namespace lessons;
using namespace lessons::softmax;

namespace {

WorkloadSpec Spec(uint64_t m, uint64_t n, const char* dtype, const char* data, uint64_t seed = 1) {
    WorkloadSpec spec;
    spec.params.Set("m", ParamValue::Number(m));
    spec.params.Set("n", ParamValue::Number(n));
    spec.params.Set("dtype", ParamValue::Choice(dtype));
    spec.params.Set("data", ParamValue::Choice(data));
    spec.seed = seed;
    return spec;
}

// The reference of every row, rounded to float (or to bf16 bits).
std::vector<float> ReferenceFloats(const SoftmaxWorkload& w, Op op) {
    std::vector<float> out(w.m() * w.n());
    std::vector<double> row(w.n());
    for (uint64_t i = 0; i < w.m(); ++i) {
        if (op == Op::kSoftmax)
            SoftmaxReferenceRow(w.x() + i * w.n(), w.n(), row.data());
        else
            RmsNormReferenceRow(w.x() + i * w.n(), w.w(), w.n(), row.data());
        for (uint64_t j = 0; j < w.n(); ++j) out[i * w.n() + j] = float(row[j]);
    }
    return out;
}

std::vector<uint16_t> ToBits(const std::vector<float>& v) {
    std::vector<uint16_t> out(v.size());
    for (size_t i = 0; i < v.size(); ++i) out[i] = FloatToBf16Bits(v[i]);
    return out;
}

}  // namespace

TEST(SoftmaxCpu, ReferenceSumsToOneAndSurvivesLargeInputs) {
    const float x[] = {80.0f, -80.0f, 79.5f, 0.0f, 80.0f};
    double y[5];
    const double max = SoftmaxReferenceRow(x, 5, y);
    EXPECT_EQ(max, 80.0);
    double sum = 0;
    for (double v : y) {
        EXPECT_TRUE(std::isfinite(v));
        sum += v;
    }
    EXPECT_NEAR(sum, 1.0, 1e-15);
    EXPECT_NEAR(y[0], y[4], 1e-17);
    EXPECT_NEAR(y[0] / y[2], std::exp(0.5), 1e-12);
    // One element: exactly 1.
    const float one[] = {-3.0f};
    SoftmaxReferenceRow(one, 1, y);
    EXPECT_EQ(y[0], 1.0);
}

TEST(SoftmaxCpu, RmsNormReference) {
    const float x[] = {3.0f, -4.0f};
    const float w[] = {1.0f, 2.0f};
    double y[2];
    RmsNormReferenceRow(x, w, 2, y);
    const double rms = std::sqrt(12.5 + kRmsEps);
    EXPECT_NEAR(y[0], 3.0 / rms, 1e-15);
    EXPECT_NEAR(y[1], -8.0 / rms, 1e-15);
}

TEST(SoftmaxCpu, Bf16Conversion) {
    EXPECT_EQ(Bf16BitsToFloat(FloatToBf16Bits(1.0f)), 1.0f);
    EXPECT_EQ(Bf16BitsToFloat(FloatToBf16Bits(-80.0f)), -80.0f);
    // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties go to even (1).
    EXPECT_EQ(Bf16BitsToFloat(FloatToBf16Bits(1.0f + 1.0f / 256)), 1.0f);
    EXPECT_EQ(Bf16BitsToFloat(FloatToBf16Bits(1.0f + 3.0f / 512)), 1.0f + 1.0f / 128);
    EXPECT_TRUE(std::isnan(Bf16BitsToFloat(FloatToBf16Bits(std::nanf("")))));
}

TEST(SoftmaxCpu, ToleranceFollowsTheDtype) {
    EXPECT_NEAR(RelativeTolerance(0, 1, false), std::ldexp(22.0, -23), 1e-20);
    EXPECT_GT(RelativeTolerance(100, 1, false), RelativeTolerance(0, 1, false));
    EXPECT_GT(RelativeTolerance(0, 1 << 20, false), RelativeTolerance(0, 1024, false));
    // bf16 adds one ulp of the result: 2^-7 relative.
    EXPECT_NEAR(RelativeTolerance(0, 1, true) - RelativeTolerance(0, 1, false), 1.0 / 128, 1e-18);
}

// A bf16 result may be either bf16 neighbour of the exact value (a faithful rounding: toward
// zero, as a library may round, or away from it), not only the nearest; three ulps off is wrong.
TEST(SoftmaxCpu, TheBf16CheckAcceptsEitherNeighbourAndRejectsThreeUlps) {
    for (Op op : {Op::kSoftmax, Op::kRmsNorm})
        for (const char* data : {"random", "large"}) {
            SoftmaxWorkload w(Spec(17, 1025, "bf16", data, 5));
            const std::vector<float> y = ReferenceFloats(w, op);
            std::vector<uint16_t> down(y.size()), up(y.size()), far(y.size());
            uint64_t above_absolute = 0;  // values far above the 2^-100 absolute tolerance
            for (size_t i = 0; i < y.size(); ++i) {
                uint32_t u;
                std::memcpy(&u, &y[i], 4);
                down[i] = uint16_t(u >> 16);  // toward zero
                const bool exact = (u & 0xffffu) == 0;
                up[i] = uint16_t(down[i] + (exact ? 0 : 1));  // away from zero
                // Past the value by more than 2 ulps, so by more than 2^-7 of it (an ulp is over
                // 2^-8 of the value): wrong wherever the relative tolerance is the one that holds.
                far[i] = uint16_t(down[i] + 3);
                if (std::fabs(y[i]) >= std::ldexp(1.0f, -90)) ++above_absolute;
            }
            const auto check = [&](const std::vector<uint16_t>& b) {
                return CheckRows(op, b.data(), true, w.x(), w.w(), w.m(), w.n(), true);
            };
            const SoftmaxCheckResult toward = check(down), away = check(up);
            EXPECT_TRUE(toward.ok) << data << " toward zero: " << toward.wrong << " wrong, first "
                                   << toward.got << " for " << toward.expected;
            EXPECT_TRUE(away.ok) << data << " away from zero: " << away.wrong << " wrong, first "
                                 << away.got << " for " << away.expected;
            EXPECT_LE(toward.worst_ratio, 1.0);
            EXPECT_LE(away.worst_ratio, 1.0);
            const SoftmaxCheckResult three = check(far);
            EXPECT_FALSE(three.ok) << data;
            EXPECT_GT(above_absolute, y.size() / 10) << data;
            EXPECT_GE(three.wrong, above_absolute) << data;
        }
}

TEST(SoftmaxCpu, TheWorkloadIsBf16ExactAndTheLargeDataIsLarge) {
    SoftmaxWorkload w(Spec(4, 1000, "bf16", "large"));
    const auto* bits = static_cast<const uint16_t*>(w.x_device_format());
    float lo = 0, hi = 0;
    for (uint64_t i = 0; i < 4000; ++i) {
        EXPECT_EQ(Bf16BitsToFloat(bits[i]), w.x()[i]);
        lo = std::min(lo, w.x()[i]);
        hi = std::max(hi, w.x()[i]);
    }
    EXPECT_LT(lo, -70.0f);
    EXPECT_GT(hi, 70.0f);
    EXPECT_GE(lo, -80.0f);
    EXPECT_LE(hi, 80.0f);
    for (uint64_t j = 0; j < 1000; ++j) {
        EXPECT_GE(w.w()[j], 0.5f);
        EXPECT_LE(w.w()[j], 1.5f);  // [0.5, 1.5) rounded to bf16
    }
    // The same seed gives the same data.
    SoftmaxWorkload again(Spec(4, 1000, "bf16", "large"));
    EXPECT_EQ(std::vector<float>(w.x(), w.x() + 4000),
              std::vector<float>(again.x(), again.x() + 4000));
}

TEST(SoftmaxCpu, TheCheckAcceptsTheRoundedReferenceAndRejectsAnError) {
    for (const char* dtype : {"fp32", "bf16"})
        for (Op op : {Op::kSoftmax, Op::kRmsNorm}) {
            SoftmaxWorkload w(Spec(37, 1023, dtype, "large", 3));
            const bool bf16 = w.bf16();
            std::vector<float> y = ReferenceFloats(w, op);
            auto check = [&](const std::vector<float>& v) {
                if (!bf16) return CheckRows(op, v.data(), false, w.x(), w.w(), w.m(), w.n(), false);
                const std::vector<uint16_t> b = ToBits(v);
                return CheckRows(op, b.data(), true, w.x(), w.w(), w.m(), w.n(), true);
            };
            const SoftmaxCheckResult good = check(y);
            EXPECT_TRUE(good.ok) << dtype;
            EXPECT_EQ(good.wrong, 0u);
            EXPECT_LE(good.worst_ratio, 1.0);
            // The largest element of row 5, off by 2 %: wrong (both dtypes).
            uint64_t at = 5 * w.n();
            for (uint64_t j = 0; j < w.n(); ++j)
                if (std::fabs(y[5 * w.n() + j]) > std::fabs(y[at])) at = 5 * w.n() + j;
            std::vector<float> bad = y;
            bad[at] *= 1.02f;
            const SoftmaxCheckResult r = check(bad);
            EXPECT_FALSE(r.ok) << dtype;
            EXPECT_EQ(r.wrong, 1u);
            EXPECT_EQ(r.first_row, 5u);
            EXPECT_EQ(r.first_col, at - 5 * w.n());
            // A NaN anywhere fails.
            std::vector<float> nan = y;
            nan[36 * w.n() + 1022] = std::nanf("");
            const SoftmaxCheckResult n = check(nan);
            EXPECT_FALSE(n.ok);
            EXPECT_EQ(n.first_row, 36u);
            EXPECT_TRUE(std::isinf(n.worst_ratio));
        }
}

TEST(SoftmaxCpu, ARowThatDoesNotSumToOneFails) {
    // A row scaled by 1.001 in fp32: its elements are off, and so is its sum.
    SoftmaxWorkload w(Spec(3, 64, "fp32", "random"));
    std::vector<float> y = ReferenceFloats(w, Op::kSoftmax);
    for (uint64_t j = 0; j < 64; ++j) y[64 + j] *= 1.001f;
    const SoftmaxCheckResult r =
        CheckRows(Op::kSoftmax, y.data(), false, w.x(), w.w(), 3, 64, false);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.bad_sum_rows, 1u);
    EXPECT_EQ(r.first_bad_sum_row, 1u);
    EXPECT_NEAR(r.worst_sum_error, 0.001, 1e-5);
}

TEST(SoftmaxCpu, WorkAndMemory) {
    const Work s = SoftmaxWork(65536, 1024, false, Op::kSoftmax);
    EXPECT_EQ(s.bytes_read, 65536ull * 1024 * 4);
    EXPECT_EQ(s.bytes_written, 65536ull * 1024 * 4);
    EXPECT_EQ(s.bound, Bound::kCopy);
    const Work r = SoftmaxWork(16384, 4096, true, Op::kRmsNorm);
    EXPECT_EQ(r.bytes_read, 16384ull * 4096 * 2 + 4096 * 2);
    EXPECT_EQ(r.bytes_written, 16384ull * 4096 * 2);
    EXPECT_EQ(SoftmaxWork(kMaxDimension, kMaxDimension, true, Op::kSoftmax).flops, kSaturated);
    EXPECT_EQ(SoftmaxWorkloadHostBytes(kMaxDimension, kMaxDimension, true), kSaturated);
}

TEST(SoftmaxCpu, TheChapterIsNinthAndEveryStepIsHeldToTheCopyBandwidth) {
    const Registry& catalog = Catalog();
    const Chapter* chapter = catalog.FindChapter("softmax");
    ASSERT_NE(chapter, nullptr);
    // Ninth, before attention: the global places of its lessons stay where tests name them.
    EXPECT_EQ(chapter->number, 9);
    ParamValues p;
    p.Set("m", ParamValue::Number(1000));
    p.Set("n", ParamValue::Number(1023));
    p.Set("dtype", ParamValue::Choice("bf16"));
    for (const Lesson* l : catalog.LessonsOf(*chapter)) {
        if (const ParamSpec* t = l->FindParam("threads")) p.Set("threads", t->Default());
        if (const ParamSpec* b = l->FindParam("block")) p.Set("block", b->Default());
        const std::optional<Work> w = EstimateWork(*l, *chapter, p);
        ASSERT_TRUE(w) << l->id;
        EXPECT_EQ(w->bytes_written, 1000u * 1023 * 2) << l->id;
        EXPECT_EQ(w->bytes_read, 1000u * 1023 * 2 + (l->id == "softmax/rmsnorm" ? 1023 * 2 : 0))
            << l->id;
    }
}

// Bytes in flight per thread (Little's law): every hand-written GPU step declares them, as its
// launch picks its instance; the library step and the CPU step do not.
TEST(SoftmaxCpu, HandWrittenStepsDeclareTheirBytesInFlight) {
    const auto at = [](InFlightShape shape, uint64_t n, const char* dtype, uint64_t block = 256) {
        ParamValues p;
        p.Set("m", ParamValue::Number(4));
        p.Set("n", ParamValue::Number(n));
        p.Set("dtype", ParamValue::Choice(dtype));
        p.Set("block", ParamValue::Number(block));
        return SoftmaxBytesInFlight(shape, p);
    };
    EXPECT_EQ(at(InFlightShape::kElement, 1024, "fp32"), 4u);
    EXPECT_EQ(at(InFlightShape::kElement, 1024, "bf16"), 2u);
    // 9.4: a warp per row of 1024 floats, 32 each; a block's 16 each cover 4096 columns only.
    EXPECT_EQ(at(InFlightShape::kRowInRegisters, 1024, "fp32"), 128u);
    EXPECT_EQ(at(InFlightShape::kRowInRegisters, 33, "fp32"), 8u);
    EXPECT_EQ(at(InFlightShape::kRowInRegisters, 4096, "fp32"), 64u);
    EXPECT_EQ(at(InFlightShape::kRowInRegisters, 65536, "fp32"), 4u);
    // 9.5 / 9.8: the fewest threads a row that leave each 8 chunks of 16 bytes (a warp at 256
    // chunks, 64 threads at 512), at most the block; one at a time past 16 a thread; a fixed
    // choice of threads a row. 9.8 past 8 chunks a thread: 9.7's cluster, a block's part of the
    // row (at most 32 KiB on the fewest blocks up to 16) over its threads.
    EXPECT_EQ(at(InFlightShape::kChunksInRegisters, 1024, "fp32"), 128u);
    EXPECT_EQ(at(InFlightShape::kChunksInRegisters, 4096, "bf16"), 128u);
    EXPECT_EQ(at(InFlightShape::kChunksInRegisters, 262144, "bf16"), 16u);
    EXPECT_EQ(at(InFlightShape::kChunksInRegisters, 65536, "fp32", 1024), 256u);  // 16 chunks
    EXPECT_EQ(at(InFlightShape::kRmsNorm, 262144, "bf16"), 128u);  // 16 blocks of 32 KiB
    EXPECT_EQ(at(InFlightShape::kRmsNorm, 1024, "bf16"), 128u);
    EXPECT_EQ(at(InFlightShape::kRmsNorm, 4096, "fp32"), 128u);
    EXPECT_EQ(at(InFlightShape::kRmsNorm, 65536, "fp32", 1024), 32u);   // 8 blocks of 32 KiB
    EXPECT_EQ(at(InFlightShape::kRmsNorm, 65536, "bf16", 1024), 128u);  // 1024 threads, 8 each
    {
        ParamValues p;
        p.Set("n", ParamValue::Number(1024));
        p.Set("dtype", ParamValue::Choice("fp32"));
        p.Set("block", ParamValue::Number(256));
        p.Set("lanes", ParamValue::Choice("64"));
        EXPECT_EQ(SoftmaxBytesInFlight(InFlightShape::kChunksInRegisters, p), 64u);
        p.Set("lanes", ParamValue::Choice("auto"));
        EXPECT_EQ(SoftmaxBytesInFlight(InFlightShape::kChunksInRegisters, p), 128u);
    }
    EXPECT_EQ(at(InFlightShape::kChunk, 262144, "bf16"), 16u);
    // 9.7: a block's part of the row (at most 32 KiB on the fewest blocks up to 16, else 16
    // blocks) over its threads; a chunk in the split of rows longer than 16 blocks' shared memory.
    EXPECT_EQ(at(InFlightShape::kCluster, 65536, "fp32"), 128u);        // 8 blocks of 32 KiB
    EXPECT_EQ(at(InFlightShape::kCluster, 1024, "fp32"), 16u);          // 1 block, a chunk a thread
    EXPECT_EQ(at(InFlightShape::kCluster, 262144, "bf16", 1024), 32u);  // 16 blocks of 32 KiB
    EXPECT_EQ(at(InFlightShape::kCluster, 262152, "bf16"), 144u);       // 16 blocks, 2049 chunks
    EXPECT_EQ(at(InFlightShape::kCluster, 1023, "fp32"), 16u);
    EXPECT_EQ(at(InFlightShape::kCluster, 4194304, "fp32", 32), 16u);  // the split
    {
        ParamValues p;
        p.Set("n", ParamValue::Number(65536));
        p.Set("dtype", ParamValue::Choice("fp32"));
        p.Set("block", ParamValue::Number(256));
        p.Set("cluster", ParamValue::Choice("2"));  // 128 KiB a block
        EXPECT_EQ(SoftmaxBytesInFlight(InFlightShape::kCluster, p), 512u);
        p.Set("cluster", ParamValue::Choice("1"));  // 256 KiB: no block holds it, the split
        EXPECT_EQ(SoftmaxBytesInFlight(InFlightShape::kCluster, p), 16u);
    }

    const Registry& catalog = Catalog();
    const Chapter* chapter = catalog.FindChapter("softmax");
    ASSERT_NE(chapter, nullptr);
    for (const Lesson* l : catalog.LessonsOf(*chapter))
        EXPECT_EQ(bool(l->in_flight), l->kind == StepKind::kGpu && !l->library) << l->id;
}

// 9.7's automatic cluster: the fewest blocks (a power of two) that leave each at most 32 KiB of
// the row, else 16 blocks while a part fits a block's shared memory (227 KiB less the kernel's
// own), else the split; a fixed choice is kept where its part fits.
TEST(SoftmaxCpu, ClusterAutoKeepsEachBlocksPartWithin32KiB) {
    const auto blocks = [](uint64_t n, bool bf16, uint64_t asked = 0) {
        const ClusterPlan c = SoftmaxClusterOf(n, bf16, asked);
        return c.part_bytes ? c.blocks : 0;  // 0: the split
    };
    EXPECT_EQ(blocks(1, false), 1u);
    EXPECT_EQ(blocks(1024, false), 1u);
    EXPECT_EQ(blocks(4096, true), 1u);
    EXPECT_EQ(blocks(8192, false), 1u);   // 32 KiB exactly
    EXPECT_EQ(blocks(8193, false), 2u);   // a chunk more
    EXPECT_EQ(blocks(65536, false), 8u);  // 256 KiB
    EXPECT_EQ(blocks(65536, true), 4u);
    EXPECT_EQ(blocks(262144, true), 16u);   // 512 KiB: 32 KiB each
    EXPECT_EQ(blocks(262144, false), 16u);  // 1 MiB: 64 KiB each, still within a block's
    EXPECT_EQ(SoftmaxClusterOf(262144, false, 0).part_bytes, 65536u);
    EXPECT_EQ(SoftmaxClusterOf(262145, false, 0).part_bytes, 65552u);  // odd rows: whole chunks
    // 16 parts of at most 227 KiB - 512 bytes: 927744 floats fit, a chunk more does not.
    EXPECT_EQ(blocks(927744, false), 16u);
    EXPECT_EQ(blocks(927748, false), 0u);
    EXPECT_EQ(blocks(4194304, false), 0u);
    // A fixed choice: kept where its part fits, else the split.
    EXPECT_EQ(blocks(65536, false, 1), 0u);  // 256 KiB
    EXPECT_EQ(blocks(65536, false, 2), 2u);  // 128 KiB
    EXPECT_EQ(blocks(1024, false, 16), 16u);
    EXPECT_EQ(SoftmaxClusterOf(1024, false, 16).part_bytes, 256u);
}

// 9.8's long rows: lesson 9.5's kernel while each of the row's threads keeps at most 8 chunks,
// else 9.7's automatic cluster.
TEST(SoftmaxCpu, RmsNormTakesTheClusterPast8ChunksAThread) {
    const auto cluster = [](uint64_t n, bool bf16, uint64_t block, uint64_t lanes = 0) {
        const ClusterPlan c = RmsNormClusterOf(n, bf16, block, lanes);
        return c.part_bytes ? c.blocks : 0;  // 0: lesson 9.5's kernel
    };
    EXPECT_EQ(cluster(1024, false, 256), 0u);
    EXPECT_EQ(cluster(4096, false, 256), 0u);  // 128 threads, 8 chunks each
    EXPECT_EQ(cluster(4096, true, 256), 0u);
    EXPECT_EQ(cluster(65536, false, 256), 8u);  // 64 chunks a thread: 8 blocks of 32 KiB
    EXPECT_EQ(RmsNormClusterOf(65536, false, 256, 0).part_bytes, 32768u);
    EXPECT_EQ(cluster(65536, false, 1024), 8u);  // 16 a thread: past 8
    EXPECT_EQ(cluster(65536, true, 1024), 0u);   // 8 a thread
    EXPECT_EQ(cluster(65536, true, 512), 4u);
    EXPECT_EQ(cluster(262144, false, 1024), 16u);  // 64 KiB each
    EXPECT_EQ(cluster(262144, true, 256), 16u);
    EXPECT_EQ(cluster(8192, false, 32), 1u);       // 16 chunks a thread: one block of 32 KiB
    EXPECT_EQ(cluster(4096, false, 256, 32), 1u);  // 32 threads asked: 32 chunks each
    EXPECT_EQ(cluster(4194304, false, 256), 0u);   // no part fits: the first kernel, re-read
}

TEST(SoftmaxCpu, TheCpuStepVerifiesAndTooLargeIsRefused) {
    Session session(Catalog());
    const Lesson* cpu = Catalog().FindLesson("softmax/cpu-three-pass");
    ASSERT_NE(cpu, nullptr);
    for (const char* dtype : {"fp32", "bf16"})
        for (const char* data : {"random", "large"}) {
            RunOptions o;
            o.Set("m", "300");
            o.Set("n", "1001");
            o.Set("dtype", dtype);
            o.Set("data", data);
            o.Set("threads", "2");
            o.reps = 1;
            const RunResult r = session.Run(*cpu, o);
            EXPECT_TRUE(r.verified) << dtype << " " << data << ": " << r.check_message;
            EXPECT_EQ(r.Value("wrong_values").value_or(-1), 0.0);
            // bf16 rounds each result to 8 significant bits: a row's sum drifts by up to 2^-8.
            EXPECT_LE(r.Value("max_row_sum_error").value_or(1),
                      std::string(dtype) == "fp32" ? 1e-5 : 1.0 / 256);
        }
    RunOptions huge;
    huge.Set("m", "1000000000");
    huge.Set("n", "1000000000");
    huge.reps = 1;
    EXPECT_THROW(session.Run(*cpu, huge), UsageError);
}
