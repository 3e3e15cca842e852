// The step's change in a student's kernel (issue 41): a third verdict of `check`, beside "right"
// (every hidden case) and "speed" (the step's own time). Several steps teach that a change does
// not pay (1.7: staging in shared memory buys nothing), so neither correctness nor speed can tell
// an unchanged starting file from the solution; this verdict looks at what the kernel *does*.
//
// How: the step's starting file and its solution (the lesson's own kernel, SolutionOf) are
// compiled with NVRTC as the student's file is, and the instruction families of each PTX are
// counted (shared memory, barriers, warp shuffles, vector global accesses, cp.async, TMA,
// mbarrier, ldmatrix, mma.sync, wmma, wgmma, setmaxnreg, ex2.approx, atomics, ...:
// InstructionFamilies). The step's change is the families the solution has and the start lacks;
// the student's kernel must have every one of them. Nothing is typed per exercise: a new exercise
// gets its change from its two files.
//
// Where the start and the solution use the same families (5.2's swapped indices, 5.5's
// TM x TN outputs per thread: the change is in the arithmetic, not in a kind of instruction), the
// verdict compares instruction mixes (basis "instruction-mix"). A kernel's mix counts each PTX
// instruction by its opcode and by what its operands are computed from: the thread and block
// indices (%tid.x, %ctaid.y, ...) and the kernel's parameters, followed through the registers
// that carry them (InstructionMixOf). Register numbers, statement order, names and comments do
// not change a mix; swapping which index picks a row (5.2), loading twice per thread (3.4),
// walking k once for TM x TN sums (5.5) or reading a row once (9.4) do. Each instruction weighs
// by the loops it is in and the mix is taken as shares, so that a loop the compiler unrolls (or
// a student's #pragma unroll) moves nothing. The step's change is the solution's shares less the
// start's; the student's kernel has made the part of it that its own shares less the start's
// project onto it (0 for the start, 1 for the solution), and it must have made at least
// kMixShareNeeded of it. Only where even the mixes are the same is the criterion
// the weakest, "not the start" (its PTX differs from the start's).
// The check never needs a GPU for this: NVRTC alone.
#pragma once

#include <atomic>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "exercise.h"
#include "kernel_compile.h"

namespace lessons {

struct InstructionFamily {
    std::string id;                   // "shfl"
    std::string name, name_zh;        // "warp shuffles (shfl.sync: __shfl_*_sync)"
    std::string missing, missing_zh;  // what a kernel without them still does, in plain words
};

// Every family counted, in the order they are shown.
const std::vector<InstructionFamily>& InstructionFamilies();
const InstructionFamily* FindFamily(std::string_view id);

// The families (ids) whose instructions `ptx` holds.
std::set<std::string> FamiliesIn(std::string_view ptx);
// `ptx` without comments, .loc/.file line records and spacing: two kernels that differ only in
// comments and layout give the same text.
std::string NormalizedPtx(std::string_view ptx);

// A kernel's instruction mix: each instruction's opcode ("fma.rn.f32") with the sources its
// operands depend on ("ld.global.f32 from ctaid.x, ntid.x, param0, tid.x"), each counted with
// its weight: kLoopWeight to the power of the loops it is in (a branch back to an earlier label
// closes a loop), so that the mix estimates what runs, and a loop unrolled by the compiler weighs
// about as much as the loop did. The sources are the special registers read (%tid.x ...), the
// kernel's parameters by position (param0 ...) and, through each register, the sources of every
// instruction that wrote it (flow-insensitive: a loop's register has the sources of all its
// writes). A guard's predicate is a source of what it guards. Branches, returns and register
// copies (a mov that reads no special register or parameter) carry sources on but are not
// counted: they are the compiler's layout of the code (an if written two ways), not what it
// computes.
using InstructionMix = std::map<std::string, double>;
constexpr double kLoopWeight = 8;
InstructionMix InstructionMixOf(std::string_view ptx);
// The mix as shares of its total weight (summing to 1; empty for an empty mix).
InstructionMix MixShares(const InstructionMix& mix);
// The share of the step's change that `yours` has made, on the mixes' shares (MixShares: a
// kernel that only unrolls a loop keeps its shares): the projection of (yours - start) onto
// (solution - start), over the latter's squared length. 0 for the start, 1 for the solution; what
// lies off the change's direction counts for nothing; NaN where the start's and the solution's
// shares are the same.
double ShareOfChange(const InstructionMix& start, const InstructionMix& solution,
                     const InstructionMix& yours);
// The share a student's kernel must have made.
constexpr double kMixShareNeeded = 0.5;

// A step's change, from its starting file and its solution.
struct StepChange {
    bool known = false;                 // both compiled
    std::string why_unknown;            // where not: which one did not compile, and why
    std::vector<std::string> required;  // family ids: in the solution, not in the start
    std::set<std::string> start_families, solution_families;
    std::string start_ptx;     // NormalizedPtx of the start (released from its #error line)
    std::string solution_ptx;  // NormalizedPtx of the solution
    InstructionMix start_mix, solution_mix;
};

// The start without its `#error "exercise ..."` line (exercise.h, HeldBack).
std::string ReleasedStart(std::string_view start);

// Compiles the exercise's start (released) and solution with `spec` for `arch` and compares them.
// Cached per lesson and arch in this process. Never throws for a compile that fails (known =
// false says so); throws Cancelled when `cancel` is set.
StepChange StepChangeOf(const Exercise& exercise, const Lesson& lesson, const KernelSpec& spec,
                        int arch, const std::atomic<bool>* cancel = nullptr);
// The same from the two PTX texts (tests; StepChangeOf's core).
StepChange StepChangeFromPtx(std::string_view start_ptx, std::string_view solution_ptx);

struct ChangeVerdict {
    bool judged = false;   // false: the step's change is not known (why_not)
    bool present = false;  // the change is in the student's kernel
    // "families"; "instruction-mix" (no family tells them apart); or "not-the-start" (not even
    // the instruction mix does).
    std::string basis;
    std::vector<std::string> required;        // family ids (basis "families")
    std::vector<std::string> found, missing;  // ... those in the student's kernel, and not
    bool same_as_start = false;               // the student's PTX is the start's
    // Basis "instruction-mix": the share of the step's change made (ShareOfChange), and the
    // instructions the step changes most, each with its share of the mix (MixShares) in the
    // start, the step's kernel and the student's (at most kMixChangesShown).
    double mix_share = 0;
    struct MixChange {
        std::string instruction;  // InstructionMixOf's key
        double start = 0, solution = 0, yours = 0;
    };
    std::vector<MixChange> mix_changes;
    std::string why_not, why_not_zh;
};

constexpr size_t kMixChangesShown = 3;

ChangeVerdict JudgeChange(const StepChange& change, std::string_view student_ptx);
// "the step's change: warp shuffles (shfl.sync) — found", or what is missing, in plain words;
// several lines (each ends with '\n').
std::string ChangeText(const ChangeVerdict& v, bool zh);
nlohmann::ordered_json ToJson(const ChangeVerdict& v);

}  // namespace lessons
