// Lesson 21 (v1): the same tree, in shared memory.
// Each block first copies its elements to shared memory (zero past the end), then adds
// there: global memory is read once and written once per block. The scattered, divergent
// pattern of active threads is unchanged.
#include "reduce_gpu.cuh"

namespace lessons::reduce {

__global__ void reduce_21_shared_memory_kernel(const float* in, uint64_t n, float* partials) {
    extern __shared__ float s[];
    const unsigned tid = threadIdx.x;
    const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + tid;
    s[tid] = i < n ? in[i] : 0.0f;
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
    const uint64_t blocks = (n + block - 1) / block;
    reduce_21_shared_memory_kernel<<<static_cast<unsigned>(blocks), block,
                                     FloatPerThreadSmem(block), s>>>(in, n, out);
    *written = blocks;
    return cudaGetLastError();
}

}  // namespace

const ReducePassKernel kReduce21{"reduce_21_shared_memory_kernel",
                                 reinterpret_cast<const void*>(&reduce_21_shared_memory_kernel),
                                 &Pass, &FloatPerThreadSmem, false};

}  // namespace lessons::reduce
