// The student's progress as the GUI keeps it (lessons/progress.h): read from the data folder once,
// changed by checks and predictions (each change written at once, under the file's lock, so that
// `cuda-lessons-cli check` and the GUI can record side by side), exported for a teacher. A corrupt
// file is set aside (never lost) and the GUI goes on with a new one.
#pragma once

#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "progress.h"
#include "registry.h"

namespace lessons::app {

struct ProgressBook {
    std::string path;  // ProgressPath() when loaded; "": nothing is kept (no HOME)
    Progress progress;
    bool loaded = false;
    std::string read_for;  // the lesson shown when the file was last read
};

// A notice for the student, in both languages.
struct ProgressNotice {
    std::string en, zh;
};

// Reads the file (ProgressPath() unless `path` is given). A corrupt one is set aside at once and
// said; an unreadable one is said and the book keeps nothing for this session's writes to lose.
void LoadProgress(ProgressBook* book, std::vector<ProgressNotice>* notices,
                  const std::string& path = ProgressPath());

// Reads the file again (what `cuda-lessons-cli check` kept meanwhile); a file that cannot be read
// leaves the book as it is (said when it is next written).
void RefreshProgress(ProgressBook* book);

// Applies `change` to the book and writes it back; a failed write is said, and the change stays
// in this session's marks.
void ChangeProgress(ProgressBook* book, const std::function<void(Progress&)>& change,
                    std::vector<ProgressNotice>* notices);

// Writes the progress for a teacher into `dir` as progress-YYYYMMDD-HHMMSS.csv and .json (local
// time `now`), read from the file (what every program recorded); the message saying where, or
// why not.
ProgressNotice ExportProgress(const ProgressBook& book, const Registry& registry,
                              const std::string& dir, std::time_t now);

// The lesson list's marks for a lesson.
struct ProgressMarks {
    bool passed = false;     // an exercise passed every hidden case
    bool speed_met = false;  // ... and met the speed target
    bool predicted = false;  // a prediction was made (not skipped)
    bool skipped = false;    // the prediction was skipped
    bool parsons = false;    // its Parsons problem was solved
};
ProgressMarks MarksOf(const ProgressBook& book, const std::string& lesson_id);

}  // namespace lessons::app
