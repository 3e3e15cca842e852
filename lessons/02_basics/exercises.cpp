// Chapter 2's exercise: stage the vector in shared memory (2.1). The other experiments of the
// chapter (a 128-way switch, strided adds, pageable against pinned copies) measure what a given
// kernel or copy does as a parameter moves; there is no better kernel to write. The starting
// file is in exercises/; the reference solution is the lesson's own kernel at variant=shared
// (SolutionOf), run by basics_harness.cu.
#include "exercise.h"

namespace lessons {

std::vector<Exercise> BasicsExercises() {
    KernelSpec spec;
    spec.kernel = "vecmat_15_shared_kernel";
    spec.signature = "const float*, const float*, float*, unsigned, uint64_t";
    spec.prelude = "typedef unsigned long uint64_t;\n";  // NVRTC has no <cstdint>
    return {
        {.lesson = "basics/global-vs-shared",
         .kernel = spec,
         .start = "lessons/02_basics/exercises/global-vs-shared.cu",
         .task_en = "Copy x into shared memory once per block: every thread of the block copies "
                    "the elements i = threadIdx.x, threadIdx.x + blockDim.x, ... below rows, then "
                    "__syncthreads(); the sum then reads x from shared memory. No thread may "
                    "return before the barrier, not even one past the last column.",
         .task_zh = "每个线程块把 x 搬进共享内存一次：块内每个线程搬运下标为 threadIdx.x、"
                    "threadIdx.x + blockDim.x……且小于 rows 的元素，然后 __syncthreads()；求和时"
                    "从共享内存读 x。任何线程都不能在这个屏障之前返回，越过最后一列的线程也不行。",
         .hints = {{"extern __shared__ float shared_x[]; for (unsigned i = threadIdx.x; i < rows; "
                    "i += blockDim.x) shared_x[i] = x[i];",
                    "extern __shared__ float shared_x[]；for (unsigned i = threadIdx.x; i < rows; "
                    "i += blockDim.x) shared_x[i] = x[i]；"},
                   {"Move the test j >= cols after __syncthreads(): a thread that returns early "
                    "never reaches the barrier the others wait at.",
                    "把 j >= cols 的判断移到 __syncthreads() 之后：提前返回的线程永远到不了其他"
                    "线程在等待的屏障。"}},
         .fixed = {{"variant", "shared"}},
         .instance = "constexpr bool kOneThread = false;"},
    };
}

}  // namespace lessons
