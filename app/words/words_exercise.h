// The words of the exercises: the Exercise tab of the code pane (the task, hints, the editor,
// the compiler's answer, the student's kernel beside the step) and the controller's words for
// a student's kernel. One block of their own beside words.h, listed in kExerciseWords for the
// font atlas and the words tests.
#pragma once

#include "words/words.h"

namespace lessons::app {

inline constexpr Word kTabExercise{"Exercise", "练习"};
inline constexpr Word kExerciseTask{"Your task", "你的任务"};
inline constexpr Word kNextHint{"Show a hint", "显示提示"};
inline constexpr Word kHintN{"Hint %d of %d", "提示 %d / %d"};
inline constexpr Word kCompile{"Compile", "编译"};
inline constexpr Word kRunMine{"Run mine", "运行我的"};
inline constexpr Word kOpenInEditor{"Open in my editor", "用我的编辑器打开"};
inline constexpr Word kResetExercise{"Start over", "重新开始"};
inline constexpr Word kResetConfirm{
    "Replace your kernel with the starting file? Yours is kept beside it as %s.",
    "用起始文件替换你的 kernel？你的文件会另存为 %s。"};
inline constexpr Word kYesReplace{"Replace it", "替换"};
inline constexpr Word kNoKeep{"Keep mine", "保留我的"};
inline constexpr Word kShowSolution{"Show the lesson's kernel", "显示本课的 kernel"};
inline constexpr Word kHideSolution{"Hide the lesson's kernel", "隐藏本课的 kernel"};
inline constexpr Word kSolutionTitle{"The lesson's own kernel (the reference solution)",
                                     "本课自己的 kernel（参考答案）"};
inline constexpr Word kSavedAt{"Saved as you type: %s", "边写边保存：%s"};
inline constexpr Word kReloadedFromEditor{"Your editor changed the file: reloaded and compiled.",
                                          "你的编辑器修改了文件：已重新载入并编译。"};
inline constexpr Word kNoEditorFound{
    "No program to open it with (xdg-open was not found): open %s in your editor; the page "
    "reloads and compiles it when it changes.",
    "没有可用来打开它的程序（未找到 xdg-open）：请用你的编辑器打开 %s；文件一改动，页面就会"
    "重新载入并编译。"};
inline constexpr Word kEditorOpened{
    "Opened %s in your editor; the page reloads and compiles it when it changes.",
    "已在你的编辑器中打开 %s；文件一改动，页面就会重新载入并编译。"};
inline constexpr Word kCannotSave{"Cannot save your kernel: %s", "无法保存你的 kernel：%s"};
inline constexpr Word kCompiling{"Compiling…", "正在编译…"};
inline constexpr Word kRunningYours{"Compiling and running your kernel…",
                                    "正在编译并运行你的 kernel…"};
inline constexpr Word kCompiledOk{
    "Compiled for %s: %d registers, %d bytes spilled, %d B shared "
    "memory, %d B stack.",
    "已为 %s 编译：%d 个寄存器，溢出 %d 字节，共享内存 %d B，栈 %d B。"};
inline constexpr Word kCompiledWithoutGpu{
    "No GPU here: compiled for the H100's architecture (sm_90), so that registers, spills and the "
    "PTX show all the same.",
    "本机没有 GPU：按 H100 的架构（sm_90）编译，寄存器、溢出和 PTX 照样可以查看。"};
inline constexpr Word kCompileErrors{"%d errors, %d warnings (%s)", "%d 个错误，%d 个警告（%s）"};
inline constexpr Word kCompileRefused{"Not compiled: %s", "未编译：%s"};
inline constexpr Word kNvrtcMissing{"The compiler is missing: %s", "缺少编译器：%s"};
inline constexpr Word kLineN{"line %d", "第 %d 行"};
inline constexpr Word kShowPtx{"PTX of your kernel", "你的 kernel 的 PTX"};
inline constexpr Word kCompilerLog{"The compiler's whole log", "编译器的完整日志"};
inline constexpr Word kYoursVsStep{"Yours beside the step", "你的 kernel 与本步骤对比"};
inline constexpr Word kYours{"yours", "你的"};
inline constexpr Word kYourResultWrong{"Your kernel's result is WRONG: %s",
                                       "你的 kernel 结果错误：%s"};
inline constexpr Word kYourResultRight{"Your kernel's result matches the CPU reference.",
                                       "你的 kernel 的结果与 CPU 参考一致。"};
inline constexpr Word kNotRunNoGpu{
    "Running it needs a GPU where this lesson runs live; compiling works here.",
    "运行它需要一块能实时运行本课的 GPU；在这里可以编译。"};
inline constexpr Word kTimeLimit{"Time limit (s)", "时间限制（秒）"};
inline constexpr Word kTimeLimitHint{
    "How long compiling and running your kernel may take, counted from when the worker takes it "
    "up. Past it, the worker is stopped and a new one started (a kernel in an endless loop "
    "cannot be stopped otherwise).",
    "编译并运行你的 kernel "
    "最多可以用多久，从工作进程开始处理时算起。超过后，工作进程会被停止并重新启动"
    "（陷入死循环的 kernel 无法用别的办法停下）。"};
inline constexpr Word kCompiledNotChecked{
    "Compiled, not checked: needs a GPU. Only a run on a GPU compares your kernel's answer with "
    "the CPU reference; compiling says nothing about whether it is right.",
    "已编译，未检查：需要 GPU。只有在 GPU 上运行才会把你的 kernel 的结果与 CPU 参考结果核对；"
    "能编译并不说明它是对的。"};
inline constexpr Word kCancelCompile{"Cancel (Esc)", "取消 (Esc)"};
inline constexpr Word kMaximiseEditor{"Maximise the editor", "最大化编辑器"};
inline constexpr Word kRestoreEditor{"Back to the page", "返回页面"};
inline constexpr Word kMaximiseHint{
    "The editor takes the whole window, the compiler's messages and the task beside it.",
    "编辑器占据整个窗口，编译器消息和任务显示在旁边。"};
inline constexpr Word kCompilerMessages{"The compiler's answer", "编译器的回答"};
inline constexpr Word kPopOutEditor{"Own window", "独立窗口"};
inline constexpr Word kPopOutHint{
    "Opens the editor in a window of its own, the compiler's messages beside it (for a second "
    "screen). The page shows the same file as it is typed.",
    "在独立窗口中打开编辑器，编译器消息显示在旁边（可放到第二块屏幕）。页面同步显示同一个文件。"};
inline constexpr Word kPutBack{"Back into the page", "放回页面"};
inline constexpr Word kNoExerciseHere{"The lesson the page shows has no exercise to write.",
                                      "页面当前显示的这一课没有需要编写的练习。"};
inline constexpr Word kPoppedOut{
    "The editor is open in its own window; this view follows it as you type there (read only).",
    "编辑器已在独立窗口中打开；这里随你在那边的输入同步显示（只读）。"};
inline constexpr Word kTimedOut{
    "Your kernel ran longer than the limit of %.0f s: the worker was stopped and a new one "
    "started.",
    "你的 kernel 运行超过了 %.0f 秒的限制：工作进程已停止并重新启动。"};
inline constexpr Word kNotAnswered{"No answer: %s", "没有回答：%s"};
// The controller's description of the request in flight (BusyWith).
inline constexpr Word kYourKernelRun{"your kernel for lesson %s", "你为第 %s 课写的 kernel"};
inline constexpr Word kYourKernelCompile{"compiling your kernel for lesson %s",
                                         "编译你为第 %s 课写的 kernel"};

inline constexpr Word kRunsAt{
    "Written for %s: your kernel and the step it is compared with run at it.",
    "按 %s 编写：你的 kernel 和与之比较的这一步都在此设置下运行。"};

// "Check my kernel": the hidden cases.
inline constexpr Word kCheckMine{"Check my kernel", "检查我的 kernel"};
inline constexpr Word kCheckMineHint{
    "Runs your kernel over the step's hidden cases: the smallest sizes, sizes that are no "
    "multiple of the block or tile, a large size, and the data that breaks naive code. Every "
    "buffer gets guard zones, so a write past its end fails the case even when the answer is "
    "right. Your kernel passes only if every case passes.",
    "用这一步的隐藏用例运行你的 kernel：最小的规模、不是线程块或分块整数倍的规模、较大的规模，"
    "以及会让朴素写法出错的数据。每个缓冲区前后都有保护区，即使结果正确，越界写入也会让用例失败。"
    "只有全部用例通过，你的 kernel 才算通过。"};
inline constexpr Word kCheckingYours{"Checking your kernel: case %d of %d",
                                     "正在检查你的 kernel：第 %d / %d 个用例"};
inline constexpr Word kCheckPassed{"Passed: all %d hidden cases are right.",
                                   "通过：全部 %d 个隐藏用例都正确。"};
inline constexpr Word kCheckRightNoChange{
    "Not passed yet: all %d hidden cases are right, but the step's change is not in your kernel "
    "(below).",
    "尚未通过：全部 %d 个隐藏用例都正确，但你的 kernel 里还没有这一步的改动（见下）。"};
inline constexpr Word kCheckFailed{"Not passed: %d of %d hidden cases failed.",
                                   "未通过：%d / %d 个隐藏用例失败。"};
inline constexpr Word kCheckNotChecked{"Compiled, not checked: needs a GPU.",
                                       "已编译，未检查：需要 GPU。"};
inline constexpr Word kCasePassed{"passed", "通过"};
inline constexpr Word kCaseFailed{"FAILED", "失败"};
inline constexpr Word kFirstMismatch{"first mismatch: %s", "第一处不符：%s"};
inline constexpr Word kYourKernelCheck{"checking your kernel for lesson %s",
                                       "检查你为第 %s 课写的 kernel"};

// The speed target (judged only for a right kernel).
inline constexpr Word kTimingStep{"Timing the step's own kernel at the default settings...",
                                  "正在默认设置下为这一步自己的 kernel 计时……"};
inline constexpr Word kTimingYours{"Timing your kernel at the default settings...",
                                   "正在默认设置下为你的 kernel 计时……"};
inline constexpr Word kSpeedMet{
    "Speed: yours %s ms, the step's %s ms; target: within %.0f%% (or faster): met.",
    "速度：你的 %s ms，这一步的 %s ms；目标：不慢于它的 %.0f%%（或更快）：达到。"};
inline constexpr Word kSpeedNotMet{
    "Speed: yours %s ms, the step's %s ms; target: within %.0f%% (or faster): not met. Your "
    "kernel is right, and slower than the step's.",
    "速度：你的 %s ms，这一步的 %s ms；目标：不慢于它的 %.0f%%（或更快）：未达到。你的 kernel "
    "是正确的，只是比这一步的慢。"};
inline constexpr Word kSpeedNotJudged{"Speed: not judged (%s).", "速度：未评判（%s）。"};
inline constexpr Word kWrongAtDefault{"Your kernel's timed run was wrong %s",
                                      "你的 kernel 计时运行的结果不对：%s"};

inline constexpr const Word* kExerciseWords[] = {
    &kTabExercise,       &kExerciseTask,   &kNextHint,        &kHintN,
    &kCompile,           &kRunMine,        &kOpenInEditor,    &kResetExercise,
    &kResetConfirm,      &kYesReplace,     &kNoKeep,          &kShowSolution,
    &kHideSolution,      &kSolutionTitle,  &kSavedAt,         &kReloadedFromEditor,
    &kNoEditorFound,     &kEditorOpened,   &kCannotSave,      &kCompiling,
    &kRunningYours,      &kCompiledOk,     &kCompileErrors,   &kCompileRefused,
    &kNvrtcMissing,      &kLineN,          &kShowPtx,         &kCompilerLog,
    &kYoursVsStep,       &kYours,          &kYourResultWrong, &kYourResultRight,
    &kNotRunNoGpu,       &kTimeLimit,      &kTimeLimitHint,   &kCompiledNotChecked,
    &kCancelCompile,     &kMaximiseEditor, &kRestoreEditor,   &kMaximiseHint,
    &kCompilerMessages,  &kTimedOut,       &kNotAnswered,     &kYourKernelRun,
    &kYourKernelCompile, &kRunsAt,         &kCheckMine,       &kCheckMineHint,
    &kCheckingYours,     &kCheckPassed,    &kCheckFailed,     &kCheckNotChecked,
    &kCasePassed,        &kCaseFailed,     &kFirstMismatch,   &kYourKernelCheck,
    &kTimingStep,        &kTimingYours,    &kSpeedMet,        &kSpeedNotMet,
    &kSpeedNotJudged,    &kWrongAtDefault, &kPopOutEditor,    &kPopOutHint,
    &kPutBack,           &kPoppedOut,      &kNoExerciseHere,  &kCheckRightNoChange};

}  // namespace lessons::app
