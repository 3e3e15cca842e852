// Timing of CPU steps: one call, measured with std::chrono::steady_clock.
#pragma once

#include <chrono>
#include <utility>

#include "lesson.h"

namespace lessons {

template <typename F>
Sample TimeOnHost(F&& step) {
    const auto start = std::chrono::steady_clock::now();
    std::forward<F>(step)();
    Sample s;
    s.total_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return s;
}

}  // namespace lessons
