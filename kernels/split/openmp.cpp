// OpenMP: the even-positions loop shared among OpenMP threads.
// Every even position is independent, so the loop splits across cores; hits are claimed
// with one atomic counter (they are rare in text, so it is not the bottleneck). More threads
// help until something shared limits them (cores, memory, first-touch placement); the
// output order is not sorted.
#include <omp.h>

#include "split_cpu.h"

namespace lessons::split {

uint64_t SplitOpenMP(const char* buf, uint64_t n, uint64_t* out, int threads) {
    uint64_t found = 0;
    const int64_t pairs = static_cast<int64_t>((n + 1) / 2);
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t p = 0; p < pairs; ++p) {
        const uint64_t i = static_cast<uint64_t>(p) * 2;
        const char c = buf[i];
        uint64_t offset = 0;
        if (c == '\r') {
            if (i + 1 < n && buf[i + 1] == '\n') offset = i + 2;
        } else if (c == '\n') {
            if (i > 0 && buf[i - 1] == '\r') offset = i + 1;
        }
        if (offset) {
            uint64_t slot;
#pragma omp atomic capture
            slot = found++;
            out[slot] = offset;
        }
    }
    return found;
}

}  // namespace lessons::split
