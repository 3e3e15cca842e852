// The fused kernel on the tensor cores: both products by mma.sync m16n8k16 (bf16 in, fp32
// accumulated). Each warp owns 16 query rows; their Q fragments are loaded once with ldmatrix
// and stay in registers. K tiles of 64 keys go through shared memory as they lie (a key a row),
// which is the B operand of Q·Kᵀ as it is. The scores stay in registers, are softmaxed there
// (the row's four lanes agree on the max with two shuffles) and become the A operand of P·V.
// V is written to shared memory transposed, one 2-byte store per element, so that a plain
// ldmatrix gives the B operand of P·V; rows of 256 bytes put all eight rows an ldmatrix phase
// reads in the same banks (no padding, no swizzle): the next step removes both costs.
#include "attention_device.cuh"
#include "attention_gpu.cuh"
#include "attention_launch.cuh"

namespace lessons::attention {

template <int D, int BR>
__global__ void __launch_bounds__(BR * 2) attention_mma_sync_kernel(const AttentionProblem p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    constexpr int BC = 64, kThreads = BR * 2, kChunks = D / 8;
    constexpr int NT = BC / 8, DT = D / 8, KQ = D / 16, KP = BC / 16;
    extern __shared__ __align__(16) unsigned char smem[];
    __nv_bfloat16* qs = reinterpret_cast<__nv_bfloat16*>(smem);  // [BR][D]
    __nv_bfloat16* ks = qs + BR * D;                             // [BC][D]
    __nv_bfloat16* vts = ks + BC * D;                            // [D][BC]: V transposed
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
    const size_t head = static_cast<size_t>(blockIdx.y) * p.n * D;
    const __nv_bfloat16 *q = p.q + head, *k = p.k + head, *v = p.v + head;
    const int q0 = blockIdx.x * BR;

    for (int c = tid; c < BR * kChunks; c += kThreads)
        *reinterpret_cast<uint4*>(qs + c * 8) =
            LoadRow8(q, p.n, D, q0 + c / kChunks, (c % kChunks) * 8);
    __syncthreads();
    unsigned qf[KQ][4];
    const unsigned q_lane = static_cast<unsigned>(
        __cvta_generic_to_shared(qs + (warp * 16 + lane % 16) * D + (lane / 16) * 8));
#pragma unroll
    for (int kk = 0; kk < KQ; ++kk) LdMatrixX4(qf[kk], q_lane + kk * 16 * 2);

    // K (keys as rows): matrices 0, 1 = keys n..n+7 at d and d+8, 2, 3 = keys n+8..n+15.
    const unsigned k_lane = static_cast<unsigned>(
        __cvta_generic_to_shared(ks + (lane % 8 + (lane / 16) * 8) * D + ((lane / 8) % 2) * 8));
    // Vᵀ (d as rows): the same pattern, d for keys and keys for d.
    const unsigned v_lane = static_cast<unsigned>(
        __cvta_generic_to_shared(vts + (lane % 8 + (lane / 16) * 8) * BC + ((lane / 8) % 2) * 8));

    float o[DT][4], m[2] = {NegInfinity(), NegInfinity()}, l[2] = {0.0f, 0.0f};
#pragma unroll
    for (int j = 0; j < DT; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) o[j][e] = 0.0f;
    const int rows[2] = {q0 + warp * 16 + g, q0 + warp * 16 + g + 8};
    const int end = p.causal ? min(p.n, q0 + BR) : p.n;

    for (int k0 = 0; k0 < end; k0 += BC) {
        __syncthreads();  // every warp is done with the previous tile
        for (int c = tid; c < BC * kChunks; c += kThreads) {
            const int key = k0 + c / kChunks, col = (c % kChunks) * 8;
            *reinterpret_cast<uint4*>(ks + c * 8) = LoadRow8(k, p.n, D, key, col);
            const uint4 vv = LoadRow8(v, p.n, D, key, col);
            const __nv_bfloat16* ve = reinterpret_cast<const __nv_bfloat16*>(&vv);
#pragma unroll
            for (int i = 0; i < 8; ++i) vts[(col + i) * BC + c / kChunks] = ve[i];
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
                LdMatrixX4(kf, k_lane + (jp * 16 * D + kk * 16) * 2);
                Mma16816(s[2 * jp], qf[kk], kf[0], kf[1]);
                Mma16816(s[2 * jp + 1], qf[kk], kf[2], kf[3]);
            }

        // The online softmax on the fragments: each lane holds columns 2t, 2t+1 of every n8 tile
        // for rows g and g+8; the four lanes of a row agree on its max by two shuffles.
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
            const float rescale = __expf(m[h] - base[h]);  // 0 the first time
            m[h] = m_new;
            l[h] *= rescale;  // the lane's share of the row's sum, added up at the end
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
                s[j][e] = __expf(s[j][e] - base[e / 2]);  // masked: exp(-inf) = 0
                l[e / 2] += s[j][e];
            }

            // O += P·V, P from the registers: two n8 tiles of scores are one k16 step of A.
#pragma unroll
        for (int kk = 0; kk < KP; ++kk) {
            const unsigned pf[4] = {PackBf16(s[2 * kk][0], s[2 * kk][1]),
                                    PackBf16(s[2 * kk][2], s[2 * kk][3]),
                                    PackBf16(s[2 * kk + 1][0], s[2 * kk + 1][1]),
                                    PackBf16(s[2 * kk + 1][2], s[2 * kk + 1][3])};
#pragma unroll
            for (int dp = 0; dp < DT / 2; ++dp) {
                unsigned vf[4];
                LdMatrixX4(vf, v_lane + (dp * 16 * BC + kk * 16) * 2);
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
    return RowsKernel<&attention_mma_sync_kernel<D, BR>, D, BR * 2, BR, kSmem<D, BR>, 80>(
        tile, "attention_mma_sync_kernel");
}

}  // namespace

// The tiles: "<query rows>x<keys>" per block, a warp per 16 query rows.
const AttentionKernel kMmaSync[] = {
    Config<128, 128>("128x64"),
    Config<64, 128>("128x64"),
    Config<128, 64>("64x64"),
    Config<64, 64>("64x64"),
};

LESSONS_KERNELS(kMmaSync);

}  // namespace lessons::attention
