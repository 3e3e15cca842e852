// The words of the student's path: the first-run page, the lesson list's filter and progress
// marks, and why a control cannot act here. One block of their own beside words.h, listed in
// kStudentWords for the font atlas and the words tests.
#pragma once

#include "words/words.h"

namespace lessons::app {

// The first-run page (F1 or ?).
inline constexpr Word kWelcomeTitle{"Welcome to CUDA Lessons", "欢迎使用 CUDA 课程"};
inline constexpr Word kWelcomeIntro{
    "Each lesson is one optimisation step on one problem, backed by a real kernel that is "
    "checked against a CPU reference and timed against the previous lesson. Read the text, "
    "look at what changed in the code, predict, then measure.",
    "每一课是某个问题上的一步优化，背后是一个真实的内核：先与 CPU 参考结果核对，"
    "再与上一课比较耗时。读课文，看代码改了什么，先预测，再测量。"};
inline constexpr Word kWelcomePanesHeading{"The page", "页面"};
inline constexpr Word kWelcomePanes{
    "Left: the lessons by chapter, with a filter box and each chapter's progress. Middle: the "
    "lesson's text above its code (source with the lines changed from the previous lesson "
    "highlighted, PTX, SASS). Right: the controls, the prediction, the chart of every step of "
    "the chapter, the time breakdown, the sweeps and the table of results. Drag the lines "
    "between the panes to resize them.",
    "左侧：按章排列的课程，带筛选框和每章的进度。中间：课文在上，代码在下（源代码中与上一课"
    "不同的行会高亮，另有 PTX 和 SASS）。右侧：控件、预测、本章各步骤的对比图、时间分解、"
    "扫描和结果表。拖动窗格之间的分隔线可调整大小。"};
inline constexpr Word kWelcomeMarksHeading{"The marks in the lesson list", "课程列表中的标记"};
inline constexpr Word kWelcomeLive{"runs live on this machine", "在本机实时运行"};
inline constexpr Word kWelcomeRecorded{
    "shows results recorded on the reference GPU (hatched bars, labelled recorded)",
    "显示在参考 GPU 上录制的结果（带斜线的柱，标注为已录制）"};
inline constexpr Word kWelcomeUnavailable{"cannot run here (hover it for the reason)",
                                          "无法在此运行（鼠标悬停可看原因）"};
inline constexpr Word kWelcomeProgress{
    "The three squares at the right of a lesson fill in as you open it, run it here and mark "
    "its questions answered; the bar under a chapter's title adds them up. A check mark follows "
    "when your kernel for its exercise passed Check my kernel (bright once it also met the speed "
    "target), and a small diamond when you made a prediction (hollow where you skipped it). "
    "Export progress writes them for your teacher; nothing leaves this machine.",
    "课程右侧的三个小方块依次表示：已打开、已在本机运行、已标记回答问题；"
    "章标题下的进度条是它们的合计。你为练习写的 kernel 通过“检查我的 kernel”后会出现对勾"
    "（同时达到速度目标时为亮色）；做过预测会出现小菱形（跳过时为空心）。"
    "“导出进度”把它们写成文件交给老师；任何数据都不会离开这台机器。"};
inline constexpr Word kWelcomeKeysHeading{"Keys", "快捷键"};
inline constexpr Word kKeyPrevNext{"previous / next lesson", "上一课 / 下一课"};
inline constexpr Word kKeyRun{"run this lesson and the previous one", "运行本课和上一课"};
inline constexpr Word kKeySweep{"sweep block sizes of both", "扫描两课的线程块大小"};
inline constexpr Word kKeyChapter{"run the whole chapter at the page's settings",
                                  "按当前页面设置运行整章"};
inline constexpr Word kKeyCancel{"cancel (here: close this page)", "取消（在此页：关闭本页）"};
inline constexpr Word kKeyScale{"larger / smaller (presenter scale)", "放大 / 缩小（演示缩放）"};
inline constexpr Word kKeyShot{"PNG screenshot into ~/cuda-lessons-exports/",
                               "PNG 截图，保存到 ~/cuda-lessons-exports/"};
inline constexpr Word kKeyHelp{"this page", "本页"};
inline constexpr Word kKeyPresenter{
    "presenter mode: the lesson list and code hidden, the text one section at a time "
    "(\xE2\x86\x91 / \xE2\x86\x93, Page Up / Page Down) beside a large chart",
    "演示模式：隐藏课程列表和代码，课文一次显示一节（\xE2\x86\x91 / \xE2\x86\x93、"
    "Page Up / Page Down），旁边是放大的图表"};

// Presenter mode (F5).
inline constexpr Word kPresenterToggle{"Presenter (F5)", "演示模式 (F5)"};
inline constexpr Word kSectionOf{"Section %d of %d", "第 %d 节，共 %d 节"};
inline constexpr Word kPreviousSection{"\xE2\x86\x91 Previous section", "\xE2\x86\x91 上一节"};
inline constexpr Word kNextSection{"Next section \xE2\x86\x93", "下一节 \xE2\x86\x93"};
// What presenter mode's left pane shows (PresenterView).
inline constexpr Word kViewText{"Text", "课文"};
inline constexpr Word kViewChanged{"Changed code", "改动的代码"};
inline constexpr Word kViewSass{"SASS", "SASS 机器码"};
inline constexpr Word kChangedAgainst{"%d lines differ from lesson %s (green); the rest folded",
                                      "有 %d 行与第 %s 课不同（绿色）；其余已折叠"};
// A step that rewrites most of its file: its changed-code view opens at its kernel.
inline constexpr Word kRewrittenFrom{
    "%d of its %d lines differ from lesson %s (green): shown from its kernel, line %d (scroll up "
    "for the helpers above it)",
    "%2$d 行中有 %1$d 行与第 %3$s 课不同（绿色）：从内核所在的第 %4$d "
    "行显示（向上滚动可见其上的辅助函数）"};
inline constexpr Word kWholeSource{"The first step of its chapter: its whole source",
                                   "本章第一步：完整源代码"};
inline constexpr Word kLinesFolded{"\xE2\x8B\xAF %d lines", "\xE2\x8B\xAF %d 行"};
inline constexpr Word kNoText{"This lesson has no text.", "本课没有课文。"};

// Predict, then measure: the student's guess, and "Hide answers" hiding the measured figures.
inline constexpr Word kYourGuess{"Your guess", "你的猜测"};
inline constexpr Word kGuessHint{
    "Guess before you run: the time in ms, or the speed-up over the previous lesson.",
    "运行前先猜：耗时（毫秒），或相对上一课的加速倍数。"};
inline constexpr Word kGuessSpeedup{"\xC3\x97 faster than lesson %s", "比第 %s 课快的倍数"};
inline constexpr Word kGuessClear{"Clear", "清除"};
inline constexpr Word kGuessBad{"A guess is a number above 0: %s is not kept.",
                                "猜测值必须是大于 0 的数：%s 未保存。"};
inline constexpr Word kBoundColumn{"The model's bound", "模型给出的下限"};
inline constexpr Word kMeasuredColumn{"Measured", "测量值"};
inline constexpr Word kGuessTimeRow{"time, ms", "耗时（毫秒）"};
inline constexpr Word kGuessSpeedupRow{"speed-up over lesson %s", "相对第 %s 课的加速"};
inline constexpr Word kNoModel{"no model", "无模型"};
inline constexpr Word kNoModelWhy{
    "The model bounds GPU steps whose work and ceilings are known; here one of them is not.",
    "模型只能为已知工作量和性能上限的 GPU 步骤给出下限；这里缺少其中之一。"};
inline constexpr Word kNotMeasured{"not yet", "尚未测量"};
inline constexpr Word kGuessScored{"You predicted %s, measured %s: off by %s\xC3\x97.",
                                   "你预测 %s，测得 %s：相差 %s 倍。"};
inline constexpr Word kGuessSkip{"Skip", "跳过"};
inline constexpr Word kGuessPick{"or pick:", "或选择："};
inline constexpr Word kGuessChoice{"%d\xC3\x97 the bound: %s ms", "下限的 %d 倍：%s ms"};
inline constexpr Word kGuessSkipHint{
    "Go on without a prediction: your progress says that you skipped it.",
    "不做预测继续：你的进度会记下你跳过了它。"};
inline constexpr Word kGuessSkipped{
    "You skipped the prediction for this step. Type a guess to make one after all.",
    "你跳过了这一步的预测。仍可输入一个猜测。"};
// The lesson list's marks from the progress file, their legend and the export.
inline constexpr Word kMarkPassed{"exercise passed", "练习已通过"};
inline constexpr Word kMarkPredicted{"predicted", "已预测"};
inline constexpr Word kTipPassedFast{"exercise passed, speed target met",
                                     "练习已通过，达到速度目标"};
inline constexpr Word kTipPassedSlow{"exercise passed, speed target not met yet",
                                     "练习已通过，尚未达到速度目标"};
inline constexpr Word kTipPredicted{"prediction made", "已做预测"};
inline constexpr Word kTipSkipped{"prediction skipped", "已跳过预测"};
inline constexpr Word kExportProgress{"Export progress", "导出进度"};
inline constexpr Word kExportProgressHint{
    "Writes your progress (exercises passed, speed targets, predictions and how far off they "
    "were) as CSV and JSON into the exports folder, for your teacher. Nothing leaves this "
    "machine.",
    "把你的进度（通过的练习、速度目标、预测及其偏差）以 CSV 和 JSON 写入导出文件夹，交给老师。"
    "任何数据都不会离开这台机器。"};
inline constexpr Word kMeasuredHidden{"hidden", "已隐藏"};
inline constexpr Word kMeasuredHiddenNote{
    "(Measured figures hidden until you run this lesson or press Reveal.)",
    "（测量数据已隐藏，运行本课或按“揭晓”后显示。）"};
inline constexpr Word kRevealMeasured{"Reveal", "揭晓"};
inline constexpr Word kRevealWhy{
    "Hide answers keeps this lesson's measured figures (text, prediction, charts, summary, "
    "results) hidden until it runs here; Reveal shows them now.",
    "“隐藏答案”会隐藏本课的测量数据（课文、预测、图表、小结、结果），直到它在本机运行；"
    "“揭晓”立即显示。"};
inline constexpr Word kWelcomeNoGpuHeading{"Without an NVIDIA GPU", "没有 NVIDIA GPU 时"};
inline constexpr Word kWelcomeNoGpu{
    "Everything opens. CPU lessons (the first lessons of chapter 1 and the CPU steps of other "
    "chapters) run live; GPU lessons open at the settings their results were recorded at, so "
    "their charts, predictions and summaries show the reference GPU's figures, labelled "
    "recorded. The sweeps show those recorded there too (dashed: \"Sweep block sizes\", S, "
    "opens the block-size sweep; the roofline's sweep button traces its FMA sweep). Run and "
    "whole-chapter runs are then disabled: hover them for the reason.",
    "一切都能打开。CPU 课程（第 1 章开头几课以及其他章的 CPU 步骤）实时运行；"
    "GPU 课程以其结果录制时的设置打开，图表、预测和小结显示参考 GPU 的数据，"
    "并标注为已录制。扫描同样显示在参考 GPU 上录制的结果（虚线：“扫描线程块大小”（S）"
    "打开线程块大小扫描；屋顶线页的扫描按钮描出 FMA 扫描）。此时“运行”和整章运行不可用："
    "鼠标悬停可看原因。"};
inline constexpr Word kWelcomeStartHeading{"Where to start", "从哪里开始"};
inline constexpr Word kWelcomeStart{
    "Lesson 1.1: the simplest way to find every line break in a buffer, on the CPU. Then walk "
    "on with the right arrow key: each lesson changes one thing and says why it should be "
    "faster.",
    "第 1.1 课：在缓冲区中查找所有换行符的最简单做法，在 CPU 上运行。之后按右方向键往下走："
    "每一课只改一处，并说明为什么应该更快。"};
inline constexpr Word kWelcomeStartButton{"Start with lesson 1.1", "从第 1.1 课开始"};
inline constexpr Word kWelcomeClose{"Close", "关闭"};
inline constexpr Word kWelcomeAgain{"F1 or ? opens this page again.",
                                    "按 F1 或 ? 可再次打开本页。"};

// The lesson list.
inline constexpr Word kHideList{"Hide the lesson list (L): the page takes its room",
                                "隐藏课程列表（L）：页面占用它的空间"};
inline constexpr Word kShowList{"Show the lesson list (L)", "显示课程列表（L）"};
inline constexpr Word kFilterHint{"Filter: number, title or id", "筛选：编号、标题或 id"};
inline constexpr Word kNoMatch{"No lesson matches the filter.", "没有符合筛选条件的课程。"};
inline constexpr Word kChapterMarks{"%d of %d lessons opened, %d run here, %d answered",
                                    "%2$d 课中已打开 %1$d 课，在本机运行 %3$d 课，已回答 %4$d 课"};
inline constexpr Word kMarkOpened{"opened", "已打开"};
inline constexpr Word kMarkRan{"run here", "已在本机运行"};
inline constexpr Word kMarkAnswered{"answered", "已回答"};
inline constexpr Word kAnsweredCheck{"I have answered this lesson's questions",
                                     "我已回答本课的问题"};
inline constexpr Word kHelpButton{"Help (F1)", "帮助 (F1)"};

// Why a control cannot act here (tooltips of disabled buttons, notices of keys).
inline constexpr Word kWhyNoRun{"Run cannot run this lesson here: %s.", "无法在此运行本课：%s。"};
inline constexpr Word kWhyNoChapterRun{"No lesson of this chapter runs here: %s.",
                                       "本章没有可在此运行的课程：%s。"};
inline constexpr Word kWhyNoBlock{"This step has no block-size parameter to sweep.",
                                  "此步骤没有可扫描的线程块大小参数。"};
inline constexpr Word kWhyNoSize{"This step's data is not sized in bytes (matrix dimensions).",
                                 "此步骤的数据不是以字节计的规模（矩阵维度）。"};
inline constexpr Word kWhyRecordedShown{
    "The chart shows the results recorded on the reference GPU.",
    "图中显示的是在参考 GPU 上录制的结果。"};
inline constexpr Word kShowsRecordedSweep{
    "The button opens the block-size sweep recorded on the reference GPU.",
    "此按钮会打开在参考 GPU 上录制的线程块大小扫描。"};
inline constexpr Word kPredPressRun{"Press Run (R) to measure it here.",
                                    "按“运行”（R）在本机测量。"};
inline constexpr Word kPredCannotMeasure{
    "It cannot be measured here (%s): compare with the recorded results instead.",
    "无法在本机测量（%s）：请改为与已录制的结果比较。"};

// The evidence section: the step's Nsight Compute counters (live, or recorded).
inline constexpr Word kEvidenceHeader{"Evidence: Nsight Compute counters",
                                      "证据：Nsight Compute 计数器"};
inline constexpr Word kProfileLive{"Profile this step (ncu)", "分析这一步（ncu）"};
inline constexpr Word kProfileRecorded{"Recorded counters", "已录制的计数器"};
inline constexpr Word kProfileHint{
    "The counters a profiler reads while the step runs once: DRAM bytes, the L2 hit rate, "
    "registers and occupancy, issue slots, warp stalls, and those of the step's focus. Profile "
    "this step here (ncu runs it; up to a minute), or show the counters recorded on the "
    "reference GPU.",
    "分析器在这一步运行一次时读取的计数器：DRAM 字节数、L2 命中率、寄存器与占用率、发射槽、"
    "warp 停顿，以及这一步关注的那些。可以在本机分析这一步（由 ncu 运行，最多约一分钟），"
    "或显示参考 GPU 上录制的计数器。"};
inline constexpr Word kProfiling{"Profiling: ncu runs the step once (up to a minute)…",
                                 "正在分析：ncu 运行这一步一次（最多约一分钟）……"};
inline constexpr Word kProfileLiveOn{"Measured now on %s, %s.", "刚在 %s 上测得，%s。"};
inline constexpr Word kProfileRecordedOn{"Recorded on %s, %s (not measured here).",
                                         "录制于 %s，%s（不是在本机测得）。"};
inline constexpr Word kProfileRecordedAt{"Recorded at other settings than this page's: %s.",
                                         "录制时的设置与本页不同：%s。"};
inline constexpr Word kProfileWhyNotLive{"Not profiled live: %s", "未能实时分析：%s"};
inline constexpr Word kProfileNone{"No counters: %s", "没有计数器：%s"};
inline constexpr Word kOversubscribed{
    "%d threads on %llu hardware threads: they take turns on the cores, so expect no gain, "
    "usually a loss (the range goes this far to show it).",
    "%d 个线程跑在 %llu "
    "个硬件线程上：它们轮流使用核心，不会更快，通常更慢（滑块范围到这里正是为了展示这一点）。"};
inline constexpr Word kCancelledNotice{"Cancelled.", "已取消。"};
inline constexpr Word kOlderResults{
    "%d older results are not shown; Export (CSV, JSON) writes every one.",
    "还有 %d 条较早的结果未显示；导出（CSV、JSON）会写出全部。"};
inline constexpr Word kProfileNeedsGpu{
    "Profiling needs an NVIDIA GPU, and this machine has none (installing ncu would not help). "
    "Recorded counters shows what a GPU measured.",
    "分析需要 NVIDIA GPU，而本机没有（安装 ncu 也无济于事）。“已录制的计数器”显示 GPU "
    "上测得的结果。"};
// The rule line over the counters: what limits the step, as Nsight Compute's rules say it.
inline constexpr Word kRuleDram{
    "DRAM-bound: DRAM throughput at %.0f%% of its peak (the SMs at %.0f%%).",
    "受 DRAM 限制：DRAM 吞吐率达到峰值的 %.0f%%（SM 为 %.0f%%）。"};
inline constexpr Word kRuleSm{
    "Compute-bound: the SMs at %.0f%% of their peak throughput (DRAM at %.0f%%).",
    "受计算限制：SM 吞吐率达到峰值的 %.0f%%（DRAM 为 %.0f%%）。"};
inline constexpr Word kRuleLatency{
    "Latency-bound: neither DRAM (%.0f%% of peak) nor the SMs (%.0f%%) are busy; too little "
    "work is in flight to hide the waits.",
    "受延迟限制：DRAM（峰值的 %.0f%%）和 SM（%.0f%%）都不忙：在途的工作太少，掩盖不了等待。"};
inline constexpr Word kCounterColumn{"Counter", "计数器"};
inline constexpr Word kThisStepColumn{"This step", "这一步"};
inline constexpr Word kPreviousStepColumn{"Previous step", "上一步"};
inline constexpr Word kChangeColumn{"This / previous", "这一步 / 上一步"};
inline constexpr Word kEvidenceFocus{
    "Highlighted: the counters this step's \"why\" rests on (its focus: %s). Compare them with "
    "the previous step's to see the claim hold or fail.",
    "高亮的是这一步的“为什么”所依据的计数器（它关注的是：%s）。与上一步的对比，就能看出这个说法"
    "是否成立。"};
inline constexpr Word kEvidenceProfilePrevious{
    "Profile the previous step too (open it and press Profile, or Recorded counters) to see the "
    "two side by side.",
    "把上一步也分析一下（打开它并按“分析”，或“已录制的计数器”），两者就能并排对比。"};

// Tuning on this machine (the Tune button; lessons open at their tuned values).
inline constexpr Word kTune{"Tune", "调优"};
inline constexpr Word kTuneHint{
    "Finds this machine's fastest block size, tile or thread count for this step (each value it "
    "accepts, each checked against the reference), keeps it in your data folder and opens the "
    "lesson at it from now on.",
    "在本机为这一步找出最快的线程块大小、tile 或线程数（逐个尝试它接受的值，每个都与参考结果"
    "核对），保存在你的数据文件夹里，以后打开本课时就用它。"};
inline constexpr Word kWhyNoTune{
    "This step has nothing to tune: the library chooses its own "
    "launch, or it has no block size, tile or thread count.",
    "这一步没有可调的：由库自己决定启动方式，或者它没有线程块大小、"
    "tile 或线程数。"};
inline constexpr Word kTuningOf{"tuning of lesson %s", "第 %s 课的调优"};
inline constexpr Word kTunedHere{
    "Tuned on %s (%s): %s, %s ms against %s ms at the default (%.2fx).",
    "已在 %s 上调优（%s）：%s，%s ms，默认值下为 %s ms（%.2f 倍）。"};
inline constexpr Word kTunedKept{"Kept in %s; the lesson opens at it on this machine.",
                                 "已保存在 %s；在本机打开本课时会使用它。"};
inline constexpr Word kTuneNotKept{"Not kept: a configuration gave a wrong result.",
                                   "未保存：有一个配置的结果错误。"};
inline constexpr Word kTuneFailed{"Tuning did not finish: %s", "调优没有完成：%s"};
inline constexpr Word kOpenedTuned{"Opened at the values tuned for %s (%s, %s): %s.",
                                   "按为 %s 调优的值打开（%s，%s）：%s。"};
inline constexpr Word kTunedByYou{"on this machine", "在本机"};
inline constexpr Word kTunedShipped{"shipped with the program", "随程序附带"};

inline constexpr Word kReferenceGpu{"Recorded on", "录制于"};
inline constexpr Word kReferenceGpuTip{
    "The GPU whose recorded results the pages show where nothing ran live here (lessons this "
    "machine cannot run, every GPU lesson without a GPU). Switch to compare the GPUs; live "
    "results are never replaced.",
    "页面中本机没有实时结果的地方（本机无法运行的课，或没有 GPU 时的所有 GPU 课）显示哪块 GPU "
    "上录制的结果。切换它来比较这些 GPU；实时结果不会被替换。"};

inline constexpr const Word* kStudentWords[] = {&kWelcomeTitle,
                                                &kReferenceGpu,
                                                &kReferenceGpuTip,
                                                &kTune,
                                                &kTuneHint,
                                                &kWhyNoTune,
                                                &kTuningOf,
                                                &kTunedHere,
                                                &kTunedKept,
                                                &kTuneNotKept,
                                                &kTuneFailed,
                                                &kOpenedTuned,
                                                &kTunedByYou,
                                                &kTunedShipped,
                                                &kEvidenceHeader,
                                                &kProfileLive,
                                                &kProfileRecorded,
                                                &kProfileHint,
                                                &kProfiling,
                                                &kProfileLiveOn,
                                                &kProfileRecordedOn,
                                                &kProfileRecordedAt,
                                                &kProfileWhyNotLive,
                                                &kProfileNone,
                                                &kCounterColumn,
                                                &kThisStepColumn,
                                                &kPreviousStepColumn,
                                                &kChangeColumn,
                                                &kEvidenceFocus,
                                                &kEvidenceProfilePrevious,
                                                &kWelcomeIntro,
                                                &kWelcomePanesHeading,
                                                &kWelcomePanes,
                                                &kWelcomeMarksHeading,
                                                &kWelcomeLive,
                                                &kWelcomeRecorded,
                                                &kWelcomeUnavailable,
                                                &kWelcomeProgress,
                                                &kWelcomeKeysHeading,
                                                &kKeyPrevNext,
                                                &kKeyRun,
                                                &kKeySweep,
                                                &kKeyChapter,
                                                &kKeyCancel,
                                                &kKeyScale,
                                                &kKeyShot,
                                                &kKeyHelp,
                                                &kKeyPresenter,
                                                &kPresenterToggle,
                                                &kSectionOf,
                                                &kProfileNeedsGpu,
                                                &kOlderResults,
                                                &kCancelledNotice,
                                                &kOversubscribed,
                                                &kRuleDram,
                                                &kRuleSm,
                                                &kRuleLatency,
                                                &kPreviousSection,
                                                &kNextSection,
                                                &kViewText,
                                                &kViewChanged,
                                                &kViewSass,
                                                &kChangedAgainst,
                                                &kRewrittenFrom,
                                                &kWholeSource,
                                                &kLinesFolded,
                                                &kNoText,
                                                &kYourGuess,
                                                &kGuessHint,
                                                &kGuessSpeedup,
                                                &kGuessClear,
                                                &kGuessBad,
                                                &kBoundColumn,
                                                &kMeasuredColumn,
                                                &kGuessTimeRow,
                                                &kGuessSpeedupRow,
                                                &kNoModel,
                                                &kNoModelWhy,
                                                &kNotMeasured,
                                                &kGuessScored,
                                                &kGuessSkip,
                                                &kGuessPick,
                                                &kGuessChoice,
                                                &kGuessSkipHint,
                                                &kGuessSkipped,
                                                &kMarkPassed,
                                                &kMarkPredicted,
                                                &kTipPassedFast,
                                                &kTipPassedSlow,
                                                &kTipPredicted,
                                                &kTipSkipped,
                                                &kExportProgress,
                                                &kExportProgressHint,
                                                &kMeasuredHidden,
                                                &kMeasuredHiddenNote,
                                                &kRevealMeasured,
                                                &kRevealWhy,
                                                &kWelcomeNoGpuHeading,
                                                &kWelcomeNoGpu,
                                                &kWelcomeStartHeading,
                                                &kWelcomeStart,
                                                &kWelcomeStartButton,
                                                &kWelcomeClose,
                                                &kWelcomeAgain,
                                                &kFilterHint,
                                                &kHideList,
                                                &kShowList,
                                                &kNoMatch,
                                                &kChapterMarks,
                                                &kMarkOpened,
                                                &kMarkRan,
                                                &kMarkAnswered,
                                                &kAnsweredCheck,
                                                &kHelpButton,
                                                &kWhyNoRun,
                                                &kWhyNoChapterRun,
                                                &kWhyNoBlock,
                                                &kWhyNoSize,
                                                &kWhyRecordedShown,
                                                &kShowsRecordedSweep,
                                                &kPredPressRun,
                                                &kPredCannotMeasure};

}  // namespace lessons::app
