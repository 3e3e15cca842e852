// A student's kernel, compiled with NVRTC (loaded at run time: nvrtc_loader.h) for one GPU
// architecture: the input checked first (size, bytes, encoding, includes), then compiled with
// the options the exercise fixes, ptxas asked for each function's registers, spills and shared
// memory, and the compiler's log parsed into diagnostics with their lines. The compile itself
// runs in a child process within a time and a memory limit, so a source that makes NVRTC run for
// ever, take all memory or abort costs only that child. No CUDA header, no device: this runs on a
// machine without a GPU, and the GUI may link it.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lessons {

// The largest kernel file accepted.
constexpr size_t kMaxKernelSourceBytes = 256 * 1024;
// The longest line a kernel file may have, and the longest compiler log line that is read.
constexpr size_t kMaxKernelLineBytes = 4096;
constexpr size_t kMaxLogLineBytes = 16384;
// A compile's log is kept to this much (with a note of how much was cut), and its PTX to
// kMaxCompilePtxBytes: a reply to the GUI stays well under its 4 MiB line.
constexpr size_t kMaxCompileLogBytes = 64 * 1024;
constexpr size_t kMaxCompilePtxBytes = 1024 * 1024;
// Without a GPU (or where the caller knows none), kernels are compiled for the H100's sm_90.
constexpr int kDefaultKernelArch = 90;
// The file name the compiler's messages give the student's source.
constexpr const char* kKernelFileName = "kernel.cu";
// The file name of the lines the exercise adds (its check of the kernel's name and signature).
constexpr const char* kExerciseCheckFileName = "exercise-check";

// One message of the compiler about the student's file.
struct Diagnostic {
    std::string file;      // kKernelFileName, kExerciseCheckFileName, or "" (no file named)
    int line = 0;          // 1-based; 0 when the compiler named no line
    int column = 0;        // 1-based, from the compiler's caret; 0 when unknown
    std::string severity;  // "error" or "warning"
    std::string message;
};

// What ptxas reported for one compiled function.
struct KernelResources {
    std::string function;  // the name ptxas gives it (mangled, as the CUBIN holds it)
    bool entry = false;    // a __global__ function
    int registers = 0;
    int barriers = 0;
    int shared_bytes = 0;  // static shared memory
    int stack_bytes = 0;
    int spill_store_bytes = 0;
    int spill_load_bytes = 0;
};

// What an exercise fixes about the kernel the student writes.
struct KernelSpec {
    std::string kernel;                         // the __global__ function's name
    std::string signature;                      // its parameter types: "const float*, int"
    std::vector<std::string> allowed_includes;  // "cuda_fp16.h", ...; empty: no #include
    std::vector<std::string> options;           // NVRTC options besides the fixed ones
    // Declarations the harness's parameter types need (NVRTC has no <cstdint>): an in-memory
    // header included before the source, so the student's line numbers stay theirs. Empty: none.
    std::string prelude;
    // The CUDA toolkit's headers the prelude includes ("cuda_bf16.h"): NVRTC knows none, so the
    // compile adds the toolkit's include folder that holds them (ToolkitIncludeDir), or says
    // what to install when none does.
    std::vector<std::string> toolkit_headers;
    // "a": the kernel uses features of one architecture only (Hopper's wgmma and TMA, sm_90a):
    // it is compiled for sm_90a whatever GPU is present (a harness refuses to run it elsewhere).
    std::string arch_suffix;
};

// The first folder holding every one of `headers`, among the toolkit's include folders: beside
// the NVRTC library loaded (its ../include, ../../include), $CUDA_HOME/include,
// $CUDA_PATH/include, /usr/local/cuda/include, /usr/include. Empty when none does; `tried`
// (when given) gets the folders looked in.
std::string ToolkitIncludeDir(const std::vector<std::string>& headers,
                              std::vector<std::string>* tried = nullptr);

enum class CompileStatus {
    kOk,
    kRefused,      // the input was refused before compiling (message says why)
    kUnavailable,  // NVRTC is missing (message says what to install)
    kError,        // the compiler reported errors (diagnostics, log)
};
const char* ToString(CompileStatus status);

struct CompileResult {
    CompileStatus status = CompileStatus::kRefused;
    std::string message;  // kOk: empty; else a one-paragraph explanation
    std::string arch;     // "sm_90"
    std::string options;  // the options used, as one line
    std::string log;      // the compiler's log, at most kMaxCompileLogBytes and a note
    std::vector<Diagnostic> diagnostics;  // errors first; those beyond the bounds are counted:
    int omitted_errors = 0;               // in Errors() and Warnings(), not in diagnostics
    int omitted_warnings = 0;
    bool stopped = false;  // kError: stopped at a limit, or the compiler crashed (no diagnostics)
    std::string ptx;       // at most kMaxCompilePtxBytes and a note
    std::string cubin;     // binary (an ELF file); empty unless kOk
    std::string lowered_name;                // the kernel's symbol in the CUBIN
    KernelResources kernel;                  // the exercise's kernel (kOk)
    std::vector<KernelResources> functions;  // every function ptxas reported
    bool ok() const { return status == CompileStatus::kOk; }
    int Errors() const;
    int Warnings() const;
};

// Empty when `source` may be compiled; else why not: empty, larger than
// kMaxKernelSourceBytes, binary (a NUL byte), not valid UTF-8 (with the byte offset and line),
// or an #include (or #include_next, #import, #embed) of a header not in `allowed`, with its
// line, or __has_include/__has_embed or token pasting (which can build those names) anywhere
// outside comments and literals. The source is read as the compiler tokenizes it: comments,
// line continuations, ordinary and raw string literals, digit separators.
std::string CheckKernelSource(std::string_view source, const std::vector<std::string>& allowed);

// The compiler's log as diagnostics: "kernel.cu(12): error: identifier "x" is undefined" lines
// with the column read from the caret line that follows; `source` is the student's file (to
// find where the echoed line starts).
std::vector<Diagnostic> ParseDiagnostics(std::string_view log, std::string_view source);

// The ptxas -v lines of the log ("Compiling entry function", "Function properties for",
// "Used N registers, used B barriers, S bytes smem").
std::vector<KernelResources> ParsePtxasInfo(std::string_view log);

// Bounds on one compile. A student's source can make the compiler run for ever or take all
// memory (a 1.4 KB macro bomb does both), so the compile runs in a child process, stopped at
// `seconds` and given `memory_mib` of address space beyond what the program had mapped.
struct CompileLimits {
    double seconds = 120;
    uint64_t memory_mib = 2048;  // the exercises' own kernels need under 256
};
// Whether this system's kernel confines the compiling child's reads (Landlock, Linux 5.13 and
// later): there, NVRTC can read only the toolkit's include folder, its own folder and the
// system's libraries, whatever the source names. Elsewhere CheckKernelSource is the only wall.
bool CompileReadsConfined();

// The defaults, or CUDA_LESSONS_COMPILE_SECONDS (1 to 3600) and CUDA_LESSONS_COMPILE_MIB (64 and
// up) where set to a number in range.
CompileLimits DefaultCompileLimits();

// Compiles `source` for sm_<arch> (sm_90<suffix> when the spec names an arch_suffix) with the
// spec's options and checks that it defines the spec's kernel, a __global__ function with
// exactly the spec's parameter types. The compile runs in a child process (fork) within
// `limits`: one that takes longer or runs out of memory is stopped and reported as an error
// ("the compile took longer than 120 s and was stopped"), and one the compiler aborts on does
// not take this process with it. NVRTC is given only the exercise's headers: its prelude in
// memory and, where the exercise needs them, the toolkit's include folder; CheckKernelSource
// lets the student's file name no other file. Never throws for bad input: the status and
// message say what happened. Throws Cancelled when `cancel` is set during the compile (the
// child is killed at once).
CompileResult CompileKernel(std::string_view source, const KernelSpec& spec, int arch,
                            const std::atomic<bool>* cancel = nullptr,
                            const CompileLimits& limits = DefaultCompileLimits());

// "line 12, column 5: error: ..." lines for a terminal, naming `path` for the student's file.
std::string FormatDiagnostics(const CompileResult& result, const std::string& path);

}  // namespace lessons
