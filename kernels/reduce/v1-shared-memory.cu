// v1: the same tree, in shared memory.
// Each block first copies its elements to shared memory (zero past the end), then adds
// there: global memory is read once and written once per block. The scattered, divergent
// pattern of active threads is unchanged. Toggle `addressing` (Harris's next two steps):
// `strided` gathers the active threads into whole warps but crowds them onto a few banks;
// `sequential` gathers them and spreads their words over all 32 banks.
#include "reduce_gpu.cuh"

namespace lessons::reduce {

// Shared memory has 32 banks, 4 bytes wide: word w lies in bank w % 32. The lanes of a warp
// that hit different words of one bank are served one after another (a bank conflict).
template <Addressing kAddressing>
__global__ void reduce_v1_shared_memory_kernel(const float* in, uint64_t n, float* partials) {
    extern __shared__ float s[];
    const unsigned tid = threadIdx.x;
    const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + tid;
    s[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if constexpr (kAddressing == Addressing::kInterleaved) {
        // Lanes 0, 2s, 4s, ... of every warp add; the others wait (divergence). Lane t reads
        // word t and t + s: the active lanes hit different banks.
        for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
            if (tid % (2 * stride) == 0) s[tid] += s[tid + stride];
            __syncthreads();
        }
    } else if constexpr (kAddressing == Addressing::kStrided) {
        // The first blockDim / 2s threads add, so whole warps work or idle. But lane t reads
        // word 2st, bank 2st % 32: lanes 16/s apart share a bank, so a full warp's access is
        // a 2-, 4-, 8-, 16-, 32-way conflict at s = 1, 2, 4, 8, 16 (at most as many ways as
        // lanes are active). 2st + s < blockDim: 2s divides blockDim, both powers of two.
        for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
            const unsigned index = 2 * stride * tid;  // < 2^21 for blocks up to 1024
            if (index < blockDim.x) s[index] += s[index + stride];
            __syncthreads();
        }
    } else {
        // The first `half` threads add the word `half` places up: lane t reads words t and
        // t + half, 32 consecutive words per warp, 32 different banks.
        for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
            if (tid < half) s[tid] += s[tid + half];
            __syncthreads();
        }
    }
    if (tid == 0) partials[blockIdx.x] = s[0];
}

namespace {

template <Addressing kAddressing>
cudaError_t Pass(float* in, uint64_t n, float* out, int block, int, cudaStream_t s,
                 uint64_t* written) {
    const uint64_t blocks = (n + block - 1) / block;
    reduce_v1_shared_memory_kernel<kAddressing>
        <<<static_cast<unsigned>(blocks), block, FloatPerThreadSmem(block), s>>>(in, n, out);
    *written = blocks;
    return cudaGetLastError();
}

template <Addressing kAddressing>
ReducePassKernel Variant(const char* name) {
    return {name,
            reinterpret_cast<const void*>(&reduce_v1_shared_memory_kernel<kAddressing>),
            &Pass<kAddressing>,
            &FloatPerThreadSmem,
            false,
            {ValueOf(kAddressingToggle, kAddressing)}};
}

const ReducePassKernel kReduceV1[]{
    Variant<Addressing::kInterleaved>("reduce_v1_shared_memory_kernel<Addressing::kInterleaved>"),
    Variant<Addressing::kStrided>("reduce_v1_shared_memory_kernel<Addressing::kStrided>"),
    Variant<Addressing::kSequential>("reduce_v1_shared_memory_kernel<Addressing::kSequential>"),
};

}  // namespace

LESSONS_KERNELS(kReduceV1);

}  // namespace lessons::reduce
