// The words of the Parsons problems (lessons/parsons.h): their part of the Exercise tab
// (parsons_pane.cpp) and their mark in the lesson list. Listed in kParsonsWords for the font
// atlas and the words tests.
#pragma once

#include "words/words.h"

namespace lessons::app {

inline constexpr Word kParsonsTitle{"Parsons problem: put the kernel's lines in order",
                                    "Parsons 题：把 kernel 的行排好顺序"};
inline constexpr Word kParsonsTask{
    "The core of %s (%d lines) is cut into lines and shuffled, with a few wrong lines among them. "
    "Arrange the lines in order: drag a line, or select it (Space) and move it with Alt+Up and "
    "Alt+Down or the buttons. Set the wrong lines aside (Delete sets the selected line aside, or "
    "puts it back). Check order compiles the kernel your "
    "lines make and checks it over the exercise's hidden cases. The indentation is restored for "
    "you.",
    "%s 的核心部分（%d 行）被切成一行一行并打乱了，其中混进了几行错的。请把这些行排好顺序："
    "拖动一行，或者选中它（空格键）后用 Alt+Up、Alt+Down 或下面的按钮移动。把错的行放到一边"
    "（Delete 键把选中的行放到一边，或放回去）。"
    "“检查顺序”会编译这些行组成的 kernel，并用练习的隐藏用例检查它。缩进会自动补上。"};
inline constexpr Word kParsonsSeed{
    "Shuffled with seed %s; your teacher sees the same with: cuda-lessons-cli parsons %s --seed %s",
    "打乱用的种子是 %s；老师可以这样看到同样的题：cuda-lessons-cli parsons %s --seed %s"};
inline constexpr Word kParsonsAround{"The kernel around your lines", "你的行周围的 kernel"};
inline constexpr Word kParsonsYourLines{"Your lines, in order", "你的行（按顺序）"};
inline constexpr Word kParsonsAsideTitle{"Set aside (not in the kernel)",
                                         "放在一边的行（不进 kernel）"};
inline constexpr Word kParsonsNoneAside{"(none)", "（没有）"};
inline constexpr Word kParsonsUp{"Move up (Alt+Up)", "上移 (Alt+Up)"};
inline constexpr Word kParsonsDown{"Move down (Alt+Down)", "下移 (Alt+Down)"};
inline constexpr Word kParsonsSetAside{"Set aside", "放到一边"};
inline constexpr Word kParsonsPutBack{"Put back", "放回去"};
inline constexpr Word kParsonsCheck{"Check order", "检查顺序"};
inline constexpr Word kParsonsReshuffle{"Back to the shuffle", "恢复打乱的顺序"};
inline constexpr Word kParsonsSelectFirst{
    "Select a line first (click it, or Tab to it and Space).",
    "请先选中一行（点击它，或用 Tab 移到它上面再按空格键）。"};
inline constexpr Word kParsonsOutOfPlace{
    "Out of place: %s (a wrong line, or a right line in the wrong place; which, is not said).",
    "位置不对：%s（一行错的，或一行对的放错了地方；不说是哪种）。"};
inline constexpr Word kParsonsMissing{"Lines of the kernel set aside: %d.",
                                      "被放在一边的 kernel 行：%d 行。"};
inline constexpr Word kParsonsInOrder{"The order is the lesson's own.",
                                      "顺序与本课的 kernel 一致。"};
inline constexpr Word kParsonsChecking{"Compiling and checking the kernel your lines make…",
                                       "正在编译并检查你的行组成的 kernel…"};
inline constexpr Word kParsonsNoCompile{"It did not compile (%d errors):",
                                        "没有编译通过（%d 个错误）："};
inline constexpr Word kParsonsPlaceN{"place %d", "第 %d 个位置"};
inline constexpr Word kParsonsOutside{"outside your lines", "你的行之外"};
inline constexpr Word kParsonsCheckFile{
    "after the kernel (the exercise's check of its name and signature)",
    "kernel 之后（练习对 kernel 名字和签名的检查）"};
inline constexpr Word kParsonsCompiled{"It compiled (%s).", "编译通过（%s）。"};
inline constexpr Word kParsonsSolved{
    "Solved: the kernel your lines make passes all %d hidden cases.",
    "解出来了：你的行组成的 kernel 通过了全部 %d 个隐藏用例。"};
inline constexpr Word kParsonsWrong{"Not solved yet: %d of %d hidden cases failed.",
                                    "还没解出来：%d / %d 个隐藏用例失败。"};
inline constexpr Word kParsonsChanged{"Changed since the check: check again.",
                                      "检查之后又改过了：请再检查一次。"};
inline constexpr Word kParsonsEmpty{"No lines in the kernel: put some back.",
                                    "kernel 里没有行：请放回一些。"};
inline constexpr Word kParsonsSolvedBefore{"You solved this problem on %s.",
                                           "你已在 %s 解出这道题。"};
// The lesson list's mark.
inline constexpr Word kMarkParsons{"Parsons solved", "Parsons 题已解"};
inline constexpr Word kTipParsons{"Parsons problem solved", "Parsons 题已解出"};

inline constexpr const Word* kParsonsWords[] = {
    &kParsonsTitle,     &kParsonsTask,        &kParsonsSeed,       &kParsonsAround,
    &kParsonsYourLines, &kParsonsAsideTitle,  &kParsonsNoneAside,  &kParsonsUp,
    &kParsonsDown,      &kParsonsSetAside,    &kParsonsPutBack,    &kParsonsCheck,
    &kParsonsReshuffle, &kParsonsSelectFirst, &kParsonsOutOfPlace, &kParsonsMissing,
    &kParsonsInOrder,   &kParsonsChecking,    &kParsonsNoCompile,  &kParsonsPlaceN,
    &kParsonsOutside,   &kParsonsCheckFile,   &kParsonsCompiled,   &kParsonsSolved,
    &kParsonsWrong,     &kParsonsChanged,     &kParsonsEmpty,      &kParsonsSolvedBefore,
    &kMarkParsons,      &kTipParsons};

}  // namespace lessons::app
