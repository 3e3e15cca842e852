// How a multi-GPU step splits n elements into one share per GPU: contiguous, in GPU order,
// each share's start a multiple of `align` elements (whole pages for copies, whole vectors
// for kernels), the sizes as equal as that allows. Shares may be empty (n smaller than
// parts x align); together they cover [0, n) exactly once. No CUDA: tested on the host.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace lessons {

struct Share {
    uint64_t begin = 0;
    uint64_t end = 0;  // one past the last element
    uint64_t size() const { return end - begin; }
    bool empty() const { return end == begin; }
};

inline Share ShareOf(uint64_t n, int parts, int i, uint64_t align = 1) {
    if (parts <= 0 || i < 0 || i >= parts) return {n, n};
    if (align == 0) align = 1;
    const uint64_t units = (n + align - 1) / align;  // the last unit may be partial
    const auto start = [&](int k) {
        const uint64_t u = units / uint64_t(parts) * uint64_t(k) +
                           std::min<uint64_t>(uint64_t(k), units % uint64_t(parts));
        return std::min(n, u * align);
    };
    return {start(i), start(i + 1)};
}

inline std::vector<Share> Shares(uint64_t n, int parts, uint64_t align = 1) {
    std::vector<Share> out;
    for (int i = 0; i < parts; ++i) out.push_back(ShareOf(n, parts, i, align));
    return out;
}

// Chapter 1's rule at a share's end: a share scans the pairs that start in it, so its copy
// takes one byte past its end (the '\n' of a pair that straddles the boundary) when there is
// one. The bytes a GPU receives for share s of an n-byte text.
inline uint64_t SplitShareBytes(const Share& s, uint64_t n) {
    return s.empty() ? 0 : s.size() + (s.end < n ? 1 : 0);
}

}  // namespace lessons
