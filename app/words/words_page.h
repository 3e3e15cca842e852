// The words of the page model's frame: the result row, the folded sections, the footer and the
// chapter at a glance. One block of their own beside words.h, listed in kPageWords for the font
// atlas and the words tests. (Section headings come with the page: lessons/page.h.)
#pragma once

#include "words/words.h"

namespace lessons::app {

inline constexpr Word kResultRow{"Result.", "结果："};
inline constexpr Word kResultHidden{"Run the lesson (or reveal the measured figures) to see it.",
                                    "先运行本课（或显示测量结果）再看。"};
inline constexpr Word kFooterFiles{"Read from:", "数据来自："};
inline constexpr Word kGlance{"Chapter %s at a glance", "第 %s 章一览"};
inline constexpr Word kGlanceLesson{"Lesson", "课"};
inline constexpr Word kGlanceIdea{"Idea", "思路"};
inline constexpr Word kGlanceTime{"Time", "时间"};
inline constexpr Word kGlancePrevious{"× previous", "比上一步"};
inline constexpr Word kGlanceBound{"% of bound", "占上限"};
inline constexpr Word kGlanceLibrary{"× library", "比库"};
inline constexpr Word kGlanceCopy{"Copy as Markdown", "复制为 Markdown"};
inline constexpr Word kGlanceCopied{"Copied the chapter's table as Markdown.",
                                    "已把本章一览表复制为 Markdown。"};
inline constexpr Word kUnresolved{"A figure of this page is not recorded on %s: %s",
                                  "本页有数据没有在 %s 上录制：%s"};

inline constexpr const Word* kPageWords[] = {
    &kResultRow,  &kResultHidden, &kFooterFiles,    &kGlance,      &kGlanceLesson,
    &kGlanceIdea, &kGlanceTime,   &kGlancePrevious, &kGlanceBound, &kGlanceLibrary,
    &kGlanceCopy, &kGlanceCopied, &kUnresolved};

}  // namespace lessons::app
