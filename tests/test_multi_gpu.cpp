// The multi-GPU lessons' host-side logic: how the data is cut into shares, the rule that finds
// a pair straddling a share boundary exactly once, the `gpus` parameter, and chapter 7's
// reference and check. Runs without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "allreduce_chapter.h"
#include "catalog.h"
#include "errors.h"
#include "params.h"
#include "shares.h"
#include "split/share_scan.h"
#include "split/split_cpu.h"

using namespace lessons;

namespace {

const uint64_t kSizes[] = {0,   1,    2,    3,    7,    31,    32,    33,     255,
                           257, 4095, 4096, 4097, 8191, 12289, 65537, 1000003};

}  // namespace

TEST(Shares, CoverEveryElementOnceInOrderWithAlignedStarts) {
    for (uint64_t n : kSizes)
        for (int parts = 1; parts <= 9; ++parts)
            for (uint64_t align : {uint64_t(1), uint64_t(4), uint64_t(1024), uint64_t(4096)}) {
                SCOPED_TRACE("n=" + std::to_string(n) + " parts=" + std::to_string(parts) +
                             " align=" + std::to_string(align));
                const std::vector<Share> shares = Shares(n, parts, align);
                ASSERT_EQ(shares.size(), size_t(parts));
                EXPECT_EQ(shares.front().begin, 0u);
                EXPECT_EQ(shares.back().end, n);
                uint64_t largest = 0, smallest = n;  // of all shares but the last
                for (size_t i = 0; i < shares.size(); ++i) {
                    EXPECT_LE(shares[i].begin, shares[i].end);
                    if (i) {
                        EXPECT_EQ(shares[i].begin, shares[i - 1].end) << "share " << i;
                    }
                    if (!shares[i].empty()) {
                        EXPECT_EQ(shares[i].begin % align, 0u) << i;
                    }
                    if (i + 1 < shares.size()) {
                        largest = std::max(largest, shares[i].size());
                        smallest = std::min(smallest, shares[i].size());
                    }
                }
                // Balanced to within one alignment unit; the last (maybe partial) no larger.
                if (parts > 1) {
                    EXPECT_LE(largest - smallest, align);
                    EXPECT_LE(shares.back().size(), largest + align);
                }
            }
}

TEST(Shares, OutOfRangeIndexIsEmpty) {
    EXPECT_TRUE(ShareOf(100, 2, 2).empty());
    EXPECT_TRUE(ShareOf(100, 2, -1).empty());
    EXPECT_TRUE(ShareOf(100, 0, 0).empty());
}

TEST(Shares, SplitShareBytesTakesTheByteAfterTheEndExceptForTheLast) {
    const uint64_t n = 10000;
    const std::vector<Share> shares = Shares(n, 3, 4096);
    EXPECT_EQ(SplitShareBytes(shares[0], n), shares[0].size() + 1);
    EXPECT_EQ(SplitShareBytes(shares[1], n), shares[1].size() + 1);
    EXPECT_EQ(SplitShareBytes(shares[2], n), shares[2].size());
    EXPECT_EQ(SplitShareBytes(Share{n, n}, n), 0u);
}

namespace {

// Lesson 14 on the host: every share scanned from only the bytes its GPU receives.
std::vector<uint64_t> ScanByShares(const std::string& text, int parts, uint64_t align) {
    const uint64_t n = text.size();
    std::vector<uint64_t> all;
    for (const Share& s : Shares(n, parts, align)) {
        // Only the bytes the GPU receives: a copy, so that reading further would be a bug
        // the sanitizer of the host (or the comparison) catches.
        const std::string received = text.substr(s.begin, SplitShareBytes(s, n));
        std::vector<uint64_t> out(split::SplitCapacity(s.size()) + 1);
        const uint64_t found =
            split::SplitShareScan(received.data(), s.begin, s.end, n, out.data());
        all.insert(all.end(), out.begin(), out.begin() + long(found));
    }
    return all;  // in order: shares are in order and each scans in order
}

}  // namespace

TEST(Shares, EveryTextOfUpToSevenBytesIsScannedExactlyOnceByShares) {
    // Every text over {\r, \n, x} of length 0..7, cut at every possible boundary (align 1,
    // 1 to 8 parts): the union of the shares' pairs is the reference, with no pair twice.
    const char alphabet[] = {'\r', '\n', 'x'};
    for (int length = 0; length <= 7; ++length) {
        int total = 1;
        for (int i = 0; i < length; ++i) total *= 3;
        for (int code = 0; code < total; ++code) {
            std::string text;
            for (int i = 0, c = code; i < length; ++i, c /= 3) text += alphabet[c % 3];
            const std::vector<uint64_t> expected = split::SplitReference(text.data(), text.size());
            for (int parts = 1; parts <= 8; ++parts)
                ASSERT_EQ(ScanByShares(text, parts, 1), expected)
                    << "length " << length << " code " << code << " parts " << parts;
        }
    }
}

TEST(Shares, PairsStraddlingPageAlignedBoundariesAreFoundOnce) {
    // The harness's shares start on 4 KiB pages: put pairs across, just before and just after
    // every boundary for 2 to 5 GPUs, and odd sizes that are not a multiple of the GPU count.
    for (int parts = 2; parts <= 5; ++parts)
        for (uint64_t n :
             {uint64_t(4096) * parts + 1, uint64_t(4096) * parts * 3 + 7, uint64_t(1000003)}) {
            std::string text(n, 'x');
            for (const Share& s : Shares(n, parts, 4096)) {
                const uint64_t e = s.end;
                if (e >= n || e < 3) continue;
                text[e - 1] = '\r';  // straddles
                text[e] = '\n';
                if (e + 2 < n) {
                    text[e + 1] = '\r';  // right after
                    text[e + 2] = '\n';
                }
                text[e - 3] = '\r';  // right before
                text[e - 2] = '\n';
            }
            text[n - 2] = '\r';
            text[n - 1] = '\n';
            const std::vector<uint64_t> expected = split::SplitReference(text.data(), n);
            EXPECT_EQ(ScanByShares(text, parts, 4096), expected) << "parts " << parts << " n " << n;
            EXPECT_GE(expected.size(), size_t(parts));
        }
}

TEST(GpusParam, OneToTheMostGpusWithDefaultOne) {
    const ParamSpec p = GpusParam();
    EXPECT_EQ(p.name, "gpus");
    EXPECT_EQ(p.Default().number, 1u);
    EXPECT_TRUE(p.Reject(ParamValue::Number(1)).empty());
    EXPECT_TRUE(p.Reject(ParamValue::Number(kMaxGpus)).empty());
    EXPECT_NE(p.Reject(ParamValue::Number(0)).find("gpus"), std::string::npos);
    EXPECT_FALSE(p.Reject(ParamValue::Number(kMaxGpus + 1)).empty());
    EXPECT_THROW(p.Parse("0"), UsageError);
    EXPECT_FALSE(p.label_zh.empty());
}

TEST(MultiGpuLessons, AreInTheCatalogueWithAGpusParameter) {
    const Registry& reg = Catalog();
    for (const char* id :
         {"split/scatter-gather", "split/openmp-per-gpu", "split/each-scans-its-share",
          "reduce/multi-gpu-nccl", "allreduce/through-host", "allreduce/peer-copies-add-kernel",
          "allreduce/ring", "allreduce/nccl"}) {
        const Lesson* l = reg.FindLesson(std::string_view(id));
        ASSERT_NE(l, nullptr) << id;
        EXPECT_NE(l->FindParam("gpus"), nullptr) << id;
        EXPECT_EQ(l->kind, StepKind::kGpu) << id;
        EXPECT_FALSE(l->text_en.empty()) << id;
        EXPECT_FALSE(l->text_zh.empty()) << id;
    }
    EXPECT_TRUE(CatalogProblems().empty()) << CatalogProblems().front();
}

namespace {

allreduce::AllreduceWorkload MakeAllreduce(uint64_t count, int gpus, const std::string& data) {
    WorkloadSpec spec;
    spec.params.Set("size", ParamValue::Number(count * sizeof(float)));
    spec.params.Set("data", ParamValue::Choice(data));
    spec.params.Set("gpus", ParamValue::Number(uint64_t(gpus)));
    spec.seed = 7;
    return allreduce::AllreduceWorkload(spec);
}

}  // namespace

TEST(Allreduce, OnesSumToTheGpuCountExactly) {
    const auto w = MakeAllreduce(1001, 3, "ones");
    ASSERT_EQ(w.gpus(), 3);
    std::vector<std::vector<float>> results(3, std::vector<float>(1001, 3.0f));
    EXPECT_TRUE(allreduce::CheckAllreduce(w, results).ok);
    results[2][1000] = 3.0000002f;
    const Check bad = allreduce::CheckAllreduce(w, results);
    EXPECT_FALSE(bad.ok);
    EXPECT_NE(bad.message.find("GPU 2, element 1000"), std::string::npos) << bad.message;
}

TEST(Allreduce, RandomSumsPassInAnyOrderAndAWrongOneFails) {
    for (int gpus : {1, 2, 3, 5}) {
        const auto w = MakeAllreduce(4099, gpus, "random");
        std::vector<float> forward(w.count()), backward(w.count());
        for (uint64_t i = 0; i < w.count(); ++i) {
            float f = 0, b = 0;
            for (int g = 0; g < gpus; ++g) f += w.input(g)[i];
            for (int g = gpus - 1; g >= 0; --g) b += w.input(g)[i];
            forward[i] = f;
            backward[i] = b;
        }
        EXPECT_TRUE(allreduce::CheckAllreduce(w, {forward, backward}).ok) << gpus;
        std::vector<float> wrong = forward;
        wrong[17] += 0.01f;
        EXPECT_FALSE(allreduce::CheckAllreduce(w, {forward, wrong}).ok) << gpus;
        std::vector<float> nan = forward;
        nan[0] = std::nanf("");
        EXPECT_FALSE(allreduce::CheckAllreduce(w, {nan}).ok) << gpus;
    }
}

TEST(Allreduce, WorkIsNcclBusBytes) {
    const auto w2 = MakeAllreduce(1024, 2, "ones");
    const Work work = allreduce::AllreduceWork(w2);
    EXPECT_EQ(work.peer_bytes, 4096u);  // 2 (G - 1) / G x 4 KiB
    EXPECT_EQ(work.bound, Bound::kPeer);
    const auto w4 = MakeAllreduce(1024, 4, "ones");
    EXPECT_EQ(allreduce::AllreduceWork(w4).peer_bytes, 6144u);
    EXPECT_EQ(allreduce::AllreduceWork(MakeAllreduce(1024, 1, "ones")).peer_bytes, 0u);
}

TEST(Allreduce, EmptyVectorsAreFine) {
    const auto w = MakeAllreduce(0, 2, "random");
    EXPECT_TRUE(allreduce::CheckAllreduce(w, {{}, {}}).ok);
}
