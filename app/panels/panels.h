// What the panel files share: colours, small helpers, and each panel's draw function (those in
// panels/ and the charts in charts/). DrawUi (ui.cpp) lays the panels out; each draws from the
// Controller's state and the UiState (ui_state.h), and records what it drew into the UiState's
// probe when one is attached.
#pragma once

#include <imgui.h>

#include <string>
#include <string_view>

#include "model/results_view.h"
#include "panels/ui_state.h"
#include "profile.h"  // ProfiledKernel (LimiterRule)
#include "registry.h"
#include "text/lesson_text.h"  // Tooltip, DrawWrappedText
#include "words/words.h"
#include "worker/controller.h"

namespace lessons::app {

// Every window of the page takes no keys for ImGui's own keyboard navigation or tabbing (the
// arrows are the page's: lessons, presenter sections): HandleFocusKeys moves the focus (Tab)
// and presses the focused control (Enter, Space), and DrawUi draws its frame.
inline constexpr ImGuiWindowFlags kNoNavKeys = ImGuiWindowFlags_NoNavInputs;
// ImGui's own tabbing off for the controls drawn between the two calls (the page's and the
// editor popout's focus keys move instead); 1.89.4 renamed PushAllowKeyboardFocus PushTabStop.
void PushNoTabStop();
void PopNoTabStop();

inline const ImU32 kCurrentColor = IM_COL32(80, 160, 255, 255);
inline const ImU32 kPreviousColor = IM_COL32(70, 200, 170, 255);
inline const ImU32 kOtherColor = IM_COL32(130, 130, 145, 255);
inline const ImVec4 kGreen(0.45f, 0.85f, 0.45f, 1), kAmber(1.0f, 0.75f, 0.3f, 1),
    kGrey(0.6f, 0.6f, 0.6f, 1), kRed(1.0f, 0.35f, 0.35f, 1), kAccent(0.55f, 0.75f, 1.0f, 1);

// The word in the UI's language.
inline const char* Tr(const UiState& ui, const Word& word) {
    return Tr(ui.settings.language, word);
}
// Records the last item's screen rectangle under `name` (tests click on it).
void Remember(UiState& ui, const char* name);
// A control moved: auto-run starts once the controls settle.
void Changed(UiState& ui);
// `text` cut to fit `width` pixels in the current font, ending in "…" when cut.
std::string Elide(const std::string& text, float width);
// SameLine() when an item `width` pixels wide fits on the rest of this line, else a new line.
void SameLineIfFits(float width);
// The width of a button, and of a checkbox or radio button, with this label.
float ButtonWidth(const char* label);
float CheckWidth(const char* label);
// The lesson's title in the page's language (Chinese: from its text's heading).
std::string LessonTitle(const UiState& ui, const Lesson& lesson);
// The chapter's title in the page's language.
std::string ChapterTitle(const UiState& ui, const Chapter& chapter);
// Milliseconds with the digits that matter: "0.0123", "1.234", "56.7".
std::string Ms(double ms);

// The pane being drawn (a child window `name` of `size`): opened at its top when a lesson has
// just been opened (UiState::arrival). RecordScroll records its scroll for the probe: the text
// pane's, or the code pane's (its own, or the machine-code listing's inside it).
void BeginPane(UiState& ui, const char* name, ImVec2 size, ImGuiWindowFlags flags = 0);
void RecordScroll(UiState& ui, bool text);
// The step chart's axis: Log scale, and ms or the rate.
void DrawAxisChoice(UiState& ui);
// A bar between two panes that the mouse drags (recorded as `name`): `*size`, the pixels of the
// pane before it, follows the drag within [lo, hi]; true when it moved. `vertical`: a bar
// `length` pixels tall between panes side by side; else as wide, between panes one above the
// other.
bool Splitter(UiState& ui, const char* name, bool vertical, float length, float* size, float lo,
              float hi);
// presenter.cpp: presenter mode's page under the title (UiState::presenter): the text's current
// section beside (or, where the window is narrow, above) a large step chart, or the whole
// roofline in its chapter; no lesson list, no code.
void DrawPresenter(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson);

// With "Hide answers" on, a lesson's measured figures are hidden everywhere on its page (its
// text's measured sections, the prediction box, its bar, breakdown, sweeps and roofline point,
// its summary row, its rows of the results table) until it has run here in this session or the
// student pressed Reveal (UiState::revealed).
bool MeasuredHidden(const UiState& ui, const Controller& c, const Lesson& lesson);
// The Hide answers checkbox, and beside it (while the lesson's figures are hidden) Reveal.
void DrawHideAnswers(UiState& ui, const Controller& c, const Lesson& lesson);
// The lesson text as the page draws it: answers and measured sections hidden as MeasuredHidden
// and the settings say.
void DrawLessonTextOf(UiState& ui, const Controller& c, const Lesson& lesson,
                      std::string_view text);
// Notes for the probe what a text drew in the monospace font (its inline code).
void NoteInlineCode(UiState& ui, const CodeDrawn& drawn);

// Whether the lesson list is shown: as the student chose (L, « and »), else where the window is
// at least kListShownFromEm font heights wide (a narrow window gives the page the room).
constexpr float kListShownFromEm = 56;
bool ListShown(const UiState& ui);

// lesson_list.cpp: the chapters and their lessons, each marked live / recorded / unavailable.
void DrawLessonList(UiState& ui, const Controller& c, const Registry& reg);
// The progress marks' legend (opened, run here, answered), on one line.
void DrawProgressLegend(UiState& ui);
// first_run.cpp: the first-run page over the page (UiState::first_run_page), and closing it
// (remembered in the settings).
void DrawFirstRunPage(UiState& ui, const Registry& reg);
void CloseFirstRunPage(UiState& ui);
// status_bar.cpp: the GPU, the worker's state, the scale, the newest notice.
void DrawStatusBar(UiState& ui, Controller& c);
// code_view.cpp: the step's source, lines that differ from the previous step highlighted; its
// PTX and SASS; and, for a lesson with an exercise, the Exercise tab.
void DrawCode(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson);
// Presenter mode's code: the lines that differ from the previous step with two lines of
// context around each (the rest folded), large; and the SASS listing with its highlighted
// instructions (each class's chip jumps to its next instruction).
// `opened`: the view opens in this frame (a step that rewrites most of its file then opens at its
// kernel rather than at the file's header).
void DrawChangedCode(UiState& ui, const Registry& reg, const Lesson& lesson, bool opened = false);
void DrawSass(UiState& ui, const Registry& reg, const Lesson& lesson);
// A listing with line information beside its source (m.source_lines), linked both ways as
// Compiler Explorer links them: each source line and its instructions share a tint; a click on
// a source line highlights its instructions and scrolls the listing to the first, a click on an
// instruction highlights its source line and scrolls to it. `focus`: the lesson's instruction
// classes, highlighted as in the plain listing; `top`: both sides open at their top.
void DrawLinkedCode(UiState& ui, MachineView& m, const std::vector<std::string>& focus, bool top);
// Presenter mode, inside the pane in view: applies the scroll a key asked for and records how
// far the pane is scrolled and how much of it lies below (UiState::presenter_room).
void PresenterScroll(UiState& ui);
// The progress bar of the run in flight (what runs, the share done, the time left) and Cancel;
// nothing while the worker is idle.
void DrawProgress(UiState& ui, Controller& c);
// exercise_pane.cpp: the Exercise tab: the task and hints, the student's kernel in an editor
// (saved as they type, reloaded when another editor changes it), compiled and run by the worker
// beside the step, the compiler's messages marked on their lines.
void DrawExercise(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson);
// The editor's own window (ui.exercise.popout): drawn by main.cpp in that window's ImGui
// context, with ui.drawing_popout set.
void DrawExercisePopout(UiState& ui, Controller& c, const Registry& reg);
// The pop-out's keyboard focus (Tab, Shift+Tab, Enter and Space, as on the page) in a ring of its
// own controls: PopoutFocus(ui, own, true) after its NewFrame puts its ring in place of the
// page's and handles the keys, PopoutFocusFrame draws its focus frame, PopoutFocus(ui, own,
// false) puts the page's back.
struct PopoutFocusState {
    std::vector<UiState::FocusStop> ring, drawn;
    unsigned id = 0;
    size_t index = 0;
    bool shown = false;
    unsigned editor_id = 0;
};
void PopoutFocus(UiState& ui, PopoutFocusState* own, bool begin);
void PopoutFocusFrame(UiState& ui);
// parsons_pane.cpp: the lesson's Parsons problem (lessons/parsons.h), where it has one: its lines
// ordered by dragging or by keyboard, some set aside, the kernel they make checked by the worker.
void DrawParsons(UiState& ui, Controller& c, const Lesson& lesson);
// Writes the student's file now if it has unsaved edits (before the window closes).
void SaveExerciseNow(UiState& ui);
// The ImGui context whose time the exercise editor's pauses are measured on (the main window's,
// so that the editor's own window, with a context of its own, keeps the same clock).
void SetEditorClock(ImGuiContext* context);
// controls_panel.cpp: one control per parameter of the lesson, cold L2; run and sweep.
void DrawControls(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson);
// Why Run (this lesson and the previous one) cannot run here, in `language`; empty when it
// can. With `with_note`, a lesson shown from recordings adds that its chart shows them. The same
// for "Run the whole chapter" (no lesson of the chapter runs here).
// Whether a block-size sweep of the lesson (or of the previous one) at the page's settings was
// recorded: what "Sweep block sizes" shows where it cannot run.
bool HasRecordedBlockSweep(const UiState& ui, const Controller& c, const Registry& reg,
                           const Lesson& lesson);
// Why a sweep along `param` cannot run here: neither this lesson nor the previous one has the
// parameter and runs here (a CPU lesson before a GPU one runs, but has no block size); empty
// when one does.
std::string CannotSweepWhy(std::string_view language, const Controller& c, const Registry& reg,
                           const Lesson& lesson, const std::string& param);
std::string CannotRunWhy(std::string_view language, const Controller& c, const Registry& reg,
                         const Lesson& lesson, bool with_note = false);
std::string CannotRunChapterWhy(std::string_view language, const Controller& c, const Registry& reg,
                                const Lesson& lesson);
// The control of one parameter (ControlFor says which), recorded under the parameter's name.
void DrawParamControl(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson,
                      const ParamSpec& spec);
// The data-size cap's explanation: the cap and what limits it, the host's available memory
// and the GPU's free memory (0: not known) with the age of each figure, how often they are read.
std::string CapExplanation(const std::string& language, const std::string& cap, const char* why,
                           uint64_t host_available, double host_age_s, uint64_t device_free,
                           double device_age_s);
// charts_panel.cpp: every step of the chapter, the copy/kernel/copy breakdown, the sweeps.
void DrawStepChart(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson);
void DrawBreakdown(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson);
void DrawSweeps(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson,
                bool by_block);
// The sweep along any other parameter of the lesson (a tile configuration, a toggle, FMAs per
// element): a choice of the parameter, its Sweep button, and its chart, live or recorded.
void DrawParamSweep(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson);
// predict_panel.cpp: the "Predict, then measure" box of a lesson page, and the chapter summary.
void DrawPrediction(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson);
void DrawSummary(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson);
// results_table.cpp: every result of the chapter, and the export buttons.
void DrawResults(UiState& ui, const Controller& c, const Registry& reg, const Lesson& lesson);
// evidence_panel.cpp: the step's Nsight Compute counters, live or recorded, beside the previous
// step's.
void DrawEvidence(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson);
// The rule line over a kernel's counters, naming what limits it from its DRAM and SM
// throughput ("DRAM-bound: DRAM throughput at 94% of its peak (the SMs at 12%)."); empty when
// the profile has neither counter.
std::string LimiterRule(std::string_view language, const ProfiledKernel& kernel);
// roofline_page.cpp: the roofline section of a GPU lesson's page: the whole chart with its
// buttons in a chapter that draws the whole roofline (Chapter::whole_roofline), the inset
// everywhere else. Nothing for CPU lessons.
void DrawRoofline(UiState& ui, Controller& c, const Registry& reg, const Lesson& lesson);

}  // namespace lessons::app
