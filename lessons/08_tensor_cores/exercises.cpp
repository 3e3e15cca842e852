// Chapter 8's exercises: write the mma.sync steps (8.1, 8.2), the wgmma step (8.3) and the TMA
// steps (8.4 to 8.6) yourself. The starting files are in exercises/; the reference solutions are
// the steps' own kernel files at each step's default tile (SolutionOf). The harness launches a
// student's kernel as the step's own (tc_harness.cu, StudentArgsOf): with the TcProblem on the
// step's grid, or, for the TMA steps, with the tensor maps, grid and shared memory the step's
// launch plans (PlanTmaLaunch in kernels/tc/tc_hopper.cuh), the persistent step's grid included.
#include <string>
#include <string_view>

#include "exercise.h"
#include "resources.h"

namespace lessons {
namespace {

// The harness's problem, as kernels/tc/tc_gpu.cuh declares it (the same members in the same
// order: the kernel receives it by value); bf16 from the toolkit's header, which NVRTC lacks.
constexpr const char* kTcPrelude =
    "#include <cuda_bf16.h>\n"
    "struct TcProblem {\n"
    "    int m = 0, n = 0, k = 0;\n"
    "    const __nv_bfloat16* a = nullptr;\n"
    "    int lda = 0;\n"
    "    const __nv_bfloat16* bt = nullptr;\n"
    "    int ldb = 0;\n"
    "    __nv_bfloat16* c = nullptr;\n"
    "    int ldc = 0;\n"
    "};\n";

KernelSpec Tc(std::string kernel) {
    KernelSpec spec;
    spec.kernel = std::move(kernel);
    spec.signature = "const TcProblem";
    spec.prelude = kTcPrelude;
    spec.toolkit_headers = {"cuda_bf16.h"};
    return spec;
}

// The Hopper steps' device helpers (descriptors, wgmma, mbarriers, the epilogue): the device
// part of kernels/tc/tc_hopper.cuh (embedded), from its first declaration to the end of its
// `#if defined(__CUDA_ARCH__)` block, after the fixed-width integers NVRTC lacks and an opaque
// CUtensorMap (the TMA helpers' parameter type and the TMA kernels', passed by value: 128
// bytes aligned to 128 as CUDA 13's <cuda.h> declares it, which also meets CUDA 12's 64; the
// harness asserts that its maps agree; <cuda.h> itself needs the C library). Compiled for
// sm_90a. `signature`: the kernel's parameters, the TcProblem or the TMA steps' tensor maps.
KernelSpec Hopper(std::string kernel, std::string signature) {
    static const std::string prelude = [] {
        std::string out =
            "typedef unsigned char uint8_t;\n"
            "typedef unsigned short uint16_t;\n"
            "typedef unsigned int uint32_t;\n"
            "typedef unsigned long uint64_t;\n"
            "struct alignas(128) CUtensorMap { unsigned long long opaque[16]; };\n";
        out += kTcPrelude;
        const std::string_view h = EmbeddedFile("kernels/tc/tc_hopper.cuh");
        bool in = false;
        for (size_t start = 0; start < h.size();) {
            size_t end = h.find('\n', start);
            if (end == std::string_view::npos) end = h.size();
            const std::string_view line = h.substr(start, end - start);
            start = end + 1;
            in = in || line.starts_with("inline constexpr int kHopperBk");
            if (!in) continue;
            out.append(line).push_back('\n');
            if (line.starts_with("#endif  // __CUDA_ARCH__")) break;
        }
        return out;
    }();
    KernelSpec spec;
    spec.kernel = std::move(kernel);
    spec.signature = std::move(signature);
    spec.prelude = prelude;
    spec.toolkit_headers = {"cuda_bf16.h"};
    spec.arch_suffix = "a";
    return spec;
}

// The TMA steps' kernels (TmaKernelFn, TmaStoreKernelFn in kernels/tc/tc_hopper.cuh): the
// tensor maps of A and Bᵀ (and C's) by value, __grid_constant__, then C, m, n, k, ldc.
constexpr const char* kTmaSignature =
    "const CUtensorMap, const CUtensorMap, __nv_bfloat16*, int, int, int, int";
constexpr const char* kTmaStoreSignature =
    "const CUtensorMap, const CUtensorMap, const CUtensorMap, __nv_bfloat16*, int, int, int, int";

}  // namespace

std::vector<Exercise> TcExercises() {
    return {
        {.lesson = "tensor-cores/mma-sync",
         .kernel = Tc("tc_mma_sync_kernel"),
         .start = "lessons/08_tensor_cores/exercises/mma-sync.cu",
         .task_en = "Multiply on the tensor cores. Each of the four warps keeps a 64 x 64 tile of "
                    "C in fp32 registers (4 x 8 fragments of m16n8, four floats each). For each "
                    "k-slice of 32, the block copies its 128 x 32 tile of A and of B^T into shared "
                    "memory (16 bytes a thread at a time, zeros outside the matrices), waits, and "
                    "each warp loads its fragments with ldmatrix.x4 and issues mma.sync for every "
                    "pair of A and B fragments; C is rounded to bf16 once, when stored.",
         .task_zh =
             "在 tensor core 上做乘法。四个 warp 各自在 fp32 寄存器里保存 C 的一个 64 x 64 "
             "分块（4 x 8 个 m16n8 片段，每个四个浮点数）。对每个长度 32 的 k 片段，线程块把 "
             "A 和 B^T 各自 128 x 32 的分块复制进共享内存（每个线程一次 16 字节，矩阵之外"
             "填 0），等待，然后每个 warp 用 ldmatrix.x4 加载片段，并对每一对 A、B 片段发出 "
             "mma.sync；C 只在写出时舍入一次为 bf16。",
         .hints = {{"The fragments: lane L of a 16 x 16 A tile gives ldmatrix the address of row "
                    "L % 16 at k = 8 * (L / 16), and receives a0..a3 in the order mma.sync takes "
                    "them; for two n8 tiles of B^T, row L % 8 + 8 * (L / 16) at k = 8 * ((L / 8) "
                    "% 2).",
                    "片段：对一个 16 x 16 的 A 分块，lane L 给 ldmatrix 第 L % 16 行、k = 8 * (L / "
                    "16) 处的地址，得到的 a0..a3 正是 mma.sync 要的顺序；对 B^T 的两个 n8 分块，"
                    "是第 L % 8 + 8 * (L / 16) 行、k = 8 * ((L / 8) % 2) 处。"},
                   {"ldmatrix takes a shared-memory byte address: "
                    "(unsigned)__cvta_generic_to_shared(&tile[row][k]); asm volatile("
                    "\"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\" ...).",
                    "ldmatrix 要共享内存的字节地址：(unsigned)__cvta_generic_to_shared(&tile[row]"
                    "[k])；asm volatile(\"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, "
                    "%3}, [%4];\" ...)。"},
                   {"An m16n8 result: lane L holds C[g][2t, 2t+1] and C[g+8][2t, 2t+1] with g = L "
                    "/ 4, t = L % 4; store each pair as one __nv_bfloat162 "
                    "(__floats2bfloat162_rn) unless it is the last column.",
                    "一个 m16n8 结果：lane L 持有 C[g][2t, 2t+1] 和 C[g+8][2t, 2t+1]，其中 g = L / "
                    "4，t = L % 4；每一对存成一个 __nv_bfloat162（__floats2bfloat162_rn），最后一"
                    "列除外。"}},
         .fixed = {{"tile", "128t-128x128x32-w64x64"}},
         .instance = "constexpr int BM = 128, BN = 128, BK = 32, WM = 64, WN = 64;"},
        {.lesson = "tensor-cores/cp-async-pipeline",
         .kernel = Tc("tc_cp_async_pipeline_kernel"),
         .start = "lessons/08_tensor_cores/exercises/cp-async-pipeline.cu",
         .task_en = "Overlap the copies with the arithmetic. Keep STAGES = 3 tiles of A and B^T "
                    "(128 x 64 and 256 x 64) in dynamic shared memory, copied with cp.async (16 "
                    "bytes each, zero-filled outside the matrices): before computing on tile t, "
                    "issue the copies of tile t + 2, commit them as a group, and wait until only "
                    "the two newest groups are in flight. Store each row's 16-byte chunks in an "
                    "XOR-swizzled order so the eight rows an ldmatrix reads fall in different "
                    "banks. Walk the tiles of C in groups of GROUP_M = 8 rows of tiles.",
         .task_zh =
             "让复制与计算重叠。在动态共享内存里保留 STAGES = 3 份 A 和 B^T 的分块（128 x 64 "
             "和 256 x 64），用 cp.async 复制（每次 16 字节，矩阵之外补 0）：在计算第 t 个"
             "分块之前，发出第 t + 2 个分块的复制，提交为一组，再等到只剩最新的两组在途。"
             "每行的 16 字节块按异或交错的顺序存放，使 ldmatrix 读的八行落在不同的存储体"
             "上。按每组 GROUP_M = 8 行分块的顺序遍历 C 的分块。",
         .hints = {{"cp.async.cg.shared.global [dst], [src], 16, src_size; with src_size 0 it "
                    "writes 16 zero bytes without reading src. cp.async.commit_group closes a "
                    "group; cp.async.wait_group N waits until at most N groups are pending.",
                    "cp.async.cg.shared.global [dst], [src], 16, src_size；src_size 为 0 时不读 "
                    "src，写入 16 个 0 字节。cp.async.commit_group 结束一组；cp.async.wait_group "
                    "N 等到最多还剩 N 组未完成。"},
                   {"The swizzle: chunk c of row r lives at chunk c ^ (r % 8) of that row (a row "
                    "of 64 bf16 is 8 chunks of 16 bytes); ldmatrix's row addresses use the same "
                    "formula.",
                    "交错：第 r 行的第 c 个块放在该行的第 c ^ (r % 8) 个块（64 个 bf16 的一行是 8 "
                    "个 16 字节的块）；ldmatrix 的行地址用同一个公式。"},
                   {"Block order: with tiles_m x tiles_n tiles, group = b / (GROUP_M * tiles_n); "
                    "inside a group, consecutive blocks go down a column of up to GROUP_M tiles "
                    "before moving to the next column.",
                    "块的顺序：共有 tiles_m x tiles_n 个分块，group = b / (GROUP_M * tiles_n)；"
                    "在一组之内，相邻的块先沿一列向下走（至多 GROUP_M 个分块），再换到下一列。"}},
         .fixed = {{"tile", "256t-128x256x64-w64x64-s3"}},
         .instance = "constexpr int BM = 128, BN = 256, BK = 64, WM = 64, WN = 64, STAGES = 3, "
                     "GROUP_M = 8;"},
        {.lesson = "tensor-cores/wgmma",
         .kernel = Hopper("tc_wgmma_kernel", "TcProblem"),
         .start = "lessons/08_tensor_cores/exercises/wgmma.cu",
         .task_en = "Multiply a warpgroup at a time. Keep STAGES = 3 k-tiles of 64 of A (128 "
                    "rows) and B^T (256 rows) in dynamic shared memory, 1024-byte aligned, each "
                    "row's 16-byte chunks stored 128-byte swizzled (chunk c of row r at c ^ (r % "
                    "8)), copied with cp.async ahead of use. Each of the two warpgroups owns 64 "
                    "rows of C: for every k16 step of a tile it issues Wgmma<256>::Run on the "
                    "shared-memory descriptors of its A rows and of B^T, commits, and waits "
                    "(WgmmaWait) before the stage is overwritten. Round C to bf16 once, at the "
                    "end.",
         .task_zh = "一次让一个 warpgroup 做乘法。在动态共享内存里保留 STAGES = 3 个长度 64 的 k "
                    "分块：A（128 行）和 B^T（256 行），按 1024 字节对齐，每行的 16 字节块按 128 "
                    "字节交错存放（第 r 行的第 c 块放在 c ^ (r % 8)），用 cp.async 提前复制。两个 "
                    "warpgroup 各负责 C 的 64 行：对分块里的每个 k16 步，用自己那 64 行 A 和 B^T 的"
                    "共享内存描述符发出 Wgmma<256>::Run，提交，并在这一级被覆盖之前等待"
                    "（WgmmaWait）。C 只在最后舍入一次为 bf16。",
         .hints = {{"uint8_t* smem = AlignedDynamicSmem(raw); stage s holds A at smem + s * "
                    "(BM + BN) * 128 and B^T right after it; SwizzledDescriptor(a + i * 64 * 128 + "
                    "kk * 32) is the A operand of k16 step kk for 64-row slice i.",
                    "uint8_t* smem = AlignedDynamicSmem(raw)；第 s 级的 A 在 smem + s * (BM + BN) "
                    "* 128，B^T 紧随其后；SwizzledDescriptor(a + i * 64 * 128 + kk * 32) 是 64 行"
                    "片段 i 在第 kk 个 k16 步的 A 操作数。"},
                   {"Per k-tile: CpAsyncWait<STAGES - 2>(), FenceProxyAsync() (wgmma reads shared "
                    "memory through the async proxy, cp.async wrote through the generic one), "
                    "__syncthreads(), issue the copies of tile kt + 2 and CpAsyncCommit(); then "
                    "WgmmaFence(), the four k16 Wgmma<256>::Run calls, WgmmaCommit() and "
                    "WgmmaWait<0>() before the next barrier lets the stage be refilled.",
                    "每个 k 分块：CpAsyncWait<STAGES - 2>()，FenceProxyAsync()（wgmma 经由 async "
                    "proxy 读共享内存，而 cp.async 是经由 generic proxy 写入的），__syncthreads()，"
                    "发出第 kt + 2 个分块的复制并 CpAsyncCommit()；然后 WgmmaFence()，四次 k16 的 "
                    "Wgmma<256>::Run，WgmmaCommit()，再 WgmmaWait<0>()，之后下一次屏障才允许这一级"
                    "被重新填充。"},
                   {"The accumulators: thread t of a warpgroup holds rows 16 * (t / 32) + (t % 32) "
                    "/ 4 and 8 below, columns 8j + 2 * (t % 4) and the next: acc[4j], acc[4j + 1] "
                    "in the first row, acc[4j + 2], acc[4j + 3] in the other; "
                    "StoreAccumulators<BN>(acc, p.c, p.ldc, p.m, p.n, first_row, col0) writes "
                    "them as bf16.",
                    "累加器：warpgroup 的第 t 个线程持有第 16 * (t / 32) + (t % 32) / 4 行及其下 8 "
                    "行、第 8j + 2 * (t % 4) 列及下一列：第一行是 acc[4j]、acc[4j + 1]，另一行是 "
                    "acc[4j + 2]、acc[4j + 3]；StoreAccumulators<BN>(acc, p.c, p.ldc, p.m, p.n, "
                    "first_row, col0) 把它们写成 bf16。"}},
         .fixed = {{"tile", "256t-128x256x64-s3"}},
         .instance = "constexpr int BM = 128, BN = 256, STAGES = 3, WARPGROUPS = 2;"},
        {.lesson = "tensor-cores/tma",
         .kernel = Hopper("tc_wgmma_tma_kernel", kTmaSignature),
         .start = "lessons/08_tensor_cores/exercises/tma.cu",
         .task_en = "Let the copy engine fetch the k-tiles ahead. Keep STAGES = 4 stages of A "
                    "(128 rows) and B^T (256 rows) in dynamic shared memory, one mbarrier per "
                    "stage after them. Thread 0 initialises the barriers (one arrival each), then "
                    "fills the first STAGES stages: for each, it announces the stage's bytes on "
                    "its barrier and has TMA copy the box of A at (k0, row0) and of B^T at (k0, "
                    "col0). Every warpgroup waits on the barrier of the stage it needs, multiplies "
                    "its 64-row slice with wgmma, and after a __syncthreads thread 0 refills that "
                    "stage with the k-tile STAGES further on.",
         .task_zh =
             "让复制引擎提前取来 k 分块。在动态共享内存里保留 STAGES = 4 级 A（128 行）和 "
             "B^T（256 行），其后每一级一个 mbarrier。线程 0 初始化这些屏障（每个一次到达），"
             "然后填充前 STAGES 级：对每一级，先在它的屏障上声明这一级的字节数，再让 TMA "
             "复制 A 在 (k0, row0) 处和 B^T 在 (k0, col0) 处的方块。每个 warpgroup 在它需要"
             "的那一级的屏障上等待，用 wgmma 算自己那 64 行，在一次 __syncthreads 之后，由线"
             "程 0 把这一级重新填上往后第 STAGES 个 k 分块。",
         .hints = {{"Stage s: A at smem + s * (BM + BN) * 128, B^T right after it; the barriers "
                    "at smem + STAGES * (BM + BN) * 128. BarrierInit(&full[s], 1) for each, "
                    "BarrierInitFence(), then a __syncthreads before anyone waits on them.",
                    "第 s 级：A 在 smem + s * (BM + BN) * 128，B^T 紧随其后；屏障在 smem + STAGES "
                    "* (BM + BN) * 128。每个都 BarrierInit(&full[s], 1)，再 BarrierInitFence()，"
                    "然后在任何人等待之前做一次 __syncthreads。"},
                   {"Filling stage s with k-tile kt: BarrierExpectBytes(&full[s], (BM + BN) * "
                    "128) first, then TmaLoad(a_s, &map_a, kt * 64, row0, &full[s]) and the same "
                    "for B^T at col0. A box reaching past the matrix still counts all its bytes.",
                    "把第 kt 个 k 分块填进第 s 级：先 BarrierExpectBytes(&full[s], (BM + BN) * "
                    "128)，再 TmaLoad(a_s, &map_a, kt * 64, row0, &full[s])，B^T 同样在 col0 处。"
                    "超出矩阵的方块仍然计入它的全部字节。"},
                   {"The phase: stage s = kt % STAGES is filled for the (kt / STAGES)-th time, so "
                    "wait with BarrierWait(&full[s], (kt / STAGES) & 1); the parity flips each "
                    "time the phase completes.",
                    "相位：第 s = kt % STAGES 级是第 (kt / STAGES) 次被填充，所以用 "
                    "BarrierWait(&full[s], (kt / STAGES) & 1) 等待；每完成一个相位，奇偶就翻转一"
                    "次。"}},
         .fixed = {{"tile", "256t-128x256x64-s4"}},
         .instance = "constexpr int BM = 128, BN = 256, STAGES = 4, WARPGROUPS = 2;"},
        {.lesson = "tensor-cores/warp-specialization",
         .kernel = Hopper("tc_warp_specialized_kernel", kTmaSignature),
         .start = "lessons/08_tensor_cores/exercises/warp-specialization.cu",
         .task_en = "Split the roles. Warpgroup 0 is the producer: it gives back registers "
                    "(ProducerRegisters) and one of its threads issues the TMA copies of every "
                    "k-tile, waiting only until the stage it refills is free. Warpgroups 1 and 2 "
                    "are consumers: they take the registers (ConsumerRegisters), each computes "
                    "128 of the 256 rows, and every consumer warp says when it is done with a "
                    "stage. Two barriers per stage: full[s] (the bytes have landed) and empty[s] "
                    "(all eight consumer warps have read it). No __syncthreads after the start.",
         .task_zh = "把角色分开。warpgroup 0 是生产者：它交还寄存器（ProducerRegisters），由它的一"
                    "个线程为每个 k 分块发出 TMA 复制，只等到要重新填充的那一级空出来。warpgroup 1 "
                    "和 2 是消费者：它们拿走寄存器（ConsumerRegisters），各算 256 行中的 128 行，每"
                    "个消费者 warp 读完一级后都要告知。每一级两个屏障：full[s]（字节已到）和 "
                    "empty[s]（八个消费者 warp 都已读完）。开头之后不再有 __syncthreads。",
         .hints =
             {{"BarrierInit(&full[s], 1) and BarrierInit(&empty[s], 4 * CONSUMERS): one "
               "arrival per consumer warp; empty[] sits right after full[]. A consumer warp "
               "arrives once (if (threadIdx.x % 32 == 0) BarrierArrive(&empty[s])) after "
               "WgmmaWait<0>() has told it the wgmmas no longer read the stage.",
               "BarrierInit(&full[s], 1) 和 BarrierInit(&empty[s], 4 * CONSUMERS)：每个消费"
               "者 warp 一次到达；empty[] 紧跟在 full[] 之后。消费者 warp 在 WgmmaWait<0>() "
               "表明 wgmma 不再读这一级之后，到达一次（if (threadIdx.x % 32 == 0) "
               "BarrierArrive(&empty[s])）。"},
              {"The producer refills stage s with k-tile kt only once its previous k-tile, "
               "kt - STAGES, has been read: for kt >= STAGES, BarrierWait(&empty[s], ((kt / "
               "STAGES) & 1) ^ 1), the parity of that earlier phase.",
               "生产者只有在第 s 级上一次的 k 分块（kt - STAGES）被读完之后，才用第 kt 个 k "
               "分块重新填充它：kt >= STAGES 时 BarrierWait(&empty[s], ((kt / STAGES) & 1) "
               "^ 1)，即那个更早的相位的奇偶。"},
              {"setmaxnreg is executed by every warp of a warpgroup: call ProducerRegisters() "
               "in all of warpgroup 0 before testing threadIdx.x == 0, and ConsumerRegisters() "
               "at the top of the consumers' branch.",
               "setmaxnreg 要由 warpgroup 的每个 warp 执行：在判断 threadIdx.x == 0 之前，让"
               "整个 warpgroup 0 调用 ProducerRegisters()，并在消费者分支的开头调用 "
               "ConsumerRegisters()。"}},
         .fixed = {{"tile", "384t-256x128x64-s4-wg2"}},
         .instance = "constexpr int BM = 256, BN = 128, STAGES = 4, CONSUMERS = 2;"},
        {.lesson = "tensor-cores/persistent",
         .kernel = Hopper("tc_persistent_kernel", kTmaStoreSignature),
         .start = "lessons/08_tensor_cores/exercises/persistent.cu",
         .task_en = "Make the walk over the tiles cheaper. Order the tiles so that blocks running "
                    "together share A's and B's tiles in L2: bands of 16 rows of tiles, walked "
                    "column by column. Keep the tensor cores fed: wait for the previous k-tile's "
                    "wgmmas (WgmmaWait<1>) rather than this one's, and free its stage then. Store "
                    "C through shared memory: each consumer rounds its results to bf16 into two "
                    "64 x 64 swizzled boxes at a time, and one of its threads has TMA store them.",
         .task_zh = "让遍历分块的代价更低。调整分块的顺序，使同时运行的线程块在 L2 中共享 A 和 B "
                    "的分块：以 16 行分块为一带，逐列遍历。让 tensor core 一直有活干：等待的是上一"
                    "个 k 分块的 wgmma（WgmmaWait<1>）而不是这一个的，并在那时释放上一个的那一级。"
                    "C 经由共享内存写出：每个消费者每次把结果舍入为 bf16，写进两个 64 x 64 的交错"
                    "方块，再由它的一个线程让 TMA 把它们存出去。",
         .hints =
             {{"Tile order: with tiles_n columns of tiles, unit u lies in band u / (16 * "
               "tiles_n) (its first row of tiles: band * 16, at most 16 rows: r of them); "
               "inside the band, v = u % (16 * tiles_n) gives row first + v % r, column v / "
               "r. Producer and consumers must walk the same order.",
               "分块顺序：共有 tiles_n 列分块，第 u 个单元在第 u / (16 * tiles_n) 带（该带的"
               "第一行分块是 band * 16，至多 16 行，设为 r 行）；带内 v = u % (16 * tiles_n) "
               "给出行 first + v % r、列 v / r。生产者和消费者必须按同一顺序遍历。"},
              {"After WgmmaWait<1>() the previous k-tile's group is complete: release stage "
               "(it - 1) % STAGES if kt > 0. After a tile's last k-tile, WgmmaWait<0>() and "
               "release the last stage, before the epilogue.",
               "WgmmaWait<1>() 之后，上一个 k 分块的那一组已经完成：若 kt > 0，释放第 (it - 1) "
               "% STAGES 级。一个分块的最后一个 k 分块之后，先 WgmmaWait<0>() 并释放最后那一级，"
               "再做收尾。"},
              {"The epilogue: the staging area is at smem + STAGES * (BM + BN) * 128 + 1024, "
               "2 * 64 * 128 bytes per consumer. Thread t writes the pair of columns 8jj + "
               "2(t % 4) of row r at r * 128 + ((jj ^ (r % 8)) << 4) + 4 * (t % 4); then "
               "FenceProxyAsync(), NamedBarrier(1 + consumer, 128), TmaStore, "
               "TmaStoreCommit(); TmaStoreWaitRead() before the area is written again. Where "
               "n % 8 != 0, store the right edge's tiles with StoreAccumulators.",
               "收尾：暂存区在 smem + STAGES * (BM + BN) * 128 + 1024，每个消费者 2 * 64 * "
               "128 字节。线程 t 把第 r 行第 8jj + 2(t % 4) 列起的一对值写在 r * 128 + ((jj "
               "^ (r % 8)) << 4) + 4 * (t % 4)；然后 FenceProxyAsync()、NamedBarrier(1 + "
               "consumer, 128)、TmaStore、TmaStoreCommit()；再次写这块区域之前先 "
               "TmaStoreWaitRead()。n % 8 != 0 时，右边缘的分块用 StoreAccumulators 写出。"}},
         .fixed = {{"tile", "384t-128x256x64-s4-wg2-p"}},
         .instance = "constexpr int BM = 128, BN = 256, STAGES = 4, CONSUMERS = 2, CLUSTER = 1;"},
    };
}

}  // namespace lessons
