// The student's file of an exercise: where it lives (under the user's data folder, one file per
// exercise), read back at start so that nothing typed is lost (a closed window, a crash, a
// worker restart), written as the student types, and read again when another editor ("Open in
// my editor") changed it. Files are the user's: a file too large, not UTF-8 or not a regular
// file is not read (nor written over) and the reason is given.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace lessons::app {

// The largest student file read or written (the worker refuses larger kernels anyway).
constexpr uint64_t kMaxExerciseFileBytes = 256 * 1024;

// $XDG_DATA_HOME/cuda-lessons/exercises (default ~/.local/share/cuda-lessons/exercises),
// created if missing; empty when neither XDG_DATA_HOME nor HOME is set.
std::string ExercisesDir();
// The student's file for a lesson id in `dir`: "gemv/warp-per-row" -> dir/gemv-warp-per-row.cu.
std::string ExercisePath(const std::string& dir, std::string_view lesson_id);

struct ExerciseFile {
    std::string path;   // empty: kept in memory only (no data folder)
    std::string text;   // what the editor holds
    std::string saved;  // what the file held when last read or written
    // The file as last read or written (size and modification time): another editor's change
    // shows as a difference.
    int64_t mtime_ns = -1;
    uint64_t size = 0;
    bool Dirty() const { return text != saved; }
};

// Opens the student's file at `path`: its text when it exists, else `start` (the starting
// file), which is written there. False with `problem` when the file exists but cannot be read
// (not a regular file, too large, not UTF-8): the editor then holds `start`, and the file is
// never written over.
bool OpenExercise(ExerciseFile* file, const std::string& path, std::string_view start,
                  std::string* problem);
// Writes `file->text` when it differs from what was saved. False with `problem` when it could
// not be written (the text stays in memory; the next save tries again).
bool SaveExercise(ExerciseFile* file, std::string* problem);
// True when the file changed on disk since it was last read or written (another editor saved
// it) and was read into `file->text`; a change that cannot be read gives `problem`.
bool ReloadIfChanged(ExerciseFile* file, std::string* problem);
// Replaces the student's text with `start`; what they had is written beside it first, as
// `<path>.bak` (returned; empty when nothing was kept).
std::string ResetExercise(ExerciseFile* file, std::string_view start, std::string* problem);

}  // namespace lessons::app
