// 16-byte loads and stores: each thread moves a chunk of 4 floats or 8 bf16 values per
// instruction, so a warp's load is 512 bytes and fewer instructions keep more bytes in flight.
// bf16 is only the storage: a chunk stays in registers as the 16 bytes it was loaded as (4
// registers, 8 bf16 values), each value widened to float when it is used, and the results are
// rounded once on store. So a thread holds twice as many bf16 values as floats, and every thread
// holds K chunks (up to 16) whatever the dtype: `lanes` threads a row (a power of two: a part of a
// warp for short rows, several warps for longer ones) are chosen so that each has about 8 chunks,
// 128 bytes in flight. Each exponential is computed once and kept in place of its value, rounded
// to T (exp(x - max) is in (0, 1]): the special-function unit's 16 exponentials a clock per SM
// matter once a byte holds half a bf16 value, and the registers stay 4 a chunk. A row longer than
// K chunks a thread is re-read in three passes. A row whose length is not a multiple of the chunk
// is not 16-byte aligned: its chunks are loaded value by value.
#include "softmax_gpu.cuh"

namespace lessons::softmax {

// exp(v) for v <= 0 (or -inf) on the special-function unit: one FMUL by log2(e) and one
// ex2.approx.ftz (MUFU.EX2). FastExp (__expf: ex2.approx.f32 without .ftz) adds a compare and
// two multiplies to keep results below 2^-126, which the check's absolute 2^-100 does not need.
__device__ __forceinline__ float SfuExp(float v) {
    float e;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(e) : "f"(v * 1.4426950408889634f));
    return e;
}

template <typename T, int K, int kLanes>
__global__ void softmax_vectorized_kernel(const T* __restrict__ x, T* __restrict__ y, int m,
                                          int n) {
    constexpr int V = ChunkCount<T>();
    __shared__ float scratch_max[32], scratch_sum[32];
    // The launch's blocks are lanes × rows (kLanes = 0: the lanes are blockDim.x).
    const int lanes = kLanes > 0 ? kLanes : blockDim.x;
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    const int lane = tid % lanes;
    const long long row =
        static_cast<long long>(blockIdx.x) * (blockDim.x * blockDim.y / lanes) + tid / lanes;
    // A group past the last row works on nothing but still meets its block's barriers.
    const bool live = row < m;
    const T* r = x + static_cast<size_t>(live ? row : 0) * n;
    T* o = y + static_cast<size_t>(live ? row : 0) * n;
    const int chunks = (n + V - 1) / V;
    const int mine = live ? chunks : 0;  // the chunks this group loads and stores
    const bool aligned = n % V == 0;
    const T pad = NegativeInfinity<T>();  // exp(-inf - max) is 0: padding adds nothing

    if (chunks <= K * lanes) {
        uint4 raw[K];
#pragma unroll
        for (int k = 0; k < K; ++k) {  // every load issued before any value is used
            const int c = k * lanes + lane;
            raw[k] = c < mine ? LoadRaw(r, c, n, aligned, pad) : FilledRaw(pad);
        }
        float max = -Infinity();
#pragma unroll
        for (int k = 0; k < K; ++k) max = fmaxf(max, ChunkMax<T>(raw[k]));
        max = GroupMaxOf(max, lanes, tid, scratch_max);
        // Each exponential once, kept in place of its value (rounded to T: for bf16 one rounding
        // more before the output's, within the one unit in the last place the check allows), so
        // the registers stay 4 a chunk; the sum is taken before the rounding.
        float sum[2] = {0.0f, 0.0f};  // two chains of adds, not one
#pragma unroll
        for (int k = 0; k < K; ++k) {
            float e[V];
#pragma unroll
            for (int i = 0; i < V; ++i) {
                e[i] = SfuExp(Element<T>(raw[k], i) - max);
                sum[i % 2] += e[i];
            }
            raw[k] = PackRaw<T>(e);
        }
        const float inv = 1.0f / GroupSumOf(sum[0] + sum[1], lanes, tid, scratch_sum);
#pragma unroll
        for (int k = 0; k < K; ++k) {
            const int c = k * lanes + lane;
            if (c < mine) {
                float out[V];
#pragma unroll
                for (int i = 0; i < V; ++i) out[i] = Element<T>(raw[k], i) * inv;
                StoreRaw(o, c, n, aligned, PackRaw<T>(out));
            }
        }
    } else {  // too long for registers: three passes, each reading the row in chunks
        float max = -Infinity();
        for (int c = lane; c < mine; c += lanes) {
            max = fmaxf(max, ChunkMax<T>(LoadRaw(r, c, n, aligned, pad)));
        }
        max = GroupMaxOf(max, lanes, tid, scratch_max);
        float sum = 0.0f;
        for (int c = lane; c < mine; c += lanes) {
            const uint4 raw = LoadRaw(r, c, n, aligned, pad);
#pragma unroll
            for (int i = 0; i < V; ++i) sum += SfuExp(Element<T>(raw, i) - max);
        }
        const float inv = 1.0f / GroupSumOf(sum, lanes, tid, scratch_sum);
        for (int c = lane; c < mine; c += lanes) {
            const uint4 raw = LoadRaw(r, c, n, aligned, pad);
            float out[V];
#pragma unroll
            for (int i = 0; i < V; ++i) out[i] = SfuExp(Element<T>(raw, i) - max) * inv;
            StoreRaw(o, c, n, aligned, PackRaw<T>(out));
        }
    }
}

namespace {

// Chunks a thread may hold in registers, and the number the automatic choice aims at.
constexpr int kMaxChunks = 16;
constexpr int kAimChunks = 8;

template <typename T, int K>
const void* Address() {
    return reinterpret_cast<const void*>(&softmax_vectorized_kernel<T, K, 0>);
}

template <typename T>
const void* Instance(int k) {
    switch (k) {
        case 1:
            return Address<T, 1>();
        case 2:
            return Address<T, 2>();
        case 4:
            return Address<T, 4>();
        case 8:
            return Address<T, 8>();
        default:
            return Address<T, 16>();
    }
}

long long Cover(long long need, long long cap) {
    long long k = 1;
    while (k < need && k < cap) k *= 2;
    return k;
}

struct Plan {
    int lanes = 32;  // threads a row
    int k = 1;       // chunks a thread keeps
};

// `lanes` threads a row: as asked (`variant`, at most the block), or, for 0, the fewest (a power
// of two) that leave each at most 8 chunks of the row, at most the block; then K, the smallest
// power of two of chunks (at most 16) that covers the row, smaller where the registers leave no
// room for `block` threads (a longer row is re-read).
template <typename T>
Plan PlanFor(int n, int block, int variant) {
    const long long chunks = (static_cast<long long>(n) + ChunkCount<T>() - 1) / ChunkCount<T>();
    Plan p;
    p.lanes = variant > 0 ? variant
                          : static_cast<int>(Cover((chunks + kAimChunks - 1) / kAimChunks, block));
    if (p.lanes > block) p.lanes = block;
    p.k = static_cast<int>(Cover((chunks + p.lanes - 1) / p.lanes, kMaxChunks));
    while (p.k > 1 && FactsOf(Instance<T>(p.k), block).max_threads < block) p.k /= 2;
    return p;
}

template <typename T>
const void* Pick(int n, int block, int variant) {
    return Instance<T>(PlanFor<T>(n, block, variant).k);
}

template <typename T>
cudaError_t Launch(const void* x, void* y, const void*, int m, int n, int block, int variant,
                   cudaStream_t s) {
    const Plan plan = PlanFor<T>(n, block, variant);
    const long long rows_per_block = block / plan.lanes;
    const unsigned blocks = static_cast<unsigned>((m + rows_per_block - 1) / rows_per_block);
    const T* xt = static_cast<const T*>(x);
    T* yt = static_cast<T*>(y);
    void* args[] = {&xt, &yt, &m, &n};
    return cudaLaunchKernel(Instance<T>(plan.k), dim3(blocks),
                            dim3(plan.lanes, static_cast<unsigned>(rows_per_block)), args, 0, s);
}

}  // namespace

const SoftmaxKernel kSoftmaxVectorized[] = {
    {"softmax_vectorized_kernel", false, &Pick<float>, &Launch<float>, 0, nullptr, "lanes"},
    {"softmax_vectorized_kernel", true, &Pick<__nv_bfloat16>, &Launch<__nv_bfloat16>, 0, nullptr,
     "lanes"},
};

LESSONS_KERNELS(kSoftmaxVectorized);

}  // namespace lessons::softmax
