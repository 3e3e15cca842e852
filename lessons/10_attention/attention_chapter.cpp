#include "attention_chapter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "checked.h"
#include "errors.h"
#include "generators.h"
#include "printed.h"
#include "softmax/softmax_cpu.h"

namespace lessons::attention {

namespace {

// Standard normal values (Box-Muller), rounded to bf16: attention's inputs after a layer norm.
void FillNormalBf16(uint64_t seed, uint16_t* out, uint64_t count, const std::atomic<bool>* cancel) {
    FillEach(
        seed, out, count,
        [](SplitMix64& rng) { return softmax::FloatToBf16Bits(NormalFloat(rng)); }, cancel);
}

}  // namespace

int HeadDim(const ParamValues& params) {
    return params.Choice("d") == "64" ? 64 : 128;
}

bool Causal(const ParamValues& params) {
    return params.Choice("mask") == "causal";
}

double AttentionTolerance(double o, double magnitude, double max_abs_score, bool scores_in_bf16) {
    const double tolerance = std::ldexp(magnitude + std::fabs(o), -8);
    return scores_in_bf16 ? tolerance + std::ldexp(max_abs_score * magnitude, -6) : tolerance;
}

std::vector<CheckedRow> ChooseCheckedRows(int heads, int n, int d, uint64_t seed, bool* full) {
    std::vector<CheckedRow> rows;
    const uint64_t macs = uint64_t(heads) * uint64_t(n) * uint64_t(n) * uint64_t(d);
    *full = macs <= (uint64_t(1) << 26);
    if (*full) {
        for (int h = 0; h < heads; ++h)
            for (int i = 0; i < n; ++i) rows.push_back({h, i});
        return rows;
    }
    SplitMix64 rng(seed);
    const int spread = std::min(heads, 64);
    for (int s = 0; s < spread; ++s) {
        const int h = spread == 1 ? 0 : int(int64_t(s) * (heads - 1) / (spread - 1));
        rows.push_back({h, 0});
        rows.push_back({h, n - 1});
        for (int r = 0; r < 4; ++r) rows.push_back({h, int(rng.Next() % uint64_t(n))});
    }
    std::sort(rows.begin(), rows.end(), [](const CheckedRow& a, const CheckedRow& b) {
        return a.head != b.head ? a.head < b.head : a.row < b.row;
    });
    rows.erase(std::unique(rows.begin(), rows.end(),
                           [](const CheckedRow& a, const CheckedRow& b) {
                               return a.head == b.head && a.row == b.row;
                           }),
               rows.end());
    return rows;
}

AttentionWorkload::AttentionWorkload(const WorkloadSpec& spec)
    : m_heads(int(spec.params.Number("b") * spec.params.Number("h"))),
      m_n(int(spec.params.Number("n"))),
      m_d(HeadDim(spec.params)),
      m_causal(Causal(spec.params)) {
    const uint64_t count = Elements();
    m_q.resize(count);
    m_k.resize(count);
    m_v.resize(count);
    FillNormalBf16(spec.seed, m_q.data(), count, spec.cancel);
    FillNormalBf16(spec.seed ^ 0x9e3779b97f4a7c15ull, m_k.data(), count, spec.cancel);
    FillNormalBf16(spec.seed ^ 0xc2b2ae3d27d4eb4full, m_v.data(), count, spec.cancel);
    m_checked = ChooseCheckedRows(m_heads, m_n, m_d, spec.seed ^ 0x165667b19e3779f9ull, &m_full);
    m_reference.resize(m_checked.size());
    const size_t matrix = size_t(m_n) * size_t(m_d);
#pragma omp parallel for schedule(dynamic, 4)
    for (long long i = 0; i < static_cast<long long>(m_checked.size()); ++i) {
        const CheckedRow& c = m_checked[size_t(i)];
        const size_t at = size_t(c.head) * matrix;
        m_reference[size_t(i)] = AttentionReferenceAt(m_q.data() + at, m_k.data() + at,
                                                      m_v.data() + at, m_n, m_d, m_causal, c.row);
    }
}

uint64_t AttentionWorkloadHostBytes(uint64_t heads, uint64_t n, uint64_t d) {
    // Q, K and V as bf16; the reference rows (o and its magnitude in double): every row when
    // the check is full, else a few hundred.
    const uint64_t elements = SaturatingMul(SaturatingMul(heads, n), d);
    const bool full = SaturatingMul(elements, n) <= (uint64_t(1) << 26);
    const uint64_t reference = full ? SaturatingMul(elements, 16) : SaturatingMul(400 * 16, d);
    return SaturatingAdd(SaturatingMul(elements, 3 * sizeof(uint16_t)), reference);
}

namespace {

uint64_t Heads(const ParamValues& p) {
    return SaturatingMul(p.Number("b"), p.Number("h"));
}

}  // namespace

Work AttentionWork(const ParamValues& p) {
    const uint64_t heads = Heads(p), n = p.Number("n"), d = uint64_t(HeadDim(p));
    const uint64_t elements = SaturatingMul(SaturatingMul(heads, n), d);
    Work w;
    w.flops = SaturatingMul(SaturatingMul(SaturatingMul(heads, SaturatingMul(n, n)), d),
                            Causal(p) ? 2 : 4);
    w.bytes_read = SaturatingMul(elements, 3 * sizeof(uint16_t));
    w.bytes_written = SaturatingMul(elements, sizeof(uint16_t));
    w.bound = Bound::kBf16;
    return w;
}

Work UnfusedAttentionWork(const ParamValues& p) {
    Work w = AttentionWork(p);
    const uint64_t n = p.Number("n");
    const uint64_t s =
        SaturatingMul(SaturatingMul(Heads(p), SaturatingMul(n, n)), sizeof(uint16_t));
    // S: written by Q·Kᵀ, read and written (as P) by the softmax, read by P·V.
    w.bytes_read = SaturatingAdd(w.bytes_read, SaturatingMul(s, 2));
    w.bytes_written = SaturatingAdd(w.bytes_written, SaturatingMul(s, 2));
    return w;
}

Work SimtAttentionWork(const ParamValues& p) {
    Work w = AttentionWork(p);
    w.bound = Bound::kFp32;
    return w;
}

namespace {

constexpr MessageForm kWrongValues{
    "attention.wrong-values",
    "{1} of {2} checked values wrong; first at head {3}, row {4}, column {5}: {6}, expected {7} "
    "(tolerance {8})",
    "检查的 {2} 个值中有 {1} 个错误；第一个在第 {3} 个头、第 {4} 行、第 {5} 列：{6}，应为 "
    "{7}（容差 "
    "{8}）"};
constexpr MessageForm kNotFinite{"attention.not-finite",
                                 "{1} values of O are NaN or infinite; the first at index {2}",
                                 "O 中有 {1} 个值是 NaN 或无穷大；第一个在下标 {2}"};

}  // namespace

std::vector<MessageForm> AttentionMessages() {
    return {kWrongValues, kNotFinite};
}

Check CheckAttention(const AttentionWorkload& work, const uint16_t* o, bool scores_in_bf16) {
    Check check;
    const uint64_t count = work.Elements();
    uint64_t not_finite = 0, first_bad = 0;
    for (uint64_t i = 0; i < count; ++i)
        if ((o[i] & 0x7f80u) == 0x7f80u && not_finite++ == 0) first_bad = i;  // exponent all ones
    const int d = work.d();
    uint64_t wrong = 0, checked = 0;
    double worst = 0;
    std::string first[6];
    for (size_t r = 0; r < work.checked().size(); ++r) {
        const CheckedRow& c = work.checked()[r];
        const AttentionReferenceRow& ref = work.reference()[r];
        const uint16_t* row = o + (uint64_t(c.head) * uint64_t(work.n()) + uint64_t(c.row)) * d;
        for (int e = 0; e < d; ++e, ++checked) {
            const double got = softmax::Bf16BitsToFloat(row[e]);
            const double expected = ref.o[size_t(e)];
            const double tolerance = AttentionTolerance(expected, ref.magnitude[size_t(e)],
                                                        ref.max_abs_score, scores_in_bf16);
            double error = std::fabs(got - expected);
            if (std::isnan(error)) error = HUGE_VAL;
            worst = std::max(worst, tolerance > 0 ? error / tolerance : error > 0 ? HUGE_VAL : 0);
            if (error <= tolerance) continue;
            if (wrong++ == 0) {
                first[0] = std::to_string(c.head);
                first[1] = std::to_string(c.row);
                first[2] = std::to_string(e);
                first[3] = Printed("%.6g", got);
                first[4] = Printed("%.6g", expected);
                first[5] = Printed("%.3g", tolerance);
            }
        }
    }
    check.ok = wrong == 0 && not_finite == 0;
    check.values = {{"wrong_values", double(wrong)},
                    {"checked_values", double(checked)},
                    {"not_finite", double(not_finite)},
                    {"error_over_tolerance", worst}};
    if (not_finite)
        check.Fail(kNotFinite, {std::to_string(not_finite), std::to_string(first_bad)});
    else if (wrong)
        check.Fail(kWrongValues, {std::to_string(wrong), std::to_string(checked), first[0],
                                  first[1], first[2], first[3], first[4], first[5]});
    return check;
}

Check AttentionStep::Verify() const {
    ReadBack();
    return CheckAttention(m_work, m_o.data(), m_scores_in_bf16);
}

MemoryNeeds AttentionGpuNeeds(const ParamValues& p) {
    const uint64_t bytes =
        SaturatingMul(SaturatingMul(SaturatingMul(Heads(p), p.Number("n")), uint64_t(HeadDim(p))),
                      sizeof(uint16_t));
    return {bytes, SaturatingAdd(SaturatingMul(bytes, 4), uint64_t(1) << 20)};
}

MemoryNeeds UnfusedAttentionNeeds(const ParamValues& p) {
    MemoryNeeds needs = AttentionGpuNeeds(p);
    const uint64_t n = p.Number("n");
    const uint64_t s =
        SaturatingMul(SaturatingMul(Heads(p), SaturatingMul(n, n)), sizeof(uint16_t));
    needs.device_bytes = SaturatingAdd(SaturatingAdd(needs.device_bytes, s), uint64_t(64) << 20);
    return needs;
}

}  // namespace lessons::attention
