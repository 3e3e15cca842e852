// Exporting results: CSV (the report's columns and "recorded") or JSON (an array of the
// report's objects), into files named by the local time. Everything but ExportResults is
// pure.
#pragma once

#include <ctime>
#include <string>
#include <vector>

#include "controller.h"

namespace lessons::app {

enum class ExportFormat { kCsv, kJson };

// The file's contents: every result, oldest first.
std::string ExportText(const std::vector<StoredResult>& results, ExportFormat format);
// "results-20260321-142501.csv" (or .json) for local time `now`.
std::string ExportFileName(std::time_t now, ExportFormat format);
// "DIR/screenshot-1774099501.png".
std::string ScreenshotPath(const std::string& dir, std::time_t now);

// Writes ExportText into `dir` (created if missing) and returns the message for the user:
// "Exported N results to PATH" or "Could not write PATH".
std::string ExportResults(const std::string& dir, const std::vector<StoredResult>& results,
                          ExportFormat format, std::time_t now);

}  // namespace lessons::app
