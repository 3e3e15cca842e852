// The reference answer every split step is checked against: one comparison per byte, in
// order, written without any of the tricks the lessons teach.
#include "split_cpu.h"

namespace lessons::split {

std::vector<uint64_t> SplitReference(const char* buf, uint64_t n) {
    std::vector<uint64_t> out;
    for (uint64_t i = 0; i + 1 < n; ++i) {
        if (buf[i] == '\r' && buf[i + 1] == '\n') out.push_back(i + 2);
    }
    return out;
}

}  // namespace lessons::split
