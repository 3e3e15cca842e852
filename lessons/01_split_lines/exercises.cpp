// Chapter 1's exercises: write the hand-written scan kernels yourself (steps 1.4, 1.6, 1.7, 1.8
// and 1.10; the later steps launch 1.10's kernel). The starting files are in exercises/; the
// reference solutions are the steps' own kernel files (SolutionOf). The harness launches a
// student's kernel with the grid, shared memory and padding the step's own kernel declares
// (split_harness.cu, StudentScan).
#include "exercise.h"

namespace lessons {
namespace {

// NVRTC has no <cstdint>: the kernels' 64-bit positions and sizes are uint64_t as on the host
// (unsigned long on Linux x86-64 and aarch64).
// The output toggle's enum (split_toggles.h) is what step 1.10's instance line names.
constexpr const char* kSplitPrelude =
    "typedef unsigned long uint64_t;\n"
    "enum class Output { kBlock, kPerHit };\n";

enum class Args { kPadded, kWithN, kWithOffsetBase };

KernelSpec Split(std::string kernel, Args args = Args::kPadded) {
    KernelSpec spec;
    spec.kernel = std::move(kernel);
    spec.signature =
        args == Args::kWithN ? "const char*, uint64_t, unsigned long long*, unsigned long long*"
        : args == Args::kWithOffsetBase
            ? "const char*, unsigned long long*, unsigned long long*, unsigned long long"
            : "const char*, unsigned long long*, unsigned long long*";
    spec.prelude = kSplitPrelude;
    return spec;
}

}  // namespace

std::vector<Exercise> SplitExercises() {
    return {
        {.lesson = "split/one-thread-per-pair",
         .kernel = Split("split_04_one_thread_per_pair_kernel", Args::kWithN),
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
        {.lesson = "split/vector-loads-block-compaction",
         .kernel = Split("split_10_vector_loads_block_compaction_kernel", Args::kWithOffsetBase),
         .start = "lessons/01_split_lines/exercises/vector-loads-block-compaction.cu",
         .task_en = "Keep the two 16-byte loads. Find the pairs a 32-bit word at a time: for word "
                    "w and the word w shifted down one byte (the next word's first byte entering "
                    "at the top), a byte of (w ^ 0x0D0D0D0D) | (next ^ 0x0A0A0A0A) is zero "
                    "exactly where a '\\r' is followed by a '\\n'. Then count the thread's "
                    "hits, place them with a prefix sum over the block, claim the block's range "
                    "with one atomicAdd, stage the offsets in shared memory and write them out "
                    "contiguously. A block with no hit should leave early.",
         .task_zh =
             "保留两次 16 字节加载。每次处理一个 32 位字来找成对的换行：对字 w 和把 w 向下"
             "移一个字节的字（下一个字的第一个字节从高位移入），(w ^ 0x0D0D0D0D) | (next ^ "
             "0x0A0A0A0A) 的某个字节为 0，恰好说明那里是 '\\r' 后面跟着 '\\n'。然后数出"
             "本线程的命中数，用整个线程块的前缀和安排位置，用一次 atomicAdd 领取本块的区间，"
             "把偏移暂存在共享内存里，再连续地写出去。没有命中的线程块应当提前结束。",
         .hints = {{"next = __funnelshift_r(w, following, 8); the exact zero-byte test: ~(((t & "
                    "0x7F7F7F7F) + 0x7F7F7F7F) | t | 0x7F7F7F7F) sets bit 7 of each zero byte of "
                    "t, and __popc counts them.",
                    "next = __funnelshift_r(w, following, 8)；精确的零字节检测：~(((t & "
                    "0x7F7F7F7F) + 0x7F7F7F7F) | t | 0x7F7F7F7F) 会把 t 的每个零字节的第 7 位置 "
                    "1，再用 __popc 计数。"},
                   {"The word after a vector is the next lane's first word: __shfl_down_sync("
                    "0xffffffff, v.x, 1); lane 31 reads the byte after its vector from memory.",
                    "一个向量之后的字是下一个 lane 的第一个字：__shfl_down_sync(0xffffffff, v.x, "
                    "1)；lane 31 从内存读取它的向量之后的那个字节。"},
                   {"Block prefix sum: an inclusive sum in each warp with __shfl_up_sync, warp "
                    "totals in shared memory, warp 0 sums those and one lane does the atomicAdd; "
                    "if (!__syncthreads_or(mine != 0)) return; leaves a block with no hit after "
                    "one barrier.",
                    "线程块前缀和：每个 warp 内用 __shfl_up_sync 求包含式前缀和，各 warp 的总数放"
                    "进共享内存，由 0 号 warp 再求和，并由一个 lane 做 atomicAdd；if "
                    "(!__syncthreads_or(mine != 0)) return; 让没有命中的线程块在一次屏障之后就"
                    "结束。"}},
         .fixed = {{"output", "block"}},
         .instance = "constexpr Output kOutput = Output::kBlock;"},
    };
}

}  // namespace lessons
