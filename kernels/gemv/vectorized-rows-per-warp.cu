// 16-byte loads, and as many lanes per row as the row has work for (seed 004).
// Each lane loads float4s, four of them before it adds any: a quarter of the load instructions
// of 4-byte loads (lesson 4.2's unrolled loop already had about as many bytes in flight). A row
// shares G lanes: down to 1 when a row is four floats or less, so short rows no longer leave
// most of a warp idle; 32 for rows of up to four float4s per thread of the block; and the whole
// block when the row is longer than that, so the loads in flight at any moment come from a few
// long stretches of A rather than from a different row per warp (the same bytes, read in
// another order). The `loads` and `row_lanes` toggles take each idea out (the variants after
// the kernel); the lesson text has the measurements.
// Rows whose start is not 16-byte aligned (n not a multiple of 4) add their first 0-3 floats
// one by one, then go on with float4s; the last 0-3 floats of a row are added one by one.
#include "gemv_gpu.cuh"

namespace lessons::gemv {

__device__ __forceinline__ float dot4(float4 a, float4 b) {
    return (a.x * b.x + a.y * b.y) + (a.z * b.z + a.w * b.w);
}

// x[4k .. 4k+3] of xs: one 16-byte load when xs is 16-byte aligned, else four 4-byte loads.
template <bool kAligned>
__device__ __forceinline__ float4 load_x(const float* __restrict__ xs, int k) {
    if constexpr (kAligned) return reinterpret_cast<const float4*>(xs)[k];
    return make_float4(xs[4 * k], xs[4 * k + 1], xs[4 * k + 2], xs[4 * k + 3]);
}

// The float4s k = first, first + step, ... < count of a row (r4) against x (xs), four loads
// issued before any is used.
template <bool kAligned>
__device__ __forceinline__ float row_dot(const float4* __restrict__ r4,
                                         const float* __restrict__ xs, int count, int first,
                                         int step) {
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    int k = first;
    for (; k + 3 * step < count; k += 4 * step) {
        const float4 a0 = r4[k], a1 = r4[k + step], a2 = r4[k + 2 * step], a3 = r4[k + 3 * step];
        s0 += dot4(a0, load_x<kAligned>(xs, k));
        s1 += dot4(a1, load_x<kAligned>(xs, k + step));
        s2 += dot4(a2, load_x<kAligned>(xs, k + 2 * step));
        s3 += dot4(a3, load_x<kAligned>(xs, k + 3 * step));
    }
    for (; k < count; k += step) s0 += dot4(r4[k], load_x<kAligned>(xs, k));
    return (s0 + s1) + (s2 + s3);
}

// Adds the G lanes' sums of a row and stores y[row]: xor shuffles inside a group of up to 32,
// and, for a group of the whole block (G above 32: the same row for every thread), the warps'
// sums through shared memory.
__device__ __forceinline__ void store_row(float sum, int group, int in_group, long long row, int m,
                                          float* __restrict__ y) {
    for (int offset = min(group, 32) / 2; offset > 0; offset /= 2)
        sum += __shfl_xor_sync(0xffffffffu, sum, offset);
    if (group > 32) {
        __shared__ float warp_sums[32];
        if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x / 32] = sum;
        __syncthreads();
        if (threadIdx.x < 32) {
            float t = threadIdx.x < blockDim.x / 32 ? warp_sums[threadIdx.x] : 0.0f;
            for (int offset = 16; offset > 0; offset /= 2)
                t += __shfl_xor_sync(0xffffffffu, t, offset);
            if (threadIdx.x == 0 && row < m) y[row] = t;
        }
        return;
    }
    if (row < m && in_group == 0) y[row] = sum;
}

// G = 1 << group_log2 lanes per row; the groups of a warp are aligned, so xor shuffles with
// offsets below G stay inside a group. G above 32 is the whole block (one row per block): the
// warps' sums meet in shared memory.
__global__ void gemv_vectorized_rows_per_warp_kernel(const float* __restrict__ a,
                                                     const float* __restrict__ x,
                                                     float* __restrict__ y, int m, int n,
                                                     int group_log2) {
    const int group = 1 << group_log2;
    const int in_group = static_cast<int>(threadIdx.x) & (group - 1);
    const long long row =
        (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) >> group_log2;
    float sum = 0.0f;
    if (row < m) {
        const size_t start = static_cast<size_t>(row) * n;
        const float* r = a + start;  // cudaMalloc memory: 16-byte aligned when start % 4 == 0
        const int head = min(n, static_cast<int>((4 - (start & 3)) & 3));
        for (int j = in_group; j < head; j += group) sum += r[j] * x[j];
        const int vectors = (n - head) / 4;
        const float4* r4 = reinterpret_cast<const float4*>(r + head);
        if (head == 0)
            sum += row_dot<true>(r4, x, vectors, in_group, group);
        else
            sum += row_dot<false>(r4, x + head, vectors, in_group, group);
        for (int j = head + 4 * vectors + in_group; j < n; j += group) sum += r[j] * x[j];
    }
    store_row(sum, group, in_group, row, m, y);
}

int GemvLanesPerRow(int n, int block) {
    const int vectors = (n + 3) / 4;
    // The whole block: a power of two (the group is a mask) with at least 4 float4s per thread.
    if (block > 32 && (block & (block - 1)) == 0 && vectors >= 4 * block) return block;
    int group = 1;
    while (group < 32 && group < vectors) group *= 2;
    return group;
}

int GemvLanesPerRow(RowLanes lanes, int n, int block) {
    switch (lanes) {
        case RowLanes::kAsNeeded:
            return GemvLanesPerRow(n, block);
        case RowLanes::kAtMostAWarp: {
            const int group = GemvLanesPerRow(n, block);
            return group > 32 ? 32 : group;
        }
        case RowLanes::kAWarp:
            return 32;
    }
    return 32;
}

namespace {

// The `loads=scalar` ablation: the same lanes per row and the same order, four independent
// 4-byte loads of A before any is used instead of four 16-byte ones.
__global__ void gemv_rows_per_warp_scalar_loads_kernel(const float* __restrict__ a,
                                                       const float* __restrict__ x,
                                                       float* __restrict__ y, int m, int n,
                                                       int group_log2) {
    const int group = 1 << group_log2;
    const int in_group = static_cast<int>(threadIdx.x) & (group - 1);
    const long long row =
        (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) >> group_log2;
    float sum = 0.0f;
    if (row < m) {
        const float* r = a + static_cast<size_t>(row) * n;
        float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
        int j = in_group;
        for (; j + 3 * group < n; j += 4 * group) {
            const float a0 = r[j], a1 = r[j + group], a2 = r[j + 2 * group], a3 = r[j + 3 * group];
            s0 += a0 * x[j];
            s1 += a1 * x[j + group];
            s2 += a2 * x[j + 2 * group];
            s3 += a3 * x[j + 3 * group];
        }
        for (; j < n; j += group) s0 += r[j] * x[j];
        sum = (s0 + s1) + (s2 + s3);
    }
    store_row(sum, group, in_group, row, m, y);
}

// One block per `block / G` rows, G lanes a row (the row_lanes toggle's rule).
template <auto kKernel, RowLanes kLanes>
cudaError_t Launch(const float* a, const float* x, float* y, int m, int n, int block,
                   cudaStream_t s) {
    const int group = GemvLanesPerRow(kLanes, n, block);
    int group_log2 = 0;
    while ((1 << group_log2) < group) ++group_log2;
    const long long threads = static_cast<long long>(m) * group;
    const unsigned blocks = static_cast<unsigned>((threads + block - 1) / block);
    kKernel<<<blocks, block, 0, s>>>(a, x, y, m, n, group_log2);
    return cudaGetLastError();
}

template <Loads kLoads, RowLanes kLanes>
constexpr GemvKernel Variant() {
    constexpr bool kFloat4 = kLoads == Loads::kFloat4;
    constexpr auto kernel =
        kFloat4 ? &gemv_vectorized_rows_per_warp_kernel : &gemv_rows_per_warp_scalar_loads_kernel;
    return {
        kFloat4 ? "gemv_vectorized_rows_per_warp_kernel" : "gemv_rows_per_warp_scalar_loads_kernel",
        reinterpret_cast<const void*>(kernel),
        &Launch<kernel, kLanes>,
        {ValueOf(kGemvLoadsToggle, kLoads), ValueOf(kRowLanesToggle, kLanes)}};
}

}  // namespace

// The step as written first; then every other combination of the toggles.
const GemvKernel kGemvVectorizedRowsPerWarp[] = {
    Variant<Loads::kFloat4, RowLanes::kAsNeeded>(),
    Variant<Loads::kFloat4, RowLanes::kAtMostAWarp>(),
    Variant<Loads::kFloat4, RowLanes::kAWarp>(),
    Variant<Loads::kScalar, RowLanes::kAsNeeded>(),
    Variant<Loads::kScalar, RowLanes::kAtMostAWarp>(),
    Variant<Loads::kScalar, RowLanes::kAWarp>(),
};

LESSONS_KERNELS(kGemvVectorizedRowsPerWarp);

}  // namespace lessons::gemv
