// The GUI's state between frames: the persisted settings, the lesson page's controls, fonts and
// caches, and the operations every panel may apply to it (select a lesson, set the scale). One
// struct, owned by main (or a test), handed to DrawUi and each panel.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "charts/chart.h"
#include "charts/roofline.h"
#include "model/exercise_file.h"
#include "model/page_params.h"
#include "model/progress_book.h"
#include "model/settings.h"
#include "model/student.h"
#include "page.h"
#include "panels/fonts.h"
#include "registry.h"
#include "text/code_listing.h"
#include "tuning.h"

struct ImGuiWindow;

namespace lessons::app {

struct Probe;

struct UiState {
    Settings settings;       // language, scale, last lesson, window size (persisted)
    RunSettings run;         // the controls of the lesson page
    bool auto_run = true;    // moving a control re-runs this lesson and the previous one
    bool log_scale = false;  // the step-comparison chart's axis (the Log checkbox)
    // Which scale each chapter's step chart takes: the student's click on Log, remembered per
    // chapter, else log where its values span more than 20x (DrawStepChart sets log_scale).
    chart::LogChoice log_choice;
    bool rate_axis = false;  // ... in GB/s or GFLOP/s (as the results say) instead of ms
    double changed_at = -1;  // when a control last moved (debounce), -1: nothing pending
    Fonts fonts;
    bool fonts_dirty = true;  // rebuild the font atlas at settings.scale before next frame
    std::string export_dir;   // where exports go
    bool screenshot_requested = false;
    // Set while the editor's own window is drawn (its own ImGui context): Remember names its
    // controls "popout_..." in the positions file and keeps them out of the page's Tab ring.
    bool drawing_popout = false;
    bool popout_screenshot_requested = false;  // F12 in that window: a PNG of it
    // The host's available memory as the data-size cap last read it, and when (ImGui's
    // clock; negative: read it at the next frame). Read again every kMemoryRefreshSeconds and
    // whenever a lesson's page is shown; the GPU's free memory is asked of the worker then.
    uint64_t host_available = 0;
    double host_available_at = -1;
    // The GUI's own notices (settings, fonts, exports, a refused key's reason).
    struct Notice {
        std::string en;
        std::string zh;  // made in both languages (a refused key); empty: the English is looked up
        bool until_run = false;  // a key's refusal or a cancel: gone once something runs again
        Notice(std::string english, std::string chinese = {})  // NOLINT: a plain English notice
            : en(std::move(english)), zh(std::move(chinese)) {}
        Notice(const char* english) : en(english) {}  // NOLINT: as above
    };
    std::vector<Notice> messages;
    bool was_busy = false;  // the worker was busy in the last frame (a run starting clears notices)
    // What the page drew, recorded for whoever reads it (the automation's positions file, a
    // test); null: nothing is recorded. Not owned.
    Probe* probe = nullptr;
    // The page last resolved (panels/page_view.cpp), and what it was resolved for.
    std::string page_key;
    ResolvedPage page_resolved;
    // The chapter at a glance last worked out, and what for (panels/page_view.cpp).
    std::string glance_key;
    std::vector<GlanceRow> glance_rows;
    // The roofline's points (panels/roofline_page.cpp), and the results and roof they are of.
    std::string roof_points_key;
    std::vector<RooflinePoint> roof_points;
    int roof_points_none = 0;
    std::string roof_points_none_chapters;

    // Code view cache: the source of lesson `code_lesson` (its number), split into lines.
    int code_lesson = -1;
    std::vector<std::string> code_lines;
    std::vector<bool> code_changed;
    MachineView machine;  // the PTX / SASS tabs and the ncu line (code_view.cpp)
    // The roofline page's chapter picked for "Run this chapter's benchmark"
    // (panels/roofline_page.cpp).
    int bench_chapter = 0;
    // The parameter the student chose in the "Sweep over" section (its name; empty, or one the
    // lesson does not have: the page picks one), and
    // whether the roofline page traces its sweep (its Sweep button was pressed).
    std::string sweep_param;
    bool roof_trace = false;
    // A section the next frame opens and scrolls into view (its name: "block_sweep_header"):
    // "Sweep block sizes" without a GPU shows the recorded sweep there.
    std::string open_section;

    // The lesson the page showed last (its id; empty before the first): SelectLesson compares
    // the lesson it opens with it.
    std::string shown_lesson;
    // Each chapter's parameters while the student is in another chapter (CarryParams).
    KeptParams kept_params;
    // What opening a lesson asks of the next frame: the text and code panes at their top, the
    // lesson list scrolled to the lesson, and (once the worker has said which lessons run here)
    // the recorded settings where the page would show nothing (RecordedSettings).
    struct Arrival {
        bool scroll_top = false;
        bool scroll_list = false;
        bool settings = false;
        bool entering_chapter = false;
        bool tuned = false;  // open at the tuned values once the machine is known
    } arrival;
    // The tunings kept on this machine (TuningsPath), read as each lesson opens (the problem
    // with the file, said once); what the page says about the values it opened at.
    std::vector<Tuning> user_tunings;
    std::string tunings_problem;
    // Said in the page's language when drawn (TunedNoteText), so a switch of language shows.
    struct TunedNote {
        std::string machine, when, set;
        bool shipped = false;
        bool empty() const { return set.empty(); }
        void clear() { *this = {}; }
    } tuned_note;
    std::map<int, int> tune_seen;  // by lesson number: the tuning answer the page took last
    // The page's parameters were given on the command line (--size): the first lesson opens
    // at them, not at recorded ones.
    bool explicit_params = false;
    // The first-run page (what the panes, marks and keys mean) is shown over the page.
    bool first_run_page = false;
    // The lesson list's filter, as typed.
    char lesson_filter[128] = "";
    // Frames to draw before waiting for events again (a scroll ImGui applies a frame later).
    int redraw_frames = 0;
    // How many of the controller's results were looked at for the "run" marks.
    size_t results_marked = 0;
    // Keyboard focus (Tab / Shift+Tab, then Enter or Space presses the control): every control
    // the page drew, in the order drawn, which is the reading order (the lesson list, the text
    // and code, the controls and charts, the status bar). Each frame collects `focus_drawn`
    // (Remember); the keys move among the previous frame's (`focus_ring`).
    struct FocusStop {
        unsigned id = 0;  // ImGui's ID of the control
        ImGuiWindow* window = nullptr;
        float x0 = 0, y0 = 0, x1 = 0, y1 = 0;                      // its rectangle on the screen
        float clip_x0 = 0, clip_y0 = 0, clip_x1 = 0, clip_y1 = 0;  // what of its window shows
        std::string name;                                          // as Remember named it
    };
    std::vector<FocusStop> focus_ring, focus_drawn;
    unsigned focus_id = 0;     // the focused control (its ImGui ID)
    size_t focus_index = 0;    // ... and its place in the ring
    bool focus_shown = false;  // its frame is drawn (Tab shows it, a click hides it)
    unsigned editor_id = 0;    // the exercise editor's text: Tab types a tab there
    // The lesson list: shown (1) or hidden (0) as the student chose this session (L, or the
    // buttons « and »); -1: as the window's width says (hidden in a narrow window).
    int list_choice = -1;
    // The status bar's height as drawn last (it takes a third row in a narrow window).
    float status_bar_h = 0;
    // The height the lesson list's legends and buttons took under it last frame (they wrap
    // where the list is narrow): the lessons above leave them that room.
    float list_footer_h = 0;
    // Presenter mode (F5): no lesson list and no code; the text one section at a time (this
    // one, counted from 0; reset when a lesson opens) beside a large chart (presenter.cpp).
    bool presenter = false;
    int presenter_section = 0;
    int presenter_drawn_section = -1;  // the section drawn last: a new one opens at its top
    // What presenter mode's left pane shows: the text's section, the step's changed lines
    // against the previous step, or its SASS (PresenterView).
    int presenter_view = 0;
    int changed_code_jump = 0;      // frames left in which Changed code scrolls to its kernel
    int presenter_view_drawn = -1;  // the view its tabs showed last
    // The pane in view, as the last frame drew it: how far it is scrolled and how many pixels
    // of it lie below what shows. Down / Page Down scroll it by most of a screen while some
    // lie below, then move to the next section; Up the same way back (presenter_step: the
    // scroll a key asked for, +1 a screen down, -1 up, applied as the pane is drawn).
    float presenter_scroll_y = 0;
    float presenter_room = 0;
    int presenter_step = 0;
    // A section's first frames measure its room with the previous section's content size
    // (ImGui's lags a frame): a Down or Up pressed then (presenter_key, +1 or -1) waits until
    // presenter_fresh_frames is 0, or it would scroll nothing and be lost.
    int presenter_key = 0;
    int presenter_fresh_frames = 0;
    // The step chart's height in pixels where the layout gives it one (presenter mode); 0: the
    // page's own (14 font heights).
    float step_chart_height = 0;
    float presenter_notes_h = 0;  // the height of the notes under presenter mode's chart
    // Lessons whose measured figures the student revealed with "Hide answers" on (by id; for
    // this session: MeasuredHidden).
    std::set<std::string> revealed;
    // The student's progress (exercises checked, predictions and their error), kept in the data
    // folder (model/progress_book.h); loaded at the first frame.
    ProgressBook progress;
    bool guess_editing = false;  // the guess field is being typed in: not recorded until left
    // The guess field as typed (the settings keep the value once it is a number above 0).
    std::string guess_lesson;
    char guess_text[32] = "";
    bool guess_speedup = false;  // the unit chosen: a speed-up over the previous lesson, else ms

    // The code pane's Exercise tab (exercise_pane.cpp): the student's file of the lesson whose
    // tab was drawn last, and what the tab shows.
    struct ExerciseView {
        std::string lesson;  // its id; "" before any
        ExerciseFile file;
        std::string problem;  // why the file cannot be read or written (shown under the editor)
        std::string note;     // the newest event: opened in an editor, reloaded, reset
        int hints_shown = 0;
        bool solution = false;       // the lesson's own kernel shown below the editor
        bool confirm_reset = false;  // "Start over" asks first
        double typed_at = -1;        // the newest edit (EditorClock), saved after a pause
        double checked_at = -1;      // the newest look at the file on disk
        int caret_line = -1;         // the editor's caret (0-based line), -1: not active
        int goto_line = -1;          // a diagnostic was clicked: scroll the editor to it
        bool editor_top = false;     // the file was just opened: the editor at its line 1
        bool maximised = false;      // the editor takes the whole page, its messages beside it
        // The editor in a window of its own (main.cpp's EditorPopout draws it there with
        // DrawExercisePopout): asked for, and open. The page then shows the file read only,
        // the one text both show.
        bool popout = false;
        bool popout_open = false;
        bool popout_text_input = false;  // its editor takes the keyboard (the positions file)
        float editor_share = 0.62f;      // ... the editor's share of its width (the handle between)
        int editor_pid = 0;              // "Open in my editor": its process, reaped when it ends
        std::string dir;                 // the exercises' folder (ExercisesDir), "" before asked
        bool dir_asked = false;
    } exercise;
    // The Parsons problem of the lesson's chapter, in the Exercise tab (parsons_pane.cpp): the
    // lines as the student arranges them (their places as shuffled, 1-based) and those set aside.
    struct ParsonsView {
        std::string lesson;  // its id; "" before any
        uint64_t seed = 0;
        std::vector<size_t> shown;      // ParsonsShuffle's: place -> line of the problem
        std::vector<int> arranged;      // the student's order: shown places
        std::vector<int> aside;         // set aside
        int selected = -1;              // a shown place, -1: none
        bool open = false;              // its section is open
        std::vector<int> checked;       // the order sent to be checked ("Check order")
        std::vector<int> out_of_place;  // ... its places out of place, while unchanged since
        int missing = 0;                // ... the kernel's lines left out
        int first_line = 0;             // ... the assembled kernel's line of its first place
    } parsons;
};

constexpr double kDebounceSeconds = 0.3;
constexpr double kMemoryRefreshSeconds = 5;

// Selects a lesson named as Registry::FindLesson takes it (its label "5.8", its id, or its old
// number or id); a name the catalogue does not know selects the first lesson. The settings
// then hold its id and mark it visited. Within a chapter the page keeps each parameter's value
// where the lesson accepts it and shows the lesson's default elsewhere; entering another
// chapter brings back that chapter's own (CarryParams). A lesson other than the one shown
// opens at the top of its text and code, in view in the lesson list (UiState::arrival).
void SelectLesson(UiState& ui, const Registry& registry, std::string_view name);
// The lesson the page shows (the settings' lesson), or null when the catalogue is empty.
const Lesson* CurrentLesson(const UiState& ui, const Registry& registry);
// The note on the values a lesson opened at (tuned_note), in the page's language.
std::string TunedNoteText(const UiState& ui);

// Sets the UI scale (0.5 to 4), which rebuilds the fonts before the next frame.
void SetScale(UiState& ui, float scale);

}  // namespace lessons::app
