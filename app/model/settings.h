// What the GUI remembers between runs, under $XDG_CONFIG_HOME/cuda-lessons/ (default
// ~/.config/cuda-lessons/), never in the working directory.
#pragma once

#include <map>
#include <set>
#include <string>

namespace lessons::app {

// The student's guess for a lesson, typed before running it: a time in milliseconds, or a
// speed-up over the previous lesson ("2.5" meaning 2.5x faster).
struct Guess {
    double value = 0;  // > 0 and finite
    bool speedup = false;
    bool operator==(const Guess& o) const { return value == o.value && speedup == o.speedup; }
};

struct Settings {
    std::string language = "en";  // "en" or "zh"
    float scale = 0;              // 0: take the monitor's content scale
    // The lesson open last, by its id ("gemm/double-buffering"); a file written before ids
    // were stored may hold its old number ("39"). Resolved by Registry::FindLesson: empty or
    // unknown opens the first lesson.
    std::string lesson;
    int window_width = 1500;
    int window_height = 940;
    bool hide_answers = false;  // the lesson texts' answers: hidden behind "Show answer"
    // The first-run page (what the panes, marks and keys mean) was closed: it is not opened
    // again at start (F1 or ? opens it).
    bool first_run_closed = false;
    // The student's progress, by lesson id: lessons opened, run live here, and whose questions
    // the student marked answered. Read bounded (kMaxProgressIds ids of at most
    // kMaxProgressIdBytes each); a list of another shape is ignored with a message.
    std::set<std::string> visited;
    std::set<std::string> ran;
    std::set<std::string> answered;
    // The folded sections of lesson pages the student opened ("reduce/cub#Evidence"), and the
    // chapters whose at-a-glance table is open (read bounded, as the progress lists).
    std::set<std::string> unfolded;
    // The Log scale choice the student made per chapter (chart::LogChoice::by_chapter), by
    // chapter id; a chapter not here takes each chart's own rule. Read bounded like the lists.
    std::map<std::string, bool> log_scale;
    // The panes as the student dragged them: the lesson list's width in font heights (0: the
    // default), and the text pane's share of the height it shares with the code pane. Values
    // outside kSidebarEm / kTextShare are ignored when read.
    float sidebar_em = 0;
    // The student's guesses by lesson id, read bounded like the progress lists: an entry that is
    // not {"value": a number above 0, "unit": "ms" or "x"} is dropped with a note.
    std::map<std::string, Guess> guesses;
    float text_share = 0;           // 0: the default
    float exercise_text_share = 0;  // the same while the code pane shows an exercise
    // How long a student's kernel may run after it compiled before the worker is restarted
    // (WorkerClient::SetKernelTimeLimit), in seconds.
    float kernel_limit_s = 10;
    // The GPU whose recorded results the pages show where nothing ran live (ResultsStore::
    // SetReferenceGpu); empty: the project's reference GPU. Read bounded (kMaxProgressIdBytes).
    std::string reference_gpu;
};

// The ranges the dragged pane sizes are kept in (a dragged splitter stops at them).
constexpr float kMinSidebarEm = 8, kMaxSidebarEm = 40;
constexpr float kMinTextShare = 0.15f, kMaxTextShare = 0.85f;
constexpr float kMinKernelLimitS = 1, kMaxKernelLimitS = 600;

constexpr size_t kMaxProgressIds = 1000;
constexpr size_t kMaxProgressIdBytes = 200;

// The folder, created if missing; empty when neither XDG_CONFIG_HOME nor HOME is set.
std::string ConfigDir();

// Reads `path`. A missing file gives the defaults silently; a corrupt one, one that is not a
// regular file (a FIFO, a device) or one over kMaxSettingsBytes gives the defaults and a message
// in `problem` (the file is left as it is until saved). A progress list of the wrong shape (not
// an array of strings, too many ids, an id too long) is dropped, or its bad entries are, with a
// message; the other settings are kept.
constexpr size_t kMaxSettingsBytes = 64 << 10;
Settings LoadSettings(const std::string& path, std::string* problem);
// Writes `path` through a temporary file renamed into place. A read-only file, or anything
// but a regular file, is left as it is; false with `problem` when nothing was saved.
bool SaveSettings(const std::string& path, const Settings& settings, std::string* problem);

// The saved window size, at most the monitor's work area (`work_width` x `work_height`; 0 when
// unknown), so that a window saved on a larger screen still fits.
void ClampWindowToWorkArea(Settings* settings, int work_width, int work_height);

// ImGui's own settings (imgui.ini: window and table layout), bounded both ways: this program
// writes a few sections of a few lines, so a file over kMaxIniBytes or kMaxIniSections is
// ignored with a message in `problem` (an ini of 200,000 sections made ImGui's first frame take
// 41 s). Returns the text to load (empty when missing or ignored).
constexpr size_t kMaxIniBytes = 64 << 10;
constexpr size_t kMaxIniSections = 200;
// The text is also sanitised (SanitizeImGuiIni), with a message when a section was dropped.
std::string ReadImGuiIni(const std::string& path, std::string* problem);
// `text` without the sections ImGui would read unsafely: a table section whose column count
// is not 1 to kMaxIniTableColumns (ImGui's own limit). `dropped` counts them.
constexpr int kMaxIniTableColumns = 64;
std::string SanitizeImGuiIni(const std::string& text, size_t* dropped);
// Writes `text` through a temporary file renamed into place; text over the same bounds is not
// written (false, with `problem`), nor is a failed write left behind.
bool WriteImGuiIni(const std::string& path, const std::string& text, std::string* problem);

}  // namespace lessons::app
