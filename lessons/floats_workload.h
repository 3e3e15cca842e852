// The workload of a chapter of float arrays (basics, reduction, roofline): as many
// floats as its "size" parameter holds bytes / 4, and what it reports of them.
#pragma once

#include <cstdint>

#include "lesson.h"

namespace lessons {

class FloatsWorkload : public Workload {
public:
    uint64_t SizeBytes() const override { return m_count * sizeof(float); }
    uint64_t count() const { return m_count; }

protected:
    explicit FloatsWorkload(const WorkloadSpec& spec)
        : m_count(spec.params.Number("size") / sizeof(float)) {}
    uint64_t m_count = 0;
};

}  // namespace lessons
