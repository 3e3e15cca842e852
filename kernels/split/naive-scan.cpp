// Naive scan: look at every byte and the one after it.
// Two loads and up to two compares per byte, one byte at a time on one core: the baseline
// every later step is measured against.
#include "split_cpu.h"

namespace lessons::split {

uint64_t SplitNaive(const char* buf, uint64_t n, uint64_t* out) {
    uint64_t found = 0;
    for (uint64_t i = 0; i + 1 < n; ++i) {
        if (buf[i] == '\r' && buf[i + 1] == '\n') out[found++] = i + 2;
    }
    return found;
}

}  // namespace lessons::split
