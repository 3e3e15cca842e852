// Chapter 1's exercises: write the hand-written scan kernels yourself (steps 1.4, 1.6, 1.7 and
// 1.8). The starting files are in exercises/; the reference solutions are the steps' own kernel
// files (SolutionOf). The harness launches a student's kernel with the grid, shared memory and
// padding the step's own kernel declares (split_harness.cu, StudentScan).
#include "exercise.h"

namespace lessons {
namespace {

// NVRTC has no <cstdint>: the kernels' 64-bit positions and sizes are uint64_t as on the host
// (unsigned long on Linux x86-64 and aarch64).
constexpr const char* kSplitPrelude = "typedef unsigned long uint64_t;\n";

KernelSpec Split(std::string kernel, bool with_n = false) {
    KernelSpec spec;
    spec.kernel = std::move(kernel);
    spec.signature = with_n ? "const char*, uint64_t, unsigned long long*, unsigned long long*"
                            : "const char*, unsigned long long*, unsigned long long*";
    spec.prelude = kSplitPrelude;
    return spec;
}

}  // namespace

std::vector<Exercise> SplitExercises() {
    return {
        {.lesson = "split/one-thread-per-pair",
         .kernel = Split("split_04_one_thread_per_pair_kernel", true),
         .start = "lessons/01_split_lines/exercises/one-thread-per-pair.cu",
         .task_en =
             "Write the kernel: the thread for even position i finds a \"\\r\\n\" that "
             "starts at i or ends at i, and appends the offset after it to out through an "
             "atomicAdd on *count. Positions at or past n, and bytes before buf[0], must not "
             "be read.",
         .task_zh = "编写这个 kernel：负责偶数位置 i 的线程找出从 i 开始或在 i 结束的 \"\\r\\n\"，"
                    "用 *count 上的 atomicAdd 把它之后的偏移追加到 out。不得读取 n 及之后的位置，"
                    "也不得读取 buf[0] 之前的字节。",
         .hints =
             {{"i = (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x) * 2; return when "
               "i >= n.",
               "i = (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x) * 2；i >= n 时直接返回。"},
              {"If buf[i] is '\\r', the pair is (i, i + 1): check i + 1 < n first. If it is "
               "'\\n', the pair is (i - 1, i): check i > 0 first.",
               "若 buf[i] 是 '\\r'，这一对是 (i, i + 1)：先检查 i + 1 < n。若是 '\\n'，这一对是 "
               "(i - 1, i)：先检查 i > 0。"},
              {"out[atomicAdd(count, 1ull)] = offset claims one slot per pair; the offset is "
               "the position after the '\\n'.",
               "out[atomicAdd(count, 1ull)] = 偏移，每一对占一个位置；偏移是 '\\n' 之后的"
               "位置。"}}},
        {.lesson = "split/branch-free-padding",
         .kernel = Split("split_06_branch_free_padding_kernel"),
         .start = "lessons/01_split_lines/exercises/branch-free-padding.cu",
         .task_en = "Test odd positions: the thread for odd position i finds a pair starting at "
                    "i - 1 or at i. The buffer is padded with zeros past its end, so every "
                    "neighbour exists and no test needs an edge branch.",
         .task_zh =
             "改为检测奇数位置：负责奇数位置 i 的线程找出从 i - 1 或 i 开始的一对。缓冲区末尾"
             "之后用 0 填充，所以每个邻居都存在，任何检测都不需要边界分支。",
         .hints = {{"i = (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x) * 2 + 1: the odd "
                    "position; i - 1 >= 0 always.",
                    "i = (blockIdx.x * (uint64_t)blockDim.x + threadIdx.x) * 2 + 1：奇数位置；"
                    "i - 1 总是 >= 0。"},
                   {"buf[i] == '\\n' and buf[i - 1] == '\\r': a pair at i - 1, offset i + 1. "
                    "buf[i] == '\\r' and buf[i + 1] == '\\n': a pair at i, offset i + 2.",
                    "buf[i] == '\\n' 且 buf[i - 1] == '\\r'：一对从 i - 1 开始，偏移为 i + 1。"
                    "buf[i] == '\\r' 且 buf[i + 1] == '\\n'：一对从 i 开始，偏移为 i + 2。"}}},
        {.lesson = "split/shared-memory",
         .kernel = Split("split_07_shared_memory_kernel"),
         .start = "lessons/01_split_lines/exercises/shared-memory.cu",
         .task_en = "Stage the block's 2 x block bytes in shared memory first: each thread loads "
                    "its two bytes with one 16-bit load, thread 0 loads the byte before the "
                    "block's stretch, then __syncthreads(); test even positions reading shared "
                    "memory only.",
         .task_zh = "先把线程块的 2 x block 个字节放进共享内存：每个线程用一次 16 位加载读入自己的"
                    "两个字节，0 号线程读入本块字节之前的那个字节，然后 __syncthreads()；检测偶数"
                    "位置时只读共享内存。",
         .hints = {{"extern __shared__ unsigned short pairs[]; pairs[t] = ((const unsigned "
                    "short*)(buf + base))[t] with base = blockIdx.x * blockDim.x * 2.",
                    "extern __shared__ unsigned short pairs[]；pairs[t] = ((const unsigned "
                    "short*)(buf + base))[t]，其中 base = blockIdx.x * blockDim.x * 2。"},
                   {"A __shared__ char for the halo: the byte at base - 1 (0 for the first block), "
                    "needed when thread 0's byte is '\\n'.",
                    "用一个 __shared__ char 存放光环字节：位置 base - 1 的字节（第一个块为 0），"
                    "0 号线程的字节是 '\\n' 时要用到它。"},
                   {"Read the staged bytes as (const char*)pairs: byte 2t is this thread's even "
                    "position, 2t + 1 the next, 2t - 1 (or the halo) the one before.",
                    "把暂存的字节当作 (const char*)pairs 读取：第 2t 个字节是本线程的偶数位置，"
                    "2t + 1 是下一个，2t - 1（或光环字节）是前一个。"}}},
        {.lesson = "split/four-bytes-per-thread",
         .kernel = Split("split_08_four_bytes_per_thread_kernel"),
         .start = "lessons/01_split_lines/exercises/four-bytes-per-thread.cu",
         .task_en = "Give each thread 4 bytes: one 32-bit load into shared memory, the byte after "
                    "the block's stretch after the words, a __syncthreads(), then test the four "
                    "positions that start in the thread's bytes.",
         .task_zh = "让每个线程处理 4 个字节：一次 32 位加载放进共享内存，本块字节之后的那个字节"
                    "放在这些字之后，__syncthreads() 之后检测从本线程字节开始的四个位置。",
         .hints = {{"base = blockIdx.x * (uint64_t)blockDim.x * 4; words[t] = ((const unsigned "
                    "int*)(buf + base))[t].",
                    "base = blockIdx.x * (uint64_t)blockDim.x * 4；words[t] = ((const unsigned "
                    "int*)(buf + base))[t]。"},
                   {"The last thread (t == blockDim.x - 1) stores buf[base + 4 * blockDim.x] as "
                    "byte 4 * blockDim.x of (char*)words: the padding keeps it in bounds.",
                    "最后一个线程（t == blockDim.x - 1）把 buf[base + 4 * blockDim.x] 存为 "
                    "(char*)words 的第 4 * blockDim.x 个字节：填充保证它不越界。"},
                   {"For k = 0..3: j = 4t + k; a pair at j when s[j] == '\\r' and s[j + 1] == "
                    "'\\n', offset base + j + 2.",
                    "k = 0..3：j = 4t + k；s[j] == '\\r' 且 s[j + 1] == '\\n' 时在 j 处有一对，"
                    "偏移为 base + j + 2。"}}},
    };
}

}  // namespace lessons
