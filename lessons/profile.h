// Profiling a step with NVIDIA Nsight Compute (ncu), the real profiler: where ncu is, the
// command that profiles a step at given parameters, its CSV report parsed into counters per
// kernel, what went wrong when it refused, and the counters recorded on the reference GPU.
// CUDA-free: the CLI runs the command (cli/profile.cpp); the GUI shows what comes back.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "lesson.h"
#include "params.h"

namespace lessons {

// One counter of one kernel launch, as ncu reported it (--print-units base: bytes, ns, %).
struct NcuCounter {
    std::string name;
    std::string unit;
    std::optional<double> value;  // empty where ncu printed text ("n/a", a name)
    std::string text;             // as printed
};

// One profiled kernel launch.
struct ProfiledKernel {
    int id = -1;  // ncu's launch ID, in launch order
    std::string name;
    std::string block, grid;  // "(256, 1, 1)", as printed
    std::vector<NcuCounter> counters;
    const NcuCounter* Find(std::string_view metric) const;
};

// Where ncu is: CUDA_LESSONS_NCU (must be an executable file), else `ncu` on PATH, else
// $CUDA_HOME/bin/ncu, else /usr/local/cuda/bin/ncu. `looked` lists every place tried, for the
// message when none is there. `getenv` is replaceable for tests.
std::optional<std::string> FindNcu(std::string* looked,
                                   const std::function<const char*(const char*)>& getenv = {});

// The counters a step's evidence needs: the time, DRAM bytes read and written, the L2 hit
// rate, achieved occupancy with registers and the occupancy limits, issue-slot use, the
// instruction count, active lanes per instruction (divergence), the main warp-stall reasons,
// then those of the step's focus (NcuMetrics: sectors per request, bank conflicts, tensor
// pipes, ...).
std::vector<std::string> EvidenceMetrics(const Lesson& lesson);

// The argument vector (no shell) that profiles `lesson` at `values`: ncu --clock-control none
// --print-units base, limited to the step's kernels where they are known, asking for
// EvidenceMetrics, running `cli` run <id> --set ... --no-ceilings --reps 1. With a `log_file`
// (what the app runs, RunNcu) ncu writes its report there as CSV and the run answers in JSON;
// without one (the command a student copies, NcuCommand) ncu prints its report. Nothing else
// differs: the one builder of both.
std::vector<std::string> NcuArgs(const std::string& ncu, const Lesson& lesson,
                                 const Lesson* previous, const ParamValues& values,
                                 const std::string& cli, const std::string& log_file);

// ncu's CSV report (the long form: one row per kernel launch and metric, with "ID", "Kernel
// Name", "Metric Name", "Metric Unit" and "Metric Value" columns), among ncu's own ==PROF==
// lines and anything else, which are skipped. Rows that do not fit the header are skipped.
// Values may carry thousands separators ("1,073,741,824"); they are read as numbers. Bounded
// whatever the report holds: at most kMaxProfiledKernels launches and kMaxCountersPerKernel
// counters each are kept (a step's report has a few of each), in time linear in its rows.
inline constexpr size_t kMaxProfiledKernels = 1024;
inline constexpr size_t kMaxCountersPerKernel = 4096;
std::vector<ProfiledKernel> ParseNcuCsv(std::string_view text);

// Why a profile gave nothing, from ncu's output and exit status, or "" when it worked: the
// driver refusing counters to this user (ERR_NVGPUCTRPERM, with how to allow them), no kernel
// profiled, or ncu's own error lines.
std::string NcuFailure(std::string_view output, int exit_status, size_t kernels_found);

// A profile as JSON: {"lesson", "id", "params", "source": "live"|"recorded", "device",
// "recorded_at", "kernels": [{"id", "name", "block", "grid", "counters": {name: {"value",
// "unit"}}}]}.
nlohmann::ordered_json ProfileToJson(const Lesson& lesson, const ParamValues& values,
                                     const std::vector<ProfiledKernel>& kernels,
                                     const std::string& device, const std::string& when);
std::vector<ProfiledKernel> KernelsFromJson(const nlohmann::ordered_json& profile);

// One live profile: ncu run as a child process (in a process group of its own, stdout
// discarded, LC_ALL=C), its report read back from a temporary file (at most 64 MiB) and
// parsed. It stops ncu and the step after `timeout_s`, or when `cancel` is set (checked every
// 50 ms); `tick` is called about once a second with the seconds elapsed.
struct NcuRun {
    std::vector<ProfiledKernel> kernels;
    std::string failure;      // NcuFailure's reason, a timeout, or "" when it worked
    std::string stderr_text;  // what the profiled run wrote (its own errors), bounded
    bool cancelled = false;
    bool timed_out = false;
};
NcuRun RunNcu(const std::string& ncu, const Lesson& lesson, const Lesson* previous,
              const ParamValues& values, const std::string& cli, double timeout_s,
              const std::atomic<bool>* cancel, const std::function<void(int seconds)>& tick = {});

// This program's own path (/proc/self/exe), the `cli` ncu runs.
std::string SelfPath();

// The recorded profiles (assets/counters/<chapter>.json, then another reference GPU's
// assets/counters/<gpu>/<chapter>.json, embedded; at the same match the first's): the one of this
// lesson recorded at these parameters, else at these parameters but another data size, else at its
// defaults, else at its defaults but another data size, else none. `problem` says why there is
// none.
std::optional<nlohmann::ordered_json> FindRecordedProfile(const Lesson& lesson,
                                                          const ParamValues& values,
                                                          std::string* problem);
// The parameters a recorded profile was taken at with other values than `values` (the page's),
// with the recorded values: what the page must say of recorded counters it shows. Empty for a
// profile of these very settings.
ParamValues RecordedAtOtherSettings(const Lesson& lesson, const ParamValues& values,
                                    const nlohmann::ordered_json& profile);

}  // namespace lessons
