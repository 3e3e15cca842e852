// The kernel of the swizzled step with its K and V tiles fed by a cp.async pipeline, STAGES
// tiles deep. Before, every tile was loaded, waited for at a barrier, then multiplied: the
// tensor cores sat idle for a whole trip to memory per tile. Here the copies of tile t + STAGES − 1
// are issued (cp.async: global to shared, no registers, the thread goes on) before tile t is
// multiplied, so the trip hides behind STAGES − 1 tiles of work; one barrier per tile remains.
#include "attention_device.cuh"
#include "attention_gpu.cuh"
#include "attention_launch.cuh"
#include "attention_pipeline.cuh"

namespace lessons::attention {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
namespace {

// Issues the copies of the K and V tile of 64 keys from key k0 into the stage at ks and vs
// (shared addresses, swizzled like the swizzled step's tiles); keys past n get zeros.
template <int D, int THREADS>
__device__ __forceinline__ void IssueTile(const __nv_bfloat16* k, const __nv_bfloat16* v, int n,
                                          int k0, unsigned ks, unsigned vs) {
    constexpr int BC = 64, kChunks = D / 8;
    for (int c = threadIdx.x; c < BC * kChunks; c += THREADS) {
        const int r = c / kChunks, chunk = c % kChunks;
        const bool in = k0 + r < n;
        const size_t at = in ? static_cast<size_t>(k0 + r) * D + chunk * 8 : 0;
        const unsigned to = static_cast<unsigned>(Swizzled<D>(r, chunk) * 2);
        CpAsync16(ks + to, k + at, in ? 16 : 0);
        CpAsync16(vs + to, v + at, in ? 16 : 0);
    }
}

}  // namespace
#endif

template <int D, int BR, int STAGES>
__global__ void __launch_bounds__(BR * 2) attention_pipelined_kernel(const AttentionProblem p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    static_assert(STAGES >= 2, "a pipeline holds at least the tile in use and the next");
    constexpr int BC = 64, kThreads = BR * 2, kChunks = D / 8;
    constexpr int NT = BC / 8, DT = D / 8, KQ = D / 16, KP = BC / 16;
    constexpr unsigned kTileBytes = BC * D * 2;  // one K or V tile, bf16
    extern __shared__ __align__(16) unsigned char smem[];
    __nv_bfloat16* qs = reinterpret_cast<__nv_bfloat16*>(smem);  // [BR][D], swizzled
    // Then STAGES stages, each a K tile and a V tile of [BC][D], swizzled.
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
    const size_t head = static_cast<size_t>(blockIdx.y) * p.n * D;
    const __nv_bfloat16 *q = p.q + head, *k = p.k + head, *v = p.v + head;
    const int q0 = blockIdx.x * BR;
    const unsigned qs_base = static_cast<unsigned>(__cvta_generic_to_shared(qs));
    const unsigned kv_base = qs_base + BR * D * 2;
    const int end = p.causal ? min(p.n, q0 + BR) : p.n;
    const int tiles = (end + BC - 1) / BC;

    // The first STAGES − 1 tiles start on their way before Q is read. Every stage commits a
    // group, empty past the last tile, so that "at most STAGES − 2 in flight" always means
    // "this tile has landed".
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < tiles)
            IssueTile<D, kThreads>(k, v, p.n, s * BC, kv_base + s * 2 * kTileBytes,
                                   kv_base + s * 2 * kTileBytes + kTileBytes);
        CpAsyncCommit();
    }

    for (int c = tid; c < BR * kChunks; c += kThreads)
        *reinterpret_cast<uint4*>(qs + Swizzled<D>(c / kChunks, c % kChunks)) =
            LoadRow8(q, p.n, D, q0 + c / kChunks, (c % kChunks) * 8);
    __syncthreads();
    unsigned qf[KQ][4];
#pragma unroll
    for (int kk = 0; kk < KQ; ++kk)
        LdMatrixX4(qf[kk], qs_base + Swizzled<D>(warp * 16 + lane % 16, kk * 2 + lane / 16) * 2);

    float o[DT][4], m[2] = {NegInfinity(), NegInfinity()}, l[2] = {0.0f, 0.0f};
#pragma unroll
    for (int j = 0; j < DT; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) o[j][e] = 0.0f;
    const int rows[2] = {q0 + warp * 16 + g, q0 + warp * 16 + g + 8};

    int stage = 0;  // tile % STAGES
    for (int tile = 0; tile < tiles; ++tile) {
        // Tile `tile` has landed for this thread; the barrier makes it every thread's, and
        // tells that every warp is done with the stage the tile before used, which the copies
        // of tile + STAGES − 1 now overwrite.
        CpAsyncWait<STAGES - 2>();
        __syncthreads();
        {
            const int next = tile + STAGES - 1;
            const int into = stage == 0 ? STAGES - 1 : stage - 1;
            if (next < tiles)
                IssueTile<D, kThreads>(k, v, p.n, next * BC, kv_base + into * 2 * kTileBytes,
                                       kv_base + into * 2 * kTileBytes + kTileBytes);
            CpAsyncCommit();
        }
        const int k0 = tile * BC;
        const unsigned ks_base = kv_base + stage * 2 * kTileBytes, vs_base = ks_base + kTileBytes;
        stage = stage == STAGES - 1 ? 0 : stage + 1;

        float s[NT][4];
#pragma unroll
        for (int j = 0; j < NT; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) s[j][e] = 0.0f;
#pragma unroll
        for (int kk = 0; kk < KQ; ++kk)
#pragma unroll
            for (int jp = 0; jp < NT / 2; ++jp) {
                unsigned kf[4];
                LdMatrixX4(kf, ks_base + Swizzled<D>(jp * 16 + lane % 8 + (lane / 16) * 8,
                                                     kk * 2 + (lane / 8) % 2) *
                                             2);
                Mma16816(s[2 * jp], qf[kk], kf[0], kf[1]);
                Mma16816(s[2 * jp + 1], qf[kk], kf[2], kf[3]);
            }

        float base[2];
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            float mx = NegInfinity();
#pragma unroll
            for (int j = 0; j < NT; ++j)
#pragma unroll
                for (int e = 2 * h; e < 2 * h + 2; ++e) {
                    const int key = k0 + j * 8 + 2 * t + e % 2;
                    const bool seen = key < p.n && (!p.causal || key <= rows[h]);
                    s[j][e] = seen ? s[j][e] * p.scale : NegInfinity();
                    mx = fmaxf(mx, s[j][e]);
                }
            mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 1));
            mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, 2));
            const float m_new = fmaxf(m[h], mx);
            base[h] = m_new == NegInfinity() ? 0.0f : m_new;
            const float rescale = __expf(m[h] - base[h]);
            m[h] = m_new;
            l[h] *= rescale;
#pragma unroll
            for (int j = 0; j < DT; ++j) {
                o[j][2 * h] *= rescale;
                o[j][2 * h + 1] *= rescale;
            }
        }
#pragma unroll
        for (int j = 0; j < NT; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                s[j][e] = __expf(s[j][e] - base[e / 2]);
                l[e / 2] += s[j][e];
            }

#pragma unroll
        for (int kk = 0; kk < KP; ++kk) {
            const unsigned pf[4] = {PackBf16(s[2 * kk][0], s[2 * kk][1]),
                                    PackBf16(s[2 * kk][2], s[2 * kk][3]),
                                    PackBf16(s[2 * kk + 1][0], s[2 * kk + 1][1]),
                                    PackBf16(s[2 * kk + 1][2], s[2 * kk + 1][3])};
#pragma unroll
            for (int dp = 0; dp < DT / 2; ++dp) {
                unsigned vf[4];
                LdMatrixX4Trans(vf, vs_base + Swizzled<D>(kk * 16 + lane % 8 + ((lane / 8) % 2) * 8,
                                                          dp * 2 + lane / 16) *
                                                  2);
                Mma16816(o[2 * dp], pf, vf[0], vf[1]);
                Mma16816(o[2 * dp + 1], pf, vf[2], vf[3]);
            }
        }
    }
    CpAsyncWait<0>();  // nothing is left in flight when the block ends (only empty groups)

    __nv_bfloat16* out = p.o + head;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        float sum = l[h];
        sum += __shfl_xor_sync(0xffffffffu, sum, 1);
        sum += __shfl_xor_sync(0xffffffffu, sum, 2);
        const float inv = 1.0f / sum;
        if (rows[h] >= p.n) continue;
#pragma unroll
        for (int j = 0; j < DT; ++j)
            *reinterpret_cast<__nv_bfloat162*>(out + size_t(rows[h]) * D + j * 8 + 2 * t) =
                __floats2bfloat162_rn(o[j][2 * h] * inv, o[j][2 * h + 1] * inv);
    }
#else
    (void)p;  // needs sm_80: the host refuses
#endif
}

namespace {

// Q's tile, then STAGES stages of a K and a V tile of 64 keys.
template <int D, int BR, int STAGES>
constexpr size_t kSmem = size_t(BR* D + STAGES * 2 * 64 * D) * sizeof(__nv_bfloat16);

template <int D, int BR, int STAGES>
AttentionKernel Config(const char* tile) {
    return RowsKernel<&attention_pipelined_kernel<D, BR, STAGES>, D, BR * 2, BR,
                      kSmem<D, BR, STAGES>, 80>(tile, "attention_pipelined_kernel");
}

}  // namespace

const AttentionKernel kPipelined[] = {
    Config<128, 128, 2>("128x64-s2"), Config<64, 128, 2>("128x64-s2"),
    Config<128, 128, 3>("128x64-s3"), Config<64, 128, 3>("128x64-s3"),
    Config<128, 64, 2>("64x64-s2"),   Config<64, 64, 2>("64x64-s2"),
    Config<128, 64, 3>("64x64-s3"),   Config<64, 64, 3>("64x64-s3"),
};

LESSONS_KERNELS(kPipelined);

}  // namespace lessons::attention
