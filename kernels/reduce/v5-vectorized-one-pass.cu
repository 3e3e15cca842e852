// v5: one pass, 16-byte loads, a grid sized to the GPU.
// Each thread walks the array with a grid stride, loading float4s (one 16-byte instruction
// for four floats) two at a time into independent accumulators, so many loads are in flight.
// Blocks publish their sums; the last block to finish adds them up: one launch, no second
// pass, and the same order every time (no floating-point atomics). Toggles: `loads=scalar`
// (one float per load, the same loop), `passes=two` (a second launch adds the block sums).
#include "reduce_gpu.cuh"

namespace lessons::reduce {

// This thread's share of in[0, n), in two accumulators: loads two grid strides apart are
// independent, so both are in flight at once.
template <Loads kLoads>
__device__ __forceinline__ float thread_sum(const float* __restrict__ in, uint64_t n) {
    const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
    const uint64_t first = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
    float a = 0.0f, b = 0.0f;
    uint64_t i = first;
    if constexpr (kLoads == Loads::kFloat4) {
        const uint64_t n4 = n / 4;
        const float4* in4 = reinterpret_cast<const float4*>(in);  // cudaMalloc: 256-byte aligned
        for (; i + stride < n4; i += 2 * stride) {
            const float4 p = in4[i];
            const float4 q = in4[i + stride];
            a += (p.x + p.y) + (p.z + p.w);
            b += (q.x + q.y) + (q.z + q.w);
        }
        if (i < n4) {
            const float4 p = in4[i];
            a += (p.x + p.y) + (p.z + p.w);
        }
        if (first < n % 4) b += in[n4 * 4 + first];  // the last 0-3 floats
    } else {
        for (; i + stride < n; i += 2 * stride) {
            a += in[i];
            b += in[i + stride];
        }
        if (i < n) a += in[i];
    }
    return a + b;
}

// The block's sum, valid in thread 0. Uses `scratch` (32 floats) and __syncthreads.
__device__ __forceinline__ float block_sum(float v, float* scratch) {
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < blockDim.x / 32 ? scratch[lane] : 0.0f;
        for (int offset = 16; offset > 0; offset /= 2)
            v += __shfl_down_sync(0xffffffffu, v, offset);
    }
    return v;
}

// partials[0, count) added by one block, valid in thread 0: the same order in both modes.
// __ldcg reads from L2, where other blocks' writes are (L1 is not coherent across SMs).
__device__ __forceinline__ float sum_of_block_sums(const float* partials, unsigned count,
                                                   float* scratch) {
    float total = 0.0f;
    for (unsigned j = threadIdx.x; j < count; j += blockDim.x) total += __ldcg(&partials[j]);
    return block_sum(total, scratch);
}

template <Loads kLoads, Passes kPasses>
__global__ void reduce_v5_vectorized_one_pass_kernel(const float* __restrict__ in, uint64_t n,
                                                     float* result, float* partials,
                                                     unsigned* counter) {
    __shared__ float scratch[32];
    const float sum = block_sum(thread_sum<kLoads>(in, n), scratch);
    if constexpr (kPasses == Passes::kTwo) {
        if (threadIdx.x == 0) partials[blockIdx.x] = sum;  // the second launch adds them
    } else {
        __shared__ bool is_last;
        if (threadIdx.x == 0) {
            partials[blockIdx.x] = sum;
            __threadfence();  // the sum is visible to every block before the count says so
            is_last = atomicAdd(counter, 1u) == gridDim.x - 1;
        }
        __syncthreads();
        if (!is_last) return;
        const float total = sum_of_block_sums(partials, gridDim.x, scratch);
        if (threadIdx.x == 0) {
            *result = total;
            *counter = 0;  // ready for the next launch
        }
    }
}

// passes=two: the second launch, one block.
__global__ void reduce_v5_sum_block_sums_kernel(const float* partials, unsigned count,
                                                float* result) {
    __shared__ float scratch[32];
    const float total = sum_of_block_sums(partials, count, scratch);
    if (threadIdx.x == 0) *result = total;
}

namespace {

template <Loads kLoads, Passes kPasses>
cudaError_t Launch(const float* in, uint64_t n, float* result, float* partials, unsigned* counter,
                   int block, int grid, cudaStream_t stream) {
    reduce_v5_vectorized_one_pass_kernel<kLoads, kPasses>
        <<<grid, block, 0, stream>>>(in, n, result, partials, counter);
    if constexpr (kPasses == Passes::kTwo) {
        const cudaError_t err = cudaGetLastError();
        if (err != cudaSuccess) return err;
        reduce_v5_sum_block_sums_kernel<<<1, block, 0, stream>>>(partials, unsigned(grid), result);
    }
    return cudaGetLastError();
}

template <Loads kLoads, Passes kPasses>
OnePassKernel Variant(const char* name) {
    return {name,
            reinterpret_cast<const void*>(&reduce_v5_vectorized_one_pass_kernel<kLoads, kPasses>),
            &Launch<kLoads, kPasses>,
            {ValueOf(kLoadsToggle, kLoads), ValueOf(kPassesToggle, kPasses)}};
}

const OnePassKernel kReduceV5[]{
    Variant<Loads::kFloat4, Passes::kOne>(
        "reduce_v5_vectorized_one_pass_kernel<Loads::kFloat4, Passes::kOne>"),
    Variant<Loads::kFloat4, Passes::kTwo>(
        "reduce_v5_vectorized_one_pass_kernel<Loads::kFloat4, Passes::kTwo>"),
    Variant<Loads::kScalar, Passes::kOne>(
        "reduce_v5_vectorized_one_pass_kernel<Loads::kScalar, Passes::kOne>"),
    Variant<Loads::kScalar, Passes::kTwo>(
        "reduce_v5_vectorized_one_pass_kernel<Loads::kScalar, Passes::kTwo>"),
};

}  // namespace

LESSONS_KERNELS(kReduceV5);

}  // namespace lessons::reduce
