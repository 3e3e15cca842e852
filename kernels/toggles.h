// Ablation toggles: a step's parameter whose choices each switch off one idea of the step, so
// that a sweep over it measures that idea's share. A chapter names its toggles once (its
// *_toggles.h): the lessons offer the values as their choices, the lesson as written first (the
// default), and every compiled variant of a kernel carries the values it implements, by which
// the harness picks it (VariantAt, lessons/kernels_of.h). No CUDA: the catalogue reads it.
#pragma once

#include <array>
#include <cstddef>

namespace lessons {

// A toggle: the parameter's name and its values, indexed by the toggle's enum.
template <class Enum, size_t N>
struct Toggle {
    const char* name;
    std::array<const char*, N> values;
    constexpr const char* operator[](Enum e) const { return values[static_cast<size_t>(e)]; }
};

// One toggle's value in a compiled variant: {"addressing", "strided"}; {nullptr, nullptr} for
// none.
struct ToggleValue {
    const char* name = nullptr;
    const char* value = nullptr;
};

template <class Enum, size_t N>
constexpr ToggleValue ValueOf(const Toggle<Enum, N>& toggle, Enum e) {
    return {toggle.name, toggle[e]};
}

}  // namespace lessons
