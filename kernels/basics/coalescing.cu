// Coalescing: c = a + b, one element per thread; only the element a thread takes changes.
// With stride 1 (add_coalesced) the 32 lanes of a warp touch 128 consecutive bytes: four
// 32-byte sectors per load. With stride s they are 4s bytes apart: up to 32 sectors per load,
// each delivering one useful float (StridedIndex). The `offset` starts all three arrays that
// many floats past a 128-byte boundary: coalesced but misaligned.
#include "basics_gpu.cuh"
#include "basics_index.h"

namespace lessons::basics {

template <unsigned kStride>
__global__ void add_strided_kernel(const float* a, const float* b, float* c, uint64_t n) {
    const uint64_t g = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
    const uint64_t i = StridedIndex(g, kStride);
    if (i >= n) return;
    c[i] = a[i] + b[i];
}

namespace {

template <unsigned kStride>
cudaError_t Launch(const float* a, const float* b, float* c, uint64_t n, int block,
                   cudaStream_t s) {
    if (n == 0) return cudaSuccess;
    const uint64_t blocks = (StridedThreads(n, kStride) + block - 1) / block;
    add_strided_kernel<kStride><<<static_cast<unsigned>(blocks), block, 0, s>>>(a, b, c, n);
    return cudaGetLastError();
}

template <unsigned kStride>
ElementKernel Variant(const char* name) {
    return {.name = name,
            .kernel = reinterpret_cast<const void*>(&add_strided_kernel<kStride>),
            .launch = &Launch<kStride>,
            .stride = kStride};
}

const ElementKernel kBasicsCoalescing[]{
    Variant<1>("add_strided_kernel<1>"),   Variant<2>("add_strided_kernel<2>"),
    Variant<4>("add_strided_kernel<4>"),   Variant<8>("add_strided_kernel<8>"),
    Variant<16>("add_strided_kernel<16>"), Variant<32>("add_strided_kernel<32>"),
};

}  // namespace

LESSONS_KERNELS(kBasicsCoalescing);

}  // namespace lessons::basics
