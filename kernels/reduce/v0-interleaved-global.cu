// v0: a tree of pairwise additions inside each block, in global memory.
// At step s, every thread whose index is a multiple of 2s adds the element s places to its
// right. Only half the threads of the previous step work, the working threads of a warp are
// scattered (divergence), and every addition reads and writes global memory.
#include "reduce_gpu.cuh"

namespace lessons::reduce {

__global__ void reduce_v0_interleaved_global_kernel(float* data, uint64_t n, float* partials) {
    const unsigned tid = threadIdx.x;
    const uint64_t base = blockIdx.x * uint64_t(blockDim.x);
    float* segment = data + base;
    const uint64_t length = n - base < blockDim.x ? n - base : blockDim.x;
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        if (tid % (2 * stride) == 0 && tid + stride < length) segment[tid] += segment[tid + stride];
        __syncthreads();
    }
    if (tid == 0) partials[blockIdx.x] = segment[0];
}

size_t NoDynamicSmem(int) {
    return 0;
}
size_t FloatPerThreadSmem(int block) {
    return size_t(block) * sizeof(float);
}

namespace {

cudaError_t Pass(float* in, uint64_t n, float* out, int block, int, cudaStream_t s,
                 uint64_t* written) {
    const uint64_t blocks = (n + block - 1) / block;
    reduce_v0_interleaved_global_kernel<<<static_cast<unsigned>(blocks), block, 0, s>>>(in, n, out);
    *written = blocks;
    return cudaGetLastError();
}

const ReducePassKernel kReduceV0{
    "reduce_v0_interleaved_global_kernel",
    reinterpret_cast<const void*>(&reduce_v0_interleaved_global_kernel),
    &Pass,
    &NoDynamicSmem,
    true,
    {}};

}  // namespace

LESSONS_KERNELS(kReduceV0);

}  // namespace lessons::reduce
