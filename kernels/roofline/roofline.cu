// The roofline: one kernel at any arithmetic intensity, to measure the roofline itself.
// Each thread reads one float, runs `fmas` fused multiply-adds on it in two independent chains
// (two FMAs in flight per thread), and writes one float: 8 bytes and 2 * fmas + 2 flops per
// element (the multiply that starts the second chain, the FMAs, and the add that joins them).
// Few FMAs leave it bound by memory bandwidth, many by the fp32 peak.
#include "roofline/roofline_cpu.h"
#include "roofline/roofline_gpu.cuh"

namespace lessons::roofline {

__global__ void roofline_intensity_kernel(const float* __restrict__ x, float* __restrict__ y,
                                          uint64_t n, int fmas) {
    const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
    for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += stride) {
        float a = x[i], b = a * 0.5f;
#pragma unroll 8
        for (int k = 0; k < fmas / 2; ++k) {
            a = __fmaf_rn(a, kScaleA, kBiasA);
            b = __fmaf_rn(b, kScaleB, kBiasB);
        }
        y[i] = __fadd_rn(a, b);  // no contraction: the same rounding as the reference
    }
}

namespace {

cudaError_t Launch(const float* x, float* y, uint64_t n, int fmas, int block, int grid,
                   cudaStream_t stream) {
    roofline_intensity_kernel<<<grid, block, 0, stream>>>(x, y, n, fmas);
    return cudaGetLastError();
}

const IntensityKernel kRooflineIntensity = {
    "roofline_intensity_kernel", reinterpret_cast<const void*>(&roofline_intensity_kernel),
    &Launch};

}  // namespace

LESSONS_KERNELS(kRooflineIntensity);

}  // namespace lessons::roofline
