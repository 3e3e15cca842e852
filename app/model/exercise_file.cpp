#include "model/exercise_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <stdexcept>

#include "files.h"
#include "out_of_memory.h"

namespace lessons::app {

namespace {

// Where a byte that breaks UTF-8 (or a NUL) is, or npos.
size_t BadByte(std::string_view s) {
    for (size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == 0) return i;
        const int n = c < 0x80             ? 0
                      : (c & 0xE0) == 0xC0 ? 1
                      : (c & 0xF0) == 0xE0 ? 2
                      : (c & 0xF8) == 0xF0 ? 3
                                           : -1;
        if (n < 0 || c == 0xC0 || c == 0xC1 || c > 0xF4) return i;  // not a lead byte
        if (i + n >= s.size() && n > 0) return i;                   // cut short
        for (int k = 1; k <= n; ++k)
            if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return i;
        i += n + 1;
    }
    return std::string::npos;
}

// The file's size and modification time; false when it does not exist. Throws a message when it
// exists but is not a regular file.
bool Stat(const std::string& path, uint64_t* size, int64_t* mtime_ns) {
    struct stat st {};
    if (lstat(path.c_str(), &st) != 0) {
        if (errno == ENOENT) return false;
        throw std::runtime_error(path + ": " + std::strerror(errno));
    }
    if (!S_ISREG(st.st_mode)) throw std::runtime_error(path + " is not a regular file");
    *size = static_cast<uint64_t>(st.st_size);
    *mtime_ns = int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    return true;
}

// The file's text, checked: at most kMaxExerciseFileBytes, UTF-8 without NUL bytes.
std::string ReadChecked(const std::string& path, uint64_t size) {
    if (size > kMaxExerciseFileBytes)
        throw std::runtime_error(path + " is " + std::to_string(size) + " bytes, more than the " +
                                 std::to_string(kMaxExerciseFileBytes / 1024) +
                                 " KiB a kernel file may have");
    std::string text(size, '\0');
    ReadRegularFile(path, text.data(), size);
    if (const size_t bad = BadByte(text); bad != std::string::npos)
        throw std::runtime_error(path + " is not UTF-8 text (byte " + std::to_string(bad) +
                                 (text[bad] == 0 ? " is a NUL" : " breaks UTF-8") + ")");
    return text;
}

}  // namespace

std::string ExercisesDir() {
    std::string base;
    // Absolute paths only, as for tunings.json (a relative XDG_DATA_HOME is ignored).
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg == '/') {
        base = xdg;
    } else if (const char* home = std::getenv("HOME"); home && *home == '/') {
        base = std::string(home) + "/.local";
        mkdir(base.c_str(), 0755);
        base += "/share";
    } else {
        return {};
    }
    mkdir(base.c_str(), 0755);
    std::string dir = base + "/cuda-lessons";
    mkdir(dir.c_str(), 0755);
    dir += "/exercises";
    mkdir(dir.c_str(), 0755);
    struct stat st {};
    if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return {};
    return dir;
}

std::string ExercisePath(const std::string& dir, std::string_view lesson_id) {
    std::string name;
    for (char c : lesson_id)
        name +=
            (c == '/' || c == '\\' || c == '.' || static_cast<unsigned char>(c) < 0x20) ? '-' : c;
    return dir + "/" + name + ".cu";
}

bool OpenExercise(ExerciseFile* file, const std::string& path, std::string_view start,
                  std::string* problem) {
    *file = ExerciseFile{};
    file->path = path;
    file->text = std::string(start);
    if (path.empty()) {
        file->saved = file->text;
        return true;
    }
    try {
        uint64_t size = 0;
        int64_t mtime = 0;
        if (Stat(path, &size, &mtime)) {
            file->text = ReadChecked(path, size);
            file->saved = file->text;
            file->size = size;
            file->mtime_ns = mtime;
            return true;
        }
    } catch (const std::exception& e) {
        RethrowIfOutOfMemory(e, "open the exercise file");
        if (problem) *problem = e.what();
        file->path.clear();  // never written over: the student's own file, or not a file
        file->saved = file->text;
        return false;
    }
    return SaveExercise(file, problem);
}

bool SaveExercise(ExerciseFile* file, std::string* problem) {
    if (file->path.empty() || (file->mtime_ns >= 0 && !file->Dirty())) return true;
    try {
        uint64_t size = 0;
        int64_t mtime = 0;
        Stat(file->path, &size, &mtime);  // throws for a FIFO, a device: never written into
        WriteFileReplacing(file->path, file->text);
        if (!Stat(file->path, &file->size, &file->mtime_ns))
            throw std::runtime_error(file->path + " vanished as it was written");
        file->saved = file->text;
        return true;
    } catch (const std::exception& e) {
        if (problem) *problem = e.what();
        return false;
    }
}

bool ReloadIfChanged(ExerciseFile* file, std::string* problem) {
    if (file->path.empty()) return false;
    try {
        uint64_t size = 0;
        int64_t mtime = 0;
        if (!Stat(file->path, &size, &mtime)) return false;  // removed: written at the next save
        if (size == file->size && mtime == file->mtime_ns) return false;
        std::string text = ReadChecked(file->path, size);
        file->size = size;
        file->mtime_ns = mtime;
        if (text == file->saved) return false;
        file->text = file->saved = std::move(text);
        return true;
    } catch (const std::exception& e) {
        if (problem) *problem = e.what();
        return false;
    }
}

std::string ResetExercise(ExerciseFile* file, std::string_view start, std::string* problem) {
    std::string kept;
    if (!file->path.empty() && file->text != start) {
        try {
            uint64_t size = 0;
            int64_t mtime = 0;
            Stat(file->path + ".bak", &size, &mtime);  // throws where it is not a regular file
            WriteFileReplacing(file->path + ".bak", file->text);
            kept = file->path + ".bak";
        } catch (const std::exception& e) {
            if (problem) *problem = e.what();
            return {};  // nothing replaced: the student's text would be lost
        }
    }
    file->text = std::string(start);
    SaveExercise(file, problem);
    return kept;
}

}  // namespace lessons::app
