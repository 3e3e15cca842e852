// Lesson 23 (v3): sum in registers first, then a sequential-addressing tree, then the last
// warp unrolled. A fixed grid walks the array (each thread accumulates many elements), the
// tree halves a contiguous range of active threads (whole warps idle, no divergence, no bank
// conflicts), and the last 32 partial sums are combined inside one warp. The seed's last warp
// relied on implicit lockstep; since Volta that is a race, so __syncwarp() separates each
// read from the next write.
#include "reduce_gpu.cuh"

namespace lessons::reduce {

__global__ void reduce_23_sequential_unrolled_warp_kernel(const float* in, uint64_t n,
                                                          float* partials) {
    extern __shared__ float s[];
    const unsigned tid = threadIdx.x;
    const uint64_t per_block = (n + gridDim.x - 1) / gridDim.x;
    const uint64_t begin = blockIdx.x * per_block;
    const uint64_t end = begin + per_block < n ? begin + per_block : n;
    float sum = 0.0f;
    for (uint64_t i = begin + tid; i < end; i += blockDim.x) sum += in[i];
    s[tid] = sum;
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 32; half /= 2) {
        if (tid < half) s[tid] += s[tid + half];
        __syncthreads();
    }
    if (tid < 32) {
        float v = s[tid] + s[tid + 32];
        for (unsigned offset = 16; offset > 0; offset /= 2) {
            __syncwarp();  // every lane has read before any lane writes
            s[tid] = v;
            __syncwarp();  // every lane has written before any lane reads
            v += s[tid + offset];
        }
        if (tid == 0) partials[blockIdx.x] = v;
    }
}

namespace {

cudaError_t Pass(float* in, uint64_t n, float* out, int block, int max_grid, cudaStream_t s,
                 uint64_t* written) {
    uint64_t blocks = (n + block - 1) / block;
    if (blocks > uint64_t(max_grid)) blocks = max_grid;
    reduce_23_sequential_unrolled_warp_kernel<<<static_cast<unsigned>(blocks), block,
                                                FloatPerThreadSmem(block), s>>>(in, n, out);
    *written = blocks;
    return cudaGetLastError();
}

}  // namespace

const ReducePassKernel kReduce23{
    "reduce_23_sequential_unrolled_warp_kernel",
    reinterpret_cast<const void*>(&reduce_23_sequential_unrolled_warp_kernel), &Pass,
    &FloatPerThreadSmem, false};

}  // namespace lessons::reduce
