// Chapter 9, softmax and RMSNorm over rows: the problem (x row-major m × n in fp32 or bf16, the
// weight vector of RMSNorm, the double-precision reference, the check with its tolerance) and the
// base of its steps. Step code itself lives in kernels/softmax/.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lesson.h"
#include "softmax/softmax_cpu.h"

namespace lessons::softmax {

// Largest m and n: the kernels index a row with int, cuDNN takes them as int.
constexpr uint64_t kMaxDimension = 2147483647;

// The operation a step computes.
enum class Op { kSoftmax, kRmsNorm };

class SoftmaxWorkload : public Workload {
public:
    explicit SoftmaxWorkload(const WorkloadSpec& spec);
    uint64_t SizeBytes() const override { return m_m * m_n * ElementBytes(); }
    uint64_t m() const { return m_m; }
    uint64_t n() const { return m_n; }
    bool bf16() const { return m_bf16; }
    uint64_t ElementBytes() const { return m_bf16 ? 2 : 4; }
    // The input's values (exactly the bf16 values when the dtype is bf16) and RMSNorm's weights.
    const float* x() const { return m_x.get(); }
    const float* w() const { return m_w.data(); }
    // The input and the weights as the GPU takes them: floats, or bf16 bits.
    const void* x_device_format() const;
    const void* w_device_format() const;

private:
    uint64_t m_m = 0, m_n = 0;
    bool m_bf16 = false;
    std::unique_ptr<float[]> m_x;
    std::unique_ptr<uint16_t[]> m_x_bf16;
    std::vector<float> m_w;
    std::vector<uint16_t> m_w_bf16;
};

// Host bytes of the workload: x as floats, its bf16 copy, w. Saturates.
uint64_t SoftmaxWorkloadHostBytes(uint64_t m, uint64_t n, bool bf16);

// The work of a step: x read once and y written once (and w read for RMSNorm), the dtype's bytes
// an element, held to the copy bandwidth; about 5 flops an element. Saturates.
Work SoftmaxWork(uint64_t m, uint64_t n, bool bf16, Op op);

// How far an output element may be from the double reference, relative to it:
//   fp32: 2^-23 · (4 + 1.2·|x - max| + 2·sqrt(n) + 16) — the fast exponential's error
//         (2 + 1.16·|x| ulp, its argument being x - max, itself rounded in float), and the
//         float sum's rounding, which grows like sqrt(n) for a sum of n terms with random
//         rounding (twice that: one thread adding a whole row in order, lesson 9.2, reached
//         0.7 of sqrt(n) ulp at 4M columns) and stays under 16 ulp for a short tree;
//   bf16: the same plus 2^-7, one bf16 ulp (8 significant bits: an ulp is at most 2^-7 of the
//         value). Not half an ulp: our kernels round the float result to nearest, but a
//         library need not (cuDNN's bf16 softmax on the H200 had values off by 0.4 to 0.55 %
//         of the value, more than half an ulp, less than one), and any rounding that returns one of
//         the two bf16 neighbours of the float result is a faithful answer.
// Plus 2^-100 absolute: results that underflow float's normal range may be flushed to zero.
// For RMSNorm |x - max| is 0 (no exponential): 2^-23 · (4 + 2·sqrt(n) + 16) (+ 2^-7 for bf16).
double RelativeTolerance(double distance_from_max, uint64_t n, bool bf16);
constexpr double kAbsoluteTolerance = 7.888609052210118e-31;  // 2^-100

struct SoftmaxCheckResult {
    bool ok = false;
    uint64_t wrong = 0;  // elements off by more than their tolerance (NaN counts)
    uint64_t first_row = 0, first_col = 0;
    double got = 0, expected = 0, tolerance = 0;  // of the first wrong element
    double worst_ratio = 0;          // the largest error / tolerance (inf for NaN or inf)
    uint64_t bad_sum_rows = 0;       // softmax rows whose sum is off 1 by more than the row's
    uint64_t first_bad_sum_row = 0;  //   tolerance (the sum of its elements' tolerances)
    double first_bad_sum = 0, first_bad_sum_tolerance = 0;
    double worst_sum_error = 0;  // the largest |row sum - 1| (softmax)
};

// Checks y (m × n, floats or bf16 bits as `bf16` says) against the reference of `op`, row by row
// (OpenMP), the reference computed on the fly in double.
// `y_bits` says how y is stored (bf16 bits or floats); `bf16` is the dtype, which sets the
// tolerance (the CPU step keeps its bf16-rounded results in floats).
SoftmaxCheckResult CheckRows(Op op, const void* y, bool y_bits, const float* x, const float* w,
                             uint64_t m, uint64_t n, bool bf16);

// What the check says, in both languages (Chapter::messages).
std::vector<MessageForm> SoftmaxMessages();

// Base of every step: its output (m × n on the host, after Run; floats or bf16 bits) and the
// check of its operation.
class SoftmaxStep : public StepInstance {
public:
    SoftmaxStep(const Workload& workload, Op op)
        : m_work(static_cast<const SoftmaxWorkload&>(workload)), m_op(op) {}
    Check Verify() const override;

protected:
    // The output as the dtype stores it: floats, or bf16 bits.
    virtual const void* Output() const = 0;
    // Whether Output() holds bf16 bits (a GPU step in bf16) rather than floats.
    virtual bool OutputBits() const { return m_work.bf16(); }
    const SoftmaxWorkload& m_work;
    Op m_op;
};

MemoryNeeds SoftmaxCpuNeeds(const ParamValues& params);
// Device memory of a GPU step: x, y and w; the host's pinned copy of y.
MemoryNeeds SoftmaxGpuNeeds(const ParamValues& params);
// The same with lesson 9.7's workspace (its split's pairs, where clusters are absent).
MemoryNeeds SoftmaxClusterGpuNeeds(const ParamValues& params);
Work RmsNormWork(const ParamValues& params);

// The bytes one thread of a hand-written step has in flight (the prediction box's Little's law):
// the loads it issues before it needs their values, for the instance its launch picks at (n,
// dtype, block, variant) on the reference GPU (sm_90), where the registers leave room for it (a
// smaller instance, or a row re-read, has fewer). Each shape is one kernel's way of reading a row:
//   kElement: one element per loop iteration (9.2, 9.3);
//   kRowInRegisters: 9.4's K elements per thread, unrolled (a warp per row up to 1024 columns,
//     K <= 32; else a block, K <= 16; a longer row is read element by element);
//   kChunksInRegisters: 9.5's K chunks of 16 bytes (`lanes` threads a row: as chosen, or the
//     fewest that leave each 8 chunks, at most the block; K <= 16; a longer row is read a chunk at
//     a time);
//   kRmsNorm: 9.8's, the same while each thread keeps at most 8 chunks; longer rows in 9.7's
//     cluster (RmsNormClusterOf), a block's part over its threads, else as kChunksInRegisters;
//   kChunk: 9.6's one chunk of 16 bytes per iteration of its running pair;
//   kCluster: 9.7's part of a row a block (C blocks a row, SoftmaxClusterOf), loaded at once into
//     shared memory, over the block's threads; a chunk at a time in the two-kernel split.
enum class InFlightShape {
    kElement,
    kRowInRegisters,
    kChunksInRegisters,
    kRmsNorm,
    kChunk,
    kCluster
};
uint64_t SoftmaxBytesInFlight(InFlightShape shape, const ParamValues& params);

// 9.7's launch plan on the reference GPU (sm_90), as kernels/softmax/cluster.cu's PlanFor picks
// it: C blocks a row (`asked`, or for 0 the fewest, a power of two up to 16, that leave each block
// at most 32 KiB of the row, else 16), each keeping its part (ceil(chunks / C) chunks of 16
// bytes) in shared memory; part_bytes 0 when the part does not fit a block's shared memory (or C
// is above 16): the two-kernel split.
constexpr uint64_t kClusterAimPartBytes = 32 * 1024;
constexpr uint64_t kClusterMaxBlocks = 16;
// sm_90's 227 KiB a block, less the kernel's own 512 bytes (pairs, barriers, scratch).
constexpr uint64_t kClusterPartLimitBytes = 227 * 1024 - 512;
struct ClusterPlan {
    uint64_t blocks = 1, part_bytes = 0;
};
ClusterPlan SoftmaxClusterOf(uint64_t n, bool bf16, uint64_t asked);
// 9.8's cluster, as kernels/softmax/rmsnorm.cu's PlanFor picks it on the reference GPU: none
// (part_bytes 0: lesson 9.5's kernel, a row over `lanes` threads) while the row fits `lanes`
// threads (as asked, or for 0 the fewest that leave each 8 chunks of 16 bytes, at most the block)
// at 8 chunks a thread at most; else 9.7's automatic cluster (SoftmaxClusterOf with asked 0),
// where its part fits a block's shared memory.
ClusterPlan RmsNormClusterOf(uint64_t n, bool bf16, uint64_t block, uint64_t lanes);

std::unique_ptr<StepInstance> MakeSoftmaxCpu(const Workload& w, const StepContext& c);

}  // namespace lessons::softmax
