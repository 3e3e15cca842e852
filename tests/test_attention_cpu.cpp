// Chapter 10's CPU parts: the double reference against hand-computed rows, the causal mask, the
// tolerance (a correct bf16 output passes, a perturbed element, a dropped key, a NaN fail), the
// rows the check samples, the work (4·B·H·N²·d flops, the unfused step's S bytes) and the
// parameters' limits; the catalogue's rows.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "attention/attention_cpu.h"
#include "attention_chapter.h"
#include "catalog.h"
#include "errors.h"
#include "softmax/softmax_cpu.h"

using namespace lessons;
using namespace lessons::attention;
using softmax::Bf16BitsToFloat;
using softmax::FloatToBf16Bits;

namespace {

WorkloadSpec Spec(uint64_t b, uint64_t h, uint64_t n, const char* d = "128",
                  const char* mask = "none", uint64_t seed = 7) {
    WorkloadSpec spec;
    spec.params.Set("b", ParamValue::Number(b));
    spec.params.Set("h", ParamValue::Number(h));
    spec.params.Set("n", ParamValue::Number(n));
    spec.params.Set("d", ParamValue::Choice(d));
    spec.params.Set("mask", ParamValue::Choice(mask));
    spec.params.Set("data", ParamValue::Choice("random"));
    spec.seed = seed;
    return spec;
}

std::vector<uint16_t> Bits(const std::vector<float>& v) {
    std::vector<uint16_t> out;
    for (float x : v) out.push_back(FloatToBf16Bits(x));
    return out;
}

// O as a correct kernel would store it: every row's reference rounded once to bf16 (the rows
// the workload does not check are left at 0, which the check does not read).
std::vector<uint16_t> RoundedReference(const AttentionWorkload& w) {
    std::vector<uint16_t> o(w.Elements(), 0);
    for (size_t r = 0; r < w.checked().size(); ++r) {
        const CheckedRow& c = w.checked()[r];
        for (int e = 0; e < w.d(); ++e)
            o[(size_t(c.head) * size_t(w.n()) + size_t(c.row)) * size_t(w.d()) + size_t(e)] =
                FloatToBf16Bits(float(w.reference()[r].o[size_t(e)]));
    }
    return o;
}

}  // namespace

TEST(AttentionCpu, ReferenceOfHandComputedRows) {
    // d = 4 (the reference takes any d), n = 2: q = (2, 0, 0, 0), k0 = (1, 0, 0, 0), k1 = 0.
    // s = (q·k) / 2 = (1, 0): weights e / (e + 1) and 1 / (e + 1).
    const std::vector<uint16_t> q = Bits({2, 0, 0, 0, 0, 0, 0, 0});
    const std::vector<uint16_t> k = Bits({1, 0, 0, 0, 0, 0, 0, 0});
    const std::vector<uint16_t> v = Bits({1, -2, 0, 4, 3, 2, 1, 0});
    const double e = std::exp(1.0), w0 = e / (e + 1), w1 = 1 / (e + 1);
    const AttentionReferenceRow r =
        AttentionReferenceAt(q.data(), k.data(), v.data(), 2, 4, false, 0);
    const double expected[4] = {w0 * 1 + w1 * 3, w0 * -2 + w1 * 2, w1 * 1, w0 * 4};
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(r.o[size_t(i)], expected[i], 1e-12) << i;
    EXPECT_NEAR(r.magnitude[1], w0 * 2 + w1 * 2, 1e-12);
    EXPECT_NEAR(r.max_abs_score, 1.0, 1e-12);
    // Causal: row 0 sees key 0 alone, so its output is v0 exactly; row 1 sees both.
    const AttentionReferenceRow c0 =
        AttentionReferenceAt(q.data(), k.data(), v.data(), 2, 4, true, 0);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(c0.o[size_t(i)], Bf16BitsToFloat(v[size_t(i)]));
    const AttentionReferenceRow c1 =
        AttentionReferenceAt(q.data(), k.data(), v.data(), 2, 4, true, 1);
    const AttentionReferenceRow n1 =
        AttentionReferenceAt(q.data(), k.data(), v.data(), 2, 4, false, 1);
    for (int i = 0; i < 4; ++i) EXPECT_DOUBLE_EQ(c1.o[size_t(i)], n1.o[size_t(i)]);
}

TEST(AttentionCpu, LargeScoresDoNotOverflow) {
    // Scores of ±400 would overflow exp in double without the max subtracted.
    const int d = 64;
    std::vector<float> qf(size_t(2 * d), 0), kf(size_t(2 * d), 0), vf(size_t(2 * d), 0);
    qf[0] = 160;
    kf[0] = 20;   // s0 = 160·20/8 = 400
    kf[d] = -20;  // s1 = -400
    vf[0] = 1;
    vf[size_t(d)] = -1;
    const auto q = Bits(qf), k = Bits(kf), v = Bits(vf);
    const AttentionReferenceRow r =
        AttentionReferenceAt(q.data(), k.data(), v.data(), 2, d, false, 0);
    EXPECT_TRUE(std::isfinite(r.o[0]));
    EXPECT_NEAR(r.o[0], 1.0, 1e-12);
}

TEST(AttentionCpu, CorrectOutputPassesAndEveryKindOfWrongFails) {
    for (const char* mask : {"none", "causal"})
        for (const char* d : {"64", "128"}) {
            SCOPED_TRACE(std::string(mask) + " d=" + d);
            const AttentionWorkload w(Spec(2, 3, 37, d, mask));
            EXPECT_TRUE(w.full_check());
            std::vector<uint16_t> o = RoundedReference(w);
            for (bool bf16_scores : {false, true}) {
                const Check ok = CheckAttention(w, o.data(), bf16_scores);
                EXPECT_TRUE(ok.ok) << ok.message;
            }
            // One element off by 5 % of its row's scale.
            const CheckedRow c = w.checked()[40];
            const size_t at = (size_t(c.head) * 37 + size_t(c.row)) * size_t(w.d()) + 3;
            const uint16_t kept = o[at];
            o[at] = FloatToBf16Bits(Bf16BitsToFloat(kept) + 0.05f);
            Check bad = CheckAttention(w, o.data(), false);
            EXPECT_FALSE(bad.ok);
            EXPECT_NE(bad.message.find("1 of"), std::string::npos) << bad.message;
            o[at] = 0xFFFF;  // NaN
            bad = CheckAttention(w, o.data(), true);
            EXPECT_FALSE(bad.ok);
            EXPECT_NE(bad.message.find("NaN"), std::string::npos) << bad.message;
            o[at] = kept;
            // The last row of each head computed without its last key (a dropped tile edge): its
            // own query (one row on) against keys 0..35.
            std::vector<uint16_t> dropped = o;
            for (int head = 0; head < 6; ++head) {
                const size_t matrix = size_t(head) * 37 * size_t(w.d());
                const AttentionReferenceRow r =
                    AttentionReferenceAt(w.q() + matrix + w.d(), w.k() + matrix, w.v() + matrix, 36,
                                         w.d(), std::string(mask) == "causal", 35);
                for (int e = 0; e < w.d(); ++e)
                    dropped[matrix + 36 * size_t(w.d()) + size_t(e)] =
                        FloatToBf16Bits(float(r.o[size_t(e)]));
            }
            EXPECT_FALSE(CheckAttention(w, dropped.data(), false).ok)
                << "a row without its last key passed";
        }
}

TEST(AttentionCpu, ToleranceIsStatedFromBf16) {
    EXPECT_DOUBLE_EQ(AttentionTolerance(0.5, 0.75, 4.0, false), (0.75 + 0.5) / 256);
    EXPECT_DOUBLE_EQ(AttentionTolerance(-0.5, 0.75, 4.0, true),
                     (0.75 + 0.5) / 256 + 4.0 * 0.75 / 64);
}

TEST(AttentionCpu, SampledRowsIncludeTheFirstAndLastOfTheFirstAndLastHead) {
    bool full = true;
    const std::vector<CheckedRow> rows = ChooseCheckedRows(512, 4096, 128, 3, &full);
    EXPECT_FALSE(full);
    ASSERT_FALSE(rows.empty());
    EXPECT_EQ(rows.front().head, 0);
    EXPECT_EQ(rows.front().row, 0);
    EXPECT_EQ(rows.back().head, 511);
    EXPECT_EQ(rows.back().row, 4095);
    EXPECT_LE(rows.size(), 64u * 6);
    EXPECT_GE(rows.size(), 64u * 2);
    const std::vector<CheckedRow> all = ChooseCheckedRows(2, 100, 64, 3, &full);
    EXPECT_TRUE(full);
    EXPECT_EQ(all.size(), 200u);
    // One head, one row: checked whole.
    EXPECT_EQ(ChooseCheckedRows(1, 1, 128, 3, &full).size(), 1u);
}

TEST(AttentionCpu, WorkCountsFourBHN2dFlopsAndTheUnfusedStepsS) {
    ParamValues p;
    p.Set("b", ParamValue::Number(8));
    p.Set("h", ParamValue::Number(16));
    p.Set("n", ParamValue::Number(4096));
    p.Set("d", ParamValue::Choice("128"));
    p.Set("mask", ParamValue::Choice("none"));
    const uint64_t heads = 128, n = 4096, d = 128;
    const Work w = AttentionWork(p);
    EXPECT_EQ(w.flops, 4 * heads * n * n * d);
    EXPECT_EQ(w.bytes_read, 3 * heads * n * d * 2);
    EXPECT_EQ(w.bytes_written, heads * n * d * 2);
    EXPECT_EQ(w.bound, Bound::kBf16);
    const Work u = UnfusedAttentionWork(p);
    EXPECT_EQ(u.flops, w.flops);
    EXPECT_EQ(u.bytes_read, w.bytes_read + 2 * heads * n * n * 2);
    EXPECT_EQ(u.bytes_written, w.bytes_written + 2 * heads * n * n * 2);
    EXPECT_EQ(SimtAttentionWork(p).bound, Bound::kFp32);
    p.Set("mask", ParamValue::Choice("causal"));
    EXPECT_EQ(AttentionWork(p).flops, 2 * heads * n * n * d);
    EXPECT_GT(UnfusedAttentionNeeds(p).device_bytes, heads * n * n * 2);
}

TEST(AttentionCpu, TheChapterDeclaresItsStepsAndRefusesBadValues) {
    const Registry& catalog = Catalog();
    const Chapter* chapter = catalog.FindChapter("attention");
    ASSERT_NE(chapter, nullptr);
    const auto lessons = catalog.LessonsOf(*chapter);
    ASSERT_EQ(lessons.size(), 8u);
    EXPECT_EQ(lessons[0]->id, "attention/unfused");
    EXPECT_EQ(lessons[1]->id, "attention/fused-simt");
    EXPECT_EQ(lessons[2]->id, "attention/mma-sync");
    EXPECT_EQ(lessons[3]->id, "attention/swizzled");
    EXPECT_EQ(lessons[4]->id, "attention/pipelined");
    EXPECT_EQ(lessons[5]->id, "attention/log2-softmax");
    EXPECT_EQ(lessons[6]->id, "attention/wgmma-tma");
    EXPECT_EQ(lessons[7]->id, "attention/warp-specialized");
    EXPECT_NE(lessons[0]->FindParam("block"), nullptr);
    for (int i = 1; i < 8; ++i) EXPECT_NE(lessons[size_t(i)]->FindParam("tile"), nullptr);
    // The pipelined steps offer 2 and 3 stages of each tile, and no tile of the steps before.
    for (int i = 4; i < 6; ++i) {
        const ParamSpec& tile = *lessons[size_t(i)]->FindParam("tile");
        EXPECT_EQ(tile.Reject(ParamValue::Choice("128x64-s2")), "") << lessons[size_t(i)]->id;
        EXPECT_EQ(tile.Reject(ParamValue::Choice("64x64-s3")), "") << lessons[size_t(i)]->id;
        EXPECT_NE(tile.Reject(ParamValue::Choice("128x64")), "") << lessons[size_t(i)]->id;
        EXPECT_NE(tile.Reject(ParamValue::Choice("128x64-s4")), "") << lessons[size_t(i)]->id;
    }
    // The Hopper step: d = 64 or 128 only, its own two tiles.
    const Lesson& hopper = *lessons[6];
    EXPECT_NE(hopper.FindParam("d")->Reject(ParamValue::Choice("96")), "");
    EXPECT_EQ(hopper.FindParam("tile")->Reject(ParamValue::Choice("128x128")), "");
    EXPECT_NE(hopper.FindParam("tile")->Reject(ParamValue::Choice("64x64")), "");
    // The warp-specialised step, the chapter's last: its three schedules as tiles, d = 64 or 128.
    const Lesson& ws = *lessons.back();
    EXPECT_EQ(ws.id, "attention/warp-specialized");
    EXPECT_EQ(ws.FindParam("tile")->Reject(ParamValue::Choice("128x128")), "");
    EXPECT_EQ(ws.FindParam("tile")->Reject(ParamValue::Choice("128x128-no-overlap")), "");
    EXPECT_EQ(ws.FindParam("tile")->Reject(ParamValue::Choice("128x128-no-pingpong")), "");
    EXPECT_NE(ws.FindParam("tile")->Reject(ParamValue::Choice("128x64")), "");
    EXPECT_NE(ws.FindParam("d")->Reject(ParamValue::Choice("96")), "");
    const Lesson& l = *lessons[3];
    EXPECT_EQ(l.FindParam("n")->Reject(ParamValue::Number(1)), "");
    EXPECT_EQ(l.FindParam("n")->Reject(ParamValue::Number(4097)), "");
    EXPECT_NE(l.FindParam("n")->Reject(ParamValue::Number(0)), "");
    EXPECT_NE(l.FindParam("n")->Reject(ParamValue::Number(kMaxSequence + 1)), "");
    EXPECT_NE(l.FindParam("b")->Reject(ParamValue::Number(kMaxBatch + 1)), "");
    EXPECT_NE(l.FindParam("h")->Reject(ParamValue::Number(kMaxHeads + 1)), "");
    EXPECT_NE(l.FindParam("d")->Reject(ParamValue::Choice("96")), "");
    EXPECT_NE(l.FindParam("tile")->Reject(ParamValue::Choice("256x64")), "");
    EXPECT_NE(lessons[0]->FindParam("block")->Reject(ParamValue::Number(48)), "");
    EXPECT_NE(lessons[0]->FindParam("block")->Reject(ParamValue::Number(2048)), "");
    // B·H fits the fused kernels' grid.
    EXPECT_LE(kMaxBatch * kMaxHeads, 65535u);
}
