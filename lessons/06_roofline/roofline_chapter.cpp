#include "roofline_chapter.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "checked.h"
#include "generators.h"
#include "roofline/roofline_cpu.h"

namespace lessons::roofline {

std::vector<uint64_t> CheckedIndices(uint64_t count) {
    std::vector<uint64_t> out;
    const uint64_t edge = 1024, spread = 65536;
    for (uint64_t i = 0; i < count && i < edge; ++i) out.push_back(i);
    if (count > 2 * edge) {
        const uint64_t middle = count - 2 * edge;
        const uint64_t step = (middle + spread - 1) / spread;
        for (uint64_t i = edge; i < count - edge; i += step) out.push_back(i);
    }
    for (uint64_t i = count > edge ? std::max(count - edge, edge) : count; i < count; ++i)
        out.push_back(i);
    return out;
}

Check CheckOutputs(const RooflineWorkload& w, int fmas, const std::vector<uint64_t>& indices,
                   const std::vector<float>& out) {
    Check check;
    uint64_t wrong = 0;
    for (size_t j = 0; j < indices.size() && j < out.size(); ++j) {
        const float want = IntensityReference(w.data()[indices[j]], fmas);
        if (std::memcmp(&want, &out[j], sizeof want) != 0) {
            if (wrong++ == 0) {
                char msg[200];
                std::snprintf(msg, sizeof msg, "element %llu is %.9g, expected %.9g",
                              static_cast<unsigned long long>(indices[j]), double(out[j]),
                              double(want));
                check.message = msg;
            }
        }
    }
    if (out.size() != indices.size()) {
        wrong = std::max<uint64_t>(wrong, 1);
        check.message = "the step returned " + std::to_string(out.size()) + " values for " +
                        std::to_string(indices.size()) + " checked elements";
    }
    check.values = {{"checked", double(indices.size())}, {"wrong", double(wrong)}};
    check.ok = wrong == 0;
    if (wrong > 1) check.message += " (" + std::to_string(wrong) + " elements differ)";
    return check;
}

Work IntensityWork(uint64_t count, int fmas) {
    Work w;
    w.bytes_read = count * sizeof(float);
    w.bytes_written = count * sizeof(float);
    // What the kernel does per element: the multiply that starts the second chain (b = x / 2),
    // fmas / 2 FMAs in each chain (2 flops each), and the add that joins them.
    w.flops = count * (1 + 4 * uint64_t(fmas / 2) + 1);
    w.bound = w.flops >= 16 * w.MemoryBytes() && w.flops > 0 ? Bound::kFp32 : Bound::kCopy;
    return w;
}

MemoryNeeds RooflineGpuNeeds(const ParamValues& params) {
    const uint64_t size = params.Number("size");
    return {size + (uint64_t(1) << 20), SaturatingAdd(size, size)};
}

}  // namespace lessons::roofline
