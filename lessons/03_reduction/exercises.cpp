// Chapter 3's exercises: write the reduction kernels v0 to v5 yourself. The starting files are
// in exercises/; the reference solutions are the steps' own kernel files (SolutionOf). The
// harness launches a student's kernel with the grid and dynamic shared memory the step's own
// kernel takes, pass after pass (reduce_harness.cu, StudentBlocks). The steps with ablation
// toggles are written for the lesson as written (its first choices), which `fixed` names.
#include "exercise.h"

namespace lessons {
namespace {

// NVRTC has no <cstdint>; the toggles' enums (reduce_toggles.h) are what the solutions' instance
// lines name.
constexpr const char* kReducePrelude =
    "typedef unsigned long uint64_t;\n"
    "enum class Addressing { kInterleaved, kStrided, kSequential };\n"
    "enum class Accumulate { kManyPerThread, kTwoPerThread, kOnePerThread };\n"
    "enum class LastWarp { kUnrolled, kLoop };\n"
    "enum class Loads { kFloat4, kScalar };\n"
    "enum class Passes { kOne, kTwo };\n";

KernelSpec Reduce(std::string kernel, std::string signature = "const float*, uint64_t, float*") {
    KernelSpec spec;
    spec.kernel = std::move(kernel);
    spec.signature = std::move(signature);
    spec.prelude = kReducePrelude;
    return spec;
}

}  // namespace

std::vector<Exercise> ReduceExercises() {
    return {
        {.lesson = "reduce/v0-interleaved-global",
         .kernel = Reduce("reduce_20_interleaved_global_kernel", "float*, uint64_t, float*"),
         .start = "lessons/03_reduction/exercises/v0-interleaved-global.cu",
         .task_en = "Add the block's elements in a tree, in place in global memory: at stride s "
                    "= 1, 2, 4, ..., the thread whose index is a multiple of 2s adds the element s "
                    "places to its right into its own, with a __syncthreads() between levels. "
                    "Thread 0 then writes the block's sum to partials[blockIdx.x].",
         .task_zh = "在全局内存中原地按树形把本块的元素加起来：步长 s = 1、2、4……时，下标是 2s "
                    "倍数的线程把右边 s 处的元素加到自己的元素上，每层之间 __syncthreads()。最后 0 "
                    "号线程把本块的和写入 partials[blockIdx.x]。",
         .hints = {{"segment = data + blockIdx.x * (uint64_t)blockDim.x; the last block has "
                    "length = min(n - base, blockDim.x) elements.",
                    "segment = data + blockIdx.x * (uint64_t)blockDim.x；最后一个块只有 length = "
                    "min(n - base, blockDim.x) 个元素。"},
                   {"for (stride = 1; stride < blockDim.x; stride *= 2): if (tid % (2 * stride) "
                    "== 0 && tid + stride < length) segment[tid] += segment[tid + stride];",
                    "for (stride = 1; stride < blockDim.x; stride *= 2)：若 tid % (2 * stride) "
                    "== 0 且 tid + stride < length，则 segment[tid] += segment[tid + stride]；"},
                   {"Every thread must reach each __syncthreads(): keep it outside the if.",
                    "每个线程都必须执行到每个 __syncthreads()：把它放在 if 之外。"}}},
        {.lesson = "reduce/v1-shared-memory",
         .kernel = Reduce("reduce_21_shared_memory_kernel"),
         .start = "lessons/03_reduction/exercises/v1-shared-memory.cu",
         .task_en = "Copy the block's elements to shared memory (zero past n), __syncthreads(), "
                    "then add them there in step 3.2's interleaved tree; thread 0 writes s[0] to "
                    "partials[blockIdx.x]. Global memory is then read once and written once per "
                    "block.",
         .task_zh = "把本块的元素复制到共享内存（n 之后补 0），__syncthreads()，再在共享内存里按"
                    "第 3.2 步的交错树相加；0 号线程把 s[0] 写入 partials[blockIdx.x]。这样每个块"
                    "只读一次、写一次全局内存。",
         .hints = {{"extern __shared__ float s[]; s[tid] = i < n ? in[i] : 0.0f with i = "
                    "blockIdx.x * (uint64_t)blockDim.x + tid.",
                    "extern __shared__ float s[]；s[tid] = i < n ? in[i] : 0.0f，其中 i = "
                    "blockIdx.x * (uint64_t)blockDim.x + tid。"},
                   {"The zeros past n make every element of s valid: the tree needs no length "
                    "test, only tid % (2 * stride) == 0.",
                    "n 之后的 0 让 s 的每个元素都有效：树不再需要长度检查，只需 tid % (2 * "
                    "stride) == 0。"}},
         .fixed = {{"addressing", "interleaved"}},
         .instance = "constexpr Addressing kAddressing = Addressing::kInterleaved;"},
        {.lesson = "reduce/v2-add-during-load",
         .kernel = Reduce("reduce_22_add_during_load_kernel"),
         .start = "lessons/03_reduction/exercises/v2-add-during-load.cu",
         .task_en = "Each block now owns 2 x block elements: each thread loads element i and "
                    "element i + blockDim.x and stores their sum in shared memory, then the tree "
                    "runs as before. The first level of the tree is done by the load, and every "
                    "thread adds at least once.",
         .task_zh = "现在每个块负责 2 x block 个元素：每个线程读取第 i 个和第 i + blockDim.x "
                    "个元素，把它们的和存入共享内存，然后照旧做树形相加。树的第一层在加载时就"
                    "完成了，每个线程至少做一次加法。",
         .hints = {{"i = blockIdx.x * (uint64_t)blockDim.x * 2 + tid.",
                    "i = blockIdx.x * (uint64_t)blockDim.x * 2 + tid。"},
                   {"Test both loads against n: v = i < n ? in[i] : 0.0f; if (i + blockDim.x < "
                    "n) v += in[i + blockDim.x];",
                    "两次加载都要和 n 比较：v = i < n ? in[i] : 0.0f；若 i + blockDim.x < n，"
                    "则 v += in[i + blockDim.x]；"}}},
        {.lesson = "reduce/v3-unrolled-last-warp",
         .kernel = Reduce("reduce_23_sequential_unrolled_warp_kernel"),
         .start = "lessons/03_reduction/exercises/v3-unrolled-last-warp.cu",
         .task_en = "Three changes. Each thread first adds its block's share in a register, "
                    "blockDim.x apart. The tree then halves a contiguous range of threads (thread "
                    "t < half adds s[t + half]) down to 64 sums. The last warp adds those with no "
                    "__syncthreads(): a __syncwarp() between every read and write.",
         .task_zh = "三处改动。每个线程先在寄存器里累加本块负责的那一段，间隔 blockDim.x。然后"
                    "树每层把一段连续的线程减半（t < half 的线程加上 s[t + half]），直到剩 64 个"
                    "和。最后一个 warp 不用 __syncthreads() 把它们加起来：每次读和写之间用 "
                    "__syncwarp()。",
         .hints = {{"per_block = (n + gridDim.x - 1) / gridDim.x; begin = blockIdx.x * "
                    "per_block; end = min(begin + per_block, n); for (i = begin + tid; i < end; "
                    "i += blockDim.x) sum += in[i];",
                    "per_block = (n + gridDim.x - 1) / gridDim.x；begin = blockIdx.x * "
                    "per_block；end = min(begin + per_block, n)；for (i = begin + tid; i < end; "
                    "i += blockDim.x) sum += in[i]；"},
                   {"for (half = blockDim.x / 2; half > 32; half /= 2) { if (tid < half) s[tid] "
                    "+= s[tid + half]; __syncthreads(); }",
                    "for (half = blockDim.x / 2; half > 32; half /= 2) { if (tid < half) s[tid] "
                    "+= s[tid + half]; __syncthreads(); }"},
                   {"In warp 0: v = s[tid] + s[tid + 32]; then for offset 16, 8, 4, 2, 1: "
                    "__syncwarp(); s[tid] = v; __syncwarp(); v += s[tid + offset];",
                    "在 0 号 warp 中：v = s[tid] + s[tid + 32]；然后 offset 依次取 16、8、4、2、1："
                    "__syncwarp()；s[tid] = v；__syncwarp()；v += s[tid + offset]；"}},
         .fixed = {{"accumulate", "many-per-thread"}, {"last_warp", "unrolled"}},
         .instance = "constexpr Accumulate kAccumulate = Accumulate::kManyPerThread;\n"
                     "constexpr LastWarp kLastWarp = LastWarp::kUnrolled;"},
        {.lesson = "reduce/v4-warp-shuffle",
         .kernel = Reduce("reduce_24_warp_shuffle_kernel"),
         .start = "lessons/03_reduction/exercises/v4-warp-shuffle.cu",
         .task_en = "Sum each warp through registers: five __shfl_down_sync steps (offsets 16 to "
                    "1) leave the warp's sum in lane 0. Lane 0 of each warp writes it to a shared "
                    "array of 32 floats; after one __syncthreads() the first warp sums those the "
                    "same way.",
         .task_zh = "通过寄存器求每个 warp 的和：五次 __shfl_down_sync（offset 从 16 到 1）之后 "
                    "lane 0 持有整个 warp 的和。每个 warp 的 lane 0 把它写入一个 32 个浮点数的共享"
                    "数组；一次 __syncthreads() 之后，第一个 warp 用同样的方法把它们加起来。",
         .hints = {{"for (int offset = 16; offset > 0; offset /= 2) v += "
                    "__shfl_down_sync(0xffffffffu, v, offset);",
                    "for (int offset = 16; offset > 0; offset /= 2) v += "
                    "__shfl_down_sync(0xffffffffu, v, offset);"},
                   {"In warp 0, lane l reads warp_sums[l] only when l < blockDim.x / 32 (else "
                    "0.0f): a block may have fewer than 32 warps.",
                    "在 0 号 warp 中，只有 l < blockDim.x / 32 时 lane l 才读 warp_sums[l]（否则"
                    "取 0.0f）：一个块可能不足 32 个 warp。"}}},
        {.lesson = "reduce/v5-vectorized-one-pass",
         .kernel = Reduce("reduce_25_vectorized_one_pass_kernel",
                          "const float*, uint64_t, float*, float*, unsigned*"),
         .start = "lessons/03_reduction/exercises/v5-vectorized-one-pass.cu",
         .task_en = "Make the loads 16 bytes wide: read the array as float4s with a grid stride, "
                    "two strides at a time into two accumulators so two loads are in flight, then "
                    "add the last n % 4 floats (one thread each). The block sums and the last "
                    "block's total stay as they are.",
         .task_zh = "把加载改成 16 字节宽：以网格步长把数组当作 float4 读取，每次跨两个步长、累加"
                    "到两个累加器，让两次加载同时在途；最后 n % 4 个浮点数单独相加（每个线程一"
                    "个）。各块的和与最后一个块的求总和保持不变。",
         .hints = {{"const float4* in4 = reinterpret_cast<const float4*>(in); n4 = n / 4; the "
                    "input is 256-byte aligned (cudaMalloc).",
                    "const float4* in4 = reinterpret_cast<const float4*>(in)；n4 = n / 4；输入按 "
                    "256 字节对齐（cudaMalloc）。"},
                   {"for (; i + stride < n4; i += 2 * stride) { p = in4[i]; q = in4[i + stride]; "
                    "a += ...; b += ...; } then one more float4 if i < n4.",
                    "for (; i + stride < n4; i += 2 * stride) { p = in4[i]; q = in4[i + stride]; "
                    "a += ...; b += ...; }，之后若 i < n4 再处理一个 float4。"},
                   {"The tail: the thread whose global index first < n % 4 adds in[n4 * 4 + "
                    "first].",
                    "尾部：全局下标 first < n % 4 的线程加上 in[n4 * 4 + first]。"}},
         .fixed = {{"loads", "float4"}, {"passes", "one"}},
         .instance = "constexpr Loads kLoads = Loads::kFloat4;\n"
                     "constexpr Passes kPasses = Passes::kOne;"},
    };
}

}  // namespace lessons
