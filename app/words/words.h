// Every word of the interface that has a Chinese form, in one place. A panel draws
// Tr(ui, kRun); the font atlas takes its Chinese glyphs from kAllWords.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace lessons {
struct ParamSpec;
struct Message;
}  // namespace lessons

namespace lessons::app {

struct Word {
    const char* en;
    const char* zh;
};

inline constexpr Word kRun{"Run", "运行"};
inline constexpr Word kRunChapter{"Run the whole chapter", "运行整章"};
inline constexpr Word kSweepBlocks{"Sweep block sizes", "扫描线程块大小"};
inline constexpr Word kSweepSizes{"Sweep data sizes", "扫描数据规模"};
inline constexpr Word kCancel{"Cancel", "取消"};
inline constexpr Word kAutoRun{"Auto-run", "自动运行"};
inline constexpr Word kBlock{"Block size", "线程块大小"};
inline constexpr Word kColdL2{"Cold L2", "冷 L2"};
inline constexpr Word kSteps{"Step comparison", "步骤对比"};
inline constexpr Word kBreakdown{"Time breakdown", "时间分解"};
inline constexpr Word kBlockSweep{"Block-size sweep", "线程块大小扫描"};
inline constexpr Word kSizeSweep{"Size sweep", "规模扫描"};
inline constexpr Word kParamSweep{"Sweep over a parameter", "按参数扫描"};
inline constexpr Word kSweepOver{"Sweep over", "扫描参数"};
inline constexpr Word kSweepButton{"Sweep", "扫描"};
inline constexpr Word kResults{"Results", "结果"};
inline constexpr Word kLog{"Log scale", "对数坐标"};
inline constexpr Word kLive{"live", "实时"};
inline constexpr Word kRecorded{"recorded", "已录制"};
inline constexpr Word kUnavailable{"unavailable", "不可用"};
inline constexpr Word kExport{"Export", "导出"};
inline constexpr Word kScale{"Scale", "缩放"};
inline constexpr Word kSource{"source", "来源"};
inline constexpr Word kRate{"rate (GB/s, GFLOP/s)", "速率 (GB/s, GFLOP/s)"};

// The data-size cap's tooltip (printf formats).
inline constexpr Word kCapLimit{"The largest value offered here is %s, limited by %s.",
                                "此处可选的最大值为 %s，受限于%s。"};
inline constexpr Word kCapHost{
    "Host: %s available (MemAvailable in /proc/meminfo), of which 90%% may be used; read %.0f s "
    "ago.",
    "主机：可用内存 %s（/proc/meminfo 的 MemAvailable），最多使用其中 90%%；%.0f 秒前读取。"};
inline constexpr Word kCapGpu{"GPU: %s free (cudaMemGetInfo in the worker); reported %.0f s ago.",
                              "GPU：空闲显存 %s（工作进程中的 cudaMemGetInfo）；%.0f 秒前报告。"};
inline constexpr Word kCapGpuUnknown{"GPU: free memory not known (no GPU worker).",
                                     "GPU：空闲显存未知（没有 GPU 工作进程）。"};
inline constexpr Word kCapRefresh{
    "Both are read again every 5 s and whenever a lesson's page is shown.",
    "两者每 5 秒以及每次显示课程页面时重新读取。"};

inline constexpr Word kHideAnswers{"Hide answers", "隐藏答案"};
inline constexpr Word kShowAnswer{"Show answer", "显示答案"};

// What limits the data-size slider (LogCap's `why`).
inline constexpr Word kWhySliderEnd{"64 GiB, the slider's end", "滑块上限 64 GiB"};
inline constexpr Word kWhyLargest{"the largest accepted", "可接受的最大值"};
inline constexpr Word kWhyGpu{"free GPU memory", "GPU 空闲显存"};
inline constexpr Word kWhyHost{"available host memory", "主机可用内存"};

// Status bar.
inline constexpr Word kRestartWorker{"Restart worker", "重启工作进程"};
inline constexpr Word kDismiss{"dismiss", "关闭"};
inline constexpr Word kGpuWaiting{"GPU: waiting for the worker", "GPU：等待工作进程"};
inline constexpr Word kNoGpu{"No GPU: %s - GPU lessons show recorded results",
                             "无 GPU：%s —— GPU 课程显示已录制的结果"};
inline constexpr Word kMeasured{"measured", "实测"};
inline constexpr Word kDatasheet{"datasheet", "标称"};
inline constexpr Word kReadWord{"read", "读"};
inline constexpr Word kCopyWord{"copy", "拷贝"};
inline constexpr Word kEmptyBlock{"empty block %s ns", "空线程块 %s ns"};
inline constexpr Word kMoreGpus{" (+%d more)", "（另有 %d 块）"};
inline constexpr Word kWorker{"worker: %s", "工作进程：%s"};
inline constexpr Word kRestarted{", restarted %dx", "，已重启 %d 次"};
inline constexpr Word kStateIdle{"idle", "空闲"};
inline constexpr Word kStateStopped{"stopped", "已停止"};
inline constexpr Word kStateCannotStart{"cannot start", "无法启动"};
inline constexpr Word kStateRefused{"refused", "已拒绝"};
inline constexpr Word kStateNotStarted{"not started", "未启动"};
inline constexpr Word kStateRunning{"running %s", "正在运行 %s"};

// Lesson page: subtitle and controls.
inline constexpr Word kRunsLive{"runs live here", "在本机实时运行"};
inline constexpr Word kRecordedNotLive{"recorded on %s, not live", "在 %s 上录制，非实时"};
inline constexpr Word kTheReferenceGpu{"the reference GPU", "参考 GPU"};
inline constexpr Word kCannotRun{"cannot run here", "无法在此运行"};
inline constexpr Word kChosenByLibrary{"%s: chosen by the library", "%s：由库决定"};
inline constexpr Word kThisMachine{"this machine: %llu", "本机：%llu"};
inline constexpr Word kMax{"max %s (%s)", "最大 %s（%s）"};
inline constexpr Word kLimitedTo{"Limited to %s: %s.", "限于 %s：%s。"};
inline constexpr Word kCannotRunHere{
    "This lesson cannot run here: %s. Its recorded results are shown.",
    "本课无法在此运行：%s。显示的是已录制的结果。"};
inline constexpr Word kAttributes{
    "%s at %s: %d registers/thread, %d B static shared memory, %d blocks/SM, occupancy %.0f%%%s",
    "%s（%s）：每线程 %d 个寄存器，%d B 静态共享内存，每个 SM %d 个线程块，占用率 %.0f%%%s"};
inline constexpr Word kRecordedSuffix{" (recorded)", "（已录制）"};
inline constexpr Word kReadingAttributes{"Reading the kernel's registers and occupancy at %s...",
                                         "正在读取内核在 %s 下的寄存器与占用率……"};
inline constexpr Word kNoAttributes{"No kernel resources recorded at %s.",
                                    "没有在 %s 下录制的内核资源数据。"};
inline constexpr Word kScreenshotButton{"PNG screenshot (F12)", "PNG 截图 (F12)"};

// Charts.
inline constexpr Word kAxisMs{"ms (median, confidence interval)", "ms（中位数，置信区间）"};
inline constexpr Word kAxisRate{"%s (median, at the interval's times)",
                                "%s（中位数，按置信区间的时间）"};
inline constexpr Word kFaster{"%.2f\xC3\x97 faster than lesson %s", "比第 %2$s 课快 %1$.2f 倍"};
inline constexpr Word kSlower{"%.2f\xC3\x97 slower than lesson %s", "比第 %2$s 课慢 %1$.2f 倍"};
inline constexpr Word kHatched{"Hatched: recorded on %s at %s, %s - not live.",
                               "斜线：在 %s 上以 %s 录制（%s），非实时。"};
inline constexpr Word kRecordedOn{"GPU lessons were recorded on %s at %s.",
                                  "GPU 课程是在 %s 上以 %s 录制的。"};
inline constexpr Word kCompareAt{"Compare at %s", "在 %s 下比较"};
inline constexpr Word kNoBreakdown{
    "No step of this chapter copies data between host and GPU, or none has run yet.",
    "本章没有在主机与 GPU 之间拷贝数据的步骤，或者这些步骤尚未运行。"};
inline constexpr Word kHostToDevice{"host to device", "主机到设备"};
inline constexpr Word kGpuToGpu{"GPU to GPU", "GPU 之间"};
inline constexpr Word kRecordedWithGpus{
    "Recorded with %d GPUs on %s, %s: %s ms, %.1f %s (%s) - not live.",
    "用 %d 块 GPU 在 %s 上录制（%s）：%s ms，%.1f %s（%s），非实时。"};
inline constexpr Word kKernel{"kernel", "内核"};
inline constexpr Word kDeviceToHost{"device to host", "设备到主机"};
inline constexpr Word kSweepBlocksHint{
    "Press \"Sweep block sizes\" (S) to measure this lesson and the previous one at every block "
    "size.",
    "按“扫描线程块大小”（S）测量本课和上一课在每种线程块大小下的表现。"};
inline constexpr Word kSweepSizesHint{
    "Press \"Sweep data sizes\" to measure the rate from 1 KiB up to the current size.",
    "按“扫描数据规模”测量从 1 KiB 到当前规模的速率。"};
inline constexpr Word kSweepParamHint{
    "Press \"Sweep\" to measure this lesson and the previous one at every value of %s.",
    "按“扫描”测量本课和上一课在“%s”每个取值下的表现。"};
// A sweep recorded on the reference GPU, shown where none ran here.
inline constexpr Word kSweepRecordedNote{
    "Recorded on %s on %s, not live (no sweep at these settings ran here): dashed lines, hollow "
    "points.",
    "于 %2$s 在 %1$s 上录制，非实时（此处没有在这些设置下运行过扫描）：虚线、空心点。"};
// The same under a bar chart (a sweep along a choice: a tile configuration, a toggle).
inline constexpr Word kSweepRecordedBarsNote{
    "Recorded on %s on %s, not live (no sweep at these settings ran here): hatched bars.",
    "于 %2$s 在 %1$s 上录制，非实时（此处没有在这些设置下运行过扫描）：带斜线的柱。"};
inline constexpr Word kRecordedSeries{"%s (recorded)", "%s（已录制）"};
inline constexpr Word kSweepNoneHere{
    "No sweep of this lesson along %s was recorded at %s, and it cannot run here: %s",
    "本课没有在 %2$s 下沿“%1$s”录制的扫描，且无法在此运行：%3$s"};
inline constexpr Word kThreadsPerBlock{"threads per block", "每块线程数"};
inline constexpr Word kKernelMs{"kernel ms (or whole run)", "内核 ms（或整次运行）"};
inline constexpr Word kDataSize{"data size", "数据规模"};
inline constexpr Word kLogLog{" (log-log)", "（双对数）"};
inline constexpr Word kWrongResult{"\xE2\x9C\x97 wrong", "\xE2\x9C\x97 错误"};
inline constexpr Word kNoDataYet{"no data yet", "尚无数据"};
inline constexpr Word kBest{"best", "最佳"};
inline constexpr Word kLessonN{"lesson %s", "第 %s 课"};

// A result's tooltip.
inline constexpr Word kMedianLine{"median %s ms (min %s, max %s, %d runs)",
                                  "中位数 %s ms（最小 %s，最大 %s，%d 次）"};
inline constexpr Word kPctOf{"%s%% of %s", "%2$s的 %1$s%%"};
inline constexpr Word kCeilRead{"the read-bandwidth ceiling", "读带宽上限"};
inline constexpr Word kCeilCopy{"the copy-bandwidth ceiling", "拷贝带宽上限"};
inline constexpr Word kCeilFp32{"the fp32 peak", "fp32 峰值"};
inline constexpr Word kCeilTf32{"cuBLAS's TF32 GEMM rate", "cuBLAS 的 TF32 GEMM 速率"};
inline constexpr Word kCeilBf16{"cuBLAS's bf16 GEMM rate", "cuBLAS 的 bf16 GEMM 速率"};
inline constexpr Word kNoBf16Ceiling{
    "No bf16 ceiling on this GPU or build: the share is of the fp32 peak.",
    "此 GPU 或此构建没有 bf16 上限：百分比相对于 fp32 峰值。"};
inline constexpr Word kNoTf32Ceiling{
    "No TF32 ceiling on this GPU or build: the share is of the fp32 peak.",
    "此 GPU 或此构建没有 TF32 上限：百分比相对于 fp32 峰值。"};
// The roofline's TF32 roof when recorded results carry no TF32 ceiling, only TF32 runs.
inline constexpr Word kRoofTf32Rates{"TF32 cuBLAS >= %.0f GFLOP/s (its fastest recorded run)",
                                     "TF32 cuBLAS >= %.0f GFLOP/s（记录中最快的一次运行）"};
inline constexpr Word kCeilH2D{"the host-to-device (PCIe) ceiling", "主机到设备（PCIe）上限"};
inline constexpr Word kCeilPeer{"the GPU-to-GPU (peer) ceiling", "GPU 间（peer）上限"};
inline constexpr Word kVerified{"verified", "已校验"};
inline constexpr Word kWrongWith{"WRONG: %s", "错误：%s"};
inline constexpr Word kRecordedOnDate{"recorded on %s, %s - not live",
                                      "于 %2$s 在 %1$s 上录制，非实时"};
inline constexpr Word kRecordedAtOnly{"lesson %s: recorded at %s only", "第 %s 课：仅在 %s 下录制"};
inline constexpr Word kNotMeasuredYet{"lesson %s: not measured at %s yet",
                                      "第 %s 课：尚未在 %s 下测量"};
inline constexpr Word kBreakdownTip{"H2D %s ms\nkernel %s ms\nD2H %s ms",
                                    "H2D %s ms\n内核 %s ms\nD2H %s ms"};

// Work in progress.
inline constexpr Word kBlockSweepOf{"block sweep of lesson %s", "第 %s 课的线程块大小扫描"};
inline constexpr Word kSizeSweepOf{"size sweep of lesson %s", "第 %s 课的规模扫描"};
inline constexpr Word kParamSweepOf{"sweep of lesson %s over %s", "第 %s 课按“%s”扫描"};
inline constexpr Word kChapterProgress{"chapter: %s (%d of %d)", "整章：%s（第 %d 个，共 %d 个）"};
inline constexpr Word kLinesDiffer{"%d lines differ from lesson %s (highlighted)",
                                   "%d 行与第 %s 课不同（已高亮）"};

// Predict, then measure (model/prediction.cpp, panels/predict_panel.cpp).
inline constexpr Word kPredictHeader{"Predict, then measure", "先预测，再测量"};
inline constexpr Word kPredWork{"Work at these settings: %s read, %s written",
                                "当前设置下的工作量：读 %s，写 %s"};
inline constexpr Word kPredFlops{", %s flops", "，%s 次浮点运算"};
inline constexpr Word kPredPcie{"; over PCIe %s in, %s out", "；经 PCIe 传入 %s，传出 %s"};
inline constexpr Word kPredCeilMeasured{
    "Ceilings measured on %s by the worker: read %s GB/s, copy %s GB/s, H2D %s GB/s, D2H %s GB/s",
    "工作进程在 %s 上实测的上限：读 %s GB/s，拷贝 %s GB/s，H2D %s GB/s，D2H %s GB/s"};
inline constexpr Word kPredCeilRecorded{
    "No GPU here: the ceilings recorded on %s on %s: read %s GB/s, copy %s GB/s, H2D %s GB/s, "
    "fp32 %s GFLOP/s",
    "本机没有 GPU：在 %s 上录制的上限（%s）：读 %s GB/s，拷贝 %s GB/s，H2D %s GB/s，"
    "fp32 %s GFLOP/s"};
// ... where one of them was not recorded: said once, after the figures.
inline constexpr Word kPredCeilRecordedUnknown{" (? where none was recorded)",
                                               "（? 表示没有录制）"};
inline constexpr Word kPredNoCeilings{
    "No ceilings known yet: waiting for the worker's device list.",
    "尚不知道任何上限：正在等待工作进程的设备列表。"};
inline constexpr Word kPredKernel{"Lower bound: kernel %s ms (%s at %s %s)",
                                  "下界：内核 %1$s ms（以 %3$s %4$s 处理 %2$s）"};
inline constexpr Word kPredCopies{"; H2D %s ms, D2H %s ms; whole run %s ms (%s)",
                                  "；H2D %s ms，D2H %s ms；整次运行 %s ms（%s）"};
inline constexpr Word kPredInTurn{"copies and kernel in turn", "拷贝与内核依次进行"};
inline constexpr Word kPredOverlapped{"copy in overlapped with the kernel", "传入拷贝与内核重叠"};
inline constexpr Word kPredPcieUnknown{"; PCIe part not known", "；PCIe 部分未知"};
inline constexpr Word kPredLittle{
    "Bytes in flight (Little's law): %s B per thread x %s resident threads (%s) / %s ns = %s GB/s "
    "at most",
    "在途字节（利特尔法则）：每线程 %s B × %s 个驻留线程（%s）÷ %s ns = 至多 %s GB/s"};
inline constexpr Word kPredLatency{
    "Latency assumed: %.0f cycles at the %.0f MHz SM clock, the unloaded HBM3 latency "
    "(fp4-site.pages.dev/silicon/gpu-memory-hierarchy); under full load it is longer.",
    "假设的延迟：SM 时钟 %2$.0f MHz 下的 %1$.0f 个周期，即空载时的 HBM3 延迟"
    "（fp4-site.pages.dev/silicon/gpu-memory-hierarchy）；满载时更长。"};
inline constexpr Word kPredResidentFull{"full occupancy: %d SMs x %d threads",
                                        "满占用率：%d 个 SM × %d 个线程"};
inline constexpr Word kPredResidentKernel{"this kernel: %d SMs x %d blocks x %d threads",
                                          "本内核：%d 个 SM × %d 个线程块 × %d 个线程"};
inline constexpr Word kPredImplied{"The measured %s GB/s implies %s ns per load at that occupancy.",
                                   "实测的 %s GB/s 意味着在该占用率下每次加载约 %s ns。"};
inline constexpr Word kPredNoLittle{
    "Little's law needs the GPU's SM count and clock (no GPU here).",
    "利特尔法则需要 GPU 的 SM 数量和时钟（本机没有 GPU）。"};
inline constexpr Word kPredMeasuredKernel{"Measured: kernel %s ms, %s\xC3\x97 the bound",
                                          "实测：内核 %s ms，是下界的 %s 倍"};
inline constexpr Word kPredMeasuredTotal{"; whole run %s ms, %s\xC3\x97 the bound",
                                         "；整次运行 %s ms，是下界的 %s 倍"};
inline constexpr Word kPredMeasuredRun{"Measured: whole run %s ms, %s\xC3\x97 the bound",
                                       "实测：整次运行 %s ms，是下界的 %s 倍"};
inline constexpr Word kPredMeasuredRunOnly{
    "Measured: whole run %s ms (no PCIe ceiling here to compare it with)",
    "实测：整次运行 %s ms（这里没有 PCIe 上限可供比较）"};
inline constexpr Word kPredNotYet{"Measured: not yet at these settings.",
                                  "实测：当前设置下尚未运行。"};
inline constexpr Word kPredNoWork{"This chapter declares no work rule: nothing to predict from.",
                                  "本章没有声明工作量规则：无从预测。"};
inline constexpr Word kPredNoBf16{
    "No bf16 ceiling yet: it is measured (with cuBLAS) when a bf16 tensor-core step first runs, "
    "or by the roofline page's \"Measure the ceilings again\".",
    "还没有 bf16 上限：第一次运行 bf16 张量核心步骤时（用 cuBLAS）测得，也可以在屋顶线页面点"
    "“重新测量上限”。"};
inline constexpr Word kPredBf16Ceiling{
    "bf16 ceiling: %s GFLOP/s (cuBLAS's bf16 GEMM, the median of its runs: a library's rate, "
    "below the tensor cores' peak).",
    "bf16 上限：%s GFLOP/s（cuBLAS 的 bf16 GEMM "
    "多次运行的中位数：库的速率，低于张量核心的峰值）。"};
inline constexpr Word kPredNoTf32{
    "No TF32 ceiling yet: it is measured (with cuBLAS) when a tensor-core step first runs, or by "
    "the roofline page's \"Measure the ceilings again\".",
    "还没有 TF32 上限：第一次运行张量核心步骤时（用 cuBLAS）测得，也可以在屋顶线页面点"
    "“重新测量天花板”。"};
inline constexpr Word kPredTf32Rates{
    "TF32 ceiling: %s GFLOP/s, the fastest recorded cuBLAS TF32 run (recorded before results "
    "carried the measured TF32 ceiling).",
    "TF32 上限：%s GFLOP/s，取记录中最快的一次 cuBLAS TF32 运行（这些结果记录时还没有附带实测的 "
    "TF32 上限）。"};
inline constexpr Word kPredTf32Ceiling{
    "TF32 ceiling: %s GFLOP/s (cuBLAS's TF32 SGEMM, the fastest of its runs: a library's rate, "
    "below the tensor cores' peak).",
    "TF32 上限：%s GFLOP/s（cuBLAS 的 TF32 SGEMM "
    "多次运行中最快的一次：库的速率，低于张量核心的峰值）。"};
inline constexpr Word kPredCpu{"A CPU step: there is no GPU ceiling to predict it from.",
                               "CPU 步骤：没有可用来预测的 GPU 上限。"};

// The chapter summary (predict_panel.cpp).
inline constexpr Word kSummaryHeader{"Chapter summary", "本章小结"};
inline constexpr Word kSumLesson{"lesson", "课"};
inline constexpr Word kSumStep{"step", "步骤"};
inline constexpr Word kSumTime{"time ms", "时间 ms"};
inline constexpr Word kSumRate{"rate", "速率"};
inline constexpr Word kSumPct{"of ceiling", "占上限"};
inline constexpr Word kSumVsPrevious{"vs previous", "比上一步"};
inline constexpr Word kSumVsFirst{"vs first", "比第一步"};
inline constexpr Word kSumVsLesson{"vs %s", "比第 %s 课"};
inline constexpr Word kSumSeed{"seed author's figure", "原作者的数据"};
inline constexpr Word kSumOrigin{"origin", "来源"};
inline constexpr Word kSumNotRun{"not run at these settings", "当前设置下未运行"};
inline constexpr Word kSumNote{
    "Times are whole runs (copies included) at the page's settings; speed-ups compare them. "
    "Recorded rows are marked; the seed authors' figures are theirs, on their hardware and sizes.",
    "时间为当前页面设置下的整次运行（含拷贝），加速比据此计算。已录制的行有标记；"
    "原作者的数据是他们在自己的硬件和规模上测得的。"};
inline constexpr Word kSummaryButton{"Chapter summary...", "本章小结……"};

// Honest comparisons and progress (model/compare.cpp, panels/charts_panel.cpp).
inline constexpr Word kShortCeilRead{"read bandwidth", "读带宽"};
inline constexpr Word kShortCeilCopy{"copy bandwidth", "拷贝带宽"};
inline constexpr Word kShortCeilFp32{"the fp32 peak", "fp32 峰值"};
inline constexpr Word kShortCeilTf32{"cuBLAS's TF32 rate", "cuBLAS 的 TF32 速率"};
inline constexpr Word kShortCeilBf16{"cuBLAS's bf16 rate", "cuBLAS 的 bf16 速率"};
inline constexpr Word kShortCeilH2D{"PCIe host-to-device", "PCIe 主机到设备带宽"};
inline constexpr Word kShortCeilPeer{"GPU-to-GPU bandwidth", "GPU 间带宽"};
inline constexpr Word kKernelOnly{" (kernel only)", "（仅内核）"};
inline constexpr Word kWholeRun{" (whole run)", "（整次运行）"};
inline constexpr Word kWithinNoise{"within noise of lesson %s", "与第 %s 课的差别在噪声之内"};
inline constexpr Word kNoiseCell{"within noise", "噪声之内"};
inline constexpr Word kNoiseExplained{
    "The confidence intervals of the two medians overlap: this measurement cannot tell them apart. "
    "More repetitions narrow the intervals.",
    "两次运行中位数的置信区间重叠：这次测量分不出二者的快慢。重复次数越多，区间越窄。"};
inline constexpr Word kRerunMoreReps{"Re-run both at more repetitions",
                                     "以更多重复次数重新运行两者"};
inline constexpr Word kLiveVsRecorded{" (live vs recorded on %s)", "（实时结果对比 %s 上的录制）"};
inline constexpr Word kTimeLeftSeconds{"about %d s left", "约剩 %d 秒"};
inline constexpr Word kTimeLeftMinutes{"about %d min %02d s left", "约剩 %d 分 %02d 秒"};
inline constexpr Word kExperiments{
    "The lessons of this chapter are independent experiments: each is drawn on its own axis, "
    "its variants side by side, with no speed-up from one lesson to the next.",
    "本章各课是相互独立的实验：每个实验有自己的坐标轴，并排比较其各个变体，课与课之间不计算加速比"
    "。"};
inline constexpr Word kExperimentNoResult{"no result at these settings", "当前设置下没有结果"};
inline constexpr Word kLogAuto{"(automatic: values span more than 20\xC3\x97)",
                               "（自动：数值跨度超过 20 倍）"};

// Every word above: a new word goes in this list too (the font atlas needs its glyphs).
inline constexpr const Word* kAllWords[] = {&kRun,
                                            &kShortCeilRead,
                                            &kShortCeilCopy,
                                            &kShortCeilFp32,
                                            &kShortCeilTf32,
                                            &kShortCeilBf16,
                                            &kShortCeilH2D,
                                            &kShortCeilPeer,
                                            &kKernelOnly,
                                            &kWholeRun,
                                            &kWithinNoise,
                                            &kNoiseCell,
                                            &kNoiseExplained,
                                            &kRerunMoreReps,
                                            &kLiveVsRecorded,
                                            &kTimeLeftSeconds,
                                            &kTimeLeftMinutes,
                                            &kExperiments,
                                            &kExperimentNoResult,
                                            &kLogAuto,
                                            &kRunChapter,
                                            &kSweepBlocks,
                                            &kSweepSizes,
                                            &kParamSweepOf,
                                            &kParamSweep,
                                            &kSweepOver,
                                            &kSweepButton,
                                            &kSweepParamHint,
                                            &kSweepRecordedNote,
                                            &kSweepRecordedBarsNote,
                                            &kRecordedSeries,
                                            &kSweepNoneHere,
                                            &kCancel,
                                            &kAutoRun,
                                            &kBlock,
                                            &kColdL2,
                                            &kSteps,
                                            &kBreakdown,
                                            &kBlockSweep,
                                            &kSizeSweep,
                                            &kResults,
                                            &kLog,
                                            &kLive,
                                            &kRecorded,
                                            &kUnavailable,
                                            &kExport,
                                            &kScale,
                                            &kSource,
                                            &kRate,
                                            &kCapLimit,
                                            &kCapHost,
                                            &kCapGpu,
                                            &kCapGpuUnknown,
                                            &kCapRefresh,
                                            &kHideAnswers,
                                            &kShowAnswer,
                                            &kWhySliderEnd,
                                            &kWhyLargest,
                                            &kWhyGpu,
                                            &kWhyHost,
                                            &kRestartWorker,
                                            &kDismiss,
                                            &kGpuWaiting,
                                            &kNoGpu,
                                            &kMeasured,
                                            &kDatasheet,
                                            &kReadWord,
                                            &kCopyWord,
                                            &kEmptyBlock,
                                            &kMoreGpus,
                                            &kWorker,
                                            &kRestarted,
                                            &kStateIdle,
                                            &kStateStopped,
                                            &kStateCannotStart,
                                            &kStateRefused,
                                            &kStateNotStarted,
                                            &kStateRunning,
                                            &kRunsLive,
                                            &kRecordedNotLive,
                                            &kTheReferenceGpu,
                                            &kCannotRun,
                                            &kChosenByLibrary,
                                            &kThisMachine,
                                            &kMax,
                                            &kLimitedTo,
                                            &kCannotRunHere,
                                            &kAttributes,
                                            &kRecordedSuffix,
                                            &kReadingAttributes,
                                            &kNoAttributes,
                                            &kScreenshotButton,
                                            &kAxisMs,
                                            &kAxisRate,
                                            &kFaster,
                                            &kSlower,
                                            &kHatched,
                                            &kRecordedOn,
                                            &kCompareAt,
                                            &kNoBreakdown,
                                            &kHostToDevice,
                                            &kGpuToGpu,
                                            &kRecordedWithGpus,
                                            &kKernel,
                                            &kDeviceToHost,
                                            &kSweepBlocksHint,
                                            &kSweepSizesHint,
                                            &kThreadsPerBlock,
                                            &kKernelMs,
                                            &kDataSize,
                                            &kLogLog,
                                            &kWrongResult,
                                            &kNoDataYet,
                                            &kBest,
                                            &kLessonN,
                                            &kMedianLine,
                                            &kPctOf,
                                            &kCeilRead,
                                            &kCeilCopy,
                                            &kCeilFp32,
                                            &kCeilTf32,
                                            &kRoofTf32Rates,
                                            &kNoTf32Ceiling,
                                            &kCeilBf16,
                                            &kNoBf16Ceiling,
                                            &kCeilH2D,
                                            &kCeilPeer,
                                            &kVerified,
                                            &kWrongWith,
                                            &kRecordedOnDate,
                                            &kRecordedAtOnly,
                                            &kNotMeasuredYet,
                                            &kBreakdownTip,
                                            &kBlockSweepOf,
                                            &kSizeSweepOf,
                                            &kChapterProgress,
                                            &kLinesDiffer,
                                            &kPredictHeader,
                                            &kPredWork,
                                            &kPredFlops,
                                            &kPredPcie,
                                            &kPredCeilMeasured,
                                            &kPredCeilRecorded,
                                            &kPredCeilRecordedUnknown,
                                            &kPredNoCeilings,
                                            &kPredKernel,
                                            &kPredCopies,
                                            &kPredInTurn,
                                            &kPredOverlapped,
                                            &kPredPcieUnknown,
                                            &kPredLittle,
                                            &kPredLatency,
                                            &kPredResidentFull,
                                            &kPredResidentKernel,
                                            &kPredImplied,
                                            &kPredNoLittle,
                                            &kPredMeasuredKernel,
                                            &kPredMeasuredTotal,
                                            &kPredMeasuredRun,
                                            &kPredMeasuredRunOnly,
                                            &kPredNotYet,
                                            &kPredCpu,
                                            &kPredNoWork,
                                            &kPredNoTf32,
                                            &kPredTf32Rates,
                                            &kPredTf32Ceiling,
                                            &kPredNoBf16,
                                            &kPredBf16Ceiling,
                                            &kSummaryHeader,
                                            &kSumLesson,
                                            &kSumStep,
                                            &kSumTime,
                                            &kSumRate,
                                            &kSumPct,
                                            &kSumVsPrevious,
                                            &kSumVsFirst,
                                            &kSumVsLesson,
                                            &kSumSeed,
                                            &kSumOrigin,
                                            &kSumNotRun,
                                            &kSumNote,
                                            &kSummaryButton};

// printf into a string: a Word's format (Tr) and its arguments.
template <typename... Args>
std::string Fmt(const char* format, Args... args) {
    const int n = std::snprintf(nullptr, 0, format, args...);
    if (n <= 0) return std::string();
    std::string out(static_cast<size_t>(n), '\0');
    std::snprintf(out.data(), out.size() + 1, format, args...);
    return out;
}

// The word in `language` ("zh": Chinese; anything else: English).
const char* Tr(std::string_view language, const Word& word);

// Text that does not come from a Word (a choice's name, a reason from the engine, a notice of
// the controller) in `language`, looked up by its English: an exact entry of the phrase table
// in words.cpp or of kAllWords, or a message of one of their forms ("exit code %s"). In
// Chinese, English that has no entry is recorded as a miss and shown as it is: tests walk every
// screen in Chinese and fail on any miss (README, "Both languages").
std::string Say(std::string_view language, const std::string& english);
// A message from the engine or a chapter (its id, arguments and English): rendered from its
// form by id, never by matching its English. One without a form (an older worker's, free text,
// or this program's own Message::Plain) is looked up as Say does.
std::string Say(std::string_view language, const Message& message);
// A choice of parameter `spec` by name: as it is when the parameter shows its choices verbatim
// (a tile configuration's shape reads the same in both languages); else the Chinese label its
// chapter declared with it (ParamSpec::choice_labels_zh), else the name as it is.
std::string SayChoice(std::string_view language, const ParamSpec& spec, const std::string& choice);
// The English texts looked up in Chinese without an entry since the last clear.
std::vector<std::string> TranslationMisses();
void ClearTranslationMisses();
// Records a miss found elsewhere (a parameter's label or a title without its Chinese).
void RecordTranslationMiss(const std::string& english);
// The phrase table's Chinese, for the font atlas.
std::vector<std::string_view> PhrasesZh();

}  // namespace lessons::app
