// The student's progress a teacher can read (issue 41, item 7): each exercise's checks (whether
// a kernel passed every hidden case, whether a right one met the speed target, and when) and each
// prediction (the guess, the measurement it was scored against, how far off, or that the student
// skipped it), and each Parsons problem (lessons/parsons.h: solved or not, and when). Kept in the
// user's data folder beside tunings.json, written by the GUI and by
// `check`, read by `cuda-lessons-cli progress` and the GUI's Export; nothing leaves the machine.
// CUDA-free: the GUI links it.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace lessons {

struct ExerciseProgress {
    int checks = 0;            // checks whose cases ran (on a GPU)
    bool correct = false;      // some check passed: every case, and the step's change present
    std::string correct_at;    // the first such (UTC)
    bool speed_met = false;    // some right kernel met the speed target
    std::string speed_met_at;  // the first such (UTC)
    double best_ratio = 0;     // the best yours / step of a right kernel (0: none timed)
    double yours_ms = 0;       // ... its two medians
    double step_ms = 0;
    std::string last_at;        // the newest check (UTC)
    bool last_correct = false;  // ... passed every case
    int last_cases_failed = 0;  // ... of
    int last_cases_total = 0;
    std::string last_speed;   // ... "met", "not met" or "not judged"
    std::string last_change;  // ... the step's change (kernel_change.h): "found", "missing" or ""
};

struct PredictionProgress {
    bool skipped = false;            // the student skipped it (no value)
    double value = 0;                // the guess (> 0 where not skipped)
    std::string unit;                // "ms" (a time) or "x" (a speed-up over the previous step)
    std::string made_at;             // when it was made or skipped (UTC)
    std::optional<double> measured;  // what it was scored against, in its unit
    std::optional<double> off_by;    // OffBy(value, measured): 1 is exact
    std::string scored_at;
};

// A Parsons problem's attempts: each order that compiled (with a GPU, run over the hidden cases).
struct ParsonsProgress {
    int attempts = 0;
    bool solved = false;      // some order compiled and passed every hidden case
    std::string solved_at;    // the first such (UTC)
    std::string last_at;      // the newest attempt (UTC)
    std::string last_result;  // "solved", "wrong", "did not compile" or "not checked" (no GPU)
};

struct Progress {
    std::map<std::string, ExerciseProgress> exercises;      // by lesson id
    std::map<std::string, PredictionProgress> predictions;  // by lesson id
    std::map<std::string, ParsonsProgress> parsons;         // by lesson id
    bool empty() const { return exercises.empty() && predictions.empty() && parsons.empty(); }
};

// How far a guess is off, as a factor of at least 1: max(guess / measured, measured / guess);
// nothing where either is not a positive finite number.
std::optional<double> OffBy(double guess, double measured);

// $XDG_DATA_HOME/cuda-lessons/progress.json, else $HOME/.local/share/cuda-lessons/progress.json;
// empty when neither is set (relative values are ignored). `getenv` is replaceable for tests.
std::string ProgressPath(const std::function<const char*(const char*)>& getenv = {});

// The most entries of each kind and the largest file read (far above what the catalogue makes).
inline constexpr size_t kMaxProgressEntries = 2000;
inline constexpr size_t kMaxProgressBytes = 4 << 20;

// The progress in `path`: a missing file is none. A file that cannot be read whole (not a regular
// file, too large, not JSON, not this shape) or that holds entries of the wrong shape gives what
// could be read and a `problem` naming the file and what is wrong with it; `*corrupt` says the
// file is not one this program would write (and so would be set aside before the next write).
Progress ReadProgress(const std::string& path, std::string* problem, bool* corrupt = nullptr);
Progress ProgressFromJson(const nlohmann::ordered_json& j, size_t* skipped);
nlohmann::ordered_json ToJson(const Progress& p);

// Reads `path`, applies `change` and writes it back (through a temporary file renamed into
// place), under a lock shared with every other program that records (the GUI, several
// `check`s at once). A corrupt file is first renamed aside to "<path>.corrupt-<UTC time>" (never
// lost, never overwritten) and `*notice` says so; its readable entries carry over. Throws
// FileError or UsageError (no folder to keep it in, the file cannot be written).
void UpdateProgress(const std::string& path, const std::function<void(Progress&)>& change,
                    std::string* notice);

// The changes a check or a prediction makes. `when` is a UTC timestamp.
struct CheckRecord {
    bool correct = false;  // every case passed
    int cases_failed = 0, cases_total = 0;
    bool speed_judged = false, speed_met = false;
    double yours_ms = 0, step_ms = 0;
    // The step's change in the kernel (lessons/kernel_change.h): "found", "missing", or "" where
    // not judged. A check passes (ExerciseProgress::correct) where every case passed and the
    // change is not missing.
    std::string change = {};
};
void RecordCheck(Progress& p, const std::string& id, const CheckRecord& r, const std::string& when);
// A new guess (a changed one replaces the old, and its score); an unchanged guess keeps its
// score.
void RecordPrediction(Progress& p, const std::string& id, double value, const std::string& unit,
                      const std::string& when);
void RecordSkip(Progress& p, const std::string& id, const std::string& when);
// An attempt at a Parsons problem: `result` is one of ParsonsProgress::last_result's words (an
// unknown one is ignored); "solved" marks the problem solved, once.
void RecordParsons(Progress& p, const std::string& id, const std::string& result,
                   const std::string& when);
// Forgets the prediction (the student cleared the guess).
void ForgetPrediction(Progress& p, const std::string& id);
// Scores the lesson's prediction against `measured` (in its unit); false where there is none, it
// was skipped, or the score is the same as kept.
bool ScorePrediction(Progress& p, const std::string& id, double measured, const std::string& when);

// For a class: one row per lesson with an entry, in id order, with the header
// student,lesson,label,exercise_correct,correct_at,speed_met,speed_met_at,yours_ms,step_ms,
// checks,last_checked_at,last_cases_failed,last_cases_total,predicted,unit,measured,off_by,
// prediction_skipped,predicted_at,scored_at,parsons_solved,parsons_solved_at,parsons_attempts,
// parsons_last.
// `label` gives a lesson's number as shown ("4.2"; "" for an id no longer in the catalogue).
std::string ProgressCsv(const Progress& p, const std::string& student,
                        const std::function<std::string(const std::string& id)>& label);
// The JSON export: {"student", "exported_at", "exercises": [...], "predictions": [...],
// "parsons": [...]}, each
// entry with its "lesson" id and "label".
nlohmann::ordered_json ProgressExport(
    const Progress& p, const std::string& student,
    const std::function<std::string(const std::string& id)>& label);
// The student's name for an export: $USER, else $LOGNAME, else "".
std::string StudentName();

}  // namespace lessons
