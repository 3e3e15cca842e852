// Chapter 10, attention forward: the problem (Q, K, V in bf16, [B][H][N][d]; the reference on
// sampled rows; the check with its tolerance; the work) and the base of its steps. Step code
// lives in kernels/attention/.
#pragma once

#include <cstdint>
#include <vector>

#include "attention/attention_cpu.h"
#include "lesson.h"
#include "step_of.h"

namespace lessons::attention {

// The limits of the parameters: B·H heads are one grid dimension of the fused kernels (at most
// 65535 blocks), and the unfused step's softmax has a block per row of S, B·H·N of them.
constexpr uint64_t kMaxBatch = 256;
constexpr uint64_t kMaxHeads = 128;
constexpr uint64_t kMaxSequence = 65536;

// How far an element of O may be from the double reference. Q, K and V are bf16 from the start
// (the reference reads exactly those values); every step accumulates in fp32, rounds the
// weights P to bf16 for the second product (a relative error of at most 2⁻⁹ each, rounding to
// nearest) and rounds O to bf16 once (2⁻⁹ of |o|, 2⁻⁸ allowing a library that does not round to
// nearest). With A = Σ p_j·|v_j| / Σ p_j (the reference's `magnitude`):
//   tolerance = 2⁻⁸ · (A + |o|)
// A step that stores the scores S in bf16 (the unfused step) adds their rounding: s_j and the
// row's max are each off by at most 2⁻⁸·max|s|, so each weight by a relative 2⁻⁷·max|s|, in the
// numerator and in the row's sum:
//   + 2⁻⁶ · max|s| · A
// A NaN or an infinity anywhere in O fails.
double AttentionTolerance(double o, double magnitude, double max_abs_score, bool scores_in_bf16);

// One checked row: head (0 ≤ head < B·H) and query row.
struct CheckedRow {
    int head = 0;
    int row = 0;
};

class AttentionWorkload : public Workload {
public:
    explicit AttentionWorkload(const WorkloadSpec& spec);
    uint64_t SizeBytes() const override { return 3 * Elements() * sizeof(uint16_t); }
    int heads() const { return m_heads; }  // B·H
    int n() const { return m_n; }
    int d() const { return m_d; }
    bool causal() const { return m_causal; }
    uint64_t Elements() const { return uint64_t(m_heads) * uint64_t(m_n) * uint64_t(m_d); }
    const uint16_t* q() const { return m_q.data(); }  // bf16 bits, [B·H][N][d]
    const uint16_t* k() const { return m_k.data(); }
    const uint16_t* v() const { return m_v.data(); }
    bool full_check() const { return m_full; }
    const std::vector<CheckedRow>& checked() const { return m_checked; }
    const std::vector<AttentionReferenceRow>& reference() const { return m_reference; }

private:
    int m_heads = 0, m_n = 0, m_d = 0;
    bool m_causal = false;
    std::vector<uint16_t> m_q, m_k, m_v;
    bool m_full = true;
    std::vector<CheckedRow> m_checked;
    std::vector<AttentionReferenceRow> m_reference;
};

// The rows the check compares: every row when heads·n²·d ≤ 2²⁶ multiply-adds, else the first
// and last row of up to 64 heads spread over all of them (the first and the last head among
// them) and four random rows of each from `seed`.
std::vector<CheckedRow> ChooseCheckedRows(int heads, int n, int d, uint64_t seed, bool* full);

uint64_t AttentionWorkloadHostBytes(uint64_t heads, uint64_t n, uint64_t d);

// The work of attention: 4·B·H·N²·d flops (two products of 2·N²·d each per head; half of that
// with the causal mask, as FlashAttention counts it); Q, K, V read once and O written once, 2
// bytes an element; held to the bf16 tensor-core ceiling.
Work AttentionWork(const ParamValues& params);
// The unfused step's: the same flops, plus S (B·H·N² bf16) written by the first product, read
// and written by the softmax, and read by the second product.
Work UnfusedAttentionWork(const ParamValues& params);
// The fp32 SIMT step's: the same work, held to the fp32 FMA peak (it uses no tensor core).
Work SimtAttentionWork(const ParamValues& params);

// Checks O (B·H·N·d bf16 bits) against the workload's reference rows.
Check CheckAttention(const AttentionWorkload& work, const uint16_t* o, bool scores_in_bf16);
std::vector<MessageForm> AttentionMessages();

// Base of every step: the check of O, which the step copies into m_o in ReadBack().
class AttentionStep : public StepOf<AttentionWorkload> {
public:
    AttentionStep(const Workload& workload, bool scores_in_bf16)
        : StepOf(workload), m_scores_in_bf16(scores_in_bf16) {}
    Check Verify() const override;

protected:
    virtual void ReadBack() const = 0;
    bool m_scores_in_bf16;
    mutable std::vector<uint16_t> m_o;
};

// Device memory of the fused steps (Q, K, V, O) and the host's copy of O.
MemoryNeeds AttentionGpuNeeds(const ParamValues& params);
// The unfused step's: S besides, and room for cuBLAS's workspace.
MemoryNeeds UnfusedAttentionNeeds(const ParamValues& params);

// The head dimension and the mask as the parameters give them.
int HeadDim(const ParamValues& params);
bool Causal(const ParamValues& params);

}  // namespace lessons::attention
