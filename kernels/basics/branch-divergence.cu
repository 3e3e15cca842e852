// Branch divergence: the seed's 128-way switch, one element per thread, the same FMA loop length in
// every case. Only which lanes of a warp take which case changes (CaseOf): `none` keeps each
// warp on one case, `2-way` ... `32-way` split every warp. A warp runs the cases its lanes
// need one after another, so a 32-way split does 32 times the warp's work: a 128-way switch
// can cost at most 32x, because a warp has 32 lanes.
#include "basics_gpu.cuh"
#include "basics_index.h"

namespace lessons::basics {

template <unsigned kCase>
__device__ float case_work(float v) {
    constexpr float scale = CaseScale(kCase), offset = CaseOffset(kCase);
#pragma unroll 8
    for (unsigned r = 0; r < kIterations; ++r) v = fmaf(v, scale, offset);
    return v;
}

#define BASICS_CASE(k)       \
    case k:                  \
        v = case_work<k>(v); \
        break;
#define BASICS_CASE4(k) BASICS_CASE(k) BASICS_CASE(k + 1) BASICS_CASE(k + 2) BASICS_CASE(k + 3)
#define BASICS_CASE16(k) \
    BASICS_CASE4(k) BASICS_CASE4(k + 4) BASICS_CASE4(k + 8) BASICS_CASE4(k + 12)
#define BASICS_CASE64(k) \
    BASICS_CASE16(k) BASICS_CASE16(k + 16) BASICS_CASE16(k + 32) BASICS_CASE16(k + 48)

template <unsigned kWays>
__global__ void branch_divergence_kernel(const float* in, uint64_t n, float* out) {
    const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    float v = in[i];
    switch (CaseOf(i, kWays)) {
        BASICS_CASE64(0)
        BASICS_CASE64(64)
    }
    out[i] = v;
}

#undef BASICS_CASE64
#undef BASICS_CASE16
#undef BASICS_CASE4
#undef BASICS_CASE

namespace {

template <unsigned kWays>
cudaError_t Launch(const float* in, const float*, float* out, uint64_t n, int block,
                   cudaStream_t s) {
    if (n == 0) return cudaSuccess;
    const uint64_t blocks = (n + block - 1) / block;
    branch_divergence_kernel<kWays><<<static_cast<unsigned>(blocks), block, 0, s>>>(in, n, out);
    return cudaGetLastError();
}

template <unsigned kWays>
ElementKernel Variant(const char* name) {
    static_assert(DivergenceName(kWays) != nullptr, "a split no choice names");
    return {.name = name,
            .kernel = reinterpret_cast<const void*>(&branch_divergence_kernel<kWays>),
            .launch = &Launch<kWays>,
            .ways = kWays};
}

const ElementKernel kBasicsBranchDivergence[]{
    Variant<1>("branch_divergence_kernel<1>"),   Variant<2>("branch_divergence_kernel<2>"),
    Variant<4>("branch_divergence_kernel<4>"),   Variant<8>("branch_divergence_kernel<8>"),
    Variant<16>("branch_divergence_kernel<16>"), Variant<32>("branch_divergence_kernel<32>"),
};

}  // namespace

LESSONS_KERNELS(kBasicsBranchDivergence);

}  // namespace lessons::basics
