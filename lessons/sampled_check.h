// Which elements of a matrix product C = A·B a check compares with the CPU reference, and their
// reference values: shared by the chapters that multiply matrices (GEMM, tensor cores).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "checked.h"
#include "generators.h"
#include "lesson.h"

namespace lessons {

// Up to this many multiply-adds (512³), or up to 2 · kSampledElements elements of C, the check
// compares every element of C; above, kSampledElements elements and more (and a scan of all of
// C for NaN and Inf).
constexpr uint64_t kFullCheckMacs = uint64_t(512) * 512 * 512;
constexpr int kSampledElements = 4096;

// The elements of an m × n C (row-major indices) to check, and their reference values:
// - every element when the product is small (kFullCheckMacs) or C is: `full(values, magnitudes)`
//   fills the whole reference at once, and `*full_check` is set;
// - else the four corners, the last row and column (where edge tiles end), and random elements
//   from `seed`, kSampledElements in all at least, each computed by `at(row, col)` (in parallel).
// Element is {double value, magnitude}.
template <class Element, class Full, class At>
void ChooseCheckedElements(int m, int n, int k, uint64_t seed, const Full& full, const At& at,
                           bool* full_check, std::vector<uint64_t>* checked,
                           std::vector<Element>* reference) {
    const uint64_t cells = uint64_t(m) * uint64_t(n);
    // Few elements (a long k): checking them all costs no more than sampling.
    *full_check = cells * uint64_t(k) <= kFullCheckMacs || cells <= 2 * uint64_t(kSampledElements);
    if (*full_check) {
        std::vector<double> value(cells), magnitude(cells);
        full(value.data(), magnitude.data());
        checked->resize(cells);
        reference->resize(cells);
        for (uint64_t i = 0; i < cells; ++i) {
            (*checked)[i] = i;
            (*reference)[i] = {value[i], magnitude[i]};
        }
        return;
    }
    const uint64_t last_row = uint64_t(m - 1) * n, last = cells - 1;
    *checked = {0, uint64_t(n - 1), last_row, last};
    for (int i = 0; i < 128; ++i) {
        checked->push_back(last_row + uint64_t(i) * uint64_t(n - 1) / 127);
        checked->push_back(uint64_t(i) * uint64_t(m - 1) / 127 * n + uint64_t(n - 1));
    }
    SplitMix64 rng(seed);
    while (checked->size() < size_t(kSampledElements) + 260) checked->push_back(rng.Next() % cells);
    std::sort(checked->begin(), checked->end());
    checked->erase(std::unique(checked->begin(), checked->end()), checked->end());
    reference->resize(checked->size());
#if defined(_OPENMP)  // the chapters' .cpp files (a .cu that includes this never instantiates it)
#pragma omp parallel for schedule(dynamic, 16)
#endif
    for (long long i = 0; i < static_cast<long long>(checked->size()); ++i) {
        const uint64_t e = (*checked)[size_t(i)];
        (*reference)[size_t(i)] =
            at(static_cast<int>(e / uint64_t(n)), static_cast<int>(e % uint64_t(n)));
    }
}

// The host memory of an m × n product's check: the reference, its magnitudes and the checked
// indices while a full check builds them (8 + 8 + 8 + 16 bytes an element), or a few thousand
// sampled elements (ChooseCheckedElements).
inline uint64_t CheckedElementsHostBytes(uint64_t m, uint64_t n, uint64_t k) {
    const uint64_t cells = SaturatingMul(m, n);
    return SaturatingMul(cells, k) <= kFullCheckMacs || cells <= 2 * uint64_t(kSampledElements)
               ? SaturatingMul(cells, 40)
               : uint64_t(kSampledElements + 300) * 24;
}

// What a product chapter's workload keeps for its check beside its operands: the shape of
// C = A·B (m × n, k deep, from the parameters m, n and k), and the elements of C its check
// compares with the reference (`Choose` picks them, as ChooseCheckedElements does).
template <class Element>
class SampledProduct {
public:
    int m() const { return m_m; }
    int n() const { return m_n; }
    int k() const { return m_k; }
    bool full_check() const { return m_full; }
    // The checked elements: every element of C (full_check) or the samples, row-major index.
    const std::vector<uint64_t>& checked() const { return m_checked; }
    const std::vector<Element>& reference() const { return m_reference; }

protected:
    explicit SampledProduct(const ParamValues& p)
        : m_m(static_cast<int>(p.Number("m"))),
          m_n(static_cast<int>(p.Number("n"))),
          m_k(static_cast<int>(p.Number("k"))) {}
    template <class Full, class At>
    void Choose(uint64_t seed, const Full& full, const At& at) {
        ChooseCheckedElements(m_m, m_n, m_k, seed, full, at, &m_full, &m_checked, &m_reference);
    }
    int m_m = 0, m_n = 0, m_k = 0;

private:
    bool m_full = true;
    std::vector<uint64_t> m_checked;
    std::vector<Element> m_reference;
};

// The check of a product C (m × n, row-major) against the elements ChooseCheckedElements chose:
// any element of C that is NaN or Inf fails (`not_finite(i)`), then every checked element
// (`got(i)`, as a double, printed with `digits` significant digits) must be within
// `tolerance(reference element)` of its reference value. The values results carry: the number
// checked, `tolerance_relative`, the worst error over its tolerance, and the NaN/Inf count.
template <class Element, class NotFinite, class Got, class Tolerance>
Check CheckProduct(int m, int n, const std::vector<uint64_t>& checked,
                   const std::vector<Element>& reference, const NotFinite& not_finite,
                   const Got& got, const Tolerance& tolerance, double tolerance_relative,
                   int digits) {
    Check check;
    const uint64_t cells = uint64_t(m) * uint64_t(n);
    const auto where = [&](uint64_t at) {
        return "C[" + std::to_string(at / uint64_t(n)) + "][" + std::to_string(at % uint64_t(n)) +
               "]";
    };
    uint64_t bad = 0, first_bad = 0;
    for (uint64_t i = 0; i < cells; ++i)
        if (not_finite(i) && bad++ == 0) first_bad = i;
    double worst = 0;  // the largest error / tolerance
    uint64_t wrong = 0;
    std::string first_wrong;
    for (size_t s = 0; s < checked.size(); ++s) {
        const uint64_t at = checked[s];
        const double value = got(at);
        const double error = std::fabs(value - reference[s].value);
        const double allowed = tolerance(reference[s]);
        if (!(error <= allowed) && wrong++ == 0) {  // NaN compares false: it fails here too
            char msg[200];
            std::snprintf(msg, sizeof msg, " = %.*g, expected %.9g (off by %.3g, tolerance %.3g)",
                          digits, value, reference[s].value, error, allowed);
            first_wrong = where(at) + msg;
        }
        if (allowed > 0)
            worst = std::max(worst, error / allowed);
        else if (error > 0)
            worst = INFINITY;
    }
    check.values = {{"checked_elements", double(checked.size())},
                    {"tolerance_relative", tolerance_relative},
                    {"worst_error_vs_tolerance", worst},
                    {"not_finite", double(bad)}};
    check.ok = bad == 0 && wrong == 0;
    if (bad)
        check.message =
            std::to_string(bad) + " elements of C are NaN or Inf, the first " + where(first_bad);
    else if (wrong)
        check.message = std::to_string(wrong) + " of " + std::to_string(checked.size()) +
                        " checked elements wrong; " + first_wrong;
    return check;
}

}  // namespace lessons
