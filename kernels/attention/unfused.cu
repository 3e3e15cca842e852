// Attention as three kernels, the way a framework without a fused kernel runs it: cuBLAS writes
// S = Q·Kᵀ/√d (B·H·N·N bf16) to global memory, a row softmax turns S into P in place, and cuBLAS
// reads P back for O = P·V. The arithmetic is the same as a fused kernel's; what it costs is the
// N × N matrix, written and read twice, which grows with N² while Q, K, V and O grow with N.
// The softmax is chapter 9's block per row (its device helpers: 16-byte chunks, block trees),
// with the causal mask applied as the row is loaded.
#include "attention_gpu.cuh"
#include "cublas_handle.cuh"
#include "softmax/softmax_device.cuh"

namespace lessons::attention {

using softmax::BlockMax;
using softmax::BlockSum;
using softmax::FastExp;
using softmax::Infinity;
using softmax::LoadChunk;
using softmax::StoreChunk;

// One block per row of S (rows = B·H·N, each n long), in place. The row is kept in registers,
// K chunks of 8 bf16 a thread, when it fits; else it is read three times (max, sum, write).
// Causal: row i of a head sees columns j ≤ i; the others are loaded as -inf and written as 0.
template <int K>
__global__ void attention_unfused_softmax_kernel(__nv_bfloat16* s, int n, int causal) {
    constexpr int V = 8;
    __shared__ float scratch[32];
    const long long row = blockIdx.x;
    const int i = static_cast<int>(row % n);
    const int last = causal ? i : n - 1;  // the last column the row sees
    __nv_bfloat16* r = s + static_cast<size_t>(row) * n;
    const int chunks = (n + V - 1) / V;
    const bool aligned = n % V == 0;
    const int lanes = blockDim.x, lane = threadIdx.x;

    if (chunks <= K * lanes) {
        float v[K][V];
        float max = -Infinity();
#pragma unroll
        for (int k = 0; k < K; ++k) {
            const int c = k * lanes + lane;
            if (c < chunks) LoadChunk(r, c, n, aligned, v[k], -Infinity());
#pragma unroll
            for (int e = 0; e < V; ++e) {
                if (c >= chunks || c * V + e > last) v[k][e] = -Infinity();
                max = fmaxf(max, v[k][e]);
            }
        }
        max = BlockMax(max, scratch);  // column 0 is always seen: max is finite
        float sum = 0.0f;
#pragma unroll
        for (int k = 0; k < K; ++k)
#pragma unroll
            for (int e = 0; e < V; ++e) {
                v[k][e] = FastExp(v[k][e] - max);  // exp(-inf) = 0: masked columns add nothing
                sum += v[k][e];
            }
        const float inv = 1.0f / BlockSum(sum, scratch);
#pragma unroll
        for (int k = 0; k < K; ++k) {
            const int c = k * lanes + lane;
            if (c >= chunks) continue;
#pragma unroll
            for (int e = 0; e < V; ++e) v[k][e] *= inv;
            StoreChunk(r, c, n, aligned, v[k]);
        }
    } else {  // too long for the registers: three passes over the row
        float v[V];
        float max = -Infinity();
        for (int c = lane; c < chunks; c += lanes) {
            LoadChunk(r, c, n, aligned, v, -Infinity());
#pragma unroll
            for (int e = 0; e < V; ++e) max = c * V + e <= last ? fmaxf(max, v[e]) : max;
        }
        max = BlockMax(max, scratch);
        float sum = 0.0f;
        for (int c = lane; c < chunks; c += lanes) {
            LoadChunk(r, c, n, aligned, v, -Infinity());
#pragma unroll
            for (int e = 0; e < V; ++e) sum += c * V + e <= last ? FastExp(v[e] - max) : 0.0f;
        }
        const float inv = 1.0f / BlockSum(sum, scratch);
        for (int c = lane; c < chunks; c += lanes) {
            LoadChunk(r, c, n, aligned, v, -Infinity());
#pragma unroll
            for (int e = 0; e < V; ++e) v[e] = c * V + e <= last ? FastExp(v[e] - max) * inv : 0.0f;
            StoreChunk(r, c, n, aligned, v);
        }
    }
}

namespace {

constexpr int kMaxChunks = 8;  // chunks a thread keeps in registers

const void* Instance(int k) {
    switch (k) {
        case 1:
            return reinterpret_cast<const void*>(&attention_unfused_softmax_kernel<1>);
        case 2:
            return reinterpret_cast<const void*>(&attention_unfused_softmax_kernel<2>);
        case 4:
            return reinterpret_cast<const void*>(&attention_unfused_softmax_kernel<4>);
        default:
            return reinterpret_cast<const void*>(&attention_unfused_softmax_kernel<8>);
    }
}

// The smallest K (a power of two, at most 8) whose chunks cover the row with `block` threads.
const void* PickSoftmax(int n, int block) {
    const long long chunks = (static_cast<long long>(n) + 7) / 8;
    int k = 1;
    while (k < kMaxChunks && static_cast<long long>(k) * block < chunks) k *= 2;
    return Instance(k);
}

#if LESSONS_HAVE_CUBLAS

std::string Create(void** state, cudaStream_t stream) {
    return CublasCreate(reinterpret_cast<cublasHandle_t*>(state), stream);
}

// cuBLAS is column-major: a row-major n × d matrix is its d × n transpose. Per head,
//   S (row-major n × n) is column-major Sᵀ = K·Qᵀ: op(A) = K (A = K's memory read transposed),
//   op(B) = Qᵀ (Q's memory as it is); alpha = 1/√d folds the scale in;
//   O (row-major n × d) is column-major Oᵀ = Vᵀ·Pᵀ: V's and P's memory as they are.
std::string Run(void* state, const AttentionProblem& p, __nv_bfloat16* s, int block,
                cudaStream_t stream) {
    const cublasHandle_t h = static_cast<cublasHandle_t>(state);
    const float zero = 0.0f, one = 1.0f;
    const long long nd = static_cast<long long>(p.n) * p.d;
    const long long nn = static_cast<long long>(p.n) * p.n;
    std::string error =
        CublasStatus("cublasGemmStridedBatchedEx (S = Q·Kᵀ)",
                     cublasGemmStridedBatchedEx(
                         h, CUBLAS_OP_T, CUBLAS_OP_N, p.n, p.n, p.d, &p.scale, p.k, CUDA_R_16BF,
                         p.d, nd, p.q, CUDA_R_16BF, p.d, nd, &zero, s, CUDA_R_16BF, p.n, nn,
                         p.heads, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    if (!error.empty()) return error;
    const unsigned rows = static_cast<unsigned>(static_cast<long long>(p.heads) * p.n);
    const int n = p.n, causal = p.causal ? 1 : 0;
    void* args[] = {&s, const_cast<int*>(&n), const_cast<int*>(&causal)};
    const cudaError_t launch =
        cudaLaunchKernel(PickSoftmax(p.n, block), dim3(rows), dim3(block), args, 0, stream);
    if (launch != cudaSuccess)
        return std::string("attention_unfused_softmax_kernel: ") + cudaGetErrorString(launch);
    return CublasStatus("cublasGemmStridedBatchedEx (O = P·V)",
                        cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, p.d, p.n, p.n, &one,
                                                   p.v, CUDA_R_16BF, p.d, nd, s, CUDA_R_16BF, p.n,
                                                   nn, &zero, p.o, CUDA_R_16BF, p.d, nd, p.heads,
                                                   CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

void Destroy(void* state) {
    CublasDestroy(state);
}

#else

std::string Create(void**, cudaStream_t) {
    return CublasUnavailable();
}
std::string Run(void*, const AttentionProblem&, __nv_bfloat16*, int, cudaStream_t) {
    return CublasUnavailable();
}
void Destroy(void*) {}

#endif

std::string Unavailable() {
    return CublasUnavailable();
}

}  // namespace

const UnfusedAttention kUnfused{
    "attention_unfused_softmax_kernel", &PickSoftmax, &Create, &Run, &Destroy, &Unavailable};

LESSONS_KERNELS(kUnfused);

}  // namespace lessons::attention
