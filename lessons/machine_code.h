// The machine code of every step: each hand-written kernel file's PTX and SASS, extracted at
// build time (cmake/MachineCode.cmake) and embedded in the catalogue, so the GUI (no CUDA)
// shows them. Beside it: the instruction classes a lesson is about (highlighted and counted
// in the code view) and the ncu command line that profiles the step with the metrics that
// matter for it.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "lesson.h"
#include "params.h"

namespace lessons {

struct MachineCodeFile {
    std::string_view ptx;   // empty: none was built
    std::string_view sass;  // cuobjdump -sass, the encodings dropped; empty: none
    const char* sass_note;  // why there is no SASS (empty when there is); "stale": the
                            // recording is of another version of this file
    // Empty: this build's cuobjdump. Else the recording's origin ("NVIDIA H100 80GB HBM3,
    // 2026-11-22T10:02Z, cuobjdump ... V13.0.88"): assets/sass/sm_90.tar.xz, recorded from a
    // build of the same sources by the same compiler.
    const char* sass_source;
    // The key of the sources this build compiled the file from (empty: no PTX was built).
    const char* source_key;
};

struct MachineCodeTable {
    const char* ptx_arch;   // "compute_90"; empty when nothing was built
    const char* sass_arch;  // "sm_90"; empty when no SASS was extracted
    const char* why_none;   // why the build has no machine code at all (no CUDA)
    std::map<std::string, MachineCodeFile> files;  // by source path, "kernels/reduce/cub.cu"
};

// Generated at build time.
const MachineCodeTable& MachineCodeFiles();

enum class Isa { kPtx, kSass };

// One kernel (a template instance counts apart) of a PTX or SASS listing.
struct MachineFunction {
    std::string mangled;    // as the listing names it
    std::string name;       // demangled
    std::string_view code;  // its lines
};
// The functions of a listing, in order (PTX: each .entry and .func; SASS: each "Function :").
std::vector<MachineFunction> SplitFunctions(std::string_view listing, Isa isa);

// An instruction class the code view can highlight and count.
struct InstructionClass {
    const char* name;  // "LDG.128"
    const char* what;  // in words, English
    const char* what_zh;
};
// Every class, in the order the code view lists them.
const std::vector<InstructionClass>& InstructionClasses();
// The class of one line of a listing, or nullptr. A line belongs to the most specific class
// (a 16-byte global load is LDG.128, not LDG).
const InstructionClass* ClassOfLine(std::string_view line, Isa isa);
// How many lines of `code` fall in each class (classes with none are left out).
std::map<std::string, int> CountClasses(std::string_view code, Isa isa);

// The instruction classes a lesson is about (highlighted in its code view): its row's `.focus`;
// a lesson that declares none gets the global loads and stores.
std::vector<std::string> FocusClasses(const Lesson& lesson);

// The names of the __global__ functions defined in `source` (`__global__ void NAME`, a
// `__launch_bounds__(...)` between them skipped), each once, in the order they appear.
std::vector<std::string> GlobalKernelNames(std::string_view source);

// The kernel names a lesson's step launches, found in its source, or in its previous lesson's
// when the step reuses that kernel (the overlapped chunks step); empty for a library step (CUB,
// Thrust choose their kernels).
std::vector<std::string> KernelNames(const Lesson& lesson, const Lesson* previous);

// The ncu metrics of a lesson's focus: time, DRAM and SM throughput always, then those of its
// focus classes (sectors per global load, shared-memory bank conflicts, branch uniformity,
// tensor pipes). A profile asks for these and the evidence counters (EvidenceMetrics,
// lessons/profile.h).
std::vector<std::string> NcuMetrics(const Lesson& lesson);

// The command line that profiles this step at these parameters, for a shell: the arguments the
// app's own profile runs (NcuArgs, lessons/profile.h: the same kernels, EvidenceMetrics, run
// settings), but with ncu printing its report. `cli` is how the CLI is called
// ("cuda-lessons-cli", or a path).
std::string NcuCommand(const Lesson& lesson, const Lesson* previous, const ParamValues& values,
                       const std::string& cli = "cuda-lessons-cli");

}  // namespace lessons
