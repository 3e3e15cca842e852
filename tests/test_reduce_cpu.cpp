// Chapter 3's reference, CPU step and tolerance.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "checked.h"
#include "generators.h"
#include "lesson.h"
#include "reduce/reduce_cpu.h"
#include "reduce_chapter.h"

using namespace lessons;
using namespace lessons::reduce;

TEST(ReduceReference, SmallKnownSums) {
    const float x[] = {1.5f, -2.0f, 4.0f, 0.25f};
    const ReferenceSum r = SumReference(x, 4);
    EXPECT_EQ(r.sum, 3.75);
    EXPECT_EQ(r.magnitude, 7.75);
    EXPECT_EQ(SumReference(x, 0).sum, 0.0);
}

TEST(ReduceReference, IndependentOfThreadCountAndChunking) {
    const uint64_t n = (3u << 20) + 17;
    std::vector<float> x(n);
    FillUniformFloats(5, x.data(), n);
    double serial = 0;
    for (float v : x) serial += v;
    const ReferenceSum r = SumReference(x.data(), n);
    EXPECT_NEAR(r.sum, serial, 1e-9 * r.magnitude);
}

TEST(ReduceCpuStep, EdgeCountsAndThreadCounts) {
    for (uint64_t n :
         {0ull, 1ull, 2ull, 31ull, 32ull, 33ull, 1023ull, 1025ull, 65521ull, (1ull << 20) + 7}) {
        std::vector<float> x(n + 1);
        FillUniformFloats(n, x.data(), n);
        const ReferenceSum r = SumReference(x.data(), n);
        for (int threads : {1, 2, 5}) {
            EXPECT_NEAR(SumOpenMP(x.data(), n, threads), r.sum, 1e-9 * (r.magnitude + 1))
                << "n=" << n << " threads=" << threads;
        }
        std::fill(x.begin(), x.end(), 1.0f);
        EXPECT_EQ(SumOpenMP(x.data(), n, 3), double(n));
    }
}

TEST(ReduceGenerator, RandomFloatsAreSpreadAndOnesAreOnes) {
    const uint64_t n = 1 << 20;
    std::vector<float> x(n);
    FillUniformFloats(9, x.data(), n);
    float lo = 1, hi = -1;
    for (float v : x) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        ASSERT_TRUE(v >= -1.0f && v < 1.0f);
    }
    EXPECT_LT(lo, -0.99f);
    EXPECT_GT(hi, 0.99f);
    const ReferenceSum r = SumReference(x.data(), n);
    EXPECT_NEAR(r.magnitude / n, 0.5, 0.01) << "mean |x| of uniform [-1, 1)";
    std::fill(x.begin(), x.end(), 1.0f);
    EXPECT_EQ(SumReference(x.data(), n).sum, double(n));
}

TEST(ReduceTolerance, ExactForOnesUpTo2To24AndScaledOtherwise) {
    WorkloadSpec spec;
    spec.params.Set("size", ParamValue::Number(4 * 1000));
    spec.params.Set("data", ParamValue::Choice("ones"));
    EXPECT_EQ(ReduceWorkload(spec).Tolerance(), 0.0);
    spec.params.Set("data", ParamValue::Choice("random"));
    const ReduceWorkload random(spec);
    // 2^-23 x sum|x| x (log2(n + 1) + 16)
    const double expected =
        std::ldexp(random.reference().magnitude, -23) * (std::log2(1001.0) + 16);
    EXPECT_DOUBLE_EQ(random.Tolerance(), expected);
}

TEST(ReduceEstimates, MemoryNeedsSaturateInsteadOfWrapping) {
    auto size = [](uint64_t n) {
        ParamValues p;
        p.Set("size", ParamValue::Number(n));
        return p;
    };
    const uint64_t n = ~uint64_t(0) - 100;
    EXPECT_EQ(reduce::ReduceGpuNeeds(size(n)).device_bytes, kSaturated);
    EXPECT_EQ(reduce::ReduceInPlaceGpuNeeds(size(uint64_t(1) << 63)).device_bytes, kSaturated);
    EXPECT_EQ(reduce::ReduceGpuNeeds(size(0)).device_bytes,
              2 * sizeof(float) + (uint64_t(1) << 20));
}
