#include "machine_code.h"

#include "catalog.h"
#include "profile.h"

#include <cxxabi.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <set>

namespace lessons {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

bool Contains(std::string_view s, std::string_view part) {
    return s.find(part) != std::string_view::npos;
}

std::string_view Trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

std::string Demangle(const std::string& mangled) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> out(
        abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), std::free);
    return status == 0 && out ? std::string(out.get()) : mangled;
}

// The opcode of an instruction line, with its modifiers ("LDG.E.128.CONSTANT",
// "ld.global.nc.v4.f32"); empty for anything else (labels, directives, comments).
std::string_view Opcode(std::string_view line, Isa isa) {
    if (isa == Isa::kSass) {
        // "        /*0090*/   @!P0 LDG.E.128.CONSTANT R4, desc[UR4][R2.64] ;"
        const size_t close = line.find("*/");
        if (close == std::string_view::npos || !Contains(line.substr(0, close), "/*")) return {};
        line = Trim(line.substr(close + 2));
    } else {
        line = Trim(line);
    }
    if (!line.empty() && line.front() == '@') {  // a predicate
        const size_t space = line.find_first_of(" \t");
        if (space == std::string_view::npos) return {};
        line = Trim(line.substr(space));
    }
    const size_t end = line.find_first_of(" \t;");
    const std::string_view op = line.substr(0, end);
    if (op.empty() || op.front() == '.' || op.front() == '/' || op.back() == ':') return {};
    return op;
}

bool Wide(std::string_view op, Isa isa) {
    if (isa == Isa::kSass) return Contains(op, ".128");
    for (const char* v : {".v4.f32", ".v4.u32", ".v4.b32", ".v4.s32", ".v2.f64", ".v2.u64",
                          ".v2.b64", ".v2.s64", ".b128"})
        if (Contains(op, v)) return true;
    return false;
}

}  // namespace

std::vector<MachineFunction> SplitFunctions(std::string_view listing, Isa isa) {
    std::vector<MachineFunction> out;
    size_t start = std::string_view::npos;
    auto close = [&](size_t end) {
        if (start != std::string_view::npos && !out.empty())
            out.back().code = listing.substr(start, end - start);
    };
    size_t pos = 0;
    while (pos < listing.size()) {
        size_t eol = listing.find('\n', pos);
        if (eol == std::string_view::npos) eol = listing.size();
        const std::string_view line = Trim(listing.substr(pos, eol - pos));
        std::string name;
        if (isa == Isa::kSass) {
            if (StartsWith(line, "Function :")) name = std::string(Trim(line.substr(10)));
        } else {
            // ".visible .entry NAME(" or ".func (...) NAME(" at the start of a line
            for (const char* key : {".entry ", ".func "}) {
                const size_t at = line.find(key);
                if (at == std::string_view::npos || Contains(line.substr(0, at), ";")) continue;
                std::string_view rest = Trim(line.substr(at + std::string_view(key).size()));
                if (!rest.empty() && rest.front() == '(') {  // .func (.param ...) NAME(
                    const size_t paren = rest.find(')');
                    rest = paren == std::string_view::npos ? std::string_view()
                                                           : Trim(rest.substr(paren + 1));
                }
                name = std::string(rest.substr(0, rest.find_first_of("( \t")));
                break;
            }
            if (StartsWith(line, ".extern") || StartsWith(line, "//")) name.clear();
        }
        if (!name.empty()) {
            close(pos);
            out.push_back({name, Demangle(name), {}});
            start = pos;
        }
        pos = eol + 1;
    }
    close(listing.size());
    return out;
}

const std::vector<InstructionClass>& InstructionClasses() {
    static const std::vector<InstructionClass> kClasses = {
        {"TMA", "tensor-memory-accelerator bulk copies (cp.async.bulk: UTMALDG, UTMASTG, UBLKCP)",
         "张量内存加速器的批量拷贝（cp.async.bulk：UTMALDG、UTMASTG、UBLKCP）"},
        {"CP.ASYNC", "asynchronous global-to-shared copies (cp.async: LDGSTS, LDGDEPBAR, DEPBAR)",
         "全局内存到共享内存的异步拷贝（cp.async：LDGSTS、LDGDEPBAR、DEPBAR）"},
        {"LDG.128", "16-byte global loads (LDG.E.128, ld.global.v4)",
         "16 字节全局内存加载（LDG.E.128，ld.global.v4）"},
        {"LDG", "narrower global loads", "较窄的全局内存加载"},
        {"STG.128", "16-byte global stores", "16 字节全局内存存储"},
        {"STG", "narrower global stores", "较窄的全局内存存储"},
        {"LDSM", "matrix fragments loaded from shared memory (ldmatrix: LDSM)",
         "从共享内存加载矩阵片段（ldmatrix：LDSM）"},
        {"LDS", "shared-memory loads", "共享内存加载"},
        {"STS", "shared-memory stores", "共享内存存储"},
        {"BAR", "block barriers (__syncthreads: BAR.SYNC, bar.sync)",
         "线程块屏障（__syncthreads：BAR.SYNC，bar.sync）"},
        {"SHFL", "warp shuffles (__shfl_*_sync)", "线程束洗牌（__shfl_*_sync）"},
        {"ATOM", "atomics (ATOM, RED, atom., red.)", "原子操作（ATOM、RED、atom.、red.）"},
        {"HMMA", "warp-level tensor-core matrix multiply-add (HMMA: mma, wmma)",
         "线程束级张量核心矩阵乘加（HMMA：mma、wmma）"},
        {"HGMMA", "warpgroup tensor-core matrix multiply-add from shared memory (HGMMA: wgmma)",
         "线程束组级、从共享内存读操作数的张量核心矩阵乘加（HGMMA：wgmma）"},
        {"WARPGROUP", "wgmma's fences and waits (WARPGROUP.ARRIVE, WARPGROUP.DEPBAR)",
         "wgmma 的栅栏与等待（WARPGROUP.ARRIVE、WARPGROUP.DEPBAR）"},
        {"SYNCS", "mbarrier operations: arrive, expect bytes, wait on a phase (SYNCS)",
         "mbarrier 操作：到达、登记字节数、等待相位（SYNCS）"},
        {"SETMAXNREG", "registers moved between warpgroups (setmaxnreg: USETMAXREG)",
         "在线程束组之间调配寄存器（setmaxnreg：USETMAXREG）"},
        {"BRA", "branches and reconvergence (BRA, BSSY, BSYNC)",
         "分支与重新汇合（BRA、BSSY、BSYNC）"},
        {"VOTE", "warp votes (__ballot_sync)", "线程束投票（__ballot_sync）"},
        {"FP32", "fp32 adds, multiplies and FMAs", "fp32 加法、乘法与 FMA"},
    };
    return kClasses;
}

const InstructionClass* ClassOfLine(std::string_view line, Isa isa) {
    const std::string_view op = Opcode(line, isa);
    if (op.empty()) return nullptr;
    const auto& c = InstructionClasses();
    auto named = [&](std::string_view name) -> const InstructionClass* {
        for (const InstructionClass& k : c)
            if (name == k.name) return &k;
        return nullptr;
    };
    const bool sass = isa == Isa::kSass;
    // Before CP.ASYNC: TMA's PTX is cp.async.bulk.
    if (sass ? StartsWith(op, "UTMALDG") || StartsWith(op, "UTMASTG") || StartsWith(op, "UTMAPF") ||
                   StartsWith(op, "UTMACCTL") || StartsWith(op, "UBLKCP") ||
                   StartsWith(op, "UBLKRED")
             : StartsWith(op, "cp.async.bulk") || StartsWith(op, "cp.reduce.async.bulk"))
        return named("TMA");
    // Before LDG: the SASS of cp.async starts with LDG too (LDGSTS, LDGDEPBAR).
    if (sass ? StartsWith(op, "LDGSTS") || StartsWith(op, "LDGDEPBAR") || StartsWith(op, "DEPBAR")
             : StartsWith(op, "cp.async"))
        return named("CP.ASYNC");
    if (sass ? StartsWith(op, "LDG") : StartsWith(op, "ld.global"))
        return named(Wide(op, isa) ? "LDG.128" : "LDG");
    if (sass ? StartsWith(op, "STG") : StartsWith(op, "st.global"))
        return named(Wide(op, isa) ? "STG.128" : "STG");
    // Before LDS: ldmatrix's SASS starts with LDS too.
    if (sass ? StartsWith(op, "LDSM") : StartsWith(op, "ldmatrix")) return named("LDSM");
    if (sass ? StartsWith(op, "LDS") : StartsWith(op, "ld.shared")) return named("LDS");
    if (sass ? StartsWith(op, "STS") : StartsWith(op, "st.shared")) return named("STS");
    if (sass ? StartsWith(op, "BAR") : StartsWith(op, "bar.") || StartsWith(op, "barrier."))
        return named("BAR");
    if (sass ? StartsWith(op, "SHFL") : StartsWith(op, "shfl.")) return named("SHFL");
    if (sass ? StartsWith(op, "ATOM") || op == "RED" || StartsWith(op, "RED.")
             : StartsWith(op, "atom.") || StartsWith(op, "red."))
        return named("ATOM");
    if (sass ? StartsWith(op, "HMMA") : StartsWith(op, "mma.") || StartsWith(op, "wmma."))
        return named("HMMA");
    if (sass ? StartsWith(op, "HGMMA") : StartsWith(op, "wgmma.mma_async")) return named("HGMMA");
    if (sass ? StartsWith(op, "WARPGROUP") : StartsWith(op, "wgmma.")) return named("WARPGROUP");
    if (sass ? StartsWith(op, "SYNCS") : StartsWith(op, "mbarrier.")) return named("SYNCS");
    if (sass ? StartsWith(op, "USETMAXREG") : StartsWith(op, "setmaxnreg."))
        return named("SETMAXNREG");
    if (sass ? op == "BRA" || StartsWith(op, "BRA.") || StartsWith(op, "BSSY") ||
                   StartsWith(op, "BSYNC")
             : op == "bra" || StartsWith(op, "bra."))
        return named("BRA");
    if (sass ? StartsWith(op, "VOTE") : StartsWith(op, "vote.")) return named("VOTE");
    if (sass ? StartsWith(op, "FFMA") || StartsWith(op, "FADD") || StartsWith(op, "FMUL")
             : (StartsWith(op, "fma.") || StartsWith(op, "add.") || StartsWith(op, "mul.") ||
                StartsWith(op, "sub.")) &&
                   Contains(op, ".f32"))
        return named("FP32");
    return nullptr;
}

std::map<std::string, int> CountClasses(std::string_view code, Isa isa) {
    std::map<std::string, int> counts;
    size_t pos = 0;
    while (pos < code.size()) {
        size_t eol = code.find('\n', pos);
        if (eol == std::string_view::npos) eol = code.size();
        if (const InstructionClass* c = ClassOfLine(code.substr(pos, eol - pos), isa))
            ++counts[c->name];
        pos = eol + 1;
    }
    return counts;
}

std::vector<std::string> FocusClasses(const Lesson& lesson) {
    // What the step is about, in instructions: its row's `.focus`; without one, the global
    // loads and stores.
    return lesson.focus.empty() ? std::vector<std::string>{"LDG", "STG"} : lesson.focus;
}

std::vector<std::string> GlobalKernelNames(std::string_view source) {
    std::vector<std::string> names;
    std::set<std::string> seen;
    const std::string_view key = "__global__ void ";
    for (size_t at = source.find(key); at != std::string_view::npos;
         at = source.find(key, at + 1)) {
        std::string_view rest = source.substr(at + key.size());
        // "__global__ void __launch_bounds__(BM * BN) name(...)": the name follows the bounds.
        const std::string_view bounds = "__launch_bounds__(";
        if (rest.substr(0, bounds.size()) == bounds) {
            int depth = 0;
            size_t i = bounds.size() - 1;
            for (; i < rest.size(); ++i) {
                if (rest[i] == '(') ++depth;
                if (rest[i] == ')' && --depth == 0) break;
            }
            rest = rest.substr(std::min(rest.size(), i + 1));
            rest = rest.substr(std::min(rest.size(), rest.find_first_not_of(" \n")));
        }
        const std::string name(rest.substr(0, rest.find_first_of("(< \n")));
        if (!name.empty() && seen.insert(name).second) names.push_back(name);
    }
    return names;
}

std::vector<std::string> KernelNames(const Lesson& lesson, const Lesson* previous) {
    // A step without kernels of its own (a host-side step over another lesson's kernel, such as
    // the overlapped chunks or the multi-GPU steps) shows the nearest earlier step's; a library
    // step (CUB, cuBLAS) has none.
    const Lesson* step = &lesson;
    for (int hops = 0; step && hops < 8; ++hops) {
        if (step->library && step == &lesson) return {};
        std::vector<std::string> names = GlobalKernelNames(step->source);
        if (!names.empty()) return names;
        const Lesson* next = step == &lesson ? previous : Catalog().FindLesson(step->previous);
        if (next == step) break;
        step = next;
    }
    return {};
}

std::vector<std::string> NcuMetrics(const Lesson& lesson) {
    std::vector<std::string> m = {"gpu__time_duration.sum",
                                  "dram__throughput.avg.pct_of_peak_sustained_elapsed",
                                  "sm__throughput.avg.pct_of_peak_sustained_elapsed"};
    auto add = [&](const char* metric) {
        if (std::find(m.begin(), m.end(), metric) == m.end()) m.push_back(metric);
    };
    for (const std::string& c : FocusClasses(lesson)) {
        if (c == "LDG" || c == "LDG.128" || c == "CP.ASYNC") {
            add("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
            add("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
            // The 128-byte lines the loads touch (L1's tag lookups) and the sectors found in L1.
            add("l1tex__t_set_accesses_pipe_lsu_mem_global_op_ld.sum");
            add("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum");
        } else if (c == "STG" || c == "STG.128") {
            add("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum");
            add("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum");
            add("l1tex__t_set_accesses_pipe_lsu_mem_global_op_st.sum");
        } else if (c == "LDS" || c == "STS" || c == "LDSM") {
            add("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
            add("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum");
        } else if (c == "BRA") {
            add("smsp__sass_average_branch_targets_threads_uniform.pct");
        } else if (c == "SHFL" || c == "BAR") {
            add("smsp__average_warp_latency_issue_stalled_barrier.ratio");
            add("smsp__inst_executed.sum");
        } else if (c == "ATOM") {
            add("l1tex__t_set_accesses_pipe_lsu_mem_global_op_atom.sum");
            add("lts__t_sectors_op_red.sum");
        } else if (c == "HMMA") {
            add("sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active");
        } else if (c == "HGMMA") {
            // The tensor pipe's busy share counts HGMMA too (ncu: "HMMA/HFMA2.MMA/HGMMA/QGMMA
            // ops"); its gmma-only cycles metric answers n/a on the H100 (ncu 2025.3, 2026-11-27),
            // so the warpgroup multiplies are counted by instructions.
            add("sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active");
            add("sm__inst_executed_pipe_tensor_op_gmma.sum");
        } else if (c == "FP32") {
            add("sm__sass_thread_inst_executed_op_ffma_pred_on.sum");
        }
    }
    return m;
}

namespace {

// An argument as a POSIX shell reads it back: as it is when plain, else in single quotes.
std::string ShellWord(const std::string& arg) {
    const bool plain = !arg.empty() && std::all_of(arg.begin(), arg.end(), [](char ch) {
        return std::isalnum(static_cast<unsigned char>(ch)) ||
               (ch && std::strchr("._-+/=:,@%", ch));
    });
    if (plain) return arg;
    std::string quoted = "'";
    for (char ch : arg) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    return quoted + "'";
}

}  // namespace

std::string NcuCommand(const Lesson& lesson, const Lesson* previous, const ParamValues& values,
                       const std::string& cli) {
    // The very arguments the app's profile runs (NcuArgs), but for where ncu writes its report.
    std::string cmd;
    for (const std::string& arg : NcuArgs("ncu", lesson, previous, values, cli, ""))
        cmd += (cmd.empty() ? "" : " ") + ShellWord(arg);
    return cmd;
}

}  // namespace lessons
