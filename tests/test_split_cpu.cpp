// The reference and each CPU step of chapter 1 at the edge inputs and on generated data.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <vector>

#include "checked.h"
#include "generators.h"
#include "split/split_cpu.h"
#include "split_cases.h"
#include "split_chapter.h"

using namespace lessons;
using namespace lessons::split;

namespace {

using StepFn = std::function<uint64_t(const char*, uint64_t, uint64_t*)>;

struct NamedStep {
    const char* name;
    StepFn fn;
};

std::vector<NamedStep> Steps() {
    return {
        {"naive", &SplitNaive},
        {"even", &SplitEvenPositions},
        {"openmp1", [](const char* b, uint64_t n, uint64_t* o) { return SplitOpenMP(b, n, o, 1); }},
        {"openmp2", [](const char* b, uint64_t n, uint64_t* o) { return SplitOpenMP(b, n, o, 2); }},
        {"openmp3", [](const char* b, uint64_t n, uint64_t* o) { return SplitOpenMP(b, n, o, 3); }},
        {"openmp7", [](const char* b, uint64_t n, uint64_t* o) { return SplitOpenMP(b, n, o, 7); }},
    };
}

std::vector<uint64_t> RunSorted(const StepFn& fn, const std::string& text) {
    std::vector<uint64_t> out(SplitCapacity(text.size()) + 1, 0xDEADBEEF);
    const uint64_t found = fn(text.data(), text.size(), out.data());
    EXPECT_LE(found, SplitCapacity(text.size()));
    EXPECT_EQ(out[SplitCapacity(text.size())], 0xDEADBEEFu) << "wrote past the capacity";
    out.resize(found);
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

TEST(SplitReference, EdgeInputs) {
    for (const auto& c : split_cases::EdgeCases())
        EXPECT_EQ(SplitReference(c.text.data(), c.text.size()), c.expected) << c.name;
}

TEST(SplitCpuSteps, EdgeInputs) {
    for (const NamedStep& step : Steps())
        for (const auto& c : split_cases::EdgeCases())
            EXPECT_EQ(RunSorted(step.fn, c.text), c.expected) << step.name << ": " << c.name;
}

TEST(SplitCpuSteps, GeneratedDataAtOddSizes) {
    const uint64_t sizes[] = {0, 1, 2, 3, 31, 32, 33, 255, 257, 1023, 1025, 65537, 1000003};
    for (TextKind kind : {TextKind::kRandom, TextKind::kDense, TextKind::kNone}) {
        for (uint64_t n : sizes) {
            std::string text(n, '\0');
            FillSplitText(kind, n + 11, text.data(), n);
            const std::vector<uint64_t> expected = SplitReference(text.data(), n);
            for (const NamedStep& step : Steps())
                ASSERT_EQ(RunSorted(step.fn, text), expected)
                    << step.name << " kind " << static_cast<int>(kind) << " n=" << n;
        }
    }
}

TEST(SplitCpuSteps, WorstCaseFillsTheCapacity) {
    for (uint64_t n : {2u, 3u, 1000u, 1001u}) {
        std::string text;
        while (text.size() < n) text += "\r\n";
        text.resize(n);
        for (const NamedStep& step : Steps()) {
            const std::vector<uint64_t> got = RunSorted(step.fn, text);
            EXPECT_EQ(got.size(), n / 2) << step.name;
            EXPECT_EQ(got, SplitReference(text.data(), n)) << step.name;
        }
    }
}

TEST(SplitEstimates, MemoryNeedsSaturateInsteadOfWrapping) {
    for (const uint64_t n : {uint64_t(1) << 62, uint64_t(2049638230412172800ull), ~uint64_t(0)}) {
        ParamValues p;
        p.Set("size", ParamValue::Number(n));
        EXPECT_GE(split::SplitWorkloadHostBytes(n), n) << n;
        EXPECT_GE(split::SplitCpuNeeds(p).host_bytes, n / 2) << n;
        EXPECT_GE(split::SplitGpuNeeds(p).device_bytes, n) << n;
        EXPECT_GE(split::SplitPinnedGpuNeeds(p).host_bytes, n) << n;
    }
    EXPECT_EQ(split::SplitWorkloadHostBytes(uint64_t(1) << 62), kSaturated);
    EXPECT_EQ(split::SplitWorkloadHostBytes(1000), 1000u + 8 * 501);
}
