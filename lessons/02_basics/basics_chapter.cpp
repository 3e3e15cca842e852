#include "basics_chapter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "basics/basics_choices.h"
#include "basics/basics_index.h"
#include "checked.h"
#include "generators.h"

namespace lessons::basics {

BasicsWorkload::BasicsWorkload(const WorkloadSpec& spec)
    : FloatsWorkload(spec), m_b(Floats(spec, spec.seed + 0x9e3779b9u)) {}

uint64_t BasicsWorkloadHostBytes(uint64_t size_bytes) {
    return SaturatingAdd(size_bytes, size_bytes);
}

uint64_t VecMatColumns(uint64_t count, uint64_t rows) {
    return rows ? count / rows : 0;
}

namespace {

Check Mismatch(const char* what, uint64_t i, double got, double want, double tolerance,
               uint64_t wrong, std::vector<NamedValue> values) {
    Check check;
    check.ok = false;
    check.values = std::move(values);
    char msg[256];
    std::snprintf(msg, sizeof msg, "%llu of the %s differ; first at %llu: %.9g, expected %.9g%s",
                  static_cast<unsigned long long>(wrong), what, static_cast<unsigned long long>(i),
                  got, want, tolerance > 0 ? " (beyond the tolerance)" : "");
    check.message = msg;
    return check;
}

}  // namespace

Check CheckVecMat(const float* a, const float* x, uint64_t rows, uint64_t cols, const float* y) {
    std::vector<double> want(cols), mag(cols);
    VecMatReference(a, x, rows, cols, want.data(), mag.data());
    uint64_t wrong = 0, first = 0;
    double max_error = 0;
    const double factor = std::ldexp(double(rows) + 2, -23);
    for (uint64_t j = 0; j < cols; ++j) {
        const double error = std::fabs(double(y[j]) - want[j]);
        if (!(error <= factor * mag[j])) {  // NaN is wrong too
            if (!wrong++) first = j;
        }
        if (error > max_error || std::isnan(error)) max_error = error;
    }
    std::vector<NamedValue> values{{"columns", double(cols)}, {"max_error", max_error}};
    if (wrong)
        return Mismatch("outputs y", first, y[first], want[first], factor * mag[first], wrong,
                        std::move(values));
    Check check;
    check.ok = true;
    check.values = std::move(values);
    return check;
}

Work VecMatWork(uint64_t rows, uint64_t cols) {
    Work w;
    w.bytes_read = (rows * cols + (cols ? rows : 0)) * sizeof(float);
    w.bytes_written = cols * sizeof(float);
    w.flops = 2 * rows * cols;
    w.bound = Bound::kRead;
    return w;
}

Check CheckDivergence(const float* in, uint64_t n, unsigned ways, const float* out) {
    // Both are linear in v (the tolerance in |v|): two numbers per case, computed once.
    double base[kCases], slope[kCases], tol_base[kCases], tol_slope[kCases];
    for (unsigned k = 0; k < kCases; ++k) {
        base[k] = CaseResult(k, 0);
        slope[k] = CaseResult(k, 1) - base[k];
        tol_base[k] = CaseTolerance(k, 0);
        tol_slope[k] = CaseTolerance(k, 1) - tol_base[k];
    }
    uint64_t wrong = 0, first = 0;
    double max_error = 0, first_want = 0;
    for (uint64_t i = 0; i < n; ++i) {
        const unsigned k = CaseOf(i, ways);
        const double v = in[i];
        const double want = base[k] + slope[k] * v;
        const double error = std::fabs(double(out[i]) - want);
        if (!(error <= tol_base[k] + tol_slope[k] * std::fabs(v))) {
            if (!wrong++) {
                first = i;
                first_want = want;
            }
        }
        if (error > max_error || std::isnan(error)) max_error = error;
    }
    std::vector<NamedValue> values{{"max_error", max_error}};
    if (wrong)
        return Mismatch("outputs", first, out[first], first_want, 1, wrong, std::move(values));
    Check check;
    check.ok = true;
    check.values = std::move(values);
    return check;
}

Work DivergenceWork(uint64_t n) {
    Work w;
    w.bytes_read = n * sizeof(float);
    w.bytes_written = n * sizeof(float);
    w.flops = 2 * uint64_t(kIterations) * n;
    w.bound = Bound::kFp32;
    return w;
}

Check CheckAdd(const float* a, const float* b, uint64_t n, const float* c) {
    uint64_t wrong = 0, first = 0;
    for (uint64_t i = 0; i < n; ++i) {
        const float want = a[i] + b[i];
        if (std::memcmp(&want, &c[i], sizeof want) != 0 && !wrong++) first = i;
    }
    if (wrong)
        return Mismatch("sums", first, c[first], double(a[first]) + double(b[first]), 0, wrong, {});
    Check check;
    check.ok = true;
    return check;
}

Work AddWork(uint64_t n) {
    Work w;
    w.bytes_read = 2 * n * sizeof(float);
    w.bytes_written = n * sizeof(float);
    w.flops = n;
    w.bound = Bound::kCopy;
    return w;
}

Check CheckTransfer(const float* sent, const float* received, uint64_t n) {
    uint64_t wrong = 0, first = 0;
    for (uint64_t i = 0; i < n; ++i)
        if (std::memcmp(&sent[i], &received[i], sizeof(float)) != 0 && !wrong++) first = i;
    if (wrong) return Mismatch("floats copied", first, received[first], sent[first], 0, wrong, {});
    Check check;
    check.ok = true;
    return check;
}

Work TransferWork(uint64_t bytes) {
    Work w;
    w.h2d_bytes = bytes;
    w.bytes_written = bytes;  // into device memory: the roofline places it at 0 flops per byte
    w.bound = Bound::kH2D;
    w.rate_part = "h2d";
    return w;
}

double BreakEvenRuns(double extra_alloc_ms, double saved_ms) {
    if (!(saved_ms > 0)) return -1;
    return std::max(0.0, extra_alloc_ms) / saved_ms;
}

namespace {

uint64_t Bytes(const ParamValues& p) {
    return p.Number("size");
}

}  // namespace

MemoryNeeds VecMatNeeds(const ParamValues& p) {
    const uint64_t count = Bytes(p) / sizeof(float), rows = p.Number("rows");
    const uint64_t cols = VecMatColumns(count, rows);
    const uint64_t y = cols * sizeof(float);
    return {SaturatingAdd(y, 2 * cols * sizeof(double)),
            SaturatingAdd(Bytes(p), y + rows * sizeof(float) + (uint64_t(1) << 20))};
}

MemoryNeeds DivergenceNeeds(const ParamValues& p) {
    return {Bytes(p), SaturatingAdd(Bytes(p), Bytes(p))};
}

MemoryNeeds AddNeeds(const ParamValues& p) {
    // Three arrays, each with room for the offset and a whole last tile (32 x 32 floats).
    const uint64_t pad = (kMaxOffset + kWarp * kWarp) * sizeof(float);
    const uint64_t one = SaturatingAdd(Bytes(p), pad);
    return {Bytes(p), SaturatingAdd(one, SaturatingAdd(one, one))};
}

MemoryNeeds TransferNeeds(const ParamValues& p) {
    return {SaturatingAdd(Bytes(p), Bytes(p)), Bytes(p)};
}

}  // namespace lessons::basics
