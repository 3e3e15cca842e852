// What the tensor-core ceilings measured through cuBLAS (chapter 5's TF32, chapter 8's bf16)
// share: their data, and the GPU's time of each run of the call measured.
#pragma once

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cuda/cuda_util.h"

namespace lessons {

__device__ inline void StoreCeilingValue(float* p, float v) {
    *p = v;
}
__device__ inline void StoreCeilingValue(__nv_bfloat16* p, float v) {
    *p = __float2bfloat16_rn(v);
}

// Values in [-1, 1) from a hash of the index (rounded to T), as the lessons' random data (not
// constant data, which draws less power and would let the clock, and the ceiling, run higher).
template <class T>
__global__ void ceiling_fill_kernel(T* p, size_t count, uint32_t seed) {
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count;
         i += size_t(gridDim.x) * blockDim.x) {
        uint32_t h = (static_cast<uint32_t>(i) * 2654435761u) ^ seed;
        h ^= h >> 15;
        h *= 2246822519u;
        h ^= h >> 13;
        StoreCeilingValue(p + i, static_cast<float>(h >> 8) * (2.0f / 16777216.0f) - 1.0f);
    }
}

// The operands of a ceiling's square product on the current GPU, n × n elements of T each:
// n = 8192, or 4096 or 2048 when three such matrices and 256 MiB (cuBLAS's workspace and what
// others need) do not fit in its free memory; A and B filled on `s` (`what` names the ceiling
// in an allocation's error: "TF32").
template <class T>
struct CeilingOperands {
    CeilingOperands(const std::string& what, cudaStream_t s)
        : n(SideThatFits()),
          a(Count(), ("the " + what + " ceiling's A").c_str()),
          b(Count(), ("the " + what + " ceiling's B").c_str()),
          c(Count(), ("the " + what + " ceiling's C").c_str()) {
        ceiling_fill_kernel<<<1024, 256, 0, s>>>(a.get(), Count(), 1u);
        ceiling_fill_kernel<<<1024, 256, 0, s>>>(b.get(), Count(), 2u);
        LESSONS_CUDA_CHECK_LAUNCH("ceiling_fill_kernel");
    }
    size_t Count() const { return size_t(n) * size_t(n); }

    int n;
    cuda::DeviceBuffer<T> a, b, c;

private:
    static int SideThatFits() {
        size_t free_bytes = 0, total_bytes = 0;
        LESSONS_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
        int side = 8192;
        const size_t reserve = size_t(256) << 20;
        while (side > 2048 && 3 * size_t(side) * size_t(side) * sizeof(T) + reserve > free_bytes)
            side /= 2;
        return side;
    }
};

// The milliseconds of `runs` runs of `run()` (work it enqueues on `s`) after two warm-ups, each
// timed as a step is: events around it with the stream held, the GPU's work alone.
template <class Run>
std::vector<double> TimeCeilingRuns(cudaStream_t s, int runs, const Run& run) {
    for (int w = 0; w < 2; ++w) run();
    cuda::Event start, stop;
    std::vector<double> ms;
    for (int r = 0; r < runs; ++r) {
        cuda::StreamHold hold(s);
        start.Record(s);
        run();
        stop.Record(s);
        hold.Release();
        ms.push_back(cuda::ElapsedMs(start, stop));
    }
    LESSONS_CUDA_CHECK(cudaStreamSynchronize(s));
    return ms;
}

}  // namespace lessons
