// Chapter 5's exercises: write each hand-written GEMM step's kernel yourself (steps 5.1 to 5.8).
// The starting files are in exercises/; the reference solutions are the steps' own kernel files
// (SolutionOf). The harness launches a student's kernel as the step's own: 32 × (block / 32)
// threads for the first two, one block of the tile's threads per BM × BN tile of C for the tiled
// ones, each written for the tile the shipped H100 tuning picks (the lesson's default).
#include <string>
#include <string_view>

#include "exercise.h"
#include "resources.h"

namespace lessons {
namespace {

// NVRTC has no standard headers: the tiled steps' bounds-checked loads and stores (Load1, Load4,
// Store4) come from the chapter's own header, kernels/gemm/gemm_tile_io.cuh (embedded), without
// its #include and #pragma once lines, and are made visible at global scope, where a student's
// kernel (and a solution, its `namespace lessons::gemm` line dropped) stands.
std::string GemmPrelude() {
    std::string out;
    const std::string_view io = EmbeddedFile("kernels/gemm/gemm_tile_io.cuh");
    for (size_t start = 0; start < io.size();) {
        size_t end = io.find('\n', start);
        if (end == std::string_view::npos) end = io.size();
        const std::string_view line = io.substr(start, end - start);
        if (!line.starts_with("#include") && !line.starts_with("#pragma once"))
            out.append(line).push_back('\n');
        start = end + 1;
    }
    out += "using namespace lessons::gemm;\n";
    return out;
}

KernelSpec Gemm(std::string kernel) {
    static const std::string prelude = GemmPrelude();
    KernelSpec spec;
    spec.kernel = std::move(kernel);
    spec.signature = "int, int, int, const float*, const float*, float*";
    spec.prelude = prelude;
    return spec;
}

// The WMMA step's kernel includes the toolkit's <mma.h> (NVRTC finds it through the toolkit's
// include folder); its loads and stores are its own.
KernelSpec Wmma() {
    KernelSpec spec = Gemm("gemm_41_wmma_tf32_kernel");
    spec.allowed_includes = {"mma.h"};
    spec.toolkit_headers = {"mma.h"};
    return spec;
}

ExerciseParam Tile(std::string name) {
    return {.name = "tile", .value = std::move(name)};
}

}  // namespace

std::vector<Exercise> GemmExercises() {
    return {
        {.lesson = "gemm/naive",
         .kernel = Gemm("gemm_32_naive_kernel"),
         .start = "lessons/05_gemm/exercises/naive.cu",
         .task_en = "Write the kernel: the thread at row = blockIdx.x * 32 + threadIdx.x and "
                    "col = blockIdx.y * blockDim.y + threadIdx.y computes C[row][col] = sum over "
                    "i of A[row][i] * B[i][col], every matrix row-major (a[row * k + i], "
                    "b[i * n + col], c[row * n + col]). The harness launches "
                    "ceil(m / 32) × ceil(n / (block / 32)) blocks of 32 × (block / 32) threads; "
                    "threads outside C must not write.",
         .task_zh = "编写这个 kernel：row = blockIdx.x * 32 + threadIdx.x、"
                    "col = blockIdx.y * blockDim.y + threadIdx.y 的线程计算 C[row][col] = "
                    "Σ_i A[row][i] * B[i][col]，矩阵都是行主序（a[row * k + i]、b[i * n + col]、"
                    "c[row * n + col]）。harness 以每块 32 × (block / 32) 个线程启动 "
                    "ceil(m / 32) × ceil(n / (block / 32)) 个块；C 之外的线程不得写入。",
         .hints = {{"x, the fastest index, picks the row here: neighbouring lanes of a warp take "
                    "neighbouring rows of C (the next step swaps this). Return when row >= m or "
                    "col >= n.",
                    "这里由变化最快的 x 选行：一个 warp 里相邻的 lane 负责 C 的相邻行（下一步会把它"
                    "对调）。row >= m 或 col >= n 时直接返回。"},
                   {"Add the k products in a float register and write "
                    "c[size_t(row) * n + col] once, after the loop.",
                    "在 float 寄存器里累加 k 个乘积，循环结束后只写一次 "
                    "c[size_t(row) * n + col]。"}}},
        {.lesson = "gemm/coalesced",
         .kernel = Gemm("gemm_33_coalesced_kernel"),
         .start = "lessons/05_gemm/exercises/coalesced.cu",
         .task_en = "Swap the thread mapping: x, the fastest index, now picks the column "
                    "(col = blockIdx.x * 32 + threadIdx.x) and y the row "
                    "(row = blockIdx.y * blockDim.y + threadIdx.y), so the 32 lanes of a warp "
                    "share one element of A (one address, broadcast), read 32 consecutive floats "
                    "of B and write 32 consecutive floats of C. The harness launches "
                    "ceil(n / 32) × ceil(m / (block / 32)) blocks of 32 × (block / 32) threads.",
         .task_zh = "对调线程映射：变化最快的 x 现在选列（col = blockIdx.x * 32 + threadIdx.x），"
                    "y 选行（row = blockIdx.y * blockDim.y + threadIdx.y），这样一个 warp 的 32 个 "
                    "lane 共享 A 的同一个元素（一个地址，广播），读 B 的 32 个连续 float，写 C 的 "
                    "32 个连续 float。harness 以每块 32 × (block / 32) 个线程启动 "
                    "ceil(n / 32) × ceil(m / (block / 32)) 个块。",
         .hints = {{"Only the two index lines change; the loop, the bounds test and the store "
                    "stay as they are.",
                    "只改两行下标；循环、边界检查和写回都保持不变。"},
                   {"Check with the addresses: at step i, lane l of a warp reads a[row * k + i] "
                    "(the same for all 32 lanes) and b[i * n + col0 + l] (consecutive), and at "
                    "the end writes c[row * n + col0 + l].",
                    "用地址检验：第 i 步时，warp 的第 l 个 lane 读 a[row * k + i]（32 个 lane 都"
                    "相同）和 b[i * n + col0 + l]（连续），最后写 c[row * n + col0 + l]。"}}},
        {.lesson = "gemm/shared-memory-tiles",
         .kernel = Gemm("gemm_34_shared_memory_kernel"),
         .start = "lessons/05_gemm/exercises/shared-memory-tiles.cu",
         .task_en = "Walk k in steps of BK = 64: the block's 256 threads copy the BM × BK tile of "
                    "A and the BK × BN tile of B (BM = BN = 16) into __shared__ arrays together, "
                    "__syncthreads(), each thread adds its BK products reading shared memory "
                    "only, and a second __syncthreads() comes before the next tiles overwrite "
                    "these. Elements outside A or B load as zero (Load1), so partial tiles at any "
                    "m, n, k need no special case. The harness runs the tile 256t-16x16x64: "
                    "ceil(n / BN) × ceil(m / BM) blocks of 256 threads in one dimension; thread "
                    "tid computes C[blockIdx.y * BM + tid / BN][blockIdx.x * BN + tid % BN].",
         .task_zh = "以 BK = 64 为步长沿 k 前进：线程块的 256 个线程一起把 A 的 BM × BK 分块和 B "
                    "的 BK × BN 分块（BM = BN = 16）拷进 __shared__ 数组，__syncthreads()，然后"
                    "每个线程只读共享内存，累加自己的 BK 个乘积；在下一组分块覆盖它们之前再做一次 "
                    "__syncthreads()。A 或 B 之外的元素按 0 加载（Load1），所以任意 m、n、k 的不"
                    "完整分块都不需要特殊处理。harness 运行分块配置 256t-16x16x64：每块一维的 256 "
                    "个线程，共 ceil(n / BN) × ceil(m / BM) 个块；第 tid 个线程计算 "
                    "C[blockIdx.y * BM + tid / BN][blockIdx.x * BN + tid % BN]。",
         .hints = {{"__shared__ float as[BM][BK], bs[BK][BN]. The A tile has BM * BK = 1024 "
                    "elements for 256 threads: for (i = tid; i < BM * BK; i += BM * BN) "
                    "as[i / BK][i % BK] = Load1(a, m, k, row0 + i / BK, k0 + i % BK); the B tile "
                    "the same way, with i / BN and i % BN.",
                    "__shared__ float as[BM][BK], bs[BK][BN]。A 分块有 BM * BK = 1024 个元素，"
                    "由 256 个线程分担：for (i = tid; i < BM * BK; i += BM * BN) "
                    "as[i / BK][i % BK] = Load1(a, m, k, row0 + i / BK, k0 + i % BK)；B 分块同理，"
                    "用 i / BN 和 i % BN。"},
                   {"Do not return early in a thread outside C: it must still load its share of "
                    "the tiles and reach both barriers, or the others wait for it at "
                    "__syncthreads(). Test row < m && col < n only at the store.",
                    "C 之外的线程不能提前返回：它仍要加载自己那份分块并到达两个屏障，否则其他线程"
                    "会在 __syncthreads() 处等它。只在写回时检查 row < m && col < n。"},
                   {"The inner loop: for (kk = 0; kk < BK; ++kk) sum += as[ty][kk] * bs[kk][tx], "
                    "with ty = tid / BN, tx = tid % BN, under #pragma unroll (BK is a constant).",
                    "内层循环：for (kk = 0; kk < BK; ++kk) sum += as[ty][kk] * bs[kk][tx]，其中 "
                    "ty = tid / BN，tx = tid % BN，加上 #pragma unroll（BK 是常量）。"}},
         .fixed = {Tile("256t-16x16x64")},
         .instance = "constexpr int BM = 16, BN = 16, BK = 64;\n"},
        {.lesson = "gemm/1d-register-blocking",
         .kernel = Gemm("gemm_35_1d_blocking_kernel"),
         .start = "lessons/05_gemm/exercises/1d-register-blocking.cu",
         .task_en = "Give each thread TM = 16 outputs of one column of C: column col0 + tx, rows "
                    "row0 + ty * TM to row0 + ty * TM + TM - 1 (tx = tid % BN, ty = tid / BN), "
                    "computed in one pass over k with the TM sums in registers. At each step kk "
                    "load the B tile's element bs[kk][tx] once and use it for all TM "
                    "multiply-adds. The harness runs the tile 512t-128x64x8-16x1: "
                    "ceil(n / BN) × ceil(m / BM) blocks of BM * BN / TM = 512 threads "
                    "(BM = 128, BN = 64, BK = 8).",
         .task_zh = "让每个线程计算 C 中同一列的 TM = 16 个输出：第 col0 + tx 列，第 "
                    "row0 + ty * TM 到 row0 + ty * TM + TM - 1 行（tx = tid % BN，"
                    "ty = tid / BN），只沿 k 走一遍，TM 个和放在寄存器里。每一步 kk 只加载一次 B "
                    "分块的元素 bs[kk][tx]，用于全部 TM 次乘加。harness 运行分块配置 "
                    "512t-128x64x8-16x1：每块 BM * BN / TM = 512 个线程，共 "
                    "ceil(n / BN) × ceil(m / BM) 个块（BM = 128，BN = 64，BK = 8）。",
         .hints = {{"float sum[TM] = {}; one k loop, the tiles loaded once per step as in step "
                    "5.3, now with the block's 512 threads as the stride (2 elements of A and 1 "
                    "of B per thread).",
                    "float sum[TM] = {}；只有一个 k 循环，每一步像第 5.3 步那样加载一次分块，步长"
                    "改为线程块的 512 个线程（每个线程加载 A 的 2 个元素、B 的 1 个）。"},
                   {"for (kk) { const float bv = bs[kk][tx]; for (i < TM) sum[i] += "
                    "as[ty * TM + i][kk] * bv; } with #pragma unroll on both loops: an array "
                    "indexed by a loop variable stays in registers only when the loop is "
                    "unrolled.",
                    "for (kk) { const float bv = bs[kk][tx]; for (i < TM) sum[i] += "
                    "as[ty * TM + i][kk] * bv; }，两层循环都加 #pragma unroll：用循环变量下标访问"
                    "的数组，只有循环展开后才会留在寄存器里。"},
                   {"After the k loop, write the TM sums, each under its own row < m && col < n "
                    "test.",
                    "k 循环结束后写回 TM 个和，每个都单独检查 row < m && col < n。"}},
         .fixed = {Tile("512t-128x64x8-16x1")},
         .instance = "constexpr int BM = 128, BN = 64, BK = 8, TM = 16;\n"},
        {.lesson = "gemm/2d-register-blocking",
         .kernel = Gemm("gemm_36_2d_blocking_kernel"),
         .start = "lessons/05_gemm/exercises/2d-register-blocking.cu",
         .task_en = "Give each thread a TM × TN = 4 × 4 block of C, rows row0 + ty * TM .. and "
                    "columns col0 + tx * TN .. (tx = tid % (BN / TN), ty = tid / (BN / TN)), "
                    "computed in one pass over k: at each step kk load the thread's TM values of "
                    "the A tile and TN values of the B tile into registers, then do all TM * TN "
                    "multiply-adds between them (an outer product). The harness runs the tile "
                    "256t-64x64x16-4x4: ceil(n / BN) × ceil(m / BM) blocks of "
                    "(BM / TM) * (BN / TN) = 256 threads (BM = BN = 64, BK = 16).",
         .task_zh = "让每个线程计算 C 的一个 TM × TN = 4 × 4 小块：第 row0 + ty * TM 行起、第 "
                    "col0 + tx * TN 列起（tx = tid % (BN / TN)，ty = tid / (BN / TN)），只沿 k 走"
                    "一遍：每一步 kk 把本线程需要的 A 分块的 TM 个值和 B 分块的 TN 个值读进寄存器，"
                    "再做它们之间全部 TM * TN 次乘加（外积）。harness 运行分块配置 "
                    "256t-64x64x16-4x4：每块 (BM / TM) * (BN / TN) = 256 个线程，共 "
                    "ceil(n / BN) × ceil(m / BM) 个块（BM = BN = 64，BK = 16）。",
         .hints =
             {{"float sum[TM][TN] = {}, ra[TM], rb[TN]; at each kk: "
               "ra[i] = as[ty * TM + i][kk] and rb[j] = bs[kk][tx * TN + j].",
               "float sum[TM][TN] = {}, ra[TM], rb[TN]；每一步 kk："
               "ra[i] = as[ty * TM + i][kk]，rb[j] = bs[kk][tx * TN + j]。"},
              {"sum[i][j] += ra[i] * rb[j] for every i and j; put #pragma unroll on every "
               "loop over kk, i and j, so that sum, ra and rb stay in registers.",
               "对所有 i、j 做 sum[i][j] += ra[i] * rb[j]；kk、i、j 的每个循环都加 "
               "#pragma unroll，让 sum、ra 和 rb 留在寄存器里。"},
              {"Each tile is 1024 floats for 256 threads: 4 each, in a loop with stride 256 "
               "as before. At the end write sum[i][j] to C[row0 + ty * TM + i]"
               "[col0 + tx * TN + j] where both indices are inside.",
               "每个分块 1024 个 float，由 256 个线程分担：每个线程 4 个，仍是步长 256 的循环。"
               "最后把 sum[i][j] 写到 C[row0 + ty * TM + i][col0 + tx * TN + j]，两个下标都在"
               "矩阵内时才写。"}},
         .fixed = {Tile("256t-64x64x16-4x4")},
         .instance = "constexpr int BM = 64, BN = 64, BK = 16, TM = 4, TN = 4;\n"},
        {.lesson = "gemm/vectorized-transposed-a",
         .kernel = Gemm("gemm_37_vectorized_kernel"),
         .start = "lessons/05_gemm/exercises/vectorized-transposed-a.cu",
         .task_en = "Move 16 bytes per instruction. Load the tiles from global memory as float4 "
                    "(Load4: one 16-byte load where the row is 16-byte aligned and all four "
                    "elements are inside, single floats otherwise) and store C as float4 "
                    "(Store4). Store the A tile transposed, as[kk][row], its rows padded to "
                    "BM + 4 floats, so that a thread's TM values of A at one kk are contiguous: "
                    "read them, and B's TN values, as float4s from shared memory. The harness "
                    "runs the tile 256t-128x128x16-8x8: ceil(n / BN) × ceil(m / BM) blocks of 256 "
                    "threads (BM = BN = 128, BK = 16, TM = TN = 8), with step 5.5's thread map.",
         .task_zh = "每条指令搬 16 字节。用 float4 从全局内存加载分块（Load4：行首 16 字节对齐且"
                    "四个元素都在矩阵内时是一次 16 字节加载，否则逐个 float），用 float4 写回 C"
                    "（Store4）。把 A 分块转置存放为 as[kk][row]，每行补到 BM + 4 个 float，这样一"
                    "个线程在同一个 kk 上需要的 TM 个 A 值是连续的：它们和 B 的 TN 个值一样，用 "
                    "float4 从共享内存读取。harness 运行分块配置 256t-128x128x16-8x8：每块 256 个"
                    "线程，共 ceil(n / BN) × ceil(m / BM) 个块（BM = BN = 128，BK = 16，"
                    "TM = TN = 8），线程映射与第 5.5 步相同。",
         .hints = {{"__shared__ __align__(16) float as[BK][BM + 4], bs[BK][BN]: a float4 access "
                    "to shared memory needs a 16-byte aligned address, and a row of BM + 4 floats "
                    "keeps every row of as on one.",
                    "__shared__ __align__(16) float as[BK][BM + 4], bs[BK][BN]：对共享内存的 "
                    "float4 访问要求地址 16 字节对齐，每行 BM + 4 个 float 让 as 的每一行都对齐。"},
                   {"A's float4 number i (BM * BK / 4 of them, stride 256): r = i / (BK / 4), "
                    "kc = (i % (BK / 4)) * 4, v = Load4(a, m, k, row0 + r, k0 + kc), then "
                    "as[kc][r] = v.x .. as[kc + 3][r] = v.w. B's: r = i / (BN / 4), "
                    "cc = (i % (BN / 4)) * 4, *(float4*)&bs[r][cc] = "
                    "Load4(b, k, n, k0 + r, col0 + cc).",
                    "A 的第 i 个 float4（共 BM * BK / 4 个，步长 256）：r = i / (BK / 4)，"
                    "kc = (i % (BK / 4)) * 4，v = Load4(a, m, k, row0 + r, k0 + kc)，然后 "
                    "as[kc][r] = v.x .. as[kc + 3][r] = v.w。B 的：r = i / (BN / 4)，"
                    "cc = (i % (BN / 4)) * 4，*(float4*)&bs[r][cc] = "
                    "Load4(b, k, n, k0 + r, col0 + cc)。"},
                   {"In the kk loop read *(const float4*)&as[kk][ty * TM + i] for i = 0, 4 into "
                    "ra and *(const float4*)&bs[kk][tx * TN + j] for j = 0, 4 into rb. At the "
                    "end, for j = 0, 4: Store4(c, m, n, row, col0 + tx * TN + j, "
                    "make_float4(sum[i][j], sum[i][j + 1], sum[i][j + 2], sum[i][j + 3])).",
                    "在 kk 循环里，对 i = 0、4 把 *(const float4*)&as[kk][ty * TM + i] 读进 ra，"
                    "对 j = 0、4 把 *(const float4*)&bs[kk][tx * TN + j] 读进 rb。最后对 "
                    "j = 0、4：Store4(c, m, n, row, col0 + tx * TN + j, make_float4(sum[i][j], "
                    "sum[i][j + 1], sum[i][j + 2], sum[i][j + 3]))。"}},
         .fixed = {Tile("256t-128x128x16-8x8")},
         .instance = "constexpr int BM = 128, BN = 128, BK = 16, TM = 8, TN = 8;\n"
                     "constexpr bool kVec = true, kTransposedA = true;\n"},
        {.lesson = "gemm/warp-tiling",
         .kernel = Gemm("gemm_38_warp_tiling_kernel"),
         .start = "lessons/05_gemm/exercises/warp-tiling.cu",
         .task_en = "Add a level of tiling: warp w = tid / 32 owns a WM × WN = 64 × 32 tile of the "
                    "block's 128 × 128, at warp row w / (BN / WN) and warp column w % (BN / WN); a "
                    "lane's 8 × 8 outputs are four 4 × 4 pieces of that tile, WM / 2 rows and "
                    "WN / 2 columns apart, lane l holding rows 4 * (l / 4) and columns "
                    "4 * (l % 4) of each piece. Then a warp's float4 reads of the B tile cover 64 "
                    "consecutive bytes, free of step 5.6's bank conflict. The harness runs the "
                    "tile 256t-128x128x16-w64x32: ceil(n / BN) × ceil(m / BM) blocks of 256 "
                    "threads (BK = 16); the tile loads stay as in step 5.6.",
         .task_zh = "加一层分块：第 w = tid / 32 个 warp 负责线程块 128 × 128 分块中的一个 "
                    "WM × WN = 64 × 32 的 warp 分块，位于第 w / (BN / WN) 行、第 w % (BN / WN) 列；"
                    "一个 lane 的 8 × 8 个输出是这个分块中的四个 4 × 4 小块，行方向相隔 WM / 2，"
                    "列方向相隔 WN / 2，第 l 个 lane 负责每个小块中从第 4 * (l / 4) 行、第 "
                    "4 * (l % 4) 列起的部分。这样一个 warp 对 B 分块的 float4 读取覆盖连续 64 "
                    "字节，没有第 5.6 步的 bank 冲突。harness 运行分块配置 "
                    "256t-128x128x16-w64x32：每块 256 个线程，共 ceil(n / BN) × ceil(m / BM) 个块"
                    "（BK = 16）；分块的加载与第 5.6 步相同。",
         .hints = {{"warp = tid / 32, lane = tid % 32; wr = (warp / (BN / WN)) * WM and "
                    "wc = (warp % (BN / WN)) * WN, the warp tile's corner; lr = lane / (WN / 8) "
                    "and lc = lane % (WN / 8), the lane's place in each piece.",
                    "warp = tid / 32，lane = tid % 32；wr = (warp / (BN / WN)) * WM、"
                    "wc = (warp % (BN / WN)) * WN 是 warp 分块的左上角；lr = lane / (WN / 8)、"
                    "lc = lane % (WN / 8) 是 lane 在每个小块中的位置。"},
                   {"At each kk, for h = 0, 1: ra[4h .. 4h + 3] is the float4 at "
                    "&as[kk][wr + h * (WM / 2) + lr * 4] and rb[4h .. 4h + 3] the one at "
                    "&bs[kk][wc + h * (WN / 2) + lc * 4]; the 64 multiply-adds "
                    "sum[i][j] += ra[i] * rb[j] do not change.",
                    "每一步 kk，对 h = 0、1：ra[4h .. 4h + 3] 是 "
                    "&as[kk][wr + h * (WM / 2) + lr * 4] 处的 float4，rb[4h .. 4h + 3] 是 "
                    "&bs[kk][wc + h * (WN / 2) + lc * 4] 处的 float4；64 次乘加 "
                    "sum[i][j] += ra[i] * rb[j] 不变。"},
                   {"sum[i][j] belongs at row row0 + wr + (i / 4) * (WM / 2) + lr * 4 + i % 4 "
                    "and column col0 + wc + (j / 4) * (WN / 2) + lc * 4 + j % 4: store each "
                    "row's two float4s (j = 0 and j = 4) with Store4.",
                    "sum[i][j] 对应第 row0 + wr + (i / 4) * (WM / 2) + lr * 4 + i % 4 行、第 "
                    "col0 + wc + (j / 4) * (WN / 2) + lc * 4 + j % 4 列：每行的两个 float4"
                    "（j = 0 和 j = 4）用 Store4 写回。"}},
         .fixed = {Tile("256t-128x128x16-w64x32")},
         .instance =
             "constexpr int BM = 128, BN = 128, BK = 16, WM = 64, WN = 32, THREADS = 256;\n"},
        {.lesson = "gemm/double-buffering",
         .kernel = Gemm("gemm_39_double_buffered_kernel"),
         .start = "lessons/05_gemm/exercises/double-buffering.cu",
         .task_en = "Pipeline the tiles. Keep STAGES = 3 copies of the A and B tiles in shared "
                    "memory. Before computing on tile t, issue the copies of tile "
                    "t + STAGES - 1 with cp.async into the stage tile t - 1 used (Copy4 for each "
                    "float of the transposed A tile, Copy16 for each float4 of B, then "
                    "CommitCopies()), so that they land while tile t is computed on; after it, "
                    "WaitCopies<STAGES - 2>() and one __syncthreads() make tile t + 1 visible and "
                    "free tile t's stage: one barrier per tile instead of two. Copies outside the "
                    "matrices write zeros (full = false). The harness runs the tile "
                    "256t-128x256x8-w64x64-s3: ceil(n / BN) × ceil(m / BM) blocks of 256 threads, "
                    "no dynamic shared memory (three stages take 37,248 bytes of static shared "
                    "memory).",
         .task_zh =
             "让分块流水起来。共享内存里保存 A 和 B 分块的 STAGES = 3 份副本。在分块 t 上"
             "计算之前，先用 cp.async 发出分块 t + STAGES - 1 的拷贝，放进分块 t - 1 用过的"
             "那一级（转置的 A 分块每个 float 一次 Copy4，B 每个 float4 一次 Copy16，然后 "
             "CommitCopies()），让它们在分块 t 的计算期间到达；算完之后，"
             "WaitCopies<STAGES - 2>() 加一次 __syncthreads() 既让分块 t + 1 可见，又腾出"
             "分块 t 的那一级：每个分块一个屏障，而不是两个。矩阵之外的拷贝写入 0"
             "（full = false）。harness 运行分块配置 256t-128x256x8-w64x64-s3：每块 256 个"
             "线程，共 ceil(n / BN) × ceil(m / BM) 个块，没有动态共享内存（三级占 37,248 字节"
             "静态共享内存）。",
         .hints =
             {{"__shared__ __align__(16) float as[STAGES][BK][BM + 4], "
               "bs[STAGES][BK][BN]. Copy4 and Copy16 take the shared address as a 32-bit "
               "number: (unsigned)__cvta_generic_to_shared(&as[s][kk][r]). Where full is "
               "false nothing is read: pass the matrix's own pointer (a or b) as the source.",
               "__shared__ __align__(16) float as[STAGES][BK][BM + 4], "
               "bs[STAGES][BK][BN]。Copy4 和 Copy16 以 32 位整数接收共享内存地址："
               "(unsigned)__cvta_generic_to_shared(&as[s][kk][r])。full 为 false 时不读取"
               "任何数据：源地址传矩阵自己的指针（a 或 b）。"},
              {"Per tile, thread tid copies 4 floats of A, column kc = tid % BK of tile rows "
               "tid / BK + l * (THREADS / BK) for l = 0 .. 3 (to as[s][kc][row]), and 2 "
               "float4s of B, tile rows tid / (BN / 4) + l * (THREADS / (BN / 4)) for "
               "l = 0, 1, columns (tid % (BN / 4)) * 4 .. + 3: one Copy16 where n % 4 == 0 "
               "and all four columns are inside, else four Copy4.",
               "每个分块，第 tid 个线程拷贝 A 的 4 个 float：第 kc = tid % BK 列、分块内第 "
               "tid / BK + l * (THREADS / BK) 行，l = 0 .. 3（写到 as[s][kc][row]）；以及 B 的 "
               "2 个 float4：分块内第 tid / (BN / 4) + l * (THREADS / (BN / 4)) 行，"
               "l = 0、1，第 (tid % (BN / 4)) * 4 .. + 3 列：n % 4 == 0 且四列都在矩阵内时用"
               "一次 Copy16，否则用四次 Copy4。"},
              {"The order: issue tiles 0 .. STAGES - 2 (one CommitCopies() per tile, even "
               "for a tile past the end of k: an empty group keeps the count right), "
               "WaitCopies<STAGES - 2>(), __syncthreads(); then for each tile t: issue tile "
               "t + STAGES - 1 into stage (t + STAGES - 1) % STAGES, compute on stage "
               "t % STAGES, WaitCopies<STAGES - 2>(), __syncthreads().",
               "顺序：发出分块 0 .. STAGES - 2（每个分块一次 CommitCopies()，超出 k 末尾的"
               "分块也要：空的组让计数保持正确），WaitCopies<STAGES - 2>()，"
               "__syncthreads()；然后对每个分块 t：把分块 t + STAGES - 1 发到第 "
               "(t + STAGES - 1) % STAGES 级，在第 t % STAGES 级上计算，"
               "WaitCopies<STAGES - 2>()，__syncthreads()。"}},
         .fixed = {Tile("256t-128x256x8-w64x64-s3")},
         .instance = "constexpr int BM = 128, BN = 256, BK = 8, WM = 64, WN = 64, THREADS = 256, "
                     "STAGES = 3, MIN_BLOCKS = 1;\n"
                     "constexpr bool kPairLanes = true;\n"},
        {.lesson = "gemm/wmma-tf32",
         .kernel = Wmma(),
         .start = "lessons/05_gemm/exercises/wmma-tf32.cu",
         .task_en = "Multiply on the tensor cores with WMMA in TF32. Each warp keeps its 64 x 64 "
                    "tile of C as 4 x 4 accumulator fragments (m16n16k8, float). For each "
                    "k-slice of 16, the block copies a BM x 16 tile of A and a 16 x BN tile of B "
                    "into shared memory (zeros outside the matrices, A rows padded to 20 floats "
                    "and B rows to BN + 8 so the fragments' lanes spread over the banks), and each "
                    "warp loads its A and B fragments (precision::tf32, row_major) and calls "
                    "mma_sync for every pair. Keep two copies of the tiles so the next slice "
                    "loads while this one multiplies; store C through a 16 x 16 staging tile per "
                    "warp so edge tiles write only inside C.",
         .task_zh = "用 WMMA 以 TF32 在 tensor core 上做乘法。每个 warp 把自己的 64 x 64 的 C 分块"
                    "保存为 4 x 4 个累加片段（m16n16k8，float）。对每个长度 16 的 k 片段，线程块把 "
                    "A 的 BM x 16 分块和 B 的 16 x BN 分块复制进共享内存（矩阵之外填 0；A 的行补到 "
                    "20 个 float，B 的行补到 BN + 8 个，使片段的各个 lane 分散到不同的存储体），"
                    "每个 warp 加载自己的 A、B 片段（precision::tf32，row_major），对每一对调用 "
                    "mma_sync。保留两份分块，让下一个片段在这一片段相乘时加载；经由每个 warp 一个 "
                    "16 x 16 的暂存分块写出 C，使边缘分块只写 C 之内的元素。",
         .hints = {{"namespace wmma = nvcuda::wmma; wmma::fragment<wmma::matrix_a, 16, 16, 8, "
                    "wmma::precision::tf32, wmma::row_major> a_frag; load_matrix_sync(a_frag, "
                    "&as[r][kk], 20); then round each element: a_frag.x[i] = "
                    "wmma::__float_to_tf32(a_frag.x[i]).",
                    "namespace wmma = nvcuda::wmma；wmma::fragment<wmma::matrix_a, 16, 16, 8, "
                    "wmma::precision::tf32, wmma::row_major> a_frag；load_matrix_sync(a_frag, "
                    "&as[r][kk], 20)；再对每个元素舍入：a_frag.x[i] = "
                    "wmma::__float_to_tf32(a_frag.x[i])。"},
                   {"extern __shared__ float smem[]; carve it: A tiles at smem, B tiles after "
                    "2 * BM * 20 floats, the staging tiles after 2 * 16 * (BN + 8) more.",
                    "extern __shared__ float smem[]；把它切开：A 分块从 smem 开始，B 分块在 2 * "
                    "BM * 20 个 float 之后，暂存分块再往后 2 * 16 * (BN + 8) 个。"},
                   {"For C: store_matrix_sync(stage, acc[i][j], 16, wmma::mem_row_major), "
                    "__syncwarp(), then each lane copies its elements of the 16 x 16 stage to C "
                    "where row < m and col < n.",
                    "写 C：store_matrix_sync(stage, acc[i][j], 16, wmma::mem_row_major)，"
                    "__syncwarp()，然后每个 lane 把暂存分块里属于自己的元素复制到 C，只写 row < m "
                    "且 col < n 的位置。"}},
         .fixed = {Tile("128t-128x128x16-w64x64")},
         .instance =
             "constexpr int BM = 128, BN = 128, WARPS_M = 2, WARPS_N = 2, MIN_BLOCKS = 2;\n"},
    };
}

}  // namespace lessons
