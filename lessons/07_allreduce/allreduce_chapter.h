// Chapter 7, all-reduce across GPUs: the problem (one float vector per GPU, the element-wise
// sum as reference, the check) and the base of its steps. Step code lives in
// kernels/allreduce/.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lesson.h"

namespace lessons::allreduce {

// G vectors of n floats (G = the chapter's `gpus`), from the seed: random floats uniform in
// [-1, 1) (each GPU's from its own stream of the generator), or all ones (the sum is G,
// exactly); and their element-wise sum, added in double and rounded once.
class AllreduceWorkload : public Workload {
public:
    explicit AllreduceWorkload(const WorkloadSpec& spec);
    // The same data without a spec (a rank of a multi-process step makes its own copy).
    AllreduceWorkload(uint64_t count, int gpus, bool ones, uint64_t seed,
                      const std::atomic<bool>* cancel = nullptr);
    uint64_t SizeBytes() const override { return m_count * sizeof(float); }  // per GPU
    uint64_t count() const { return m_count; }
    int gpus() const { return static_cast<int>(m_inputs.size()); }
    const float* input(int gpu) const { return m_inputs[size_t(gpu)].get(); }
    const float* reference() const { return m_reference.get(); }
    bool exact() const { return m_exact; }  // all ones: the sum must be exactly G
    uint64_t seed() const { return m_seed; }

private:
    uint64_t m_count = 0;
    bool m_exact = false;
    uint64_t m_seed = 0;
    std::vector<std::unique_ptr<float[]>> m_inputs;
    std::unique_ptr<float[]> m_reference;
};

uint64_t AllreduceWorkloadHostBytes(uint64_t size_bytes, uint64_t gpus);

// Checks every GPU's result against the reference: element i may differ by at most
// G x 2^-23 x sum over GPUs of |x_g[i]| (each of the G - 1 float additions rounds once, in
// whatever order a step adds); exactly, for all ones. Values: gpus, max_error (the largest error
// over the allowed). `first`: the number of results[0] in messages (a rank checks its own only).
Check CheckAllreduce(const AllreduceWorkload& w, const std::vector<std::vector<float>>& results,
                     int first = 0);

// The all-reduce's work for `gpus` vectors of `count` floats (AllreduceWork's rule).
Work AllreduceWorkOf(uint64_t count, uint64_t gpus);

// One process per GPU: every rank makes its own copy of the data (every GPU's vector and the
// reference), so host memory is the ranks' copies besides the launcher's.
MemoryNeeds AllreduceRanksNeeds(const ParamValues& params);

// The all-reduce's alpha-beta model fitted to (bytes per GPU, milliseconds) points:
// T = 2 (G - 1) alpha + 2 (G - 1) / G x S / beta, by least squares on the relative error (the
// sizes span six decades). ok is false (with why) for fewer than two sizes or G < 2.
struct AlphaBetaFit {
    bool ok = false;
    std::string why;
    double alpha_us = 0;     // per step of the ring
    double beta_gbps = 0;    // per link, GB/s
    double worst_error = 0;  // the largest |model - measured| / measured over the points
};
AlphaBetaFit FitAlphaBeta(const std::vector<std::pair<uint64_t, double>>& points, int gpus);

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
