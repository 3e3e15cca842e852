// Exporting results: CSV (the report's columns, one per parameter, and "recorded") or JSON (an
// array of the report's objects), into files named by the local time. Everything but ExportResults
// is pure.
#pragma once

#include <ctime>
#include <string>
#include <vector>

#include "controller.h"

namespace lessons::app {

enum class ExportFormat { kCsv, kJson };

// The file's contents: every result, oldest first; CSV has a column per name in `param_names`.
std::string ExportText(const std::vector<StoredResult>& results, ExportFormat format,
                       const std::vector<std::string>& param_names);
// "results-20260321-142501.csv" (or .json) for local time `now`.
std::string ExportFileName(std::time_t now, ExportFormat format);
// "DIR/screenshot-1774099501.png".
std::string ScreenshotPath(const std::string& dir, std::time_t now);

// Writes ExportText into `dir` (created if missing) and returns the message for the user:
// "Exported N results to PATH" or "Could not write PATH".
std::string ExportResults(const std::string& dir, const std::vector<StoredResult>& results,
                          ExportFormat format, std::time_t now,
                          const std::vector<std::string>& param_names);

}  // namespace lessons::app
