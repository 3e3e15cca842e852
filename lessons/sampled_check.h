// Which elements of a matrix product C = A·B a check compares with the CPU reference, and their
// reference values: shared by the chapters that multiply matrices (GEMM, tensor cores).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "generators.h"

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

}  // namespace lessons
