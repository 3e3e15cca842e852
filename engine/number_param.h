// A parameter that takes a number, the fields every such ParamSpec sets: the engine's common
// parameters (params.cpp: block, threads, GPUs, size, a matrix dimension) and a chapter's own are
// built from it, then set what is theirs (a step, a log scale, ...).
#pragma once

#include <cstdint>
#include <string>

#include "params.h"

namespace lessons {

// `type` is kInt, kCount or kBytes; values from `min` to `max` (only powers of two where
// `power_of_two`), `default_value` first, in `unit` ("threads"; "" none); `why` says why the
// range is what it is ("" nothing to say).
ParamSpec NumberParam(ParamType type, std::string name, std::string label_en, std::string label_zh,
                      uint64_t min, uint64_t max, uint64_t default_value, std::string unit,
                      bool power_of_two, std::string why);

}  // namespace lessons
