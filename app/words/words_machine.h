// The words of the machine-code tabs, the ncu line and the roofline (page and insets): one
// block of their own beside words.h, listed in kMachineWords for the font atlas.
#pragma once

#include "words/words.h"

namespace lessons::app {

// Code view: tabs, machine code, ncu.
inline constexpr Word kTabSource{"Source", "源代码"};
inline constexpr Word kAllKernels{"all kernels (%d)", "全部内核（%d 个）"};
inline constexpr Word kKernelWord{"kernel", "内核"};
inline constexpr Word kPtxOf{"%s PTX of %s, compiled with nvcc -ptx at build time.",
                             "%2$s 的 %1$s PTX，构建时由 nvcc -ptx 生成。"};
inline constexpr Word kSassOf{
    "%s SASS of %s, disassembled with cuobjdump at build time (only this architecture is "
    "extracted, whatever else the build compiled for).",
    "%2$s 的 %1$s SASS，构建时由 cuobjdump 反汇编（无论构建还编译了哪些架构，只提取这一种）。"};
inline constexpr Word kSassRecordedOf{
    "%s SASS of %s, disassembled with cuobjdump on a GPU machine (%s) from a build of the same "
    "sources by the same compiler as this build's (same SHA-256 of both), and embedded at build "
    "time: this build's CUDA toolkit has no cuobjdump.",
    "%2$s 的 %1$s SASS：在 GPU 机器上用 cuobjdump 反汇编（%3$s），所依据的构建与本次构建的源文件"
    "和编译器完全相同（两者的 SHA-256 一致），构建时嵌入；本次构建的 CUDA 工具包没有 cuobjdump。"};
inline constexpr Word kSassStale{
    "No SASS: the recorded SASS of this file (%s) was made from other sources than this build's, "
    "so "
    "it is not this build's machine code. scripts/record-sass.sh on a GPU machine records it "
    "again.",
    "没有 SASS：此文件已记录的 SASS（%s）来自与本次构建不同的源文件，不是本次构建的机器码。在 GPU "
    "机器上运行 scripts/record-sass.sh 可重新记录。"};
inline constexpr Word kNoMachineCode{"No machine code: %s.", "没有机器码：%s。"};
inline constexpr Word kNoCudaBuild{
    "No machine code: this build had no CUDA compiler, so no GPU code was compiled.",
    "没有机器码：本次构建没有 CUDA 编译器，没有编译任何 GPU 代码。"};
inline constexpr Word kNoCuobjdump{
    "No SASS in this build: its CUDA toolkit has no cuobjdump (the PTX tab works). A build with "
    "the full toolkit, such as the GPU machine's, embeds sm_90 SASS.",
    "本次构建没有 SASS：所用的 CUDA 工具包里没有 cuobjdump（PTX "
    "标签页可用）。用完整工具包构建（例如 "
    "GPU 机器上的），就会嵌入 sm_90 的 SASS。"};
inline constexpr Word kCpuNoMachineCode{"A CPU step: it has no GPU machine code.",
                                        "CPU 步骤：没有 GPU 机器码。"};
inline constexpr Word kLibraryNoMachineCode{
    "A library step (CUB, Thrust, cuBLAS, the driver's copies): the library chooses its kernels; "
    "their machine code is not extracted.",
    "库调用步骤（CUB、Thrust、cuBLAS、驱动的拷贝）：内核由库选择，不提取其机器码。"};
inline constexpr Word kReusesKernel{"This step launches lesson %s's kernel: its machine code.",
                                    "本步骤启动的是第 %s 课的内核：下面是它的机器码。"};
inline constexpr Word kHighlighted{"Highlighted: what this lesson is about.",
                                   "高亮：本课关注的指令。"};
inline constexpr Word kInstructionCounts{"Instructions by class (static count in the listing):",
                                         "按类别统计的指令（清单中的静态条数）："};
inline constexpr Word kNcuLine{"Profile this step with ncu:", "用 ncu 剖析这一步："};
inline constexpr Word kCopy{"Copy", "复制"};
inline constexpr Word kCopied{"copied", "已复制"};

// Roofline: page, inset, hover.
inline constexpr Word kRoofline{"Roofline", "屋顶线"};
inline constexpr Word kRooflineOf{"Roofline of %s", "%s 的屋顶线"};
inline constexpr Word kIntensityAxis{"arithmetic intensity (flop/byte)", "算术强度（flop/字节）"};
inline constexpr Word kGflopsAxis{"GFLOP/s", "GFLOP/s"};
inline constexpr Word kRoofRead{"read bandwidth %.0f GB/s", "读带宽 %.0f GB/s"};
inline constexpr Word kRoofCopy{"copy bandwidth %.0f GB/s", "拷贝带宽 %.0f GB/s"};
inline constexpr Word kRoofFp32{"fp32 peak %.0f GFLOP/s", "fp32 峰值 %.0f GFLOP/s"};
inline constexpr Word kRoofTf32{"TF32 cuBLAS %.0f GFLOP/s", "TF32 cuBLAS %.0f GFLOP/s"};
inline constexpr Word kRoofBf16{"bf16 cuBLAS %.0f GFLOP/s (median)",
                                "bf16 cuBLAS %.0f GFLOP/s（中位数）"};
inline constexpr Word kRidge{"ridge %.1f flop/B", "脊点 %.1f flop/B"};
inline constexpr Word kPointTip{
    "lesson %s: %s\n%s\nintensity %.3g flop/B\nattained %s GFLOP/s (%s GB/s)\n%.1f%% of the roof "
    "at this intensity (%s GFLOP/s)",
    "第 %s 课：%s\n%s\n算术强度 %.3g flop/B\n实际 %s GFLOP/s（%s GB/s）\n达到该强度下屋顶的 "
    "%.1f%%（%s GFLOP/s）"};
inline constexpr Word kLivePoint{"measured now", "本次实测"};
inline constexpr Word kRecordedPoint{"recorded on %s, %s", "于 %2$s 在 %1$s 上录制"};
inline constexpr Word kMeasuredCeilings{"Ceilings measured on %s by the worker.",
                                        "天花板由工作进程在 %s 上实测。"};
inline constexpr Word kRecordedCeilings{
    "No GPU here: the ceilings and points below were recorded on %s (recorded, not live).",
    "本机没有 GPU：下面的天花板和数据点是在 %s 上录制的（已录制，非实时）。"};
inline constexpr Word kNoCeilings{
    "No ceilings yet: no GPU worker and none recorded. Points are drawn once there are some.",
    "尚无天花板数据：没有 GPU 工作进程，也没有录制的数据。有数据后才会画出数据点。"};
inline constexpr Word kMeasureCeilings{"Measure the ceilings again", "重新测量天花板"};
inline constexpr Word kRunBenchmark{"Run this chapter's benchmark", "运行该章的基准测试"};
inline constexpr Word kNoArithmetic{
    "%d results have no arithmetic to place (flops 0, or recorded before flops were counted: %s): "
    "a log axis has no place for intensity 0. Their rate against bandwidth is on their own pages.",
    "%d 个结果没有可放置的算术运算（flops 为 0，或录制时尚未统计 flops：%s）：对数坐标上放不下强度 "
    "0。它们相对带宽的速率见各自的课程页。"};
inline constexpr Word kInsetNote{
    "This step (blue) and the previous one (green) under this GPU's roof.",
    "本步骤（蓝）和上一步（绿）在这块 GPU 的屋顶线下的位置。"};
inline constexpr Word kInsetNoteAlone{
    "This step (blue) under this GPU's roof (the previous step has no point on it).",
    "本步骤（蓝）在这块 GPU 的屋顶线下的位置（上一步在图上没有数据点）。"};
inline constexpr Word kInsetNoteFirst{"This step (blue) under this GPU's roof.",
                                      "本步骤（蓝）在这块 GPU 的屋顶线下的位置。"};
// After kInsetNote, with the label of the lesson whose page draws the whole roofline.
inline constexpr Word kInsetFullChart{" The full chart is lesson %s.", "完整的图见第 %s 课。"};
inline constexpr Word kInsetNone{"No point yet: run this lesson (R) to place it on the roofline.",
                                 "尚无数据点：运行本课（R）即可把它放到屋顶线上。"};
inline constexpr Word kInsetNoFlops{
    "No roofline point: this step's results count no flops (or were recorded before flops were "
    "counted). Its GB/s against the bandwidth is in the results.",
    "没有屋顶线数据点：本步骤的结果不含 flops（或录制时尚未统计 flops）。它相对带宽的 GB/s "
    "见结果表。"};
inline constexpr Word kRecordedMark{"(recorded)", "（已录制）"};
inline constexpr Word kPointsCount{"%d points: %d measured now, %d recorded (hollow).",
                                   "%d 个数据点：本次实测 %d 个，已录制 %d 个（空心）。"};

// The roofline page's sweep of its intensity parameter (FMAs per element), traced on the chart.
inline constexpr Word kSweepRoof{"Sweep %s", "扫描%s"};
inline constexpr Word kRoofTraceWhy{"%s The button shows the sweep recorded on %s on %s instead.",
                                    "%s 该按钮改为显示于 %3$s 在 %2$s 上录制的扫描。"};
inline constexpr Word kRoofTraceNote{
    "The line traces the sweep of %s: %d points from %.3g to %.4g flop/B, %s.",
    "连线为“%s”的扫描：%d 个点，算术强度从 %.3g 到 %.4g flop/B，%s。"};
inline constexpr Word kRoofTraceRecorded{"recorded on %s on %s (dashed, not live)",
                                         "于 %2$s 在 %1$s 上录制（虚线，非实时）"};

inline constexpr const Word* kMachineWords[] = {&kTabSource,
                                                &kAllKernels,
                                                &kKernelWord,
                                                &kPtxOf,
                                                &kSassOf,
                                                &kSassRecordedOf,
                                                &kSassStale,
                                                &kNoMachineCode,
                                                &kNoCuobjdump,
                                                &kCpuNoMachineCode,
                                                &kLibraryNoMachineCode,
                                                &kReusesKernel,
                                                &kHighlighted,
                                                &kInstructionCounts,
                                                &kNcuLine,
                                                &kCopy,
                                                &kCopied,
                                                &kRoofline,
                                                &kRooflineOf,
                                                &kIntensityAxis,
                                                &kGflopsAxis,
                                                &kRoofRead,
                                                &kRoofCopy,
                                                &kRoofFp32,
                                                &kRoofTf32,
                                                &kRoofBf16,
                                                &kRidge,
                                                &kPointTip,
                                                &kLivePoint,
                                                &kRecordedPoint,
                                                &kMeasuredCeilings,
                                                &kRecordedCeilings,
                                                &kNoCeilings,
                                                &kMeasureCeilings,
                                                &kRunBenchmark,
                                                &kNoArithmetic,
                                                &kInsetNote,
                                                &kInsetNoteAlone,
                                                &kInsetNoteFirst,
                                                &kInsetFullChart,
                                                &kInsetNone,
                                                &kRecordedMark,
                                                &kPointsCount,
                                                &kSweepRoof,
                                                &kRoofTraceWhy,
                                                &kRoofTraceNote,
                                                &kRoofTraceRecorded};

}  // namespace lessons::app
