// sm9fast: standalone benchmark of chapter 9's cluster softmax (step 9.7) against candidates.
// Build (repository root): nvcc -O3 -std=c++17 -arch=sm_90a -lineinfo -Ikernels
//   -o gpu-bundle/sm9fast/bench gpu-bundle/sm9fast/bench.cu
// Usage: bench [out.jsonl] [filter-substring]
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "../../kernels/softmax/cluster.cu"  // main's step 9.7 (the baseline), its launcher

using namespace lessons::softmax;

#define CK(x)                                                                               \
    do {                                                                                    \
        cudaError_t e_ = (x);                                                               \
        if (e_ != cudaSuccess) {                                                            \
            std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, \
                         __LINE__);                                                         \
            std::exit(1);                                                                   \
        }                                                                                   \
    } while (0)

// ---------------------------------------------------------------------------------------------
#ifndef SMEM_UNROLL
#define SMEM_UNROLL 2
#endif
constexpr int kSmemUnroll = SMEM_UNROLL;
// PTX helpers (sm_90)
__device__ __forceinline__ unsigned SmemAddr(const void* p) {
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ unsigned ClusterRank() {
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}
__device__ __forceinline__ unsigned ClusterBlocks() {
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(r));
    return r;
}
__device__ __forceinline__ void BarInit(unsigned bar, unsigned count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
__device__ __forceinline__ void BarArriveExpect(unsigned bar, unsigned bytes) {
    asm volatile(
        "{ .reg .b64 s; mbarrier.arrive.expect_tx.shared::cta.b64 s, [%0], %1; }" ::"r"(bar),
        "r"(bytes)
        : "memory");
}
__device__ __forceinline__ void FenceBarInit() {
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
__device__ __forceinline__ void ClusterArriveRelaxed() {
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
}
__device__ __forceinline__ void ClusterWait() {
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
}
__device__ __forceinline__ void BarWait(unsigned bar, unsigned parity) {
    unsigned done = 0;
    while (!done)
        asm volatile(
            "{ .reg .pred p; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2; "
            "selp.u32 %0, 1, 0, p; }"
            : "=r"(done)
            : "r"(bar), "r"(parity)
            : "memory");
}
__device__ __forceinline__ void BulkLoad(unsigned dst, const void* src, unsigned bytes,
                                         unsigned bar) {
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::
            "r"(dst),
        "l"(src), "r"(bytes), "r"(bar)
        : "memory");
}
__device__ __forceinline__ unsigned MapRank(unsigned addr, unsigned rank) {
    unsigned r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(addr), "r"(rank));
    return r;
}
__device__ __forceinline__ void PushPair(unsigned remote_slot, MaxSum p, unsigned remote_bar) {
    asm volatile(
        "st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.f32 [%0], {%1, %2}, [%3];" ::"r"(
            remote_slot),
        "f"(p.max), "f"(p.sum), "r"(remote_bar)
        : "memory");
}

// ---------------------------------------------------------------------------------------------
// Candidate "hyb": a cluster of C blocks a row (rows of 16-byte multiples); each block's part:
// KR chunks a thread in registers (loaded by the threads), the rest in shared memory (one bulk
// copy, TMA); (max, sum) pairs pushed to every block of the cluster with st.async (no
// cluster.sync, no DSMEM reads, no final barrier).
template <typename T, int BLOCK, int KR, int MINB>
__global__ void __launch_bounds__(BLOCK, MINB)
    hyb_kernel(const T* __restrict__ x, T* __restrict__ y, int m, int n, int part) {
    constexpr int V = ChunkCount<T>();
    extern __shared__ __align__(128) uint4 buf[];
    __shared__ float smax[32], ssum[32];
    __shared__ __align__(8) MaxSum slots[16];
    __shared__ __align__(8) unsigned long long bars[2];  // [0] the bulk load, [1] the pairs
    const unsigned rank = ClusterRank(), blocks = ClusterBlocks();
    const long long row = blockIdx.x / blocks;
    const int chunks = n / V;
    const int first = min(static_cast<int>(rank) * part, chunks);
    const int last = min(first + part, chunks);
    const int sfirst = min(first + KR * BLOCK, last);
    const int scount = last - sfirst;
    const uint4* r = reinterpret_cast<const uint4*>(x + static_cast<size_t>(row) * n);
    uint4* o = reinterpret_cast<uint4*>(y + static_cast<size_t>(row) * n);
    const unsigned load_bar = SmemAddr(&bars[0]), pair_bar = SmemAddr(&bars[1]);
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    if (tid == 0) {
        BarInit(load_bar, 1);
        BarInit(pair_bar, 1);
        BarArriveExpect(pair_bar, blocks * 8u);
        FenceBarInit();
        if (scount > 0) {
            const unsigned bytes = static_cast<unsigned>(scount) * 16u;
            BarArriveExpect(load_bar, bytes);
            constexpr unsigned kPiece = 32768;
            for (unsigned off = 0; off < bytes; off += kPiece)
                BulkLoad(SmemAddr(buf) + off, reinterpret_cast<const char*>(r + sfirst) + off,
                         min(kPiece, bytes - off), load_bar);
        }
    }
    const T pad = NegativeInfinity<T>();
    uint4 raw[KR > 0 ? KR : 1];
#pragma unroll
    for (int k = 0; k < KR; ++k) {
        const int c = first + k * BLOCK + tid;
        raw[k] = c < sfirst ? __ldg(r + c) : FilledRaw(pad);
    }
    ClusterArriveRelaxed();  // every block's barriers are initialised before anyone pushes
    float max = -Infinity();
#pragma unroll
    for (int k = 0; k < KR; ++k) max = fmaxf(max, ChunkMax<T>(raw[k]));
    if (scount > 0) {
        BarWait(load_bar, 0);
#pragma unroll kSmemUnroll
        for (int j = tid; j < scount; j += BLOCK) max = fmaxf(max, ChunkMax<T>(buf[j]));
    }
    float sum = 0.0f;
    if constexpr (KR > 0) sum = ExpInPlace<T>(raw, max);
    if (scount > 0) {
        const float base = max == -Infinity() ? 0.0f : max;
        float s2[2] = {0.0f, 0.0f};
#pragma unroll kSmemUnroll
        for (int j = tid; j < scount; j += BLOCK) {
            const uint4 v = buf[j];
            float e[V];
#pragma unroll
            for (int i = 0; i < V; ++i) {
                e[i] = SfuExp(Element<T>(v, i) - base);
                s2[i % 2] += e[i];
            }
            buf[j] = PackRaw<T>(e);
        }
        sum += s2[0] + s2[1];
    }
    MaxSum pair = WarpPair({max, sum});
    if (lane == 0) {
        smax[warp] = pair.max;
        ssum[warp] = pair.sum;
    }
    __syncthreads();
    ClusterWait();
    if (warp == 0) {
        pair = lane < BLOCK / 32 ? MaxSum{smax[lane], ssum[lane]} : MaxSum{-Infinity(), 0.0f};
        pair = WarpPair(pair);
        if (lane < static_cast<int>(blocks))
            PushPair(MapRank(SmemAddr(&slots[rank]), lane), pair, MapRank(pair_bar, lane));
    }
    BarWait(pair_bar, 0);
    pair = lane < static_cast<int>(blocks) ? slots[lane] : MaxSum{-Infinity(), 0.0f};
    pair = WarpPair(pair);
    const float factor = max == -Infinity() ? 0.0f : SfuExp(max - pair.max) / pair.sum;
#pragma unroll
    for (int k = 0; k < KR; ++k) {
        const int c = first + k * BLOCK + tid;
        if (c < sfirst) o[c] = ScaledChunk<T>(raw, k, factor);
    }
#pragma unroll kSmemUnroll
    for (int j = tid; j < scount; j += BLOCK) {
        const uint4 v = buf[j];
        float out[V];
#pragma unroll
        for (int i = 0; i < V; ++i) out[i] = Element<T>(v, i) * factor;
        o[sfirst + j] = PackRaw<T>(out);
    }
}

// The copy: 16 bytes a thread, 4 chunks a thread.
__global__ void copy_kernel(const uint4* __restrict__ a, uint4* __restrict__ b, size_t count) {
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    uint4 v[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) v[k] = i + k * stride < count ? a[i + k * stride] : uint4{};
#pragma unroll
    for (int k = 0; k < 4; ++k)
        if (i + k * stride < count) b[i + k * stride] = v[k];
}

// ---------------------------------------------------------------------------------------------
// Verification on the GPU against a double-precision CPU reference (kept as floats: ref, and
// each row's max). One block a row; counts wrong values and rows whose sum is off.
template <typename T>
__global__ void check_kernel(const T* __restrict__ y, const T* __restrict__ x,
                             const float* __restrict__ ref, const double* __restrict__ rowmax,
                             int n, int bf16, unsigned long long* wrong, unsigned long long* badsum,
                             float* worst) {
    const long long row = blockIdx.x;
    __shared__ double ssum[32], stol[32];
    __shared__ float sworst[32];
    double sum = 0, tol_sum = 0;
    float w = 0;
    unsigned long long bad = 0;
    for (int j = threadIdx.x; j < n; j += blockDim.x) {
        const size_t i = static_cast<size_t>(row) * n + j;
        const double got = ToFloat(y[i]);
        const double expect = ref[i];
        const double d = rowmax[row] - static_cast<double>(ToFloat(x[i]));
        double rel = ldexp(4 + 1.2 * d + 2 * sqrt(static_cast<double>(n)) + 16, -23);
        if (bf16) rel += ldexp(1.0, -7);
        const double tol = rel * fabs(expect) + 7.888609052210118e-31;
        double err = fabs(got - expect);
        if (isnan(err)) err = 1e300;
        sum += got;
        tol_sum += tol;
        w = fmaxf(w, static_cast<float>(err / tol));
        if (err > tol) ++bad;
    }
    if (bad) atomicAdd(wrong, bad);
    for (int off = 16; off; off /= 2) {
        sum += __shfl_xor_sync(~0u, sum, off);
        tol_sum += __shfl_xor_sync(~0u, tol_sum, off);
        w = fmaxf(w, __shfl_xor_sync(~0u, w, off));
    }
    if (threadIdx.x % 32 == 0) {
        ssum[threadIdx.x / 32] = sum;
        stol[threadIdx.x / 32] = tol_sum;
        sworst[threadIdx.x / 32] = w;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        double s = 0, t = 0;
        float ww = 0;
        for (int i = 0; i < static_cast<int>(blockDim.x / 32); ++i) {
            s += ssum[i];
            t += stol[i];
            ww = fmaxf(ww, sworst[i]);
        }
        double e = fabs(s - 1.0);
        if (isnan(e) || e > t) atomicAdd(badsum, 1ull);
        atomicMax(reinterpret_cast<int*>(worst), __float_as_int(ww));  // non-negative floats
    }
}

// ---------------------------------------------------------------------------------------------
// Host
static uint16_t ToBf16Bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    const uint32_t rounding = 0x7fff + ((u >> 16) & 1);
    return static_cast<uint16_t>((u + rounding) >> 16);
}
static float Bf16ToFloat(uint16_t b) {
    const uint32_t u = static_cast<uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

static void ParallelFor(long long count, const std::function<void(long long, long long)>& f) {
    const int threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            const long long b = count * t / threads, e = count * (t + 1) / threads;
            if (b < e) f(b, e);
        });
    for (auto& t : pool) t.join();
}

struct Result {
    std::string name;
    bool ok = false;
    double ms = 0, copy_ms = 0, pct = 0;
    unsigned long long wrong = 0, badsum = 0;
    float worst = 0;
    int regs = -1, clusters = -1, smem = 0;
    std::string error;
};

static double Median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

struct Problem {
    int m, n;
    bool bf16;
    size_t bytes;  // of x
    void* x = nullptr;
    void* y = nullptr;
    void* copy_out = nullptr;
    void* workspace = nullptr;
    float* ref = nullptr;
    double* rowmax = nullptr;
    unsigned long long* counters = nullptr;
    float* worst = nullptr;
};

static FILE* g_json = nullptr;
static const char* g_filter = nullptr;
static const int kIters = 40;

// Times `launch` (median of kIters, after warm-up) interleaved with the copy; checks the output.
static void Measure(Problem& p, const std::string& name, const std::function<cudaError_t()>& launch,
                    int regs, int clusters, int smem) {
    if (g_filter && name.find(g_filter) == std::string::npos) return;
    Result r;
    r.name = name;
    r.regs = regs;
    r.clusters = clusters;
    r.smem = smem;
    CK(cudaMemset(p.y, 0xff, p.bytes));  // NaN fill: an element not written fails
    cudaError_t e = launch();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        r.error = cudaGetErrorString(e);
        cudaGetLastError();
        std::printf("%-48s ERROR %s\n", name.c_str(), r.error.c_str());
        if (g_json)
            std::fprintf(g_json,
                         "{\"m\":%d,\"n\":%d,\"dtype\":\"%s\",\"config\":\"%s\",\"error\":\"%s\"}\n",
                         p.m, p.n, p.bf16 ? "bf16" : "fp32", name.c_str(), r.error.c_str());
        if (e == cudaErrorIllegalAddress || e == cudaErrorLaunchFailure) std::exit(2);
        return;
    }
    CK(cudaMemset(p.counters, 0, 16));
    CK(cudaMemset(p.worst, 0, 4));
    if (p.bf16)
        check_kernel<__nv_bfloat16><<<p.m, 256>>>(static_cast<const __nv_bfloat16*>(p.y),
                                                  static_cast<const __nv_bfloat16*>(p.x), p.ref,
                                                  p.rowmax, p.n, 1, p.counters, p.counters + 1,
                                                  p.worst);
    else
        check_kernel<float><<<p.m, 256>>>(static_cast<const float*>(p.y),
                                          static_cast<const float*>(p.x), p.ref, p.rowmax, p.n, 0,
                                          p.counters, p.counters + 1, p.worst);
    CK(cudaGetLastError());
    unsigned long long c[2];
    CK(cudaMemcpy(c, p.counters, 16, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&r.worst, p.worst, 4, cudaMemcpyDeviceToHost));
    r.wrong = c[0];
    r.badsum = c[1];
    r.ok = c[0] == 0 && c[1] == 0;
    // Timing
    const size_t chunks = p.bytes / 16;
    const int copy_block = 256;
    const unsigned copy_grid =
        static_cast<unsigned>(std::min<size_t>((chunks + copy_block * 4 - 1) / (copy_block * 4),
                                               1u << 30));
    cudaEvent_t ev[3];
    for (auto& v : ev) CK(cudaEventCreate(&v));
    std::vector<float> tk, tc;
    for (int it = 0; it < kIters + 3; ++it) {
        CK(cudaEventRecord(ev[0]));
        copy_kernel<<<copy_grid, copy_block>>>(static_cast<const uint4*>(p.x),
                                               static_cast<uint4*>(p.copy_out), chunks);
        CK(cudaEventRecord(ev[1]));
        CK(launch());
        CK(cudaEventRecord(ev[2]));
        CK(cudaEventSynchronize(ev[2]));
        float a, b;
        CK(cudaEventElapsedTime(&a, ev[0], ev[1]));
        CK(cudaEventElapsedTime(&b, ev[1], ev[2]));
        if (it >= 3) {
            tc.push_back(a);
            tk.push_back(b);
        }
    }
    for (auto& v : ev) CK(cudaEventDestroy(v));
    r.ms = Median(tk);
    r.copy_ms = Median(tc);
    r.pct = r.copy_ms / r.ms * 100.0;
    const double gbps = 2.0 * p.bytes / (r.ms * 1e-3) / 1e9;
    std::printf("%-48s %s %7.1f us  copy %7.1f us  %6.1f%% of copy  %6.0f GB/s  regs %3d  "
                "clusters %4d  smem %6d  worst %.2f%s\n",
                name.c_str(), r.ok ? "ok   " : "WRONG", r.ms * 1e3, r.copy_ms * 1e3, r.pct, gbps,
                r.regs, r.clusters, r.smem, r.worst,
                r.ok ? ""
                     : (" wrong=" + std::to_string(r.wrong) + " badsum=" + std::to_string(r.badsum))
                           .c_str());
    std::fflush(stdout);
    if (g_json) {
        std::fprintf(g_json,
                     "{\"m\":%d,\"n\":%d,\"dtype\":\"%s\",\"config\":\"%s\",\"ok\":%s,\"us\":%.2f,"
                     "\"copy_us\":%.2f,\"pct\":%.2f,\"gbps\":%.1f,\"regs\":%d,\"clusters\":%d,"
                     "\"smem\":%d,\"wrong\":%llu,\"badsum\":%llu,\"worst\":%.3f}\n",
                     p.m, p.n, p.bf16 ? "bf16" : "fp32", name.c_str(), r.ok ? "true" : "false",
                     r.ms * 1e3, r.copy_ms * 1e3, r.pct, gbps, r.regs, r.clusters, r.smem,
                     r.wrong, r.badsum, r.worst);
        std::fflush(g_json);
    }
}

template <typename T, int BLOCK, int KR, int MINB>
static void RunHyb(Problem& p, int C) {
    constexpr int V = ChunkCount<T>();
    const void* f = reinterpret_cast<const void*>(&hyb_kernel<T, BLOCK, KR, MINB>);
    const int chunks = p.n / V;
    const int part = (chunks + C - 1) / C;
    if (KR * BLOCK > part && KR > 1) return;  // registers beyond the part: a smaller KR does it
    if (C > 1 && part < BLOCK) return;         // less than a chunk a thread: fewer blocks do it
    const long long smem = std::max(0LL, static_cast<long long>(part - KR * BLOCK)) * 16;
    cudaFuncAttributes a{};
    CK(cudaFuncGetAttributes(&a, f));
    if (smem + static_cast<long long>(a.sharedSizeBytes) > 227 * 1024) return;
    // Pure shared memory for short parts only where it fits; skip tiny parts per thread.
    CK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize,
                            static_cast<int>(smem)));
    CK(cudaFuncSetAttribute(f, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(static_cast<unsigned>(p.m) * C);
    config.blockDim = dim3(BLOCK);
    config.dynamicSmemBytes = static_cast<size_t>(smem);
    cudaLaunchAttribute attribute[1];
    attribute[0].id = cudaLaunchAttributeClusterDimension;
    attribute[0].val.clusterDim.x = C;
    attribute[0].val.clusterDim.y = 1;
    attribute[0].val.clusterDim.z = 1;
    config.attrs = attribute;
    config.numAttrs = 1;
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, f, &config) != cudaSuccess) {
        cudaGetLastError();
        clusters = -1;
    }
    if (clusters == 0) return;
    const T* x = static_cast<const T*>(p.x);
    T* y = static_cast<T*>(p.y);
    int m = p.m, n = p.n, pt = part;
    char name[128];
    std::snprintf(name, sizeof name, "hyb b%d kr%d mb%d c%d", BLOCK, KR, MINB, C);
    Measure(
        p, name,
        [&]() {
            void* args[] = {&x, &y, &m, &n, &pt};
            return cudaLaunchKernelExC(&config, f, args);
        },
        a.numRegs, clusters, static_cast<int>(smem));
}

template <typename T>
static void RunMain(Problem& p, int block, int variant) {
    const SoftmaxKernel& k = kSoftmaxCluster[p.bf16 ? 1 : 0];
    const void* f = k.pick(p.n, block, variant);
    cudaFuncAttributes a{};
    CK(cudaFuncGetAttributes(&a, f));
    char name[128];
    std::snprintf(name, sizeof name, "main b%d cluster %s%d", block,
                  variant > 100 ? "pipe" : variant == 0 ? "auto" : "", variant % 100);
    Measure(
        p, name,
        [&]() { return k.launch(p.x, p.y, p.workspace, p.m, p.n, block, variant, nullptr); },
        a.numRegs, -1, 0);
}

template <typename T>
static void RunAll(Problem& p) {
    for (int block : {256, 512, 1024})
        for (int v : {0, 1, 2, 4, 8, 102, 104, 108}) RunMain<T>(p, block, v);
    for (int C : {1, 2, 4, 8, 16}) {
        RunHyb<T, 256, 0, 1>(p, C);
        RunHyb<T, 512, 0, 1>(p, C);
        RunHyb<T, 1024, 0, 1>(p, C);
        RunHyb<T, 256, 4, 1>(p, C);
        RunHyb<T, 512, 4, 1>(p, C);
        RunHyb<T, 1024, 4, 1>(p, C);
        RunHyb<T, 256, 8, 1>(p, C);
        RunHyb<T, 512, 8, 1>(p, C);
        RunHyb<T, 1024, 8, 1>(p, C);
        RunHyb<T, 256, 16, 1>(p, C);
        RunHyb<T, 512, 16, 1>(p, C);
        RunHyb<T, 512, 8, 2>(p, C);
        RunHyb<T, 256, 8, 4>(p, C);
        RunHyb<T, 256, 16, 2>(p, C);
    }
}

int main(int argc, char** argv) {
    if (argc > 1) g_json = std::fopen(argv[1], "w");
    if (argc > 2) g_filter = argv[2];
    int dev = 0;
    cudaDeviceProp prop{};
    CK(cudaGetDeviceProperties(&prop, dev));
    std::printf("device %s, %d SMs, cc %d.%d\n", prop.name, prop.multiProcessorCount, prop.major,
                prop.minor);
    const char* shape_env = std::getenv("SHAPES");  // e.g. "1024x65536,256x262144"
    std::vector<std::pair<int, int>> shapes = {
        {1024, 65536}, {256, 262144}, {16384, 4096}, {65536, 1024}};
    if (shape_env) {
        shapes.clear();
        std::string s = shape_env;
        size_t pos = 0;
        while (pos < s.size()) {
            size_t end = s.find(',', pos);
            if (end == std::string::npos) end = s.size();
            int a, b;
            if (std::sscanf(s.substr(pos, end - pos).c_str(), "%dx%d", &a, &b) == 2)
                shapes.push_back({a, b});
            pos = end + 1;
        }
    }
    const char* dtype_env = std::getenv("DTYPES");
    for (const auto& shape : shapes)
        for (bool bf16 : {false, true}) {
            const int m = shape.first, n = shape.second;
            if (dtype_env && !std::strstr(dtype_env, bf16 ? "bf16" : "fp32")) continue;
            Problem p{m, n, bf16};
            const size_t count = static_cast<size_t>(m) * n;
            p.bytes = count * (bf16 ? 2 : 4);
            std::printf("\n== %d x %d %s (%.0f MiB each way)\n", m, n, bf16 ? "bf16" : "fp32",
                        p.bytes / 1048576.0);
            // Inputs: uniform in [-8, 8), and every 997th value +-80 (large magnitudes).
            std::vector<float> xf(count);
            ParallelFor(m, [&](long long b, long long e) {
                std::mt19937_64 rng(1234 + b);
                std::uniform_real_distribution<float> u(-8.0f, 8.0f);
                for (long long i = b * n; i < e * n; ++i) {
                    float v = u(rng);
                    if (i % 997 == 13) v = (i % 2 ? 80.0f : -80.0f) + v * 0.01f;
                    if (bf16) v = Bf16ToFloat(ToBf16Bits(v));
                    xf[i] = v;
                }
            });
            std::vector<float> ref(count);
            std::vector<double> rowmax(m);
            ParallelFor(m, [&](long long b, long long e) {
                for (long long r = b; r < e; ++r) {
                    const float* xr = xf.data() + r * n;
                    double mx = -INFINITY;
                    for (int j = 0; j < n; ++j) mx = std::max(mx, static_cast<double>(xr[j]));
                    double s = 0;
                    for (int j = 0; j < n; ++j) s += std::exp(xr[j] - mx);
                    for (int j = 0; j < n; ++j)
                        ref[r * n + j] = static_cast<float>(std::exp(xr[j] - mx) / s);
                    rowmax[r] = mx;
                }
            });
            CK(cudaMalloc(&p.x, p.bytes));
            CK(cudaMalloc(&p.y, p.bytes));
            CK(cudaMalloc(&p.copy_out, p.bytes));
            CK(cudaMalloc(&p.workspace, Workspace(m, n) + 16));
            CK(cudaMalloc(&p.ref, count * 4));
            CK(cudaMalloc(&p.rowmax, m * 8));
            CK(cudaMalloc(&p.counters, 16));
            CK(cudaMalloc(&p.worst, 4));
            if (bf16) {
                std::vector<uint16_t> xb(count);
                ParallelFor(static_cast<long long>(count), [&](long long b, long long e) {
                    for (long long i = b; i < e; ++i) xb[i] = ToBf16Bits(xf[i]);
                });
                CK(cudaMemcpy(p.x, xb.data(), p.bytes, cudaMemcpyHostToDevice));
            } else {
                CK(cudaMemcpy(p.x, xf.data(), p.bytes, cudaMemcpyHostToDevice));
            }
            CK(cudaMemcpy(p.ref, ref.data(), count * 4, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(p.rowmax, rowmax.data(), m * 8, cudaMemcpyHostToDevice));
            if (bf16)
                RunAll<__nv_bfloat16>(p);
            else
                RunAll<float>(p);
            for (void* q : {p.x, p.y, p.copy_out, p.workspace, static_cast<void*>(p.ref),
                            static_cast<void*>(p.rowmax), static_cast<void*>(p.counters),
                            static_cast<void*>(p.worst)})
                CK(cudaFree(q));
        }
    if (g_json) std::fclose(g_json);
    return 0;
}
