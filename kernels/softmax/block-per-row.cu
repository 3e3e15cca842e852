// A block per row: its threads read neighbouring elements, so every load is coalesced, and the
// max and the sum are combined in a shared-memory tree (halving the active threads each level,
// sequential addressing: no bank conflicts). The row is still read from global memory in each of
// the three passes; a row of up to a few thousand elements mostly comes back from L1/L2.
#include "softmax_gpu.cuh"

namespace lessons::softmax {

template <typename T>
__global__ void softmax_block_per_row_kernel(const T* __restrict__ x, T* __restrict__ y, int m,
                                             int n) {
    extern __shared__ float tree[];  // blockDim.x floats
    const int tid = threadIdx.x;
    const T* r = x + static_cast<size_t>(blockIdx.x) * n;
    T* o = y + static_cast<size_t>(blockIdx.x) * n;

    float max = -Infinity();
    for (int j = tid; j < n; j += blockDim.x) max = fmaxf(max, ToFloat(r[j]));
    tree[tid] = max;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride) tree[tid] = fmaxf(tree[tid], tree[tid + stride]);
        __syncthreads();
    }
    max = tree[0];
    __syncthreads();  // every thread has read tree[0] before it is overwritten

    float sum = 0.0f;
    for (int j = tid; j < n; j += blockDim.x) sum += FastExp(ToFloat(r[j]) - max);
    tree[tid] = sum;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (tid < stride) tree[tid] += tree[tid + stride];
        __syncthreads();
    }
    const float inv = 1.0f / tree[0];

    for (int j = tid; j < n; j += blockDim.x)
        o[j] = FromFloat<T>(FastExp(ToFloat(r[j]) - max) * inv);
}

namespace {

template <typename T>
const void* Pick(int, int, int) {
    return reinterpret_cast<const void*>(&softmax_block_per_row_kernel<T>);
}

template <typename T>
cudaError_t Launch(const void* x, void* y, const void*, int m, int n, int block, int,
                   cudaStream_t s) {
    softmax_block_per_row_kernel<T><<<static_cast<unsigned>(m), block, block * sizeof(float), s>>>(
        static_cast<const T*>(x), static_cast<T*>(y), m, n);
    return cudaGetLastError();
}

}  // namespace

const SoftmaxKernel kSoftmaxBlockPerRow[] = {
    {"softmax_block_per_row_kernel", false, &Pick<float>, &Launch<float>, 4},
    {"softmax_block_per_row_kernel", true, &Pick<__nv_bfloat16>, &Launch<__nv_bfloat16>, 4},
};

LESSONS_KERNELS(kSoftmaxBlockPerRow);

}  // namespace lessons::softmax
