// The CLI's subcommands. Each returns the process exit code:
// 0 ok, 1 a wrong result or a failed run, 2 bad arguments.
#pragma once

#include <string>

#include "runner.h"

namespace lessons::cli {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;

// Ctrl-C: stops the run in progress at its next sample.
void RequestCancel();

enum class Format { kTable, kJson, kCsv };
Format ParseFormat(const std::string& text);  // throws UsageError

int List(Format format);
int Info(Format format);
int Run(const std::string& lesson, const RunOptions& options, Format format);
int Sweep(const std::string& lesson, const RunOptions& options, const std::string& blocks,
          const std::string& sizes, Format format);
int Bench(const std::string& chapter, const RunOptions& options, Format format);

}  // namespace lessons::cli
