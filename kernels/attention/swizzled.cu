// The same warps and fragments as the previous step, with two changes in shared memory. V stays
// as it lies (a key a row, stored with 16-byte stores like K), and ldmatrix.trans transposes it
// on the way to the registers, so the 2-byte transposing stores are gone. And every tile is
// swizzled: the 16-byte chunk c of row r is stored at chunk c ^ (r % 8), so the eight rows one
// ldmatrix phase reads sit in eight different chunks of the banks and no phase waits on a bank
// conflict (before: the eight rows of 256 bytes all began in the same bank).
#include "attention_device.cuh"
#include "attention_gpu.cuh"
#include "attention_launch.cuh"

namespace lessons::attention {

template <int D, int BR>
__global__ void __launch_bounds__(BR * 2) attention_swizzled_kernel(const AttentionProblem p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    constexpr int BC = 64, kThreads = BR * 2, kChunks = D / 8;
    constexpr int NT = BC / 8, DT = D / 8, KQ = D / 16, KP = BC / 16;
    extern __shared__ __align__(16) unsigned char smem[];
    __nv_bfloat16* qs = reinterpret_cast<__nv_bfloat16*>(smem);  // [BR][D], swizzled
    __nv_bfloat16* ks = qs + BR * D;                             // [BC][D], swizzled
    __nv_bfloat16* vs = ks + BC * D;                             // [BC][D], swizzled
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
    const size_t head = static_cast<size_t>(blockIdx.y) * p.n * D;
    const __nv_bfloat16 *q = p.q + head, *k = p.k + head, *v = p.v + head;
    const int q0 = blockIdx.x * BR;
    const unsigned qs_base = static_cast<unsigned>(__cvta_generic_to_shared(qs));
    const unsigned ks_base = static_cast<unsigned>(__cvta_generic_to_shared(ks));
    const unsigned vs_base = static_cast<unsigned>(__cvta_generic_to_shared(vs));

    for (int c = tid; c < BR * kChunks; c += kThreads)
        *reinterpret_cast<uint4*>(qs + Swizzled<D>(c / kChunks, c % kChunks)) =
            LoadRow8(q, p.n, D, q0 + c / kChunks, (c % kChunks) * 8);
    __syncthreads();
    // Every row a lane addresses below is ≡ lane % 8 (mod 8): its swizzle is lane % 8.
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
    const int end = p.causal ? min(p.n, q0 + BR) : p.n;

    for (int k0 = 0; k0 < end; k0 += BC) {
        __syncthreads();
        for (int c = tid; c < BC * kChunks; c += kThreads) {
            const int r = c / kChunks, chunk = c % kChunks;
            *reinterpret_cast<uint4*>(ks + Swizzled<D>(r, chunk)) =
                LoadRow8(k, p.n, D, k0 + r, chunk * 8);
            *reinterpret_cast<uint4*>(vs + Swizzled<D>(r, chunk)) =
                LoadRow8(v, p.n, D, k0 + r, chunk * 8);
        }
        __syncthreads();

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

            // V (keys as rows) through ldmatrix.trans: matrices 0, 1 = keys k..k+7 and k+8..k+15 at
            // columns d..d+7 (b0, b1 of the first n8 tile of d), 2, 3 = the same keys at d+8..d+15.
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

template <int D, int BR>
constexpr size_t kSmem = size_t(BR* D + 2 * 64 * D) * sizeof(__nv_bfloat16);

template <int D, int BR>
AttentionKernel Config(const char* tile) {
    return RowsKernel<&attention_swizzled_kernel<D, BR>, D, BR * 2, BR, kSmem<D, BR>, 80>(
        tile, "attention_swizzled_kernel");
}

}  // namespace

const AttentionKernel kSwizzled[] = {
    Config<128, 128>("128x64"),
    Config<64, 128>("128x64"),
    Config<128, 64>("64x64"),
    Config<64, 64>("64x64"),
};

LESSONS_KERNELS(kSwizzled);

}  // namespace lessons::attention
