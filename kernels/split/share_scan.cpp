// Each-scans-its-share's rule on the host: the pairs that start in [begin, end), seen through only
// the bytes the share's GPU receives (engine/shares.h's SplitShareBytes).
#include "share_scan.h"

namespace lessons::split {

uint64_t SplitShareScan(const char* bytes, uint64_t begin, uint64_t end, uint64_t n,
                        uint64_t* out) {
    const uint64_t size = end - begin;
    const uint64_t received = size ? size + (end < n ? 1 : 0) : 0;
    uint64_t found = 0;
    for (uint64_t i = 0; i < size; ++i)
        if (i + 1 < received && bytes[i] == '\r' && bytes[i + 1] == '\n')
            out[found++] = begin + i + 2;
    return found;
}

}  // namespace lessons::split
