// Exporting results: CSV (the report's columns, one per parameter, and "recorded") or JSON (an
// array of the report's objects), into files named by the local time. Everything but ExportResults
// is pure.
#pragma once

#include <ctime>
#include <string>
#include <string_view>
#include <vector>

#include "model/results_store.h"

namespace lessons::app {

enum class ExportFormat { kCsv, kJson };

// The file's contents: every result, oldest first; CSV has a column per name in `param_names`.
std::string ExportText(const std::vector<StoredResult>& results, ExportFormat format,
                       const std::vector<std::string>& param_names);
// "results-20260321-142501.csv" (or .json) for local time `now`.
std::string ExportFileName(std::time_t now, ExportFormat format);
// "DIR/screenshot-1774099501.png".
std::string ScreenshotPath(const std::string& dir, std::time_t now);

// Where exports and screenshots go: $HOME/cuda-lessons-exports; without HOME,
// $XDG_DATA_HOME/cuda-lessons-exports, else /tmp/cuda-lessons-UID (never the root folder).
// `notice` says where when HOME is not set, and is emptied otherwise.
std::string DefaultExportDir(const char* home, const char* xdg_data_home, unsigned uid,
                             std::string* notice);

// WriteFileReplacing (engine/files.h) that says instead of throwing: false with the reason
// after `prefix` in `error` when the file could not be written.
bool WriteReplacing(const std::string& path, std::string_view contents, std::string* error,
                    const std::string& prefix = "");

// Creates `dir` and its missing parents; false with `error` set when it cannot.
bool MakeFolders(const std::string& dir, std::string* error);

// Writes ExportText into `dir` (created if missing) through a temporary file renamed into place,
// and returns the message for the user: "Exported N results to PATH" or "Could not write PATH:
// REASON" (nothing is left under PATH then).
std::string ExportResults(const std::string& dir, const std::vector<StoredResult>& results,
                          ExportFormat format, std::time_t now,
                          const std::vector<std::string>& param_names);

// Writes a PNG of `width` x `height` RGBA pixels whose first row is the image's bottom one (as
// OpenGL reads them) through a temporary file renamed into place; false with `error` (the path
// and the reason) when it cannot, leaving nothing under `path`.
bool WritePng(const std::string& path, int width, int height, const unsigned char* pixels,
              std::string* error);

}  // namespace lessons::app
