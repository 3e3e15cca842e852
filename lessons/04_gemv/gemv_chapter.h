// Chapter 4, GEMV: the problem (A row-major m × n and x, the reference y in double, the check)
// and the base of its steps. Step code itself lives in kernels/gemv/.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gemv/gemv_cpu.h"
#include "lesson.h"
#include "message.h"
#include "step_of.h"

namespace lessons::gemv {

// Largest m and n: cuBLAS takes them (and the leading dimension n) as int.
constexpr uint64_t kMaxDimension = 2147483647;

class GemvWorkload : public Workload {
public:
    explicit GemvWorkload(const WorkloadSpec& spec);
    uint64_t SizeBytes() const override { return (m_m * m_n + m_n) * sizeof(float); }
    uint64_t m() const { return m_m; }
    uint64_t n() const { return m_n; }
    bool ones() const { return m_ones; }
    const float* a() const { return m_a.get(); }
    const float* x() const { return m_x.get(); }
    const std::vector<double>& y() const { return m_y; }
    const std::vector<double>& magnitude() const { return m_magnitude; }

private:
    uint64_t m_m = 0, m_n = 0;
    bool m_ones = false;
    std::unique_ptr<float[]> m_a, m_x;
    std::vector<double> m_y, m_magnitude;
};

// The work of y = A·x, the same for every step: A once and x read, y written, 2·m·n flops,
// against the read-only bandwidth. Saturates.
Work GemvWork(uint64_t m, uint64_t n);

// Host bytes of the workload: A, x, and the reference's two doubles per row. Saturates.
uint64_t GemvWorkloadHostBytes(uint64_t m, uint64_t n);

// How far a float y[i] may be from the reference: 0 for the all-ones data while n <= 2^24
// (every partial sum is an integer a float holds exactly), else
// 2^-23 x sum_j |a_ij x_j| x (sqrt(n) + 16): float rounding (2^-24 per operation) grows with
// the length of the sum; for random signs it grows like sqrt(n), and the 16 gives room for
// short rows and the last steps of a tree.
double GemvTolerance(double magnitude, uint64_t n, bool ones);

struct GemvCheckResult {
    bool ok = false;
    uint64_t wrong_rows = 0;
    uint64_t first_wrong = 0;  // meaningful when wrong_rows > 0
    double max_error = 0;      // the largest |y - reference| (inf when a row is NaN or inf)
    double worst_ratio = 0;    // the largest error / tolerance (inf for NaN, inf, or tolerance 0)
    std::string message;       // empty when ok
    // kGemvWrongRows's arguments when not ok: wrong rows, rows, the first's row, value,
    // expected value, error and tolerance.
    std::vector<std::string> args;
};

// What the check says, in both languages (the chapter registers it).
inline constexpr MessageForm kGemvWrongRows{
    "gemv.wrong-rows",
    "{1} of {2} rows wrong; first row {3}: {4}, expected {5} (off by {6}, tolerance {7})",
    "{2} 行中有 {1} 行不对；第一行是第 {3} 行：{4}，应为 {5}（差 {6}，容差 {7}）"};

// Checks every row of y (m floats) against the reference; NaN and inf fail.
GemvCheckResult CheckGemv(const float* y, const double* reference, const double* magnitude,
                          uint64_t m, uint64_t n, bool ones);

// Base of every GEMV step: its output (m floats on the host, after Run) and its check.
class GemvStep : public StepOf<GemvWorkload> {
public:
    using StepOf::StepOf;
    Check Verify() const override;
    // Its work is the chapter's declared rule (GemvWork).

protected:
    virtual const float* Output() const = 0;
};

// Device memory of a GPU step: A, x and y.
MemoryNeeds GemvGpuNeeds(const ParamValues& params);

}  // namespace lessons::gemv
