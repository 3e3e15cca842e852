// Chapter 6, the roofline: the problem (random floats in, the FMA chains of each out), its
// check, and its work: 8 bytes and 2 * fmas + 2 flops per element. Step code lives in
// kernels/roofline/.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "floats_workload.h"
#include "lesson.h"

namespace lessons::roofline {

// Random floats in: the roofline's only data.
using RooflineWorkload = FloatsWorkload;

// The elements the check compares: every one of the first and last 1024, and 65536 spread
// evenly between (the reference costs fmas operations per element on one CPU core).
std::vector<uint64_t> CheckedIndices(uint64_t count);

// Compares the step's outputs at CheckedIndices() (`out[j]` is element `indices[j]`) with the
// reference: bit for bit (the same FMAs and add, in the same order, round the same way).
Check CheckOutputs(const RooflineWorkload& w, int fmas, const std::vector<uint64_t>& indices,
                   const std::vector<float>& out);

// 4 bytes read and 4 written per element, 2 * fmas + 2 flops (fmas is even: one multiply
// starts the second chain, fmas FMAs, one add joins the chains); compared with the fp32 peak from
// 16 flops per byte up (near the ridge point of today's GPUs), else with the copy bandwidth.
Work IntensityWork(uint64_t count, int fmas);

MemoryNeeds RooflineGpuNeeds(const ParamValues& params);

}  // namespace lessons::roofline
