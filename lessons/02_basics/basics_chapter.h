// Chapter 2, GPU performance basics: four small problems on one data set (two arrays of
// floats), each lesson a family of kernels doing the same work. The data, the checks and the
// work of each problem; step code lives in kernels/basics/.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "basics/basics_cpu.h"
#include "floats_workload.h"
#include "lesson.h"

namespace lessons::basics {

// Two arrays of `size / 4` floats each: a (the matrix, the input, the first addend, the
// buffer to transfer) and b (the vector x, the second addend).
class BasicsWorkload : public FloatsWorkload {
public:
    explicit BasicsWorkload(const WorkloadSpec& spec);
    const float* a() const { return data(); }
    const float* b() const { return m_b.get(); }

private:
    std::unique_ptr<float[]> m_b;
};

uint64_t BasicsWorkloadHostBytes(uint64_t size_bytes);

// Global vs shared: the matrix is `rows` rows of count / rows columns of a (what is left over is
// not used); x is the first `rows` floats of b.
uint64_t VecMatColumns(uint64_t count, uint64_t rows);
// y against the double reference within (rows + 2) * 2^-23 * sum |x_i a_ij| per column
// (exact for the all-ones data).
Check CheckVecMat(const float* a, const float* x, uint64_t rows, uint64_t cols, const float* y);
// Reads A once, x once, writes y: a read-mostly step, 2 flops per element of A.
Work VecMatWork(uint64_t rows, uint64_t cols);

// Branch divergence: out[i] is case CaseOf(i, ways)'s loop applied to in[i].
Check CheckDivergence(const float* in, uint64_t n, unsigned ways, const float* out);
// Reads and writes n floats, 2 * kIterations flops each: bound by the fp32 peak.
Work DivergenceWork(uint64_t n);

// Coalescing: c[i] == a[i] + b[i] exactly (a float add rounds the same everywhere).
Check CheckAdd(const float* a, const float* b, uint64_t n, const float* c);
// Reads 2n floats, writes n: against the copy bandwidth.
Work AddWork(uint64_t n);

// Pinned transfers: the device's copy equals the host's bytes.
Check CheckTransfer(const float* sent, const float* received, uint64_t n);
Work TransferWork(uint64_t bytes);
// Runs of a transfer after which paying `extra_alloc_ms` once to save `saved_ms` per run has
// paid off; negative when nothing is saved.
double BreakEvenRuns(double extra_alloc_ms, double saved_ms);

MemoryNeeds VecMatNeeds(const ParamValues& params);
MemoryNeeds DivergenceNeeds(const ParamValues& params);
MemoryNeeds AddNeeds(const ParamValues& params);
MemoryNeeds TransferNeeds(const ParamValues& params);

}  // namespace lessons::basics
