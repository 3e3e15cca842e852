// Vector loads, block compaction: toward the bandwidth limit.
// Each thread loads two 16-byte vectors (a block-width apart: a warp's loads are contiguous)
// and tests all 32 positions at once with bit tricks on 64-bit words; the byte after a vector
// comes from the next lane by a shuffle. A block prefix sum places the hits, one atomicAdd
// claims the block's output, staged offsets are written contiguously: dense text neither
// queues on one counter nor scatters writes. Toggle `output=per-hit`: one atomic per hit.
#include "split_gpu.cuh"

namespace lessons::split {
namespace {

constexpr int kVectorsPerThread = 2;
constexpr int kMaxHitsPerThread = 8 * kVectorsPerThread;  // a pair needs two bytes

// Bit 7 of every byte of x that equals `c`, exactly (no carry between bytes).
__device__ __forceinline__ unsigned long long bytes_equal(unsigned long long x, unsigned char c) {
    const unsigned long long t = x ^ (0x0101010101010101ull * c);
    const unsigned long long low7 = 0x7F7F7F7F7F7F7F7Full;
    return ~(((t & low7) + low7) | t | low7);
}

__device__ __forceinline__ unsigned warp_inclusive_sum(unsigned v, unsigned lane) {
    for (int d = 1; d < 32; d *= 2) {
        const unsigned up = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= unsigned(d)) v += up;
    }
    return v;
}

// The earlier steps' output: one atomicAdd on the global counter per hit, written where it
// lands.
__device__ __forceinline__ void write_per_hit(const unsigned long long* hits, uint64_t first,
                                              unsigned long long* out, unsigned long long* count) {
    for (int j = 0; j < kVectorsPerThread; ++j) {
        const uint64_t start = first + (j * uint64_t(blockDim.x) + threadIdx.x) * 16;
        for (int h = 0; h < 2; ++h)
            for (unsigned long long m = hits[2 * j + h]; m; m &= m - 1)
                out[atomicAdd(count, 1ull)] = start + 8 * h + (__ffsll(m) - 1) / 8 + 2;
    }
}

// The block's output: a prefix sum over the block places each thread's hits, one atomicAdd
// claims the block's space, and the offsets, staged in shared memory, go out contiguously.
__device__ __forceinline__ void write_block_compacted(const unsigned long long* hits,
                                                      uint64_t first, unsigned long long* out,
                                                      unsigned long long* count) {
    extern __shared__ unsigned staged[];  // offsets relative to the block's first byte
    __shared__ unsigned warp_start[32];
    __shared__ unsigned long long block_slot;
    __shared__ unsigned block_total;
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    unsigned mine = 0;
    for (int k = 0; k < 2 * kVectorsPerThread; ++k) mine += __popcll(hits[k]);

    const unsigned inclusive = warp_inclusive_sum(mine, lane);
    if (lane == 31) warp_start[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        const unsigned warps = blockDim.x / 32;
        const unsigned total = lane < warps ? warp_start[lane] : 0;
        const unsigned upto = warp_inclusive_sum(total, lane);
        if (lane < warps) warp_start[lane] = upto - total;
        if (lane == 31) {
            block_total = upto;
            block_slot = upto ? atomicAdd(count, static_cast<unsigned long long>(upto)) : 0;
        }
    }
    __syncthreads();
    if (block_total == 0) return;  // the common case in ordinary text

    unsigned slot = warp_start[warp] + inclusive - mine;
    for (int j = 0; j < kVectorsPerThread; ++j) {
        const unsigned rel = (j * blockDim.x + threadIdx.x) * 16;
        for (int h = 0; h < 2; ++h)
            for (unsigned long long m = hits[2 * j + h]; m; m &= m - 1)
                staged[slot++] = rel + 8 * h + (__ffsll(m) - 1) / 8 + 2;
    }
    __syncthreads();
    for (unsigned i = threadIdx.x; i < block_total; i += blockDim.x)
        out[block_slot + i] = first + staged[i];
}

}  // namespace

template <Output kOutput>
__global__ void split_10_vector_loads_block_compaction_kernel(
    const char* __restrict__ buf, unsigned long long* __restrict__ out,
    unsigned long long* __restrict__ count, unsigned long long offset_base) {
    const unsigned lane = threadIdx.x % 32;
    const uint64_t block_first =
        blockIdx.x * uint64_t(blockDim.x) * kVectorsPerThread;  // in vectors

    ulonglong2 v[kVectorsPerThread];
    for (int j = 0; j < kVectorsPerThread; ++j)  // all loads first: they are in flight together
        v[j] = reinterpret_cast<const ulonglong2*>(buf)[block_first + j * blockDim.x + threadIdx.x];

    unsigned long long hits[2 * kVectorsPerThread];
    for (int j = 0; j < kVectorsPerThread; ++j) {
        const uint64_t start = (block_first + j * blockDim.x + threadIdx.x) * 16;
        // The byte after this vector: the next lane's first byte, or memory for lane 31.
        unsigned char next =
            static_cast<unsigned char>(__shfl_down_sync(0xffffffffu, unsigned(v[j].x & 0xff), 1));
        if (lane == 31) next = static_cast<unsigned char>(buf[start + 16]);
        const unsigned long long cr0 = bytes_equal(v[j].x, '\r'), lf0 = bytes_equal(v[j].x, '\n');
        const unsigned long long cr1 = bytes_equal(v[j].y, '\r'), lf1 = bytes_equal(v[j].y, '\n');
        // A pair at byte k: '\r' at k and '\n' at k + 1 (the next byte's bit 7, shifted down).
        hits[2 * j] = cr0 & ((lf0 >> 8) | (lf1 << 56));
        hits[2 * j + 1] = cr1 & ((lf1 >> 8) | (next == '\n' ? 0x8000000000000000ull : 0ull));
    }

    const uint64_t first_byte = offset_base + block_first * 16;
    if constexpr (kOutput == Output::kPerHit)
        write_per_hit(hits, first_byte, out, count);
    else
        write_block_compacted(hits, first_byte, out, count);
}

namespace {

uint64_t Padded(uint64_t n, int block) {
    return PaddedTo(n, 16 * uint64_t(block) * kVectorsPerThread);
}

uint64_t Blocks(uint64_t n, int block) {
    return Padded(n, block) / (16 * uint64_t(block) * kVectorsPerThread);
}

template <Output kOutput>
size_t DynamicSmem(int block) {
    return kOutput == Output::kBlock ? size_t(block) * kMaxHitsPerThread * sizeof(unsigned) : 0;
}

template <Output kOutput>
cudaError_t LaunchRange(const char* buf, uint64_t n, unsigned long long* out,
                        unsigned long long* count, int block, cudaStream_t stream,
                        uint64_t offset_base) {
    const uint64_t blocks = Blocks(n, block);
    if (blocks == 0) return cudaSuccess;
    split_10_vector_loads_block_compaction_kernel<kOutput>
        <<<static_cast<unsigned>(blocks), block, DynamicSmem<kOutput>(block), stream>>>(
            buf, out, count, offset_base);
    return cudaGetLastError();
}

template <Output kOutput>
cudaError_t Launch(const char* buf, uint64_t n, unsigned long long* out, unsigned long long* count,
                   int block, cudaStream_t stream) {
    return LaunchRange<kOutput>(buf, n, out, count, block, stream, 0);
}

// One kernel per choice of the `output` toggle, named by the choice it implements.
template <Output kOutput>
SplitKernel Variant(const char* name) {
    return {
        .name = name,
        .kernel =
            reinterpret_cast<const void*>(&split_10_vector_loads_block_compaction_kernel<kOutput>),
        .launch = &Launch<kOutput>,
        .dynamic_smem = &DynamicSmem<kOutput>,
        .blocks = &Blocks,
        .padded = &Padded,
        .launch_range = &LaunchRange<kOutput>,
        .output = OutputName(kOutput),
    };
}

const SplitKernel kSplit10[]{
    Variant<Output::kBlock>("split_10_vector_loads_block_compaction_kernel<Output::kBlock>"),
    Variant<Output::kPerHit>("split_10_vector_loads_block_compaction_kernel<Output::kPerHit>"),
};

}  // namespace

LESSONS_KERNELS(kSplit10);

}  // namespace lessons::split
