// v2: add two elements while loading, and launch half the blocks.
// Each thread loads the elements i and i + blockDim and stores their sum, so the first level
// of the tree costs no extra step and every thread does useful work at least once. Only with
// half as many blocks does it pay: each block now covers twice the data.
#include "reduce_gpu.cuh"

namespace lessons::reduce {

__global__ void reduce_v2_add_during_load_kernel(const float* in, uint64_t n, float* partials) {
    extern __shared__ float s[];
    const unsigned tid = threadIdx.x;
    const uint64_t i = blockIdx.x * uint64_t(blockDim.x) * 2 + tid;
    float v = i < n ? in[i] : 0.0f;
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    s[tid] = v;
    __syncthreads();
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0) s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0) partials[blockIdx.x] = s[0];
}

namespace {

cudaError_t Pass(float* in, uint64_t n, float* out, int block, int, cudaStream_t s,
                 uint64_t* written) {
    const uint64_t per_block = 2 * uint64_t(block);
    const uint64_t blocks = (n + per_block - 1) / per_block;
    reduce_v2_add_during_load_kernel<<<static_cast<unsigned>(blocks), block,
                                       FloatPerThreadSmem(block), s>>>(in, n, out);
    *written = blocks;
    return cudaGetLastError();
}

const ReducePassKernel kReduceV2{"reduce_v2_add_during_load_kernel",
                                 reinterpret_cast<const void*>(&reduce_v2_add_during_load_kernel),
                                 &Pass,
                                 &FloatPerThreadSmem,
                                 false,
                                 {}};

}  // namespace

LESSONS_KERNELS(kReduceV2);

}  // namespace lessons::reduce
