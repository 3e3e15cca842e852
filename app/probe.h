// What the page drew last, for those who check it: tests, and the positions file that scripts
// driving the real window read (CUDA_LESSONS_RECTS_FILE, automation.cpp). Its owner attaches it
// to the UiState (UiState::probe); the page records into it only then.
#pragma once

#include <imgui.h>

#include <map>
#include <string>
#include <vector>

#include "charts/chart.h"

namespace lessons::app {

struct Probe {
    // Open every section of the page (tests that walk every screen set it).
    bool open_all = false;

    // Screen rectangles of the main controls, recorded each frame: tests click on them.
    std::map<std::string, ImVec4> rects;
    // The page's title as drawn last, whole ("1.3  OpenMP ...").
    std::string title;
    // What the step-comparison chart drew last.
    std::vector<chart::Bar> step_bars;
    chart::BarLayout step_layout;
    // The x ticks of the block-size sweep charts drawn last.
    std::vector<double> block_ticks;
    // The step chart's scale and its current bar's headline, drawn last; whether that headline
    // called the speed-up within noise.
    bool step_log = false;
    std::string step_headline;
    bool step_noise = false;
    // The charts of a chapter of independent experiments drawn last (0: a step chart), and the
    // bars of each.
    std::vector<std::vector<chart::Bar>> experiments;
    // The sweep chart drawn last: its x tick labels, and each series' best point (its x).
    std::vector<std::string> sweep_x_labels;
    std::vector<double> sweep_best_x;
    std::vector<bool> sweep_best_within_noise;  // ... and whether it was marked within noise
    std::string size_fit;  // the chapter's model fitted to the size sweep, as shown (chapter 7)
    // Each sweep section drawn last ("block", "size", "param"): its series and points, whether
    // they were recorded (dashed), and the note or hint drawn under or in place of the chart.
    struct Sweep {
        int series = 0;
        int points = 0;
        int spreads = 0;  // points drawn with their median's interval
        bool recorded = false;
        std::string param;  // the parameter swept
        std::string note;
    };
    std::map<std::string, Sweep> sweeps;
    // The roofline page's trace of its sweep (points drawn, recorded or live).
    int roof_trace_points = 0;
    bool roof_trace_recorded = false;
    // The prediction box's lines and the summary's row count drawn last.
    std::vector<std::string> prediction;
    int summary_rows = -1;
    // The points the roofline (the whole chart or the inset) drew last.
    int roof_points = 0;
    // The whole roofline drawn last: how many of its roof labels cover a point or another label
    // (none where there is room), its legend's entries and its chapter combo's label.
    int roof_label_overlaps = -1;
    int roof_key = 0;           // the inset's key: its roofs named under it
    std::string roof_note;      // ... and its note
    bool list_tooltip = false;  // a lesson's tooltip was drawn (within the lesson list)
    std::vector<std::string> roof_legend;
    // The roof labels left out of the plot (no place clear of the points and the other labels),
    // listed in the key under the chart, and where the key drew each; where the labels drawn in
    // the plot lie (the plot itself: rects["roofline_plot"]).
    std::vector<std::string> roof_dropped;
    std::vector<ImVec4> roof_key_rects;
    std::vector<ImVec4> roof_label_rects;
    std::string bench_chapter;
    std::string tuned;             // the tuned values the controls show ("threads 1"), or the note
    int evidence_rows = 0;         // counters the evidence section lists
    int evidence_highlighted = 0;  // ... of them highlighted: the step's focus
    // The Exercise tab drawn last: the compile answer's status ("ok", "error", ...; "" none),
    // the editor's lines marked with a compiler message, the student's newest time (0: none).
    std::string exercise_compile;
    int exercise_marked_lines = 0;
    double exercise_yours_ms = 0;
    int exercise_bars = 0;  // the bars of "yours beside the step" (previous, step, yours)
    // The scroll positions of the text pane and of the code pane (its listing's in the PTX and
    // SASS tabs) in the last frame, in pixels from the top.
    float text_scroll_y = 0;
    float text_scroll_max = 0;  // how far the text pane can scroll: 0 when its page fits
    float code_scroll_y = 0;
    float listing_scroll_y = 0;
    // Where a rewritten step's changed code opens (its kernel's line, in pixels from the pane's
    // top; 0: it opens at its top). Kept from the frame that scrolled there until the next lesson.
    float code_open_y = 0;
    float work_scroll_y = 0;
    // The evidence section: its rule line, the first counter's plain name shown with its
    // explanation, and whether it said that profiling needs a GPU.
    std::string evidence_rule;
    std::string evidence_first_explained;
    std::vector<std::string> evidence_explanations;  // each counter's one-line explanation
    bool evidence_needs_gpu = false;
    // The control the keyboard focus is on, as Remember named it ("" where none is shown).
    std::string focused;
    // The control the mouse holds (ImGui's active item: pressed, being dragged), as Remember
    // named it ("" none), and the mouse wheel's steps ImGui has taken since the start (down is
    // negative): a script that drags or wheels waits for the window to have seen each step.
    std::string active;
    float wheel_taken = 0;
    float editor_scroll_y = 0;  // the exercise editor's
    // "Check my kernel" as drawn last: "" (none), "pending", "passed", "failed", "not checked";
    // the cases listed and how many of them failed.
    std::string check_state;
    int check_cases = 0;
    int check_failed = 0;
    bool exercise_not_checked = false;  // "compiled, not checked: needs a GPU" was drawn  // the
                                        // right-hand column's (controls, charts, results)  // the
                                        // machine-code listing's, as code_view.cpp drew it
    // Which panes the last frame drew: the lesson list and the code pane (presenter mode draws
    // neither), and presenter mode's text section (its index from 0) and how many there are.
    bool list_drawn = false;
    bool code_drawn = false;
    int section = -1;
    int sections = 0;
    // Whether the lesson's measured figures were hidden ("Hide answers" before its run), and
    // the guess table drawn last: {guess, model's bound, measured} (empty: none drawn).
    bool measured_hidden = false;
    // The page model (panels/page_view.cpp): the text is in it, its references that did not
    // resolve, its footer, the rows of the chapter at a glance (0: folded).
    bool page_in_model = false;
    int page_unresolved = 0;
    int page_unresolved_sass = 0;  // of those, SASS counts (a build without machine code has none)
    bool build_has_sass = false;   // this build embeds SASS listings
    std::string page_footer;
    std::vector<std::string> page_open;  // the folded sections drawn open ("Evidence", ...)
    int glance_rows = 0;
    // Presenter mode: the current section's text fits its pane without scrolling.
    bool section_fits = false;
    // Presenter mode: what the left pane shows (UiState::presenter_view), its scroll and the
    // pixels of it below what shows; the source lines its changed-code view drew.
    int presenter_view = 0;
    float presenter_scroll_y = 0;
    float presenter_room = 0;
    int presenter_code_lines = 0;
    int presenter_code_from = 0;  // a rewritten step's view opens at this line (from 1); 0: top
    // The lesson text's inline code drawn in the monospace font: how many runs (rects has the
    // first one's, "inline_code").
    int inline_code_runs = 0;
    // A listing linked to its source (line information): the source line linked (0: none) and
    // how many listed instructions come from it.
    int linked_source = 0;
    int linked_listing_lines = 0;
    // The SASS listing's line a chip jumped to (from 0), -1: none.
    int sass_jump_line = -1;
    std::vector<std::string> guess_row;
    bool guess_skipped = false;  // the page says the prediction was skipped
    std::string guess_scored;    // "You predicted X, measured Y: off by Z×."
    // The lesson list's progress marks drawn this frame, by lesson id: "passed", "passed-fast",
    // "predicted", "skipped" (space-separated).
    std::map<std::string, std::string> progress_marks;
    // The Parsons problem's part of the Exercise tab, drawn last: the order (shown places), the
    // lines set aside, the selected line (-1: none), the answer's verdict ("", "pending",
    // "solved", "wrong", "did not compile", "not checked", "error") and the places it found out
    // of place (for the order as it is).
    bool parsons_drawn = false;
    std::vector<int> parsons_order;
    std::vector<int> parsons_aside;
    int parsons_selected = -1;
    std::string parsons_result;
    std::vector<int> parsons_out_of_place;
};

}  // namespace lessons::app
