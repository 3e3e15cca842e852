#include "kernel_change.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <map>
#include <mutex>
#include <utility>

#include "report.h"
#include "text_lines.h"

namespace lessons {

using json = nlohmann::ordered_json;

const std::vector<InstructionFamily>& InstructionFamilies() {
    static const std::vector<InstructionFamily> families = {
        {"global_load", "global memory reads (ld.global)", "全局内存读取（ld.global）",
         "your kernel reads nothing from global memory: it does not read its input yet",
         "你的 kernel 没有读取全局内存：它还没有读输入"},
        {"global_store", "global memory writes (st.global)", "全局内存写入（st.global）",
         "your kernel writes nothing to global memory: it does not write its result yet",
         "你的 kernel 没有写全局内存：它还没有写出结果"},
        {"shared", "shared memory (ld/st.shared: __shared__)",
         "共享内存（ld/st.shared：__shared__）",
         "your kernel does not stage data in shared memory (__shared__): it still reads what it "
         "needs from global memory",
         "你的 kernel 没有把数据放进共享内存（__shared__）：它仍然从全局内存读取所需的数据"},
        {"barrier", "block barriers (bar.sync: __syncthreads)",
         "线程块屏障（bar.sync：__syncthreads）",
         "your kernel has no __syncthreads(): the threads of a block never wait for each other",
         "你的 kernel 没有 __syncthreads()：同一线程块的线程从不互相等待"},
        {"shfl", "warp shuffles (shfl.sync: __shfl_*_sync)",
         "warp 洗牌（shfl.sync：__shfl_*_sync）",
         "your kernel passes no value between the lanes of a warp with __shfl_*_sync: it still "
         "goes through shared or global memory",
         "你的 kernel 没有用 __shfl_*_sync 在 warp 的各 lane "
         "之间传值：它仍然经过共享内存或全局内存"},
        {"dsmem", "distributed shared memory (mapa, ld/st.shared::cluster, st.async)",
         "分布式共享内存（mapa、ld/st.shared::cluster、st.async）",
         "your kernel never reaches another block's shared memory: the blocks of a cluster still "
         "share nothing but global memory",
         "你的 kernel 从不访问另一个线程块的共享内存：簇中的线程块之间仍然只通过全局内存共享数据"},
        {"vote", "warp votes and reductions (vote/redux/match.sync: __ballot_sync ...)",
         "warp 投票与归约（vote/redux/match.sync：__ballot_sync 等）",
         "your kernel asks the warp nothing at once (no __ballot_sync, __any_sync or "
         "__reduce_*_sync): each thread still decides alone",
         "你的 kernel 没有一次询问整个 warp（没有 __ballot_sync、__any_sync 或 "
         "__reduce_*_sync）：每个线程仍然各自决定"},
        {"vec_global", "vector global accesses (ld/st.global.v2/.v4: float4, uint4 ...)",
         "向量化全局访问（ld/st.global.v2/.v4：float4、uint4 等）",
         "your kernel still moves global memory one scalar at a time: no float2/float4/uint4 "
         "load or store",
         "你的 kernel 仍然一次一个标量地访问全局内存：没有 float2/float4/uint4 的加载或存储"},
        {"cp_async", "asynchronous copies (cp.async)", "异步拷贝（cp.async）",
         "your kernel copies global memory to shared memory through registers, not with cp.async: "
         "the next tile is not loaded while this one is computed",
         "你的 kernel 经由寄存器把全局内存拷到共享内存，而不是用 "
         "cp.async：计算这一块时没有同时加载下一块"},
        {"tma", "bulk tensor copies (cp.async.bulk: the TMA)", "批量张量拷贝（cp.async.bulk：TMA）",
         "your kernel does not copy its tiles with the TMA (cp.async.bulk): the threads still copy "
         "them",
         "你的 kernel 没有用 TMA（cp.async.bulk）拷贝数据块：仍然由线程来拷贝"},
        {"mbarrier", "mbarriers (mbarrier.*)", "mbarrier（mbarrier.*）",
         "your kernel has no mbarrier: nothing waits on an asynchronous copy's arrival",
         "你的 kernel 没有 mbarrier：没有任何地方等待异步拷贝的到达"},
        {"ldmatrix", "matrix fragment loads (ldmatrix)", "矩阵片段加载（ldmatrix）",
         "your kernel loads the mma fragments without ldmatrix, one element at a time",
         "你的 kernel 没有用 ldmatrix 加载 mma 片段，而是一个元素一个元素地加载"},
        {"stmatrix", "matrix fragment stores (stmatrix)", "矩阵片段存储（stmatrix）",
         "your kernel stores the fragments without stmatrix",
         "你的 kernel 没有用 stmatrix 存储片段"},
        {"mma_sync", "warp tensor-core products (mma.sync)", "warp 级张量核乘法（mma.sync）",
         "your kernel does not multiply on the tensor cores with mma.sync: the products are still "
         "done one FMA at a time",
         "你的 kernel 没有用 mma.sync 在张量核上做乘法：乘积仍然一次一个 FMA 地计算"},
        {"wmma", "tensor-core fragments (wmma.*)", "张量核片段（wmma.*）",
         "your kernel does not use the tensor cores through wmma fragments: the products are "
         "still done one FMA at a time",
         "你的 kernel 没有通过 wmma 片段使用张量核：乘积仍然一次一个 FMA 地计算"},
        {"wgmma", "warpgroup tensor-core products (wgmma)", "warpgroup 张量核乘法（wgmma）",
         "your kernel does not multiply with Hopper's warpgroup wgmma",
         "你的 kernel 没有用 Hopper 的 warpgroup wgmma 做乘法"},
        {"setmaxnreg", "register reallocation (setmaxnreg)", "寄存器重新分配（setmaxnreg）",
         "your kernel does not move registers between its warpgroups with setmaxnreg: the "
         "producer keeps as many as the consumers",
         "你的 kernel 没有用 setmaxnreg 在 warpgroup "
         "之间调整寄存器：生产者和消费者拥有一样多的寄存器"},
        {"ex2", "fast base-2 exponentials (ex2.approx: exp2f)",
         "快速以 2 为底的指数（ex2.approx：exp2f）",
         "your kernel computes no exponential with exp2f (ex2.approx)",
         "你的 kernel 没有用 exp2f（ex2.approx）计算指数"},
        {"atomic", "atomics (atom/red: atomicAdd ...)", "原子操作（atom/red：atomicAdd 等）",
         "your kernel uses no atomic operation (atomicAdd ...): no thread claims a place or adds "
         "to a shared total",
         "你的 kernel 没有原子操作（atomicAdd 等）：没有线程去占位置或累加到共同的总数"},
        {"fence_async", "async-proxy fences (fence.proxy.async)",
         "异步代理栅栏（fence.proxy.async）",
         "your kernel has no fence.proxy.async between its threads' writes to shared memory and "
         "the TMA or wgmma reading them",
         "你的 kernel 在线程写共享内存与 TMA 或 wgmma 读取它们之间没有 fence.proxy.async"},
    };
    return families;
}

const InstructionFamily* FindFamily(std::string_view id) {
    for (const InstructionFamily& f : InstructionFamilies())
        if (f.id == id) return &f;
    return nullptr;
}

namespace {

std::string_view Trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

// The opcode of a PTX instruction line ("ld.global.v4.f32"), or "" for a directive, label,
// brace or comment; a guard ("@%p1 ", "@!%p1 ") is skipped.
std::string_view Opcode(std::string_view line) {
    line = Trim(line);
    if (line.empty() || line.starts_with("//") || line.front() == '.' || line.front() == '{' ||
        line.front() == '}' || line.back() == ':')
        return {};
    if (line.front() == '@') {
        const size_t space = line.find_first_of(" \t");
        if (space == std::string_view::npos) return {};
        line = Trim(line.substr(space));
    }
    const size_t end = line.find_first_of(" \t;");
    return line.substr(0, end);
}

std::vector<std::string_view> Parts(std::string_view op) {
    std::vector<std::string_view> out;
    size_t at = 0;
    while (at <= op.size()) {
        const size_t dot = op.find('.', at);
        out.push_back(op.substr(at, dot == std::string_view::npos ? op.npos : dot - at));
        if (dot == std::string_view::npos) break;
        at = dot + 1;
    }
    return out;
}

void Classify(std::string_view op, std::set<std::string>& out) {
    const std::vector<std::string_view> p = Parts(op);
    if (p.empty() || p[0].empty()) return;
    const auto has = [&](std::string_view what) {
        return std::any_of(p.begin() + 1, p.end(), [&](std::string_view x) { return x == what; });
    };
    const auto has_prefix = [&](std::string_view what) {
        return std::any_of(p.begin() + 1, p.end(),
                           [&](std::string_view x) { return x.starts_with(what); });
    };
    const std::string_view o = p[0];
    const bool shared = has_prefix("shared");
    // Another block's shared memory: an address mapped into the cluster, or an access (a load, a
    // store, an atomic, a remote mbarrier arrive) in the cluster's shared window. A bulk copy
    // into this block's own shared memory (cp.async.bulk.shared::cluster) is not one.
    if (o == "mapa" || (has("shared::cluster") &&
                        (o == "ld" || o == "st" || o == "atom" || o == "red" || o == "mbarrier")))
        out.insert("dsmem");
    // A generic access (no state space) is mostly a global one the compiler could not prove so.
    const bool spaced = shared || has("local") || has("param") || has("const");
    const bool global = has("global") || !spaced;
    const bool vector = has("v2") || has("v4") || has("v8");
    if (o == "ld" || o == "ldu") {
        if (shared) out.insert("shared");
        if (global) out.insert("global_load");
        if (global && vector) out.insert("vec_global");
    } else if (o == "st") {
        if (shared) out.insert("shared");
        if (global) out.insert("global_store");
        if (global && vector) out.insert("vec_global");
    } else if (o == "atom" || o == "red") {
        out.insert("atomic");
        if (shared) out.insert("shared");
    } else if (o == "bar" || o == "barrier") {
        // bar.warp.sync is __syncwarp: no block barrier.
        if (!(p.size() > 1 && p[1] == "warp")) out.insert("barrier");
    } else if (o == "vote" || o == "redux" || o == "match") {
        out.insert("vote");
    } else if (o == "cp") {
        if (p.size() > 1 && p[1] == "async") out.insert(has("bulk") ? "tma" : "cp_async");
        if (p.size() > 1 && p[1] == "reduce" && has("bulk")) out.insert("tma");
    } else if (o == "mma") {
        out.insert("mma_sync");
    } else if (o == "shfl" || o == "mbarrier" || o == "ldmatrix" || o == "stmatrix" ||
               o == "wmma" || o == "wgmma" || o == "setmaxnreg") {
        out.insert(std::string(o));  // a family named as its instruction
    } else if (o == "ex2") {
        if (has("approx")) out.insert("ex2");
    } else if (o == "fence") {
        if (p.size() > 2 && p[1] == "proxy" && p[2].starts_with("async")) out.insert("fence_async");
    }
}

}  // namespace

std::set<std::string> FamiliesIn(std::string_view ptx) {
    std::set<std::string> out;
    for (const std::string_view line : SplitLines(ptx)) {
        const std::string_view op = Opcode(line);
        if (!op.empty()) Classify(op, out);
    }
    return out;
}

std::string NormalizedPtx(std::string_view ptx) {
    std::string out;
    for (std::string_view line : SplitLines(ptx)) {
        const size_t comment = line.find("//");
        if (comment != std::string_view::npos) line = line.substr(0, comment);
        line = Trim(line);
        if (line.empty() || line.starts_with(".loc") || line.starts_with(".file")) continue;
        bool space = false;
        for (const char ch : line) {
            if (ch == ' ' || ch == '\t') {
                space = true;
                continue;
            }
            if (space) out.push_back(' ');
            space = false;
            out.push_back(ch);
        }
        out.push_back('\n');
    }
    return out;
}

std::string ReleasedStart(std::string_view start) {
    std::string out;
    for (const std::string_view line : SplitLines(start))
        if (!line.starts_with("#error \"exercise ")) out.append(line).push_back('\n');
    return out;
}

namespace {

// The operands of an instruction line (after its opcode, up to ';'), split at the commas outside
// braces, brackets and parentheses.
std::vector<std::string_view> Operands(std::string_view rest) {
    std::vector<std::string_view> out;
    const size_t semi = rest.find(';');
    if (semi != std::string_view::npos) rest = rest.substr(0, semi);
    int depth = 0;
    size_t from = 0;
    for (size_t i = 0; i <= rest.size(); ++i) {
        const char ch = i < rest.size() ? rest[i] : ',';
        if (ch == '{' || ch == '[' || ch == '(') ++depth;
        if (ch == '}' || ch == ']' || ch == ')') --depth;
        if (ch == ',' && depth <= 0) {
            const std::string_view part = Trim(rest.substr(from, i - from));
            if (!part.empty()) out.push_back(part);
            from = i + 1;
        }
    }
    return out;
}

bool IsWordChar(char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '$';
}

// The special registers an instruction may read: a source of their own.
bool IsSpecial(std::string_view name) {
    static const char* const kSpecial[] = {"tid",
                                           "ntid",
                                           "ctaid",
                                           "nctaid",
                                           "laneid",
                                           "warpid",
                                           "nwarpid",
                                           "smid",
                                           "nsmid",
                                           "gridid",
                                           "clock",
                                           "clock64",
                                           "clock_hi",
                                           "globaltimer",
                                           "lanemask_eq",
                                           "lanemask_le",
                                           "lanemask_lt",
                                           "lanemask_ge",
                                           "lanemask_gt",
                                           "clusterid",
                                           "nclusterid",
                                           "cluster_ctaid",
                                           "cluster_nctaid",
                                           "cluster_ctarank",
                                           "cluster_nctarank",
                                           "is_explicit_cluster",
                                           "dynamic_smem_size",
                                           "total_smem_size"};
    const std::string_view base = name.substr(0, name.find('.'));
    return std::any_of(std::begin(kSpecial), std::end(kSpecial),
                       [&](const char* s) { return base == s; });
}

// The registers ("%r12", "%tid.x") and parameters ("param3") an operand names.
void Names(std::string_view operand, std::vector<std::string>& registers,
           std::vector<std::string>& sources) {
    for (size_t i = 0; i < operand.size(); ++i) {
        if (operand[i] == '%') {
            size_t end = i + 1;
            while (end < operand.size() && IsWordChar(operand[end])) ++end;
            // %tid.x: a special register's component.
            if (end + 1 < operand.size() && operand[end] == '.' &&
                std::string_view("xyz").find(operand[end + 1]) != std::string_view::npos &&
                (end + 2 == operand.size() || !IsWordChar(operand[end + 2])))
                end += 2;
            const std::string_view name = operand.substr(i + 1, end - i - 1);
            if (!name.empty()) {
                if (IsSpecial(name))
                    sources.emplace_back(name);
                else
                    registers.emplace_back(name);
            }
            i = end - 1;
        } else if (operand.substr(i).starts_with("_param_")) {
            size_t end = i + 7;
            while (end < operand.size() && std::isdigit(static_cast<unsigned char>(operand[end])))
                ++end;
            if (end > i + 7)
                sources.push_back("param" + std::string(operand.substr(i + 7, end - i - 7)));
            i = end - 1;
        }
    }
}

struct MixInstruction {
    std::string op;
    std::vector<std::string> dests, reads;  // registers written, registers read
    std::vector<std::string> direct;        // special registers and parameters read
    std::string target;                     // a branch's label
};

}  // namespace

InstructionMix InstructionMixOf(std::string_view ptx) {
    std::vector<MixInstruction> code;
    std::map<std::string, size_t> labels;  // a label: the instruction it stands before
    for (const std::string_view raw : SplitLines(ptx)) {
        std::string_view line = Trim(raw);
        const size_t comment = line.find("//");
        if (comment != std::string_view::npos) line = Trim(line.substr(0, comment));
        if (line.size() > 1 && line.back() == ':' && line.front() != '.') {
            labels[std::string(line.substr(0, line.size() - 1))] = code.size();
            continue;
        }
        const std::string_view op = Opcode(line);
        if (op.empty()) continue;
        MixInstruction in;
        in.op = std::string(op);
        // The guard's predicate is read.
        if (line.front() == '@') {
            const size_t space = line.find_first_of(" \t");
            Names(line.substr(0, space), in.reads, in.direct);
            line = Trim(line.substr(space));
        }
        const std::vector<std::string_view> operands = Operands(line.substr(op.size()));
        const bool none = in.op.starts_with("st.") || in.op.starts_with("red.") ||
                          in.op.starts_with("bar") || in.op.starts_with("bra") ||
                          in.op.starts_with("cp.") || in.op.starts_with("stmatrix") ||
                          in.op.starts_with("call") || in.op.starts_with("setmaxnreg");
        for (size_t i = 0; i < operands.size(); ++i) {
            const std::string_view o = operands[i];
            if (i == 0 && !none && (o.front() == '%' || o.front() == '{')) {
                std::vector<std::string> specials;
                Names(o, in.dests, specials);
                continue;
            }
            Names(o, in.reads, in.direct);
        }
        if (in.op.starts_with("bra") && !operands.empty()) in.target = std::string(operands.back());
        code.push_back(std::move(in));
    }
    // Loops: a branch back to a label before it closes one. Each instruction weighs
    // kLoopWeight to the power of the loops it is in.
    std::vector<int> depth_change(code.size() + 1, 0);
    for (size_t i = 0; i < code.size(); ++i)
        if (const auto it = labels.find(code[i].target); it != labels.end() && it->second <= i) {
            ++depth_change[it->second];
            --depth_change[i + 1];
        }
    std::vector<double> weight(code.size(), 1);
    for (size_t i = 0, depth = 0; i < code.size(); ++i) {
        depth = static_cast<size_t>(static_cast<int>(depth) + depth_change[i]);
        weight[i] = std::pow(kLoopWeight, static_cast<double>(std::min<size_t>(depth, 8)));
    }
    // Each source a bit (the first 63; any more share the last).
    std::map<std::string, int> bit;
    std::vector<std::string> source_names;
    const auto bit_of = [&](const std::string& name) -> uint64_t {
        auto it = bit.find(name);
        if (it == bit.end()) {
            const int b = std::min<int>(static_cast<int>(source_names.size()), 63);
            if (b < 63) source_names.push_back(name);
            it = bit.emplace(name, b).first;
        }
        return uint64_t(1) << it->second;
    };
    std::vector<uint64_t> direct(code.size(), 0);
    for (size_t i = 0; i < code.size(); ++i)
        for (const std::string& d : code[i].direct) direct[i] |= bit_of(d);
    // Through the registers, to a fixed point (each pass can only add bits).
    std::map<std::string, uint64_t> reg;
    const auto read = [&](size_t i) {
        uint64_t m = direct[i];
        for (const std::string& r : code[i].reads)
            if (const auto it = reg.find(r); it != reg.end()) m |= it->second;
        return m;
    };
    for (int pass = 0; pass < 200; ++pass) {
        bool changed = false;
        for (size_t i = 0; i < code.size(); ++i) {
            const uint64_t m = read(i);
            for (const std::string& d : code[i].dests) {
                uint64_t& have = reg[d];
                if ((have | m) != have) {
                    have |= m;
                    changed = true;
                }
            }
        }
        if (!changed) break;
    }
    InstructionMix mix;
    for (size_t i = 0; i < code.size(); ++i) {
        // Control flow and register copies are how the compiler laid the code out, not what it
        // computes: they carry their sources on, and are not counted.
        const std::string& op = code[i].op;
        if (op.starts_with("bra") || op == "ret" || op == "exit" ||
            (op.starts_with("mov.") && code[i].direct.empty()))
            continue;
        const uint64_t m = read(i);
        std::vector<std::string> names;
        for (size_t b = 0; b < source_names.size(); ++b)
            if (m & (uint64_t(1) << b)) names.push_back(source_names[b]);
        if (m >> 63) names.push_back("more");
        std::sort(names.begin(), names.end());
        std::string key = code[i].op;
        for (size_t n = 0; n < names.size(); ++n) key += (n == 0 ? " from " : ", ") + names[n];
        mix[key] += weight[i];
    }
    return mix;
}

InstructionMix MixShares(const InstructionMix& mix) {
    double total = 0;
    for (const auto& [key, weight] : mix) total += weight;
    InstructionMix out;
    if (total > 0)
        for (const auto& [key, weight] : mix) out[key] = weight / total;
    return out;
}

double ShareOfChange(const InstructionMix& start, const InstructionMix& solution,
                     const InstructionMix& yours) {
    const InstructionMix a = MixShares(start), b = MixShares(solution), y = MixShares(yours);
    const auto at = [](const InstructionMix& m, const std::string& k) {
        const auto it = m.find(k);
        return it == m.end() ? 0.0 : it->second;
    };
    std::set<std::string> keys;
    for (const auto* m : {&a, &b, &y})
        for (const auto& [k, n] : *m) keys.insert(k);
    double along = 0, length = 0;
    for (const std::string& k : keys) {
        const double d = at(b, k) - at(a, k);
        along += (at(y, k) - at(a, k)) * d;
        length += d * d;
    }
    return length > 1e-18 ? along / length : std::nan("");
}

StepChange StepChangeFromPtx(std::string_view start_ptx, std::string_view solution_ptx) {
    StepChange c;
    c.known = true;
    c.start_families = FamiliesIn(start_ptx);
    c.solution_families = FamiliesIn(solution_ptx);
    for (const InstructionFamily& f : InstructionFamilies())
        if (c.solution_families.count(f.id) && !c.start_families.count(f.id))
            c.required.push_back(f.id);
    c.start_ptx = NormalizedPtx(start_ptx);
    c.solution_ptx = NormalizedPtx(solution_ptx);
    c.start_mix = InstructionMixOf(start_ptx);
    c.solution_mix = InstructionMixOf(solution_ptx);
    return c;
}

StepChange StepChangeOf(const Exercise& exercise, const Lesson& lesson, const KernelSpec& spec,
                        int arch, const std::atomic<bool>* cancel) {
    static std::mutex mutex;
    static std::map<std::pair<std::string, int>, StepChange> cache;
    const auto key = std::make_pair(exercise.lesson, arch);
    {
        const std::lock_guard<std::mutex> lock(mutex);
        if (const auto it = cache.find(key); it != cache.end()) return it->second;
    }
    StepChange c;
    std::string solution_source;
    try {
        solution_source = SolutionOf(lesson);
    } catch (const std::exception& e) {
        c.why_unknown = std::string("the step's own kernel cannot be read: ") + e.what();
        return c;
    }
    const CompileResult start =
        CompileKernel(ReleasedStart(StartingFile(exercise)), spec, arch, cancel);
    if (!start.ok()) {
        c.why_unknown = "the starting file did not compile here: " + start.message;
        return c;
    }
    const CompileResult solution = CompileKernel(solution_source, spec, arch, cancel);
    if (!solution.ok()) {
        c.why_unknown = "the step's own kernel did not compile here: " + solution.message;
        return c;
    }
    c = StepChangeFromPtx(start.ptx, solution.ptx);
    const std::lock_guard<std::mutex> lock(mutex);
    cache[key] = c;
    return c;
}

ChangeVerdict JudgeChange(const StepChange& change, std::string_view student_ptx) {
    ChangeVerdict v;
    if (!change.known) {
        v.why_not =
            change.why_unknown.empty() ? "the step's change is not known" : change.why_unknown;
        v.why_not_zh = "这一步的改动未知：" + v.why_not;
        return v;
    }
    v.judged = true;
    v.same_as_start = NormalizedPtx(student_ptx) == change.start_ptx;
    if (change.required.empty()) {
        const InstructionMix yours = InstructionMixOf(student_ptx);
        const double share = ShareOfChange(change.start_mix, change.solution_mix, yours);
        if (std::isnan(share)) {
            v.basis = "not-the-start";
            v.present = !v.same_as_start;
            return v;
        }
        v.basis = "instruction-mix";
        v.mix_share = share;
        v.present = !v.same_as_start && share >= kMixShareNeeded;
        // The instructions the step changes most, by how much of the mix they are.
        std::vector<ChangeVerdict::MixChange> changes;
        const InstructionMix a = MixShares(change.start_mix), b = MixShares(change.solution_mix),
                             y = MixShares(yours);
        const auto at = [](const InstructionMix& m, const std::string& k) {
            const auto it = m.find(k);
            return it == m.end() ? 0.0 : it->second;
        };
        std::set<std::string> keys;
        for (const auto& [k, n] : a) keys.insert(k);
        for (const auto& [k, n] : b) keys.insert(k);
        for (const std::string& k : keys)
            if (at(a, k) != at(b, k)) changes.push_back({k, at(a, k), at(b, k), at(y, k)});
        std::stable_sort(changes.begin(), changes.end(), [](const auto& x, const auto& z) {
            return std::fabs(x.solution - x.start) > std::fabs(z.solution - z.start);
        });
        if (changes.size() > kMixChangesShown) changes.resize(kMixChangesShown);
        v.mix_changes = std::move(changes);
        return v;
    }
    v.basis = "families";
    const std::set<std::string> yours = FamiliesIn(student_ptx);
    v.required = change.required;
    for (const std::string& id : change.required)
        (yours.count(id) ? v.found : v.missing).push_back(id);
    v.present = v.missing.empty() && !v.same_as_start;
    return v;
}

namespace {

std::string Names(const std::vector<std::string>& ids, bool zh) {
    std::string out;
    for (const std::string& id : ids) {
        const InstructionFamily* f = FindFamily(id);
        out += (out.empty() ? "" : zh ? "；" : "; ") + (f ? (zh ? f->name_zh : f->name) : id);
    }
    return out;
}

}  // namespace

std::string ChangeText(const ChangeVerdict& v, bool zh) {
    if (!v.judged)
        return zh ? "这一步的改动：未评判（" + v.why_not_zh + "）\n"
                  : "the step's change: not judged (" + v.why_not + ")\n";
    if (v.basis == "not-the-start") {
        if (zh)
            return std::string(
                       "这一步的改动：起始文件与这一步的 kernel "
                       "使用同样的指令种类，所以只能检查你的 "
                       "kernel 不再是起始文件：") +
                   (v.present ? "是的，它的机器码不同\n"
                              : "未做：你的 kernel 编译出的 PTX 与起始文件的相同\n");
        return std::string(
                   "the step's change: the starting file and the step's kernel use the same "
                   "kinds of instruction, so the check can only see that your kernel is no "
                   "longer the starting file: ") +
               (v.present ? "it is not (its PTX differs)\n"
                          : "NOT done: your kernel compiles to the starting file's PTX\n");
    }
    if (v.basis == "instruction-mix") {
        const std::string share = std::to_string(
            static_cast<int>(std::lround(std::clamp(v.mix_share, -9.99, 9.99) * 100)));
        const std::string needed =
            std::to_string(static_cast<int>(std::lround(kMixShareNeeded * 100)));
        std::string out =
            zh ? "这一步的改动：起始文件与这一步的 kernel 使用同样的指令种类，所以检查比较它们的"
                 "指令构成（每条指令按其操作码及其数据来源计数：线程和线程块的下标、kernel "
                 "的参数；循环里的指令按循环执行的次数加权）：你的 kernel 完成了这一步改动的 " +
                     share + "%（至少需要 " + needed + "%）" +
                     (v.same_as_start ? " —— 但你的 kernel 编译出的 PTX 与起始文件的相同\n"
                      : v.present ? " —— 已找到\n"
                                  : " —— 未找到\n")
               : "the step's change: the starting file and the step's kernel use the same kinds "
                 "of instruction, so the check compares their instruction mix (each instruction "
                 "counted by its opcode and what it is computed from -- the thread and block "
                 "indices, the kernel's parameters -- and weighed by the loops it is in): your "
                 "kernel has made " +
                     share + "% of the step's change (" + needed + "% is needed)" +
                     (v.same_as_start ? " -- but your kernel compiles to the starting file's PTX\n"
                      : v.present     ? " -- found\n"
                                      : " -- NOT found\n");
        if (!v.present && !v.mix_changes.empty()) {
            out += zh ? "  这一步改动最多的指令，各占所执行指令的比例（每个循环按执行 8 "
                        "次估计；起始文件 / 这一步的 kernel / 你的 kernel）：\n"
                      : "  the instructions the step changes most, each as a share of the "
                        "instructions run (each loop taken to run 8 times; the start / the step's "
                        "kernel / yours):\n";
            const auto percent = [](double share) { return Fixed(share * 100, 1) + "%"; };
            for (const ChangeVerdict::MixChange& c : v.mix_changes)
                out += "    " + c.instruction + ": " + percent(c.start) + " / " +
                       percent(c.solution) + " / " + percent(c.yours) + "\n";
        }
        return out;
    }
    std::string out;
    if (zh) {
        out = "这一步的改动：" + Names(v.found.empty() ? v.missing : v.found, true);
        if (v.missing.empty())
            out += v.same_as_start ? " —— 但你的 kernel 编译出的 PTX 与起始文件的相同\n"
                                   : " —— 已找到\n";
        else {
            out = "这一步的改动：" + Names(v.missing, true) + " —— 未找到\n";
            if (!v.found.empty()) out += "  已找到：" + Names(v.found, true) + "\n";
            for (const std::string& id : v.missing)
                if (const InstructionFamily* f = FindFamily(id)) out += "  " + f->missing_zh + "\n";
        }
        return out;
    }
    if (v.missing.empty())
        return "the step's change: " + Names(v.found, false) +
               (v.same_as_start ? " -- but your kernel compiles to the starting file's PTX\n"
                                : " -- found\n");
    out = "the step's change: " + Names(v.missing, false) + " -- NOT found\n";
    if (!v.found.empty()) out += "  found: " + Names(v.found, false) + "\n";
    for (const std::string& id : v.missing)
        if (const InstructionFamily* f = FindFamily(id)) out += "  " + f->missing + "\n";
    return out;
}

json ToJson(const ChangeVerdict& v) {
    const auto names = [](const std::vector<std::string>& ids, bool zh) {
        json a = json::array();
        for (const std::string& id : ids)
            if (const InstructionFamily* f = FindFamily(id)) a.push_back(zh ? f->name_zh : f->name);
        return a;
    };
    json out{{"judged", v.judged}, {"present", v.present}, {"basis", v.basis}};
    out["required"] = v.required;
    out["found"] = v.found;
    out["missing"] = v.missing;
    out["missing_names"] = names(v.missing, false);
    out["missing_names_zh"] = names(v.missing, true);
    out["same_as_start"] = v.same_as_start;
    if (v.basis == "instruction-mix") {
        out["mix_share"] = v.mix_share;
        out["mix_share_needed"] = kMixShareNeeded;
        json changes = json::array();
        for (const ChangeVerdict::MixChange& c : v.mix_changes)
            changes.push_back(json{{"instruction", c.instruction},
                                   {"start", c.start},
                                   {"solution", c.solution},
                                   {"yours", c.yours}});
        out["mix_changes"] = changes;
    }
    out["text"] = ChangeText(v, false);
    out["text_zh"] = ChangeText(v, true);
    if (!v.judged) {
        out["why_not"] = v.why_not;
        out["why_not_zh"] = v.why_not_zh;
    }
    return out;
}

}  // namespace lessons
