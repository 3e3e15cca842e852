// Base of a chapter's step classes: the workload it runs on, as the chapter's own class.
#pragma once

#include "lesson.h"

namespace lessons {

template <class W>
class StepOf : public StepInstance {
public:
    explicit StepOf(const Workload& workload) : m_work(static_cast<const W&>(workload)) {}

protected:
    const W& m_work;
};

}  // namespace lessons
