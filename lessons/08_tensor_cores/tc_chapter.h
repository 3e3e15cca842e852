// Chapter 8, tensor cores: the problem (bf16 A and Bᵀ, the reference, the check with its
// tolerance, the work) and the base of its steps. Step code lives in kernels/tc/.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lesson.h"
#include "sampled_check.h"
#include "step_of.h"
#include "tc/tc_cpu.h"

namespace lessons::tc {

// The largest m, n or k: the kernels and cuBLAS index with int, and time and memory run out
// long before.
constexpr uint64_t kMaxDimension = 32768;

// How far an element of C may be from the double reference. A and B are bf16 from the start
// (the reference multiplies exactly those values), and a product of two bf16 values is exact in
// fp32; what rounds is the fp32 accumulation over k and the one rounding of C to bf16 when it
// is stored:
//   acc = 16 · 2⁻²⁴ · √k · Σ|a·b|          (fp32 accumulation: twice the fp32 GEMM chapter's
//                                           8 · 2⁻²⁴ · √k, since tensor cores add their
//                                           partial sums with truncation, not rounding)
//   tolerance = 2⁻⁸ · (|c| + acc) + acc    (bf16 keeps 8 significant bits, 7 of them stored:
//                                           rounding to nearest errs by at most 2⁻⁸ relative)
// with c the reference value. At k = 4096 with A and B uniform in [-1, 1) the tolerance is about
// 0.15 (0.08 of it from rounding C to bf16), while a product left out is 0.25 off on average: a
// kernel that drops a step of k, and so drops it in thousands of elements, fails.
constexpr double kBf16Rounding = 1.0 / 256;  // 2⁻⁸
double TcAccumulationTolerance(int k);       // acc / Σ|a·b|
double TcTolerance(const TcReferenceElement& ref, int k);

class TcWorkload : public Workload, public SampledProduct<TcReferenceElement> {
public:
    explicit TcWorkload(const WorkloadSpec& spec);
    uint64_t SizeBytes() const override {
        return (uint64_t(m_m) * m_k + uint64_t(m_n) * m_k) * sizeof(uint16_t);
    }
    const uint16_t* a() const { return m_a.data(); }    // m × k, row-major, bf16 bits
    const uint16_t* bt() const { return m_bt.data(); }  // n × k, row-major (Bᵀ), bf16 bits

private:
    std::vector<uint16_t> m_a, m_bt;
};

uint64_t TcWorkloadHostBytes(uint64_t m, uint64_t n, uint64_t k);

// The work of C = A·B in bf16: 2·m·n·k flops, A and B read once (2 bytes an element), C
// written once (2 bytes); held to the bf16 tensor-core ceiling.
Work TcWork(uint64_t m, uint64_t n, uint64_t k);

// Checks C (m × n bf16 bits, row-major, compact) against the workload's reference: any NaN or
// Inf fails, then every checked element must be within TcTolerance.
Check CheckTc(const TcWorkload& work, const uint16_t* c);

// Base of every step of the chapter: the work and the check of C, which the step fills in
// ReadBack().
class TcStep : public StepOf<TcWorkload> {
public:
    using StepOf::StepOf;
    Check Verify() const override;
    // Its work is the chapter's declared rule (TcWork).

protected:
    // Copies C into m_c (m × n, compact).
    virtual void ReadBack() const = 0;
    mutable std::vector<uint16_t> m_c;
};

// The leading dimension of a matrix whose rows hold `columns` elements: the next multiple of
// 8 (16 bytes, what TMA and cp.async need).
inline uint64_t PaddedLd(uint64_t columns) {
    return (columns + 7) / 8 * 8;
}

// Device memory of the GPU steps (A, Bᵀ and C with padded rows, and room for cuBLAS's
// workspace) and host memory for the copy of C.
MemoryNeeds TcGpuNeeds(const ParamValues& params);

// The device part of kernels/tc/tc_hopper.cuh (embedded): from kHopperBk to the end of its
// `#if defined(__CUDA_ARCH__)` block, the Hopper helpers a student's kernel is compiled with
// (chapter 8's exercises, and chapter 10's Hopper ones). Throws std::logic_error when the file
// is not embedded or has no such part.
std::string HopperDevicePart();

}  // namespace lessons::tc
