// The results recorded on reference GPUs (assets/reference/*.json and one folder per other GPU,
// embedded): what the GUI shows for GPU lessons on a machine without a GPU, and what the
// figures of a lesson page are read from (page.h). Headless: the CLI prints pages from them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "registry.h"
#include "report.h"
#include "result.h"

namespace lessons {

// The project's reference GPU: "Recorded on" shows its recordings unless another is chosen.
inline constexpr std::string_view kReferenceGpu = "NVIDIA H200";

// Every recorded GPU result (CPU lessons always run live). A file that is not a JSON array, or
// an entry that is not a result, is skipped and named in `problems`.
std::vector<RunResult> LoadRecordedResults(std::string* problems);

// The CPU steps' results recorded beside a GPU's (the GPU machine's host; the GUI runs CPU steps
// live and shows none of these, pages read them), loaded once; each names that GPU
// (RunResult::recorded_with).
const std::vector<RunResult>& RecordedCpuResults();

// The embedded files a chapter's results on `device` come from ("assets/reference/h200/
// reduce.json"), for a page's footer.
std::vector<std::string> RecordingFiles(std::string_view chapter, std::string_view device);

// The device information recorded with a reference GPU's results (assets/info/*.json, the
// object `info --format json` prints, with the time it was taken as "recorded_at"): its first
// device's name is `device`. Null when none was recorded, or the file does not parse.
Json RecordedDeviceInfo(std::string_view device);

// The key of the sources `lesson`'s kernel was compiled from in this build (the recorded SASS's
// key: cmake/MachineCodeScript.cmake); empty when the build has none (CPU steps, library calls
// with no kernel file of their own, a build without CUDA).
std::string CurrentSourceKey(const Lesson& lesson);

// Whether a recorded result was taken from other sources than this build's: it names a source
// key, and that key is not the current one. A result that names none cannot tell (recorded
// before keys were written) and is not called stale.
bool IsStale(const RunResult& recorded, const Registry& registry);

}  // namespace lessons
