// v4: reduce with warp shuffles.
// __shfl_down_sync passes values between the lanes of a warp through registers: five
// shuffles sum a warp with no shared memory and no __syncthreads. Shared memory is left for
// one value per warp (at most 32), which the first warp sums the same way. Any block size that
// is a multiple of 32 works.
#include "reduce_gpu.cuh"

namespace lessons::reduce {

__device__ __forceinline__ float warp_sum(float v) {
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void reduce_v4_warp_shuffle_kernel(const float* in, uint64_t n, float* partials) {
    __shared__ float warp_sums[32];
    const unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    const uint64_t per_block = (n + gridDim.x - 1) / gridDim.x;
    const uint64_t begin = blockIdx.x * per_block;
    const uint64_t end = begin + per_block < n ? begin + per_block : n;
    float sum = 0.0f;
    for (uint64_t i = begin + tid; i < end; i += blockDim.x) sum += in[i];
    sum = warp_sum(sum);
    if (lane == 0) warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f;
        sum = warp_sum(sum);
        if (lane == 0) partials[blockIdx.x] = sum;
    }
}

namespace {

cudaError_t Pass(float* in, uint64_t n, float* out, int block, int max_grid, cudaStream_t s,
                 uint64_t* written) {
    uint64_t blocks = (n + block - 1) / block;
    if (blocks > uint64_t(max_grid)) blocks = max_grid;
    reduce_v4_warp_shuffle_kernel<<<static_cast<unsigned>(blocks), block, 0, s>>>(in, n, out);
    *written = blocks;
    return cudaGetLastError();
}

const ReducePassKernel kReduceV4{"reduce_v4_warp_shuffle_kernel",
                                 reinterpret_cast<const void*>(&reduce_v4_warp_shuffle_kernel),
                                 &Pass,
                                 &NoDynamicSmem,
                                 false,
                                 {}};

}  // namespace

LESSONS_KERNELS(kReduceV4);

}  // namespace lessons::reduce
