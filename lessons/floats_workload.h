// The workload of a chapter of float arrays (basics, reduction, roofline): as many floats as its
// "size" parameter holds bytes / 4, made as its "data" parameter says, and what it reports of
// them.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>

#include "generators.h"
#include "lesson.h"

namespace lessons {

class FloatsWorkload : public Workload {
public:
    explicit FloatsWorkload(const WorkloadSpec& spec)
        : m_count(spec.params.Number("size") / sizeof(float)), m_data(Floats(spec, spec.seed)) {}
    uint64_t SizeBytes() const override { return m_count * sizeof(float); }
    uint64_t count() const { return m_count; }
    const float* data() const { return m_data.get(); }

protected:
    // count() floats (room for one at least) from `seed`: all 1.0 ("ones"), uniform in [-1, 1)
    // ("random"), or those times 2^40 ("large": exact, far from 1 but never near overflow).
    std::unique_ptr<float[]> Floats(const WorkloadSpec& spec, uint64_t seed) const {
        std::unique_ptr<float[]> out(new float[m_count ? m_count : 1]);
        const std::string& data = spec.params.Choice("data");
        if (data == "ones") {
            std::fill(out.get(), out.get() + m_count, 1.0f);
            return out;
        }
        FillUniformFloats(seed, out.get(), m_count, spec.cancel);
        if (data == "large")
            for (uint64_t i = 0; i < m_count; ++i) out[i] = std::ldexp(out[i], 40);
        return out;
    }

    uint64_t m_count = 0;
    std::unique_ptr<float[]> m_data;
};

}  // namespace lessons
