// Tuning per machine: a step's launch shape (block size or tile) and, for CPU steps, its thread
// count, measured on this GPU model (or CPU) and remembered, so lessons open at what is fastest
// here. The user's tunings live in their data folder; the reference GPUs' ship with the
// program (assets/tunings/*.json, embedded). CUDA-free: the CLI's `tune` measures, the GUI
// opens lessons at the tuned values and says where they came from.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lesson.h"
#include "params.h"

namespace lessons {

struct Tuning {
    std::string id;       // the lesson's id
    std::string machine;  // the GPU model ("NVIDIA H200") or, for CPU steps, "CPU: <model>"
    ParamValues values;   // the tuned parameters only (block, tile or threads)
    ParamValues at;       // the other parameters it was measured at (size, m, n, ...)
    // The time compared: the median of the part the step's rates are over (the kernel of a GPU
    // step that copies too), else of the whole run.
    double best_ms = 0;     // at the tuned values
    double default_ms = 0;  // at the declared defaults, in the same run
    std::string when;       // UTC time of the tuning run
    std::string origin;     // "this machine" or "shipped" (set when read)
};

// The parameters `tune` varies: the launch shape (block or tile) of a step of its own kernels;
// a CPU step's thread count. Empty for a library step (the library picks its launch).
std::vector<std::string> TunedParams(const Lesson& lesson);

// The values of `param` a tuning run tries: every choice; block sizes and thread counts in
// doubling steps over the accepted range, with the largest accepted and the default besides.
std::vector<std::string> TuningCandidates(const ParamSpec& spec, const ParamValue& largest);

// $XDG_DATA_HOME/cuda-lessons/tunings.json, else $HOME/.local/share/cuda-lessons/tunings.json;
// empty when neither is set. `getenv` is replaceable for tests.
std::string TuningsPath(const std::function<const char*(const char*)>& getenv = {});

// The tunings in `path`. A missing file is none; a file that is not a regular file, is larger
// than 4 MiB, is not JSON or not a list gives none and a `problem`; entries of the wrong shape
// are skipped (counted in `problem`). At most kMaxTunings are read; SaveTuning keeps the newest
// kMaxTunings when a file is full, so a file this program wrote is never refused.
inline constexpr size_t kMaxTunings = 10000;
std::vector<Tuning> ReadTunings(const std::string& path, std::string* problem);
std::vector<Tuning> TuningsFromJson(const nlohmann::ordered_json& list, size_t* skipped);
nlohmann::ordered_json TuningToJson(const Tuning& tuning);

// Adds or replaces (same lesson, machine and measuring parameters) `tuning` in the file,
// keeping every other entry (and those it could not read: then it refuses, naming the problem,
// rather than lose them). Throws FileError / UsageError.
void SaveTuning(const std::string& path, const Tuning& tuning);

// The reference GPUs' tunings, embedded.
const std::vector<Tuning>& ShippedTunings();

// The tuning a lesson opens with on `machine`: the user's own first, then a shipped one; among
// several of one origin, the latest. None when nothing was tuned for that lesson there.
std::optional<Tuning> FindTuning(const Lesson& lesson, const std::string& machine,
                                 const std::vector<Tuning>& user);

}  // namespace lessons
