// Chapter 4's exercises: write each hand-written step's kernel yourself. The starting files are
// in exercises/; the reference solutions are the steps' own kernel files (SolutionOf).
#include "exercise.h"

namespace lessons {
namespace {

KernelSpec Gemv(std::string kernel, bool with_group = false) {
    KernelSpec spec;
    spec.kernel = std::move(kernel);
    spec.signature = with_group ? "const float*, const float*, float*, int, int, int"
                                : "const float*, const float*, float*, int, int";
    return spec;
}

}  // namespace

std::vector<Exercise> GemvExercises() {
    return {
        {.lesson = "gemv/thread-per-row",
         .kernel = Gemv("gemv_28_thread_per_row_kernel"),
         .start = "lessons/04_gemv/exercises/thread-per-row.cu",
         .task_en = "Write the kernel: thread `row` computes y[row] = sum over j of "
                    "a[row * n + j] * x[j]. The harness launches ceil(m / block) blocks of "
                    "`block` threads; threads past the last row must not write.",
         .task_zh =
             "编写这个 kernel：第 row 个线程计算 y[row] = Σ_j a[row * n + j] * x[j]。"
             "harness 以每块 block 个线程启动 ceil(m / block) 个块；超出最后一行的线程不得写入。",
         .hints = {{"row = blockIdx.x * blockDim.x + threadIdx.x; return when row >= m.",
                    "row = blockIdx.x * blockDim.x + threadIdx.x；row >= m 时直接返回。"},
                   {"Compute the row's start as a + (size_t)row * n: row * n overflows an int "
                    "once the matrix has more than 2^31 elements.",
                    "行首地址写成 a + (size_t)row * n：矩阵元素超过 2^31 个时，int 的 row * n "
                    "会溢出。"},
                   {"Add into a float register and write y[row] once, after the loop.",
                    "在 float 寄存器里累加，循环结束后只写一次 y[row]。"}}},
        {.lesson = "gemv/warp-per-row",
         .kernel = Gemv("gemv_29_warp_per_row_kernel"),
         .start = "lessons/04_gemv/exercises/warp-per-row.cu",
         .task_en = "Give each row a whole warp: the 32 lanes read 32 neighbouring floats of the "
                    "same row (one 128-byte line per load), each keeps a partial sum, and the "
                    "warp adds the 32 sums with shuffles. The harness launches "
                    "ceil(m / (block / 32)) blocks: one warp per row.",
         .task_zh = "让一整个 warp 负责一行：32 个 lane 读同一行中相邻的 32 个 float（每条加载指令"
                    "一条 128 字节的缓存行），各自保留部分和，再用 shuffle 把 32 个部分和加起来。"
                    "harness 启动 ceil(m / (block / 32)) 个块：每行一个 warp。",
         .hints = {{"lane = threadIdx.x % 32; row = global thread index / 32. Lane j starts at "
                    "column j and steps by 32.",
                    "lane = threadIdx.x % 32；row = 全局线程号 / 32。第 j 个 lane 从第 j 列开始，"
                    "步长 32。"},
                   {"for (offset = 16; offset > 0; offset /= 2) sum += "
                    "__shfl_down_sync(0xffffffff, sum, offset); then lane 0 holds the row's sum.",
                    "for (offset = 16; offset > 0; offset /= 2) sum += "
                    "__shfl_down_sync(0xffffffff, sum, offset)；之后 lane 0 持有整行的和。"},
                   {"Return early only for a whole warp (row >= m is the same for all its "
                    "lanes), so every lane the full mask names reaches the shuffles.",
                    "只能整个 warp 一起提前返回（同一 warp 的 row >= m 结果相同），这样完整掩码"
                    "里的每个 lane 都会执行 shuffle。"}}},
        {.lesson = "gemv/vectorized-rows-per-warp",
         .kernel = Gemv("gemv_30_vectorized_kernel", true),
         .start = "lessons/04_gemv/exercises/vectorized-rows-per-warp.cu",
         .task_en = "Load A and x 16 bytes at a time (float4), several loads in flight before any "
                    "is used, and let G = 1 << group_log2 lanes share a row (fewer for short "
                    "rows, the whole block for long ones). Rows whose start is not 16-byte "
                    "aligned (n not a multiple of 4) must still be right.",
         .task_zh = "用 float4 每次加载 A 和 x 的 16 字节，在使用之前先发出几次加载；让 "
                    "G = 1 << group_log2 个 lane 共享一行（短行用得少，长行用整个块）。行首不是 "
                    "16 字节对齐的行（n 不是 4 的倍数）也必须算对。",
         .hints = {{"in_group = threadIdx.x & (G - 1); row = global thread index >> group_log2. "
                    "Groups are aligned inside a warp, so __shfl_xor_sync with offsets below G "
                    "stays in the group.",
                    "in_group = threadIdx.x & (G - 1)；row = 全局线程号 >> group_log2。组在 warp "
                    "内对齐，所以偏移小于 G 的 __shfl_xor_sync 不会越出本组。"},
                   {"The row starts at element row * n: add its first (4 - start % 4) % 4 floats "
                    "one by one, then read float4s from there, then the last 0-3 floats.",
                    "该行从第 row * n 个元素开始：先逐个加前 (4 - start % 4) % 4 个 float，再从那"
                    "里开始读 float4，最后处理剩下的 0-3 个 float。"},
                   {"When G is larger than 32 (the whole block), each warp's sum goes to shared "
                    "memory, and after __syncthreads() the first warp adds them.",
                    "G 大于 32（整个块共享一行）时，每个 warp 的和写入共享内存，__syncthreads() "
                    "之后由第一个 warp 把它们加起来。"}},
         .fixed = {{"loads", "float4"}, {"row_lanes", "as-needed"}}},
    };
}

}  // namespace lessons
