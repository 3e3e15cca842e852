// A lesson page in the page model (lessons/page.h): the core always shown, the result row after
// the prediction, folded sections remembered per page, the first use of each glossary term
// linked (hover: its definition), a generated footer naming where the figures come from, and
// the chapter at a glance. Pages not yet written in the model are drawn as before.
#pragma once

#include <string>
#include <vector>

#include "page.h"
#include "panels/panels.h"

namespace lessons::app {

// The page's figures: the recordings of the GPU chosen under "Recorded on", this machine's live
// results beside them, and the page's settings.
PageData PageDataOf(const UiState& ui, const Controller& c, const Lesson& lesson);

// The lesson text resolved for drawing, with the result row written into its prediction
// ("**Result.** 0.506 ms · 1.00× lesson 3.5 · 67.1% of the read-only bandwidth (4563 GB/s)").
ResolvedPage ResolvedPageOf(UiState& ui, const Controller& c, const Lesson& lesson);

// Whether the page's text (in the UI's language) is written in the page model.
bool InPageModel(const UiState& ui, const Lesson& lesson);

// The whole page in the text pane.
void DrawModelPage(UiState& ui, const Controller& c, const Lesson& lesson);

// The core in presenter mode, cut into screens that fit a projector: the idea and the change,
// the prediction (alone: the class predicts first), the result row with the reason, then Try
// this and the questions. Markdown.
std::vector<std::string> PresenterScreens(UiState& ui, const Controller& c, const Lesson& lesson);

// The chapter at a glance, folded (open on a chapter's first lesson until closed).
void DrawChapterGlance(UiState& ui, const Controller& c, const Lesson& lesson);

}  // namespace lessons::app
