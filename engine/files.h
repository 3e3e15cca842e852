// Reading and writing files without surprises: inputs must be regular files (a FIFO, a
// directory or a device is refused instead of blocking or reading as empty), every write,
// flush and close is checked, and a file is written under a temporary name beside its target
// and renamed into place, so a failed write never leaves a half-written file behind.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

namespace lessons {

// Size of the regular file at `path`. Opens without blocking (a FIFO with no writer does not
// hang) and throws UsageError naming the path when it cannot be opened or is not a regular
// file. `what` names the file in messages ("input file", "kernel file").
uint64_t RegularFileSize(const std::string& path, const char* what = "input file");

// Reads exactly `size` bytes of the regular file at `path` into `out`, in chunks; between
// chunks a set `cancel` flag throws Cancelled. Throws UsageError when the file cannot be
// opened, is not a regular file, or is shorter than `size` (it changed since it was measured),
// and FileError when a read fails.
void ReadRegularFile(const std::string& path, char* out, uint64_t size,
                     const std::atomic<bool>* cancel = nullptr, const char* what = "input file");

// Writes a file through `write`, which gets a stream to fill. A regular target (or a new one)
// is written to a temporary file in the same folder, flushed to disk and renamed over `path`;
// a regular target that is read-only (no write bit, or not writable by this user) is the
// user's and is refused with FileError, never replaced;
// an existing non-regular target (a terminal, /dev/stdout, a pipe) is written in place. Any
// failed write, flush, close or rename removes the temporary and throws FileError with the
// path and the reason; an exception from `write` removes it too and is passed on.
void WriteFileReplacing(const std::string& path, const std::function<void(std::ostream&)>& write);
void WriteFileReplacing(const std::string& path, std::string_view contents);

// Throws FileError (with the path and the reason) when `path` could not be written now by
// WriteFileReplacing: a directory, a dangling link, a read-only file, a path too long, or no
// folder this user can create a file in (the nearest existing folder above a missing one).
// For saying so before minutes of work whose result would be lost.
void CheckCanWrite(const std::string& path);

// Writes a new file at `path`: refused (UsageError) when anything is there already, whatever it
// is (an unreadable file, a FIFO, a link), without opening it; a failed write removes what it
// began. For files that may hold a user's work.
void WriteNewFile(const std::string& path, std::string_view contents);

// Flushes std::cout and stdout; throws FileError ("cannot write to standard output: ...") when
// anything written to them was lost (a full disk, /dev/full, a closed descriptor).
void FlushStandardOutput();

// Where the student's own file `name` is kept (progress.json, tunings.json):
// $XDG_DATA_HOME/cuda-lessons/<name>, else $HOME/.local/share/cuda-lessons/<name>; empty when
// neither is set. Relative values are ignored, as the XDG specification asks. `getenv` is
// replaceable for tests.
std::string UserDataPath(const std::string& name,
                         const std::function<const char*(const char*)>& getenv = {});

// At most `max_bytes` of `text` (cut at a UTF-8 character boundary), followed by "..." and
// the full length when it was cut: for quoting user input in messages.
std::string Excerpt(std::string_view text, size_t max_bytes = 80);

}  // namespace lessons
