// Chapter 2 on the GPU: every lesson and every kernel of its family against the CPU reference
// at edge sizes, each choice its own kernel, and the measurements the transfer step reports.
// Without a usable GPU every test reports SKIPPED with the reason.
#include <gtest/gtest.h>

#include <cstdio>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "basics/basics_choices.h"
#include "catalog.h"
#include "device.h"
#include "gpu_test.h"
#include "session.h"

using namespace lessons;
using namespace lessons::basics;

namespace {

// The chapter's lessons by id.
const char* const kGlobalVsShared = "basics/global-vs-shared";
const char* const kBranchDivergence = "basics/branch-divergence";
const char* const kCoalescing = "basics/coalescing";
const char* const kPinnedTransfers = "basics/pinned-transfers";

const Lesson& L(const std::string& id) {
    const Lesson* l = RunnableCatalog().FindLesson(id);
    if (!l) throw std::logic_error("no lesson " + id);
    return *l;
}

// Element counts: empty, single, around a warp, a block, a tile of 32 x 32, and primes.
const uint64_t kCounts[] = {
    0, 1, 2, 3, 31, 32, 33, 255, 257, 1023, 1025, 4099, 65521, 65537, (1u << 20) + 7};

RunResult RunOnce(Session& session, const std::string& lesson, uint64_t count,
                  const RawParams& params, const std::string& data = "random") {
    RunOptions o;
    o.Set("size", std::to_string(count * sizeof(float)));
    o.Set("data", data);
    for (const auto& [name, value] : params) o.Set(name, value);
    o.seed = count + 3;
    o.reps = 1;
    o.measure_ceilings = false;
    return session.Run(L(lesson), o);
}

std::string Describe(uint64_t count, const RawParams& params) {
    std::string out = "count=" + std::to_string(count);
    for (const auto& [name, value] : params) out += " " + name + "=" + value;
    return out;
}

}  // namespace

TEST(GpuBasics, GlobalVsSharedEveryVariantRowCountBlockAndEdgeSize) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    for (const char* variant : kVecMatNames)
        for (const char* rows : {"1", "3", "256", "1000", "8192"})
            for (const char* block : {"32", "96", "256", "1024"})
                for (uint64_t count : kCounts) {
                    const RawParams p{{"variant", variant}, {"rows", rows}, {"block", block}};
                    const RunResult r = RunOnce(session, kGlobalVsShared, count, p);
                    ASSERT_TRUE(r.verified) << Describe(count, p) << ": " << r.check_message;
                }
    // All ones: every partial sum is an integer, so y must be exact (= rows).
    const RunResult r = RunOnce(session, kGlobalVsShared, 1u << 20, {{"rows", "1000"}}, "ones");
    ASSERT_TRUE(r.verified) << r.check_message;
    EXPECT_EQ(r.Value("max_error").value_or(-1), 0.0);
}

TEST(GpuBasics, BranchDivergenceEveryPatternBlockAndEdgeSize) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    for (const char* divergence : kDivergenceNames)
        for (const char* block : {"32", "96", "256", "1024"})
            for (uint64_t count : kCounts) {
                const RawParams p{{"divergence", divergence}, {"block", block}};
                const RunResult r = RunOnce(session, kBranchDivergence, count, p);
                ASSERT_TRUE(r.verified) << Describe(count, p) << ": " << r.check_message;
            }
}

TEST(GpuBasics, CoalescingEveryStrideOffsetBlockAndEdgeSize) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    for (unsigned stride : kStrides)
        for (const char* offset : {"0", "1", "3", "32"})
            for (const char* block : {"32", "96", "1024"})
                for (uint64_t count : kCounts) {
                    const RawParams p{
                        {"stride", std::to_string(stride)}, {"offset", offset}, {"block", block}};
                    const RunResult r = RunOnce(session, kCoalescing, count, p);
                    ASSERT_TRUE(r.verified) << Describe(count, p) << ": " << r.check_message;
                }
}

TEST(GpuBasics, PinnedTransfersEveryKindOfHostMemoryAndEdgeSize) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    for (const char* memory : kMemoryNames)
        for (uint64_t count : kCounts) {
            const RawParams p{{"memory", memory}};
            const RunResult r = RunOnce(session, kPinnedTransfers, count, p);
            ASSERT_TRUE(r.verified) << Describe(count, p) << ": " << r.check_message;
            EXPECT_TRUE(r.Part("h2d").has_value());
            EXPECT_GE(r.Value("alloc_pageable_ms").value_or(-1), 0.0);
        }
}

// Each choice runs a kernel of its own, named in the result's attributes.
TEST(GpuBasics, EachChoiceRunsItsOwnKernel) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    auto kernels = [&](const std::string& lesson, const std::string& param,
                       const std::vector<std::string>& values) {
        std::set<std::string> names;
        for (const std::string& v : values) {
            const RunResult r = RunOnce(session, lesson, 4099, {{param, v}});
            EXPECT_TRUE(r.verified) << lesson << " " << v << ": " << r.check_message;
            EXPECT_TRUE(r.attributes.has_value());
            if (r.attributes) names.insert(r.attributes->kernel);
        }
        return names.size();
    };
    EXPECT_EQ(kernels(kGlobalVsShared, "variant", {kVecMatNames.begin(), kVecMatNames.end()}), 3u);
    EXPECT_EQ(kernels(kBranchDivergence, "divergence",
                      {kDivergenceNames.begin(), kDivergenceNames.end()}),
              6u);
    std::vector<std::string> strides;
    for (unsigned s : kStrides) strides.push_back(std::to_string(s));
    EXPECT_EQ(kernels(kCoalescing, "stride", strides), 6u);
}

// Both ends of the divergence choice run and verify at 16 MiB; their times are printed. The
// lesson's claim (a warp split 32 ways does 32 warps' worth of work, so the compiler kept the
// cases apart) is a speed: scripts/basics-sweeps.sh measures it (its branch-divergence lines),
// not a test (no timing thresholds in tests).
TEST(GpuBasics, NoDivergenceAnd32WayDivergenceBothVerify) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    auto median = [&](const char* divergence) {
        RunOptions o;
        o.Set("size", "16MiB");
        o.Set("divergence", divergence);
        o.reps = 5;
        o.measure_ceilings = false;
        const RunResult r = session.Run(L(kBranchDivergence), o);
        EXPECT_TRUE(r.verified) << divergence << ": " << r.check_message;
        EXPECT_EQ(r.params.Choice("divergence"), divergence);
        return r.median_ms;
    };
    const double none = median("none"), split = median("32-way");
    std::printf("note: branch divergence at 16 MiB: none %.4f ms, 32-way %.4f ms (%.1fx)\n", none,
                split, none > 0 ? split / none : 0.0);
}

// The transfer step reports what allocating cost and, for locked memory, the break-even.
TEST(GpuBasics, PinnedTransfersReportsAllocationCostsAndBreakEven) {
    REQUIRE_GPU();
    Session session(RunnableCatalog());
    for (const char* memory : {"pinned", "registered"}) {
        RunOptions o;
        o.Set("size", "64MiB");
        o.Set("memory", memory);
        o.reps = 3;
        const RunResult r = session.Run(L(kPinnedTransfers), o);
        ASSERT_TRUE(r.verified) << r.check_message;
        EXPECT_GT(r.Value(std::string(memory) == "pinned" ? "alloc_pinned_ms" : "register_ms")
                      .value_or(-1),
                  0.0);
        EXPECT_GT(r.Value("pageable_copy_ms").value_or(-1), 0.0);
        EXPECT_GT(r.Value("locked_copy_ms").value_or(-1), 0.0);
        EXPECT_GT(r.gbps, 0.0);
        ASSERT_TRUE(r.pct_of_ceiling.has_value()) << "compared with the pinned H2D ceiling";
        std::printf(
            "%s 64 MiB: %.2f GB/s (%.0f%% of H2D), pageable copy %.3f ms, locked %.3f ms, "
            "break-even %.2f runs\n",
            memory, r.gbps, *r.pct_of_ceiling, *r.Value("pageable_copy_ms"),
            *r.Value("locked_copy_ms"), r.Value("break_even_runs").value_or(-1));
    }
}
