// Chapter 5, GEMM: the problem (A and B, the reference, the check with its tolerance, the
// work) and the base of its steps. Step code itself lives in kernels/gemm/.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gemm/gemm_cpu.h"
#include "lesson.h"
#include "sampled_check.h"
#include "step_of.h"

namespace lessons::gemm {

// The largest m, n or k: the kernels index with int, and time and memory run out long before.
constexpr uint64_t kMaxDimension = 32768;

// How far an element of C may be from the reference, relative to the sum of |a|·|b| over
// its products. fp32: 8·2^-24·sqrt(k). Rounding a sum of k products in fp32 errs by at most
// about k·2^-24 of that sum in the worst case, but with independent roundings the error grows
// like sqrt(k) (and the worst-case bound would let a missing product pass once k is large);
// 8·sqrt(k) units is far above what any correct order of summation gives. TF32 steps also
// round A and B to 10-bit mantissas (relative error up to 2^-11 each), which adds
// 16·2^-11/sqrt(k): about 1.5 standard deviations of that rounding noise times 10.
double GemmTolerance(int k, bool tf32);

class GemmWorkload : public Workload, public SampledProduct<ReferenceElement> {
public:
    explicit GemmWorkload(const WorkloadSpec& spec);
    uint64_t SizeBytes() const override {
        return (uint64_t(m_m) * m_k + uint64_t(m_k) * m_n) * sizeof(float);
    }
    const float* a() const { return m_a.data(); }
    const float* b() const { return m_b.data(); }

private:
    std::vector<float> m_a, m_b;
};

uint64_t GemmWorkloadHostBytes(uint64_t m, uint64_t n, uint64_t k);

// The work of C = A·B: 2·m·n·k flops, A and B read once, C written once; held to the TF32
// tensor-core peak (`tf32`: the tensor-core steps) or the fp32 FMA peak.
Work GemmWork(uint64_t m, uint64_t n, uint64_t k, bool tf32);

// Checks C (m × n floats, row-major) against the workload's reference: any NaN or Inf fails,
// then every checked element must be within GemmTolerance(k, tf32) × its magnitude.
Check CheckGemm(const GemmWorkload& work, const float* c, bool tf32);

// Base of every GEMM step: the work and the check of C, which the step fills in ReadBack().
class GemmStep : public StepOf<GemmWorkload> {
public:
    GemmStep(const Workload& workload, bool tf32) : StepOf(workload), m_tf32(tf32) {}
    Check Verify() const override;
    // Its work is the lesson's declared rule (GemmWork, fp32 or TF32 as its step kind says).

protected:
    // Copies C into m_c (m × n floats).
    virtual void ReadBack() const = 0;
    bool m_tf32;
    mutable std::vector<float> m_c;
};

// Device memory of the GPU steps (A, B, C, and room for cuBLAS's workspace).
MemoryNeeds GemmGpuNeeds(const ParamValues& params);

}  // namespace lessons::gemm
