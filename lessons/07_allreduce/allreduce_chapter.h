// Chapter 7, all-reduce across GPUs: the problem (one float vector per GPU, the element-wise
// sum as reference, the check) and the base of its steps. Step code lives in
// kernels/allreduce/.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "lesson.h"

namespace lessons::allreduce {

// G vectors of n floats (G = the chapter's `gpus`), from the seed: random floats uniform in
// [-1, 1) (each GPU's from its own stream of the generator), or all ones (the sum is G,
// exactly); and their element-wise sum, added in double and rounded once.
class AllreduceWorkload : public Workload {
public:
    explicit AllreduceWorkload(const WorkloadSpec& spec);
    uint64_t SizeBytes() const override { return m_count * sizeof(float); }  // per GPU
    uint64_t count() const { return m_count; }
    int gpus() const { return static_cast<int>(m_inputs.size()); }
    const float* input(int gpu) const { return m_inputs[size_t(gpu)].get(); }
    const float* reference() const { return m_reference.get(); }
    bool exact() const { return m_exact; }  // all ones: the sum must be exactly G

private:
    uint64_t m_count = 0;
    bool m_exact = false;
    std::vector<std::unique_ptr<float[]>> m_inputs;
    std::unique_ptr<float[]> m_reference;
};

uint64_t AllreduceWorkloadHostBytes(uint64_t size_bytes, uint64_t gpus);

// Checks every GPU's result against the reference: element i may differ by at most
// G x 2^-23 x sum over GPUs of |x_g[i]| (each of the G - 1 float additions rounds once, in
// whatever order a step adds); exactly, for all ones. Values: gpus, max_error (the largest error
// over the allowed).
Check CheckAllreduce(const AllreduceWorkload& w, const std::vector<std::vector<float>>& results);

// The work of an all-reduce, in NCCL's terms: every GPU reads its vector and writes the sum,
// and each link carries the "bus bytes" 2 (G - 1) / G x the vector; the rate is the bus
// bandwidth (bus bytes over the whole time), compared with the measured peer copy.
Work AllreduceWork(const AllreduceWorkload& w);

// Host memory of the steps (through the host: G + 1 page-locked vectors) and device memory per
// GPU.
MemoryNeeds AllreduceNeeds(const ParamValues& params);
MemoryNeeds AllreduceThroughHostNeeds(const ParamValues& params);
MemoryNeeds AllreduceGatherNeeds(const ParamValues& params);

}  // namespace lessons::allreduce
