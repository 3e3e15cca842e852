// Vector loads, block compaction: toward the bandwidth limit.
// Each thread loads two 16-byte vectors (a block-width apart: a warp's loads are contiguous)
// and tests all 32 positions at once with bit tricks on 32-bit words: one test per word finds
// each '\r' whose next byte is '\n' (the byte after a vector comes from the next lane by a
// shuffle). A block prefix sum places the hits, one atomicAdd claims the block's output, staged
// offsets are written contiguously: dense text neither queues on one counter nor scatters
// writes. A warp without hits skips its scan, and a block without hits leaves at its first
// barrier. Each idea has a toggle that takes it out (split_toggles.h): `output=per-hit` (one
// atomic per hit), `loads=4-byte` (the same 32 bytes as eight 4-byte loads), `pair_test=byte`
// (a compare per byte) and `exits=none` (every warp scans, every block claims its range).
#include "split_gpu.cuh"

namespace lessons::split {
namespace {

constexpr int kVectorsPerThread = 2;
constexpr int kWordsPerThread = 4 * kVectorsPerThread;    // 32-bit words
constexpr int kMaxHitsPerThread = 8 * kVectorsPerThread;  // a pair needs two bytes

// Bit 7 of byte k is set where byte k of w is '\r' and the byte after it is '\n' (byte k + 1
// of w, or for k = 3 the first byte of `after`), exactly (no carry between bytes). The bytes
// after are w and `after` shifted down by one byte; a byte of t is zero only where both
// match, and the exact zero-byte test marks those.
__device__ __forceinline__ unsigned crlf_pairs(unsigned w, unsigned after) {
    const unsigned next = __funnelshift_r(w, after, 8);
    const unsigned t = (w ^ 0x0D0D0D0Du) | (next ^ 0x0A0A0A0Au);
    return ~(((t & 0x7F7F7F7Fu) + 0x7F7F7F7Fu) | t | 0x7F7F7F7Fu);
}

// The same bits from one compare per byte and the byte after it (toggle `pair_test=byte`).
__device__ __forceinline__ unsigned crlf_pairs_bytewise(unsigned w, unsigned after) {
    unsigned found = 0;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const unsigned c = (w >> (8 * k)) & 0xFFu;
        const unsigned next = k < 3 ? (w >> (8 * k + 8)) & 0xFFu : after & 0xFFu;
        if (c == '\r' && next == '\n') found |= 0x80u << (8 * k);
    }
    return found;
}

__device__ __forceinline__ unsigned warp_inclusive_sum(unsigned v, unsigned lane) {
    for (int d = 1; d < 32; d *= 2) {
        const unsigned up = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= unsigned(d)) v += up;
    }
    return v;
}

// Where word w of this thread starts, relative to the block's first byte: the thread's vectors
// are a block-width apart.
__device__ __forceinline__ unsigned word_offset(int w) {
    return ((w / 4) * blockDim.x + threadIdx.x) * 16 + 4 * (w % 4);
}

// The earlier steps' output: one atomicAdd on the global counter per hit, written where it
// lands.
__device__ __forceinline__ void write_per_hit(const unsigned* hits, uint64_t first,
                                              unsigned long long* out, unsigned long long* count) {
#pragma unroll
    for (int w = 0; w < kWordsPerThread; ++w)
        for (unsigned m = hits[w]; m; m &= m - 1)
            out[atomicAdd(count, 1ull)] = first + word_offset(w) + (__ffs(m) - 1) / 8 + 2;
}

// The block's output: a prefix sum over the block places each thread's hits, one atomicAdd
// claims the block's space, and the offsets, staged in shared memory, go out contiguously.
template <Exits kExits>
__device__ __forceinline__ void write_block_compacted(const unsigned* hits, uint64_t first,
                                                      unsigned long long* out,
                                                      unsigned long long* count) {
    extern __shared__ unsigned staged[];  // offsets relative to the block's first byte
    __shared__ unsigned warp_start[32];
    __shared__ unsigned long long block_slot;
    __shared__ unsigned block_total;
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    unsigned mine = 0;
#pragma unroll
    for (int w = 0; w < kWordsPerThread; ++w) mine += __popc(hits[w]);

    // In ordinary text every warp has hits; in binary-like data most have none: such a warp
    // skips its scan, and a block with none leaves at the barrier that publishes the warps'
    // totals (its answer says whether any thread of the block had a hit).
    // (Toggle `exits=none`: every warp scans and every block goes on.)
    unsigned inclusive = 0;
    if (kExits == Exits::kNone || __any_sync(0xffffffffu, mine != 0))
        inclusive = warp_inclusive_sum(mine, lane);
    if (lane == 31) warp_start[warp] = inclusive;
    if constexpr (kExits == Exits::kEarly) {
        if (!__syncthreads_or(mine != 0)) return;
    } else {
        __syncthreads();
    }
    if (warp == 0) {
        const unsigned warps = blockDim.x / 32;
        const unsigned total = lane < warps ? warp_start[lane] : 0;
        const unsigned upto = warp_inclusive_sum(total, lane);
        if (lane < warps) warp_start[lane] = upto - total;
        if (lane == 31) {
            block_total = upto;
            block_slot = atomicAdd(count, static_cast<unsigned long long>(upto));
        }
    }
    __syncthreads();

    unsigned slot = warp_start[warp] + inclusive - mine;
#pragma unroll
    for (int w = 0; w < kWordsPerThread; ++w)
        for (unsigned m = hits[w]; m; m &= m - 1)
            staged[slot++] = word_offset(w) + (__ffs(m) - 1) / 8 + 2;
    __syncthreads();
    const unsigned total = block_total;
    for (unsigned i = threadIdx.x; i < total; i += blockDim.x)
        out[block_slot + i] = first + staged[i];
}

}  // namespace

template <Output kOutput, Loads kLoads, PairTest kTest, Exits kExits>
__global__ void split_vector_loads_block_compaction_kernel(const char* __restrict__ buf,
                                                           unsigned long long* __restrict__ out,
                                                           unsigned long long* __restrict__ count,
                                                           unsigned long long offset_base) {
    const unsigned lane = threadIdx.x % 32;
    const uint64_t block_first =
        blockIdx.x * uint64_t(blockDim.x) * kVectorsPerThread;  // in vectors

    unsigned words[kWordsPerThread];
#pragma unroll
    for (int j = 0; j < kVectorsPerThread; ++j) {  // all loads first: they are in flight together
        const uint64_t vector = block_first + j * blockDim.x + threadIdx.x;
        if constexpr (kLoads == Loads::k16Byte) {
            const uint4 v = reinterpret_cast<const uint4*>(buf)[vector];
            words[4 * j] = v.x, words[4 * j + 1] = v.y, words[4 * j + 2] = v.z;
            words[4 * j + 3] = v.w;
        } else {  // toggle `loads=4-byte`: the same words, one load each
#pragma unroll
            for (int q = 0; q < 4; ++q)
                words[4 * j + q] = reinterpret_cast<const unsigned*>(buf)[vector * 4 + q];
        }
    }

    unsigned hits[kWordsPerThread];
#pragma unroll
    for (int j = 0; j < kVectorsPerThread; ++j) {
        // The word after this vector: the next lane's first word (only its first byte is
        // used), or memory for lane 31.
        unsigned after = __shfl_down_sync(0xffffffffu, words[4 * j], 1);
        if (lane == 31)
            after = static_cast<unsigned char>(
                buf[(block_first + j * blockDim.x + threadIdx.x) * 16 + 16]);
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            const unsigned next = q < 3 ? words[4 * j + q + 1] : after;
            hits[4 * j + q] = kTest == PairTest::kWord
                                  ? crlf_pairs(words[4 * j + q], next)
                                  : crlf_pairs_bytewise(words[4 * j + q], next);
        }
    }

    const uint64_t first_byte = offset_base + block_first * 16;
    if constexpr (kOutput == Output::kPerHit)
        write_per_hit(hits, first_byte, out, count);
    else
        write_block_compacted<kExits>(hits, first_byte, out, count);
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

template <Output kOutput, Loads kLoads, PairTest kTest, Exits kExits>
cudaError_t LaunchRange(const char* buf, uint64_t n, unsigned long long* out,
                        unsigned long long* count, int block, cudaStream_t stream,
                        uint64_t offset_base) {
    const uint64_t blocks = Blocks(n, block);
    if (blocks == 0) return cudaSuccess;
    split_vector_loads_block_compaction_kernel<kOutput, kLoads, kTest, kExits>
        <<<static_cast<unsigned>(blocks), block, DynamicSmem<kOutput>(block), stream>>>(
            buf, out, count, offset_base);
    return cudaGetLastError();
}

template <Output kOutput, Loads kLoads, PairTest kTest, Exits kExits>
cudaError_t Launch(const char* buf, uint64_t n, unsigned long long* out, unsigned long long* count,
                   int block, cudaStream_t stream) {
    return LaunchRange<kOutput, kLoads, kTest, kExits>(buf, n, out, count, block, stream, 0);
}

// One kernel per combination of the toggles, named by the values it implements.
template <Output kOutput, Loads kLoads, PairTest kTest, Exits kExits>
SplitKernel Variant(const char* name) {
    return {
        .name = name,
        .kernel = reinterpret_cast<const void*>(
            &split_vector_loads_block_compaction_kernel<kOutput, kLoads, kTest, kExits>),
        .launch = &Launch<kOutput, kLoads, kTest, kExits>,
        .dynamic_smem = &DynamicSmem<kOutput>,
        .blocks = &Blocks,
        .padded = &Padded,
        .launch_range = &LaunchRange<kOutput, kLoads, kTest, kExits>,
        .toggles = {ValueOf(kOutputToggle, kOutput), ValueOf(kSplitLoadsToggle, kLoads),
                    ValueOf(kPairTestToggle, kTest), ValueOf(kExitsToggle, kExits)},
    };
}

#define SPLIT_COMPACTION_VARIANT(O, L, T, E)                                                      \
    Variant<Output::O, Loads::L, PairTest::T, Exits::E>(                                          \
        "split_vector_loads_block_compaction_kernel<Output::" #O ", Loads::" #L ", PairTest::" #T \
        ", Exits::" #E ">")
#define SPLIT_COMPACTION_VARIANTS(O, L)                                                          \
    SPLIT_COMPACTION_VARIANT(O, L, kWord, kEarly), SPLIT_COMPACTION_VARIANT(O, L, kWord, kNone), \
        SPLIT_COMPACTION_VARIANT(O, L, kByte, kEarly),                                           \
        SPLIT_COMPACTION_VARIANT(O, L, kByte, kNone)

// The kernel as written first.
const SplitKernel kSplitVectorLoadsBlockCompaction[]{
    SPLIT_COMPACTION_VARIANTS(kBlock, k16Byte),
    SPLIT_COMPACTION_VARIANTS(kBlock, k4Byte),
    SPLIT_COMPACTION_VARIANTS(kPerHit, k16Byte),
    SPLIT_COMPACTION_VARIANTS(kPerHit, k4Byte),
};

#undef SPLIT_COMPACTION_VARIANTS
#undef SPLIT_COMPACTION_VARIANT

}  // namespace

LESSONS_KERNELS(kSplitVectorLoadsBlockCompaction);

}  // namespace lessons::split
