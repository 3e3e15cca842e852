// Every word of the interface that has a Chinese form, in one place. A panel draws
// Tr(ui, kRun); the font atlas takes its Chinese glyphs from kAllWords.
#pragma once

#include <string_view>

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

// Every word above: a new word goes in this list too (the font atlas needs its glyphs).
inline constexpr const Word* kAllWords[] = {
    &kRun,    &kRunChapter, &kSweepBlocks, &kSweepSizes, &kCancel,    &kAutoRun, &kBlock,
    &kColdL2, &kSteps,      &kBreakdown,   &kBlockSweep, &kSizeSweep, &kResults, &kLog,
    &kLive,   &kRecorded,   &kUnavailable, &kExport,     &kScale,     &kSource,  &kRate};

// The word in `language` ("zh": Chinese; anything else: English).
const char* Tr(std::string_view language, const Word& word);

}  // namespace lessons::app
