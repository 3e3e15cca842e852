// sm9fast: standalone benchmark of chapter 9's cluster softmax (step 9.7) against candidates.
// Build (repository root): nvcc -O3 -std=c++17 -arch=sm_90a -lineinfo -Ikernels
//   -o gpu-bundle/sm9fast/bench gpu-bundle/sm9fast/bench.cu
// Usage: bench [out.jsonl] [filter]  (filter: '|'-separated substrings of config names, or
// "=name" for an exact name; env SHAPES="1024x65536,3x33:fp32", DTYPES, ITERS (0: check only),
// FORCE=1 (no heuristic skips), NOFORK=1 (no child processes: ncu, compute-sanitizer), HANG_S)
#include <cuda_runtime.h>

#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
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
// Candidate "hyb": a cluster of C blocks a row; each block's part of the row: KR chunks a thread
// in registers (loaded by the threads), the rest in shared memory (rows of 16-byte multiples: one
// bulk copy, TMA, into the block's buffer; other rows: loaded by the threads, each thread into
// slots only it reads). The blocks' (max, sum) pairs are pushed to every other block of the
// cluster with st.async (complete_tx on the receiver's mbarrier): no cluster.sync, no DSMEM
// reads, no final cluster barrier.
//
// Protocol (bundle 2; bundle 1 let threads try_wait on the load barrier before thread 0 had
// initialised it, which read stale shared memory (kr0: WRONG) and faulted (kr4 b512 c2)):
//  - thread 0 initialises the load barrier (1 arrival, expect-tx = the bulk bytes) and the pair
//    barrier (1 arrival, expect-tx = (C - 1) × 8 bytes), fence.mbarrier_init.release.cluster,
//    then issues the bulk copies (pieces of 32 KiB, 16-byte aligned, multiples of 16 bytes);
//  - __syncthreads: the block's threads see initialised barriers before they wait on them;
//  - barrier.cluster.arrive.relaxed (after the fence: the inits are released cluster-wide),
//    overlapping the loads; barrier.cluster.wait just before the pushes: no block pushes into a
//    barrier that is not yet initialised;
//  - a block pushes its pair only to the other C - 1 blocks (never st.async to itself: its own
//    pair stays in registers), and leaves only after its own barrier saw all C - 1 pushes: no one
//    writes into its shared memory after that, so no final cluster barrier is needed (pushes it
//    sent land in blocks that wait for them).
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
    const int chunks = (n + V - 1) / V;
    const bool aligned = n % V == 0;
    const int first = min(static_cast<int>(rank) * part, chunks);
    const int last = min(first + part, chunks);
    const int sfirst = min(first + KR * BLOCK, last);
    const int scount = last - sfirst;
    const bool bulk = aligned && scount > 0;
    const T* r = x + static_cast<size_t>(row) * n;
    T* o = y + static_cast<size_t>(row) * n;
    const unsigned load_bar = SmemAddr(&bars[0]), pair_bar = SmemAddr(&bars[1]);
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    if (tid == 0) {
        if (blocks > 1) {
            BarInit(pair_bar, 1);
            BarArriveExpect(pair_bar, (blocks - 1) * 8u);
        }
        if (bulk) BarInit(load_bar, 1);
        FenceBarInit();
        if (bulk) {
            const unsigned bytes = static_cast<unsigned>(scount) * 16u;
            BarArriveExpect(load_bar, bytes);
            constexpr unsigned kPiece = 32768;
            const char* src = reinterpret_cast<const char*>(reinterpret_cast<const uint4*>(r) + sfirst);
            for (unsigned off = 0; off < bytes; off += kPiece)
                BulkLoad(SmemAddr(buf) + off, src + off, min(kPiece, bytes - off), load_bar);
        }
    }
    const T pad = NegativeInfinity<T>();
    uint4 raw[KR > 0 ? KR : 1];
#pragma unroll
    for (int k = 0; k < KR; ++k) {
        const int c = first + k * BLOCK + tid;
        raw[k] = c < sfirst ? LoadRaw(r, c, n, aligned, pad) : FilledRaw(pad);
    }
    if (!aligned)  // no bulk copy: each thread loads the shared slots it alone reads
        for (int j = tid; j < scount; j += BLOCK) buf[j] = LoadRaw(r, sfirst + j, n, false, pad);
    __syncthreads();  // the barriers are initialised before any thread of the block waits on them
    if (blocks > 1) ClusterArriveRelaxed();  // released by the fence: every block's inits
    float max = -Infinity();
#pragma unroll
    for (int k = 0; k < KR; ++k) max = fmaxf(max, ChunkMax<T>(raw[k]));
    if (bulk) BarWait(load_bar, 0);
#pragma unroll kSmemUnroll
    for (int j = tid; j < scount; j += BLOCK) max = fmaxf(max, ChunkMax<T>(buf[j]));
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
    // The block's pair, in every warp (a few shuffles each; no second __syncthreads).
    const MaxSum own = WarpPair(lane < BLOCK / 32 ? MaxSum{smax[lane], ssum[lane]}
                                                  : MaxSum{-Infinity(), 0.0f});
    if (blocks > 1) {
        ClusterWait();  // every block's barriers are initialised
        if (warp == 0 && lane < static_cast<int>(blocks) && lane != static_cast<int>(rank))
            PushPair(MapRank(SmemAddr(&slots[rank]), lane), own, MapRank(pair_bar, lane));
        BarWait(pair_bar, 0);  // the other C - 1 pairs are here
        pair = lane == static_cast<int>(rank) ? own
               : lane < static_cast<int>(blocks) ? slots[lane]
                                                 : MaxSum{-Infinity(), 0.0f};
        pair = WarpPair(pair);
    } else {
        pair = own;
    }
    const float factor = max == -Infinity() ? 0.0f : SfuExp(max - pair.max) / pair.sum;
#pragma unroll
    for (int k = 0; k < KR; ++k) {
        const int c = first + k * BLOCK + tid;
        if (c < sfirst) StoreRaw(o, c, n, aligned, ScaledChunk<T>(raw, k, factor));
    }
#pragma unroll kSmemUnroll
    for (int j = tid; j < scount; j += BLOCK) {
        const uint4 v = buf[j];
        float out[V];
#pragma unroll
        for (int i = 0; i < V; ++i) out[i] = Element<T>(v, i) * factor;
        StoreRaw(o, sfirst + j, n, aligned, PackRaw<T>(out));
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

// A number for the JSON lines: non-finite values as null (bundle 1 wrote inf, which is not JSON).
static std::string Num(double v, int digits = 2) {
    if (!std::isfinite(v)) return "null";
    char s[64];
    std::snprintf(s, sizeof s, "%.*f", digits, v);
    return s;
}

static double Median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// One shape and dtype: the host data (computed by the parent process, before any CUDA call, and
// shared with the children by fork) and the device buffers (each child's own).
struct Problem {
    int m = 0, n = 0;
    bool bf16 = false;
    size_t bytes = 0;  // of x
    std::vector<float> xf, ref;
    std::vector<uint16_t> xb;
    std::vector<double> rowmax;
    void* x = nullptr;
    void* y = nullptr;
    void* copy_out = nullptr;
    void* workspace = nullptr;
    float* dref = nullptr;
    double* drowmax = nullptr;
    unsigned long long* counters = nullptr;
    float* worst = nullptr;
};

// Shared with the parent (mmap'ed before fork): which config the child is at, whether it has
// reported it itself, and a heartbeat.
struct Progress {
    volatile int current;
    volatile int reported;
    volatile int beats;
    volatile int setup_done;
    volatile int done;
};

static FILE* g_json = nullptr;
static const char* g_json_path = nullptr;
static std::vector<std::string> g_filters;  // '|'-separated: substrings, or "=name" exact
static int g_iters = 30;                     // ITERS=0: check only
static bool g_force = false;                 // FORCE=1: no heuristic skips (sanitizer runs)
static Progress* g_progress = nullptr;
static bool g_child = false;

static bool Wanted(const std::string& name) {
    if (g_filters.empty()) return true;
    for (const auto& f : g_filters) {
        if (f.empty()) continue;
        if (f[0] == '=' ? name == f.substr(1) : name.find(f) != std::string::npos) return true;
    }
    return false;
}

static void Die(const char* what, cudaError_t e, const char* file, int line) {
    std::printf("CUDA error %s (%s) at %s:%d\n", cudaGetErrorString(e), what, file, line);
    std::fflush(stdout);
    if (g_json) std::fflush(g_json);
    if (g_child) _exit(4);
    std::exit(1);
}
#undef CK
#define CK(x)                                                 \
    do {                                                      \
        cudaError_t e_ = (x);                                 \
        if (e_ != cudaSuccess) Die(#x, e_, __FILE__, __LINE__); \
    } while (0)

static void JsonError(const Problem& p, const std::string& name, const std::string& error) {
    FILE* f = g_json ? g_json : (g_json_path ? std::fopen(g_json_path, "a") : nullptr);
    if (!f) return;
    std::fprintf(f, "{\"m\":%d,\"n\":%d,\"dtype\":\"%s\",\"config\":\"%s\",\"ok\":false,\"error\":\"%s\"}\n",
                 p.m, p.n, p.bf16 ? "bf16" : "fp32", name.c_str(), error.c_str());
    std::fflush(f);
    if (f != g_json) std::fclose(f);
}

// Checks `launch` on the GPU against the reference, then times it (median of g_iters, after 3
// warm-ups), each iteration interleaved with cudaMemcpyAsync D2D of the same bytes (the app's
// copy ceiling, engine/cuda/ceilings.cu) and a 16-byte copy kernel: % of copy = memcpy / kernel.
static void Measure(Problem& p, const std::string& name, const std::function<cudaError_t()>& launch,
                    int regs, int clusters, int smem) {
    CK(cudaMemset(p.y, 0xff, p.bytes));  // NaN fill: an element not written fails
    cudaError_t e = launch();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        const std::string error = cudaGetErrorString(e);
        cudaGetLastError();
        std::printf("%-40s ERROR %s\n", name.c_str(), error.c_str());
        std::fflush(stdout);
        JsonError(p, name, error);
        if (g_progress) g_progress->reported = g_progress->current;
        // A sticky error (the context is lost): the parent starts a new child after this config.
        if (cudaDeviceSynchronize() != cudaSuccess || cudaGetLastError() != cudaSuccess) {
            if (g_child) _exit(3);
            std::exit(3);
        }
        return;
    }
    CK(cudaMemset(p.counters, 0, 16));
    CK(cudaMemset(p.worst, 0, 4));
    if (p.bf16)
        check_kernel<__nv_bfloat16><<<p.m, 256>>>(static_cast<const __nv_bfloat16*>(p.y),
                                                  static_cast<const __nv_bfloat16*>(p.x), p.dref,
                                                  p.drowmax, p.n, 1, p.counters, p.counters + 1,
                                                  p.worst);
    else
        check_kernel<float><<<p.m, 256>>>(static_cast<const float*>(p.y),
                                          static_cast<const float*>(p.x), p.dref, p.drowmax, p.n,
                                          0, p.counters, p.counters + 1, p.worst);
    CK(cudaGetLastError());
    unsigned long long c[2];
    float worst = 0;
    CK(cudaMemcpy(c, p.counters, 16, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&worst, p.worst, 4, cudaMemcpyDeviceToHost));
    const bool ok = c[0] == 0 && c[1] == 0;
    double ms = 0, memcpy_ms = 0, kcopy_ms = 0;
    if (g_iters > 0) {
        const size_t chunks = p.bytes / 16;
        const int copy_block = 256;
        const unsigned copy_grid = static_cast<unsigned>(
            std::min<size_t>((chunks + copy_block * 4 - 1) / (copy_block * 4), 1u << 30));
        cudaEvent_t ev[4];
        for (auto& v : ev) CK(cudaEventCreate(&v));
        std::vector<float> tk, tm, tc;
        for (int it = 0; it < g_iters + 3; ++it) {
            CK(cudaEventRecord(ev[0]));
            CK(cudaMemcpyAsync(p.copy_out, p.x, p.bytes, cudaMemcpyDeviceToDevice));
            CK(cudaEventRecord(ev[1]));
            copy_kernel<<<copy_grid, copy_block>>>(static_cast<const uint4*>(p.x),
                                                   static_cast<uint4*>(p.copy_out), chunks);
            CK(cudaEventRecord(ev[2]));
            CK(launch());
            CK(cudaEventRecord(ev[3]));
            CK(cudaEventSynchronize(ev[3]));
            float a, b, k;
            CK(cudaEventElapsedTime(&a, ev[0], ev[1]));
            CK(cudaEventElapsedTime(&b, ev[1], ev[2]));
            CK(cudaEventElapsedTime(&k, ev[2], ev[3]));
            if (it >= 3) {
                tm.push_back(a);
                tc.push_back(b);
                tk.push_back(k);
            }
        }
        for (auto& v : ev) CK(cudaEventDestroy(v));
        ms = Median(tk);
        memcpy_ms = Median(tm);
        kcopy_ms = Median(tc);
    }
    const double pct = ms > 0 ? memcpy_ms / ms * 100.0 : 0, pctk = ms > 0 ? kcopy_ms / ms * 100.0 : 0;
    const double gbps = ms > 0 ? 2.0 * p.bytes / (ms * 1e-3) / 1e9 : 0;
    std::printf("%-40s %s %7.1f us  memcpy %6.1f us %5.1f%%  kcopy %6.1f us %5.1f%%  %5.0f GB/s  "
                "regs %3d  clusters %4d  smem %6d  worst %.2f%s\n",
                name.c_str(), ok ? "ok   " : "WRONG", ms * 1e3, memcpy_ms * 1e3, pct, kcopy_ms * 1e3,
                pctk, gbps, regs, clusters, smem, worst,
                ok ? "" : (" wrong=" + std::to_string(c[0]) + " badsum=" + std::to_string(c[1])).c_str());
    std::fflush(stdout);
    if (g_json) {
        std::fprintf(g_json,
                     "{\"m\":%d,\"n\":%d,\"dtype\":\"%s\",\"config\":\"%s\",\"ok\":%s,\"us\":%s,"
                     "\"memcpy_us\":%s,\"pct\":%s,\"kcopy_us\":%s,\"pct_kcopy\":%s,\"gbps\":%s,"
                     "\"regs\":%d,\"clusters\":%d,\"smem\":%d,\"wrong\":%llu,\"badsum\":%llu,"
                     "\"worst\":%s}\n",
                     p.m, p.n, p.bf16 ? "bf16" : "fp32", name.c_str(), ok ? "true" : "false",
                     Num(ms * 1e3).c_str(), Num(memcpy_ms * 1e3).c_str(), Num(pct).c_str(),
                     Num(kcopy_ms * 1e3).c_str(), Num(pctk).c_str(), Num(gbps, 1).c_str(), regs,
                     clusters, smem, c[0], c[1], Num(worst, 3).c_str());
        std::fflush(g_json);
    }
}

// A config: its name (the filter's key, stable for a dtype) and how to run it.
struct Config {
    std::string name;
    std::function<void(Problem&)> run;
};

template <typename T, int BLOCK, int KR, int MINB>
static void RunHyb(Problem& p, int C, const std::string& name) {
    constexpr int V = ChunkCount<T>();
    const void* f = reinterpret_cast<const void*>(&hyb_kernel<T, BLOCK, KR, MINB>);
    const int chunks = (p.n + V - 1) / V;
    const int part = (chunks + C - 1) / C;
    if (!g_force) {
        // A smaller KR of the list covers the part in registers alone: this one adds nothing.
        if (KR > 2 && (KR / 2) * BLOCK >= part) return;
        if (C > 1 && part < BLOCK) return;  // less than a chunk a thread: fewer blocks do it
    }
    const long long smem = std::max(0LL, static_cast<long long>(part - KR * BLOCK)) * 16;
    cudaFuncAttributes a{};
    CK(cudaFuncGetAttributes(&a, f));
    if (smem + static_cast<long long>(a.sharedSizeBytes) > 227 * 1024) {
        if (g_force) std::printf("%-40s skip (shared memory %lld bytes)\n", name.c_str(), smem);
        return;
    }
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
    if (clusters == 0) {
        if (g_force) std::printf("%-40s skip (no cluster fits)\n", name.c_str());
        return;
    }
    const T* x = static_cast<const T*>(p.x);
    T* y = static_cast<T*>(p.y);
    int m = p.m, n = p.n, pt = part;
    Measure(
        p, name,
        [&]() {
            void* args[] = {&x, &y, &m, &n, &pt};
            return cudaLaunchKernelExC(&config, f, args);
        },
        a.numRegs, clusters, static_cast<int>(smem));
}

template <typename T>
static void RunMain(Problem& p, int block, int variant, const std::string& name) {
    const SoftmaxKernel& k = kSoftmaxCluster[p.bf16 ? 1 : 0];
    const void* f = k.pick(p.n, block, variant);
    cudaFuncAttributes a{};
    CK(cudaFuncGetAttributes(&a, f));
    Measure(
        p, name,
        [&]() { return k.launch(p.x, p.y, p.workspace, p.m, p.n, block, variant, nullptr); },
        a.numRegs, -1, 0);
}

template <typename T, int BLOCK, int KR, int MINB>
static void AddHyb(std::vector<Config>& list) {
    for (int C : {1, 2, 4, 8, 16}) {
        char name[96];
        std::snprintf(name, sizeof name, "hyb b%d kr%d mb%d c%d", BLOCK, KR, MINB, C);
        const std::string s = name;
        list.push_back({s, [C, s](Problem& p) { RunHyb<T, BLOCK, KR, MINB>(p, C, s); }});
    }
}

// Every config of a dtype, in a fixed order (a child resumes at an index of this list).
template <typename T>
static std::vector<Config> Configs() {
    std::vector<Config> list;
    for (int block : {256, 512, 1024})
        for (int v : {0, 1, 2, 4, 8, 102, 104, 108}) {
            char name[96];
            std::snprintf(name, sizeof name, "main b%d cluster %s%d", block,
                          v > 100 ? "pipe" : v == 0 ? "auto" : "", v % 100);
            const std::string s = name;
            list.push_back({s, [block, v, s](Problem& p) { RunMain<T>(p, block, v, s); }});
        }
    AddHyb<T, 256, 0, 1>(list);
    AddHyb<T, 512, 0, 1>(list);
    AddHyb<T, 1024, 0, 1>(list);
    AddHyb<T, 256, 2, 1>(list);
    AddHyb<T, 512, 2, 1>(list);
    AddHyb<T, 1024, 2, 1>(list);
    AddHyb<T, 256, 4, 1>(list);
    AddHyb<T, 512, 4, 1>(list);
    AddHyb<T, 1024, 4, 1>(list);
    AddHyb<T, 256, 8, 4>(list);
    AddHyb<T, 512, 8, 2>(list);
    AddHyb<T, 1024, 8, 1>(list);
    AddHyb<T, 256, 16, 2>(list);
    AddHyb<T, 512, 16, 1>(list);
    return list;
}

// Inputs (uniform in [-8, 8), every 997th value +-80) and the double-precision reference.
static void MakeHostData(Problem& p) {
    const int m = p.m, n = p.n;
    const size_t count = static_cast<size_t>(m) * n;
    p.bytes = count * (p.bf16 ? 2 : 4);
    p.xf.assign(count, 0.0f);
    ParallelFor(m, [&](long long b, long long e) {
        std::mt19937_64 rng(1234 + b);
        std::uniform_real_distribution<float> u(-8.0f, 8.0f);
        for (long long i = b * n; i < e * n; ++i) {
            float v = u(rng);
            if (i % 997 == 13) v = (i % 2 ? 80.0f : -80.0f) + v * 0.01f;
            if (p.bf16) v = Bf16ToFloat(ToBf16Bits(v));
            p.xf[i] = v;
        }
    });
    p.ref.assign(count, 0.0f);
    p.rowmax.assign(m, 0.0);
    ParallelFor(m, [&](long long b, long long e) {
        for (long long r = b; r < e; ++r) {
            const float* xr = p.xf.data() + r * n;
            double mx = -INFINITY;
            for (int j = 0; j < n; ++j) mx = std::max(mx, static_cast<double>(xr[j]));
            double s = 0;
            for (int j = 0; j < n; ++j) s += std::exp(xr[j] - mx);
            for (int j = 0; j < n; ++j)
                p.ref[r * n + j] = static_cast<float>(std::exp(xr[j] - mx) / s);
            p.rowmax[r] = mx;
        }
    });
    if (p.bf16) {
        p.xb.assign(count, 0);
        ParallelFor(static_cast<long long>(count), [&](long long b, long long e) {
            for (long long i = b; i < e; ++i) p.xb[i] = ToBf16Bits(p.xf[i]);
        });
    }
}

// Device buffers, then configs [start, end) of the list.
static void RunGroup(Problem& p, int start) {
#ifdef SIM_NOCUDA  // a test of the child-process handling without a GPU (never in the bundle)
    const std::vector<Config> sim = p.bf16 ? Configs<__nv_bfloat16>() : Configs<float>();
    if (g_progress) g_progress->setup_done = 1;
    for (int i = start; i < static_cast<int>(sim.size()); ++i) {
        if (g_progress) {
            g_progress->current = i;
            g_progress->beats = g_progress->beats + 1;
        }
        if (!Wanted(sim[i].name)) continue;
        std::printf("%-40s sim\n", sim[i].name.c_str());
        if (std::getenv("SIM_CRASH") && sim[i].name == std::getenv("SIM_CRASH")) raise(SIGSEGV);
        if (std::getenv("SIM_HANG") && sim[i].name == std::getenv("SIM_HANG")) pause();
    }
    return;
#endif
    const size_t count = static_cast<size_t>(p.m) * p.n;
    CK(cudaMalloc(&p.x, p.bytes));
    CK(cudaMalloc(&p.y, p.bytes));
    CK(cudaMalloc(&p.copy_out, p.bytes));
    CK(cudaMalloc(&p.workspace, Workspace(p.m, p.n) + 16));
    CK(cudaMalloc(&p.dref, count * 4));
    CK(cudaMalloc(&p.drowmax, p.m * 8));
    CK(cudaMalloc(&p.counters, 16));
    CK(cudaMalloc(&p.worst, 4));
    CK(cudaMemcpy(p.x, p.bf16 ? static_cast<const void*>(p.xb.data()) : p.xf.data(), p.bytes,
                  cudaMemcpyHostToDevice));
    CK(cudaMemcpy(p.dref, p.ref.data(), count * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(p.drowmax, p.rowmax.data(), p.m * 8, cudaMemcpyHostToDevice));
    const std::vector<Config> list = p.bf16 ? Configs<__nv_bfloat16>() : Configs<float>();
    if (g_progress) g_progress->setup_done = 1;
    for (int i = start; i < static_cast<int>(list.size()); ++i) {
        if (g_progress) {
            g_progress->current = i;
            g_progress->beats = g_progress->beats + 1;
        }
        if (Wanted(list[i].name)) list[i].run(p);
    }
    for (void* q : {p.x, p.y, p.copy_out, p.workspace, static_cast<void*>(p.dref),
                    static_cast<void*>(p.drowmax), static_cast<void*>(p.counters),
                    static_cast<void*>(p.worst)})
        CK(cudaFree(q));
}

static void PrintDevice() {
    static bool printed = false;
    if (printed) return;
    printed = true;
    cudaDeviceProp prop{};
    CK(cudaGetDeviceProperties(&prop, 0));
    std::printf("device %s, %d SMs, cc %d.%d\n", prop.name, prop.multiProcessorCount, prop.major,
                prop.minor);
}

static std::string ConfigName(bool bf16, int i) {
    // The names without CUDA (the parent never initialises CUDA: its children would inherit it).
    const std::vector<Config> list = bf16 ? Configs<__nv_bfloat16>() : Configs<float>();
    return i >= 0 && i < static_cast<int>(list.size()) ? list[i].name : "(setup)";
}

static volatile pid_t g_child_pid = 0;
static void OnTerm(int sig) {
    if (g_child_pid > 0) kill(g_child_pid, SIGKILL);
    _exit(128 + sig);
}

// Runs a group in child processes: a child that faults (a sticky CUDA error), crashes or hangs
// loses only the config it was at; the next child resumes after it.
static void RunGroupIsolated(Problem& p, double hang_s) {
    int start = 0, hangs = 0;
    const int total =
        static_cast<int>((p.bf16 ? Configs<__nv_bfloat16>() : Configs<float>()).size());
    while (start < total) {
        std::memset((void*)g_progress, 0, sizeof(Progress));
        g_progress->current = start - 1;
        g_progress->reported = -2;
        std::fflush(stdout);
        if (g_json) std::fflush(g_json);
        const pid_t pid = fork();
        if (pid == 0) {
            g_child = true;
            g_child_pid = 0;
            signal(SIGTERM, SIG_DFL);
            signal(SIGINT, SIG_DFL);
            if (g_json_path) g_json = std::fopen(g_json_path, "a");
#ifndef SIM_NOCUDA
            PrintDevice();
#endif
            RunGroup(p, start);
            if (g_json) std::fflush(g_json);
            std::fflush(stdout);
            g_progress->done = 1;
            _exit(0);
        }
        g_child_pid = pid;
        if (pid < 0) {
            std::printf("fork failed\n");
            return;
        }
        int status = 0, last_beats = -1;
        auto last_change = std::chrono::steady_clock::now();
        bool killed = false;
        for (;;) {
            const pid_t w = waitpid(pid, &status, WNOHANG);
            if (w == pid) break;
            if (g_progress->beats != last_beats) {
                last_beats = g_progress->beats;
                last_change = std::chrono::steady_clock::now();
            } else if (std::chrono::duration<double>(std::chrono::steady_clock::now() - last_change)
                           .count() > hang_s) {
                kill(pid, SIGKILL);
                waitpid(pid, &status, 0);
                killed = true;
                break;
            }
            usleep(20000);
        }
        if (g_progress->done && !killed) return;
        const int at = g_progress->current;
        std::string why = killed ? "hang: no progress for " + std::to_string(static_cast<int>(hang_s)) + " s, killed"
                          : WIFSIGNALED(status) ? "child killed by signal " + std::to_string(WTERMSIG(status))
                          : WIFEXITED(status) ? "child exited with code " + std::to_string(WEXITSTATUS(status))
                                              : "child stopped";
        if (!g_progress->setup_done || at < start) {
            std::printf("%-40s ERROR %s (setup of this shape failed; its remaining configs skipped)\n",
                        "(group setup)", why.c_str());
            JsonError(p, "(group setup)", why);
            return;
        }
        const std::string name = ConfigName(p.bf16, at);
        if (g_progress->reported != at) {
            std::printf("%-40s ERROR %s\n", name.c_str(), why.c_str());
            JsonError(p, name, why);
        }
        std::fflush(stdout);
        start = at + 1;
        if (killed && ++hangs >= 3) {  // a hang costs hang_s each: give up on this shape
            std::printf("%-40s ERROR 3 hangs: the rest of this shape skipped\n", "(group)");
            JsonError(p, "(group)", "3 hangs: the rest of this shape skipped");
            return;
        }
    }
}

int main(int argc, char** argv) {
    // bench [out.jsonl] [filter]; env: SHAPES="1024x65536,3x33:fp32,...", DTYPES="fp32,bf16",
    // FILTER (as the argument), ITERS (0: check only), FORCE=1, NOFORK=1, HANG_S.
    setvbuf(stdout, nullptr, _IOLBF, 0);  // a child that dies loses no line it printed
    if (argc > 1) g_json_path = argv[1];
    const char* filter = argc > 2 ? argv[2] : std::getenv("FILTER");
    if (filter) {
        std::string s = filter;
        size_t pos = 0;
        while (pos <= s.size()) {
            size_t end = s.find('|', pos);
            if (end == std::string::npos) end = s.size();
            g_filters.push_back(s.substr(pos, end - pos));
            pos = end + 1;
        }
    }
    if (const char* it = std::getenv("ITERS")) g_iters = std::atoi(it);
    g_force = std::getenv("FORCE") && std::atoi(std::getenv("FORCE")) != 0;
    const bool nofork = std::getenv("NOFORK") && std::atoi(std::getenv("NOFORK")) != 0;
    const double hang_s = std::getenv("HANG_S") ? std::atof(std::getenv("HANG_S")) : 30.0;
    if (g_json_path) {
        FILE* f = std::fopen(g_json_path, "w");  // truncated once; each writer appends
        if (f) std::fclose(f);
    }
    struct Shape {
        int m, n;
        int dtypes;  // bit 0 fp32, bit 1 bf16
    };
    std::vector<Shape> shapes = {{1024, 65536, 3}, {256, 262144, 3}, {16384, 4096, 3}, {65536, 1024, 3}};
    if (const char* env = std::getenv("SHAPES")) {
        shapes.clear();
        std::string s = env;
        size_t pos = 0;
        while (pos < s.size()) {
            size_t end = s.find(',', pos);
            if (end == std::string::npos) end = s.size();
            const std::string item = s.substr(pos, end - pos);
            int a, b;
            if (std::sscanf(item.c_str(), "%dx%d", &a, &b) == 2) {
                int d = 3;
                if (item.find(":fp32") != std::string::npos) d = 1;
                if (item.find(":bf16") != std::string::npos) d = 2;
                shapes.push_back({a, b, d});
            }
            pos = end + 1;
        }
    }
    const char* dtype_env = std::getenv("DTYPES");
    Progress* progress = nullptr;
    if (!nofork) {
        signal(SIGTERM, OnTerm);
        signal(SIGINT, OnTerm);
        progress = static_cast<Progress*>(mmap(nullptr, sizeof(Progress), PROT_READ | PROT_WRITE,
                                               MAP_SHARED | MAP_ANONYMOUS, -1, 0));
        if (progress == MAP_FAILED) progress = nullptr;
    }
    std::printf("sm9fast bench 2: %s, iterations %d%s\n",
                progress ? "a child process per shape and dtype" : "in process", g_iters,
                g_force ? ", FORCE" : "");
    for (const auto& shape : shapes)
        for (bool bf16 : {false, true}) {
            if (!(shape.dtypes & (bf16 ? 2 : 1))) continue;
            if (dtype_env && !std::strstr(dtype_env, bf16 ? "bf16" : "fp32")) continue;
            Problem p;
            p.m = shape.m;
            p.n = shape.n;
            p.bf16 = bf16;
            MakeHostData(p);
            std::printf("\n== %d x %d %s (%.1f MiB each way)\n", p.m, p.n, bf16 ? "bf16" : "fp32",
                        p.bytes / 1048576.0);
            std::fflush(stdout);
            if (progress) {
                g_progress = progress;
                RunGroupIsolated(p, hang_s);
                g_progress = nullptr;
            } else {
                if (g_json_path && !g_json) g_json = std::fopen(g_json_path, "a");
                PrintDevice();
                RunGroup(p, 0);
            }
        }
    if (g_json) std::fclose(g_json);
    return 0;
}
