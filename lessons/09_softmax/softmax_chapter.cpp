#include "softmax_chapter.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "checked.h"
#include "generators.h"
#include "host_timing.h"
#include "printed.h"

namespace lessons::softmax {

namespace {

// Standard normal values (Box-Muller) for the random data, or uniform in [-80, 80) for the large.
void FillData(uint64_t seed, float* out, uint64_t count, bool large,
              const std::atomic<bool>* cancel) {
    GenerateChunks(
        count, seed,
        [out, large](SplitMix64& rng, uint64_t begin, uint64_t n) {
            float* chunk = out + begin;
            for (uint64_t i = 0; i < n; ++i) {
                const double u1 = (double(rng.Next() >> 11) + 1.0) * 0x1.0p-53;  // (0, 1]
                const double u2 = double(rng.Next() >> 11) * 0x1.0p-53;          // [0, 1)
                chunk[i] =
                    large
                        ? float(160.0 * u2 - 80.0)
                        : float(std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2));
            }
        },
        cancel);
}

}  // namespace

SoftmaxWorkload::SoftmaxWorkload(const WorkloadSpec& spec)
    : m_m(spec.params.Number("m")),
      m_n(spec.params.Number("n")),
      m_bf16(spec.params.Choice("dtype") == "bf16") {
    const uint64_t count = m_m * m_n;  // fits: the memory check came first
    const bool large = spec.params.Choice("data") == "large";
    m_x.reset(new float[std::max<uint64_t>(count, 1)]);
    FillData(spec.seed, m_x.get(), count, large, spec.cancel);
    // RMSNorm's weights: uniform in [0.5, 1.5), from their own stream.
    m_w.resize(m_n);
    FillUniformFloats(spec.seed ^ 0x9e3779b97f4a7c15ull, m_w.data(), m_n, spec.cancel);
    for (float& v : m_w) v = 1.0f + 0.5f * v;
    if (m_bf16) {
        // bf16 from the start: the reference is computed from exactly the values the GPU reads.
        m_x_bf16.reset(new uint16_t[std::max<uint64_t>(count, 1)]);
        float* x = m_x.get();
        uint16_t* bits = m_x_bf16.get();
        const long long total = static_cast<long long>(count);
#pragma omp parallel for schedule(static)
        for (long long i = 0; i < total; ++i) {
            bits[i] = FloatToBf16Bits(x[i]);
            x[i] = Bf16BitsToFloat(bits[i]);
        }
        m_w_bf16.resize(m_n);
        for (uint64_t j = 0; j < m_n; ++j) {
            m_w_bf16[j] = FloatToBf16Bits(m_w[j]);
            m_w[j] = Bf16BitsToFloat(m_w_bf16[j]);
        }
    }
}

const void* SoftmaxWorkload::x_device_format() const {
    return m_bf16 ? static_cast<const void*>(m_x_bf16.get()) : m_x.get();
}

const void* SoftmaxWorkload::w_device_format() const {
    return m_bf16 ? static_cast<const void*>(m_w_bf16.data()) : m_w.data();
}

uint64_t SoftmaxWorkloadHostBytes(uint64_t m, uint64_t n, bool bf16) {
    const uint64_t count = SaturatingMul(m, n);
    const uint64_t x = SaturatingMul(count, bf16 ? 6 : 4);
    return SaturatingAdd(x, SaturatingMul(n, 6));
}

Work SoftmaxWork(uint64_t m, uint64_t n, bool bf16, Op op) {
    Work w;
    const uint64_t bytes = SaturatingMul(SaturatingMul(m, n), bf16 ? 2 : 4);
    w.bytes_read = bytes;
    if (op == Op::kRmsNorm) w.bytes_read = SaturatingAdd(bytes, SaturatingMul(n, bf16 ? 2 : 4));
    w.bytes_written = bytes;
    w.flops = SaturatingMul(SaturatingMul(m, n), op == Op::kSoftmax ? 5 : 3);
    w.bound = Bound::kCopy;
    return w;
}

Work RmsNormWork(const ParamValues& p) {
    return SoftmaxWork(p.Number("m"), p.Number("n"), p.Choice("dtype") == "bf16", Op::kRmsNorm);
}

namespace {

// The smallest power of two at least `need`, at most `cap`.
uint64_t PowerOfTwoCover(uint64_t need, uint64_t cap) {
    uint64_t k = 1;
    while (k < need && k < cap) k *= 2;
    return k;
}

}  // namespace

namespace {

// A variant choice ("lanes", "cluster") as a number, 0 for "auto" or where the lesson has none.
uint64_t VariantOf(const ParamValues& p, const char* name) {
    if (!p.Has(name)) return 0;
    const std::string& choice = p.Choice(name);
    return choice == "auto" ? 0 : std::strtoull(choice.c_str(), nullptr, 10);
}

}  // namespace

ClusterPlan SoftmaxClusterOf(uint64_t n, bool bf16, uint64_t asked) {
    const uint64_t chunks = (n * (bf16 ? 2 : 4) + 15) / 16;
    const auto part_of = [&](uint64_t c) { return (chunks + c - 1) / c * 16; };
    uint64_t c = asked;
    if (c == 0) {
        c = 1;
        while (c < kClusterMaxBlocks && part_of(c) > kClusterAimPartBytes) c *= 2;
    }
    if (c > kClusterMaxBlocks || part_of(c) > kClusterPartLimitBytes) return {c, 0};
    return {c, part_of(c)};
}

namespace {

// 9.5's threads a row (`asked`, or for 0 the fewest that leave each 8 chunks, at most the block)
// and chunks a thread (the smallest power of two, up to 16, that covers the row).
struct RowLanes {
    uint64_t lanes = 1, k = 1;
};
RowLanes RowLanesOf(uint64_t chunks, uint64_t block, uint64_t asked) {
    const uint64_t lanes =
        std::min<uint64_t>(asked ? asked : PowerOfTwoCover((chunks + 7) / 8, block), block);
    return {lanes, PowerOfTwoCover((chunks + lanes - 1) / lanes, 16)};
}

}  // namespace

ClusterPlan RmsNormClusterOf(uint64_t n, bool bf16, uint64_t block, uint64_t lanes) {
    const uint64_t chunks = (n * (bf16 ? 2 : 4) + 15) / 16;
    const RowLanes row = RowLanesOf(chunks, block, lanes);
    if (chunks <= row.k * row.lanes && row.k <= 8) return {1, 0};
    return SoftmaxClusterOf(n, bf16, 0);
}

uint64_t SoftmaxBytesInFlight(InFlightShape shape, const ParamValues& p) {
    const uint64_t n = p.Has("n") ? std::max<uint64_t>(p.Number("n"), 1) : 1024;
    const uint64_t block = p.Has("block") ? std::max<uint64_t>(p.Number("block"), 32) : 256;
    const uint64_t element = p.Has("dtype") && p.Choice("dtype") == "bf16" ? 2 : 4;
    const uint64_t chunk = 16, per_chunk = chunk / element;
    const uint64_t chunks = (n + per_chunk - 1) / per_chunk;
    switch (shape) {
        case InFlightShape::kElement:
            return element;
        case InFlightShape::kRowInRegisters: {
            const bool warp = n <= 1024;
            const uint64_t lanes = warp ? 32 : block;
            const uint64_t k = PowerOfTwoCover((n + lanes - 1) / lanes, warp ? 32 : 16);
            return n <= k * lanes ? k * element : element;
        }
        case InFlightShape::kChunksInRegisters:
        case InFlightShape::kRmsNorm: {
            const RowLanes row = RowLanesOf(chunks, block, VariantOf(p, "lanes"));
            if (shape == InFlightShape::kRmsNorm) {
                // 9.7's cluster: a block's part over its threads, as for kCluster.
                const ClusterPlan c = RmsNormClusterOf(n, element == 2, block, row.lanes);
                if (c.part_bytes) return (c.part_bytes / chunk + block - 1) / block * chunk;
            }
            return chunks <= row.k * row.lanes ? row.k * chunk : chunk;
        }
        case InFlightShape::kChunk:
            return chunk;
        case InFlightShape::kCluster: {
            // A block's part comes in at once (one bulk copy, or all of its threads' loads
            // before any wait): its chunks shared among the block's threads.
            const ClusterPlan c = SoftmaxClusterOf(n, element == 2, VariantOf(p, "cluster"));
            if (c.part_bytes == 0) return chunk;  // the two-kernel split, a chunk at a time
            return (c.part_bytes / chunk + block - 1) / block * chunk;
        }
    }
    return element;
}

double RelativeTolerance(double distance_from_max, uint64_t n, bool bf16) {
    const double fp32 =
        std::ldexp(4 + 1.2 * distance_from_max + 2 * std::sqrt(double(n)) + 16, -23);
    // bf16: one ulp of the result (2^-7 of it at most), not half: a faithful rounding of the
    // float result (toward zero, say, as a library may do) is off by up to one ulp.
    return bf16 ? fp32 + std::ldexp(1.0, -7) : fp32;
}

namespace {

constexpr MessageForm kWrongValues{
    "softmax.wrong-values",
    "{1} of {2} values wrong; first at row {3}, column {4}: {5}, expected {6} (tolerance {7})",
    "{2} 个值中有 {1} 个错误；第一个在第 {3} 行第 {4} 列：{5}，应为 {6}（容差 {7}）"};
constexpr MessageForm kWrongRowSum{
    "softmax.wrong-row-sum", "{1} rows do not sum to 1; first row {2} sums to {3} (tolerance {4})",
    "{1} 行之和不为 1；第一个是第 {2} 行，和为 {3}（容差 {4}）"};

// One row's check; returns into the row's own result, merged after.
template <typename Y>
void CheckRow(Op op, const Y* y, const float* x, const float* w, uint64_t row, uint64_t n,
              bool bf16, std::vector<double>& ref, SoftmaxCheckResult& r) {
    double max = 0;
    if (op == Op::kSoftmax)
        max = SoftmaxReferenceRow(x, n, ref.data());
    else
        RmsNormReferenceRow(x, w, n, ref.data());
    double sum = 0, sum_tolerance = 0;
    for (uint64_t j = 0; j < n; ++j) {
        double got;
        if constexpr (sizeof(Y) == 2)
            got = Bf16BitsToFloat(y[j]);
        else
            got = y[j];
        const double distance = op == Op::kSoftmax ? max - double(x[j]) : 0.0;
        const double tolerance =
            RelativeTolerance(distance, n, bf16) * std::fabs(ref[j]) + kAbsoluteTolerance;
        double error = std::fabs(got - ref[j]);
        if (std::isnan(error)) error = HUGE_VAL;
        sum += got;
        sum_tolerance += tolerance;
        r.worst_ratio = std::max(r.worst_ratio, error / tolerance);
        if (error <= tolerance) continue;
        if (r.wrong++ == 0) {
            r.first_row = row;
            r.first_col = j;
            r.got = got;
            r.expected = ref[j];
            r.tolerance = tolerance;
        }
    }
    if (op != Op::kSoftmax) return;
    double sum_error = std::fabs(sum - 1.0);
    if (std::isnan(sum_error)) sum_error = HUGE_VAL;
    r.worst_sum_error = std::max(r.worst_sum_error, sum_error);
    if (sum_error > sum_tolerance && r.bad_sum_rows++ == 0) {
        r.first_bad_sum_row = row;
        r.first_bad_sum = sum;
        r.first_bad_sum_tolerance = sum_tolerance;
    }
}

template <typename Y>
SoftmaxCheckResult CheckAll(Op op, const Y* y, const float* x, const float* w, uint64_t m,
                            uint64_t n, bool bf16) {
    SoftmaxCheckResult total;
    const int threads = omp_get_max_threads();
    std::vector<SoftmaxCheckResult> parts(threads);
#pragma omp parallel num_threads(threads)
    {
        const int t = omp_get_thread_num();
        std::vector<double> ref(n);
        SoftmaxCheckResult& r = parts[t];
        const long long rows = static_cast<long long>(m);
#pragma omp for schedule(static)
        for (long long i = 0; i < rows; ++i)
            CheckRow(op, y + uint64_t(i) * n, x + uint64_t(i) * n, w, uint64_t(i), n, bf16, ref, r);
    }
    // In thread order, which is row order under a static schedule: the first wrong row is found.
    for (const SoftmaxCheckResult& r : parts) {
        if (r.wrong && !total.wrong) {
            total.first_row = r.first_row;
            total.first_col = r.first_col;
            total.got = r.got;
            total.expected = r.expected;
            total.tolerance = r.tolerance;
        }
        total.wrong += r.wrong;
        if (r.bad_sum_rows && !total.bad_sum_rows) {
            total.first_bad_sum_row = r.first_bad_sum_row;
            total.first_bad_sum = r.first_bad_sum;
            total.first_bad_sum_tolerance = r.first_bad_sum_tolerance;
        }
        total.bad_sum_rows += r.bad_sum_rows;
        total.worst_ratio = std::max(total.worst_ratio, r.worst_ratio);
        total.worst_sum_error = std::max(total.worst_sum_error, r.worst_sum_error);
    }
    total.ok = total.wrong == 0 && total.bad_sum_rows == 0;
    return total;
}

}  // namespace

SoftmaxCheckResult CheckRows(Op op, const void* y, bool y_bits, const float* x, const float* w,
                             uint64_t m, uint64_t n, bool bf16) {
    if (y_bits) return CheckAll(op, static_cast<const uint16_t*>(y), x, w, m, n, bf16);
    return CheckAll(op, static_cast<const float*>(y), x, w, m, n, bf16);
}

std::vector<MessageForm> SoftmaxMessages() {
    return {kWrongValues, kWrongRowSum};
}

Check SoftmaxStep::Verify() const {
    const SoftmaxCheckResult r = CheckRows(m_op, Output(), OutputBits(), m_work.x(), m_work.w(),
                                           m_work.m(), m_work.n(), m_work.bf16());
    Check check;
    check.ok = r.ok;
    check.values = {{"wrong_values", double(r.wrong)}, {"error_over_tolerance", r.worst_ratio}};
    if (m_op == Op::kSoftmax) {
        check.values.push_back({"wrong_row_sums", double(r.bad_sum_rows)});
        check.values.push_back({"max_row_sum_error", r.worst_sum_error});
    }
    if (r.wrong)
        check.Fail(kWrongValues, {std::to_string(r.wrong), std::to_string(m_work.m() * m_work.n()),
                                  std::to_string(r.first_row), std::to_string(r.first_col),
                                  Printed("%.9g", r.got), Printed("%.9g", r.expected),
                                  Printed("%.3g", r.tolerance)});
    else if (r.bad_sum_rows)
        check.Fail(kWrongRowSum,
                   {std::to_string(r.bad_sum_rows), std::to_string(r.first_bad_sum_row),
                    Printed("%.9g", r.first_bad_sum), Printed("%.3g", r.first_bad_sum_tolerance)});
    return check;
}

MemoryNeeds SoftmaxCpuNeeds(const ParamValues& params) {
    // The output, as floats.
    const uint64_t count = SaturatingMul(params.Number("m"), params.Number("n"));
    return {SaturatingMul(count, sizeof(float)), 0};
}

MemoryNeeds SoftmaxGpuNeeds(const ParamValues& params) {
    const uint64_t n = params.Number("n");
    const uint64_t element = params.Choice("dtype") == "bf16" ? 2 : 4;
    const uint64_t bytes = SaturatingMul(SaturatingMul(params.Number("m"), n), element);
    // x and y on the GPU, with w and a MiB of slack; the host keeps a pinned copy of y.
    return {bytes, SaturatingAdd(SaturatingMul(bytes, 2),
                                 SaturatingAdd(SaturatingMul(n, element), uint64_t(1) << 20))};
}

MemoryNeeds SoftmaxClusterGpuNeeds(const ParamValues& params) {
    MemoryNeeds needs = SoftmaxGpuNeeds(params);
    // The split's pairs: 8 bytes for each 16384 elements of a row (and for each row).
    const uint64_t parts = params.Number("n") / 16384 + 1;
    needs.device_bytes = SaturatingAdd(needs.device_bytes,
                                       SaturatingMul(SaturatingMul(params.Number("m"), parts), 8));
    return needs;
}

namespace {

class CpuThreePassStep : public SoftmaxStep {
public:
    CpuThreePassStep(const Workload& w, int threads)
        : SoftmaxStep(w, Op::kSoftmax),
          m_threads(threads),
          m_out(new float[std::max<uint64_t>(m_work.m() * m_work.n(), 1)]) {}
    Sample Run() override {
        return TimeOnHost([this] {
            SoftmaxCpuThreePass(m_work.x(), m_out.get(), m_work.m(), m_work.n(), m_threads,
                                m_work.bf16());
        });
    }

protected:
    const void* Output() const override { return m_out.get(); }
    bool OutputBits() const override { return false; }

private:
    int m_threads;
    std::unique_ptr<float[]> m_out;
};

}  // namespace

std::unique_ptr<StepInstance> MakeSoftmaxCpu(const Workload& w, const StepContext& c) {
    return std::make_unique<CpuThreePassStep>(w, static_cast<int>(c.params.Number("threads")));
}

}  // namespace lessons::softmax
