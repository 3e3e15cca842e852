// Chapter 3, reduction: the problem (floats, the reference sum, the check) and the harness
// shared by its steps. Step code itself lives in kernels/reduce/.
#pragma once

#include <cstdint>
#include <memory>

#include "floats_workload.h"
#include "lesson.h"
#include "reduce/reduce_cpu.h"
#include "step_of.h"

namespace lessons::reduce {

class ReduceWorkload : public FloatsWorkload {
public:
    explicit ReduceWorkload(const WorkloadSpec& spec);
    const ReferenceSum& reference() const { return m_reference; }
    // How far a float sum may be from the reference: 0 when every partial sum is an exact
    // integer (all ones, n <= 2^24), else 2^-23 x sum|x| x (log2(n + 1) + 16): one rounding
    // of relative size 2^-23 per level of a tree, plus room for the steps that first add
    // runs of elements in a thread's register.
    double Tolerance() const;

private:
    bool m_ones = false;
    ReferenceSum m_reference;
};

uint64_t ReduceWorkloadHostBytes(uint64_t size_bytes);

// The work of every step: read `count` floats once and add each (one flop each), held to the
// read-only bandwidth on the GPU. Steps report it, and the page predicts from it.
Work ReduceWork(uint64_t count);

// What the check says when a sum is off, in both languages (Chapter::messages).
std::vector<MessageForm> ReduceMessages();

// Base of every reduction step: the value it computed and its check.
class ReduceStep : public StepOf<ReduceWorkload> {
public:
    using StepOf::StepOf;
    Check Verify() const override;
    // Its work is the lesson's declared rule (ReduceWork, or the row's own): nothing it
    // measures changes it.

protected:
    double m_value = 0;
};

MemoryNeeds ReduceCpuNeeds(const ParamValues& params);
// Device memory of the GPU steps: the input, a copy for the in-place step (v0), and the
// partial sums.
MemoryNeeds ReduceGpuNeeds(const ParamValues& params);
MemoryNeeds ReduceInPlaceGpuNeeds(const ParamValues& params);

std::unique_ptr<StepInstance> MakeReduceCpuSum(const Workload& w, const StepContext& c);

}  // namespace lessons::reduce
