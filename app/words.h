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

// Every word above: a new word goes in this list too (the font atlas needs its glyphs).
inline constexpr const Word* kAllWords[] = {
    &kRun,    &kRunChapter, &kSweepBlocks, &kSweepSizes, &kCancel,    &kAutoRun, &kBlock,
    &kColdL2, &kSteps,      &kBreakdown,   &kBlockSweep, &kSizeSweep, &kResults, &kLog,
    &kLive,   &kRecorded,   &kUnavailable, &kExport,     &kScale,     &kSource,  &kRate};

// The word in `language` ("zh": Chinese; anything else: English).
const char* Tr(std::string_view language, const Word& word);

}  // namespace lessons::app
