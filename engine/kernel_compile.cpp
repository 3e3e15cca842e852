#include "kernel_compile.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <regex>
#include <string>
#include <vector>

#include "nvrtc_loader.h"

namespace lessons {
namespace {

// 1-based line of byte `offset`.
int LineOf(std::string_view text, size_t offset) {
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + offset, '\n'));
}

// The offset of the first byte that is not valid UTF-8 (overlong forms, surrogates and code
// points above U+10FFFF are invalid), or npos.
size_t FirstInvalidUtf8(std::string_view s) {
    size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            ++i;
            continue;
        }
        int extra = 0;
        uint32_t cp = 0, min = 0;
        if ((c & 0xe0) == 0xc0) {
            extra = 1, cp = c & 0x1f, min = 0x80;
        } else if ((c & 0xf0) == 0xe0) {
            extra = 2, cp = c & 0x0f, min = 0x800;
        } else if ((c & 0xf8) == 0xf0) {
            extra = 3, cp = c & 0x07, min = 0x10000;
        } else {
            return i;
        }
        if (i + extra >= s.size()) return i;  // cut short by the end of the file
        for (int k = 1; k <= extra; ++k) {
            const auto d = static_cast<unsigned char>(s[i + k]);
            if ((d & 0xc0) != 0x80) return i;
            cp = (cp << 6) | (d & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
        i += extra + 1;
    }
    return std::string_view::npos;
}

// The source with comments replaced by spaces (newlines kept) and line continuations removed,
// and for each byte of the result the line of the original it came from. String and character
// literals are kept as they are, so a "/*" inside one starts no comment.
struct Logical {
    std::string text;
    std::vector<int> line;
};

Logical StripForDirectives(std::string_view s) {
    Logical out;
    out.text.reserve(s.size());
    out.line.reserve(s.size());
    int line = 1;
    enum { kCode, kLineComment, kBlockComment, kString, kChar } state = kCode;
    auto put = [&](char c) {
        out.text.push_back(c);
        out.line.push_back(line);
    };
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '\\' && i + 1 < s.size() && s[i + 1] == '\n') {  // a continuation
            ++i;
            ++line;
            continue;
        }
        if (c == '\\' && i + 2 < s.size() && s[i + 1] == '\r' && s[i + 2] == '\n') {
            i += 2;
            ++line;
            continue;
        }
        const char next = i + 1 < s.size() ? s[i + 1] : '\0';
        switch (state) {
            case kCode:
                if (c == '/' && next == '/') {
                    state = kLineComment;
                    put(' ');
                    ++i;
                } else if (c == '/' && next == '*') {
                    state = kBlockComment;
                    put(' ');
                    ++i;
                } else {
                    if (c == '"') state = kString;
                    if (c == '\'') state = kChar;
                    put(c);
                }
                break;
            case kLineComment:
                if (c == '\n') {
                    state = kCode;
                    put(c);
                }
                break;
            case kBlockComment:
                if (c == '*' && next == '/') {
                    state = kCode;
                    ++i;
                } else if (c == '\n') {
                    put(c);  // keeps lines apart (a directive needs a line of its own)
                }
                break;
            case kString:
            case kChar:
                put(c);
                if (c == '\\' && i + 1 < s.size() && next != '\n') {
                    put(next);
                    ++i;
                } else if ((state == kString && c == '"') || (state == kChar && c == '\'') ||
                           c == '\n') {
                    state = kCode;
                }
                break;
        }
        if (c == '\n') ++line;
    }
    return out;
}

bool IsSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

std::string AllowedText(const std::vector<std::string>& allowed) {
    if (allowed.empty()) return "this exercise allows none";
    std::string out;
    for (const std::string& a : allowed) out += (out.empty() ? "" : ", ") + a;
    return "this exercise allows only " + out;
}

// Why the first disallowed include of `s` is refused, or "".
std::string CheckIncludes(std::string_view s, const std::vector<std::string>& allowed) {
    const Logical logical = StripForDirectives(s);
    const std::string& t = logical.text;
    size_t start = 0;
    while (start < t.size()) {
        size_t end = t.find('\n', start);
        if (end == std::string::npos) end = t.size();
        size_t i = start;
        while (i < end && IsSpace(t[i])) ++i;
        bool directive = false;
        if (i < end && t[i] == '#') {
            directive = true;
            ++i;
        } else if (i + 1 < end && t[i] == '%' && t[i + 1] == ':') {  // the digraph of #
            directive = true;
            i += 2;
        }
        if (directive) {
            while (i < end && IsSpace(t[i])) ++i;
            size_t word_end = i;
            while (word_end < end &&
                   (std::isalnum(static_cast<unsigned char>(t[word_end])) || t[word_end] == '_'))
                ++word_end;
            const std::string word = t.substr(i, word_end - i);
            if (word == "include" || word == "include_next" || word == "import" ||
                word == "embed") {
                std::string rest = t.substr(word_end, end - word_end);
                rest.erase(0, rest.find_first_not_of(" \t\r"));
                rest.erase(rest.find_last_not_of(" \t\r") + 1);
                std::string header;
                if (rest.size() >= 2 && (rest.front() == '<' || rest.front() == '"')) {
                    const char close = rest.front() == '<' ? '>' : '"';
                    const size_t stop = rest.find(close, 1);
                    if (stop != std::string::npos) header = rest.substr(1, stop - 1);
                }
                const int line = logical.line[i];
                const bool ok = word == "include" && !header.empty() &&
                                std::find(allowed.begin(), allowed.end(), header) != allowed.end();
                if (!ok) {
                    const std::string shown = rest.size() > 60 ? rest.substr(0, 60) + "..." : rest;
                    return "line " + std::to_string(line) + ": #" + word + " " + shown +
                           " is not allowed: a kernel file holds device code only, and " +
                           AllowedText(allowed) +
                           " (the exercise's harness declares what it needs)";
                }
            }
        }
        start = end + 1;
    }
    return "";
}

}  // namespace

const char* ToString(CompileStatus status) {
    switch (status) {
        case CompileStatus::kOk:
            return "ok";
        case CompileStatus::kRefused:
            return "refused";
        case CompileStatus::kUnavailable:
            return "unavailable";
        case CompileStatus::kError:
            return "error";
    }
    return "?";
}

int CompileResult::Errors() const {
    return static_cast<int>(
        std::count_if(diagnostics.begin(), diagnostics.end(),
                      [](const Diagnostic& d) { return d.severity == "error"; }));
}

int CompileResult::Warnings() const {
    return static_cast<int>(diagnostics.size()) - Errors();
}

std::string CheckKernelSource(std::string_view source, const std::vector<std::string>& allowed) {
    if (source.size() > kMaxKernelSourceBytes)
        return "the kernel file is " + std::to_string(source.size()) + " bytes, more than the " +
               std::to_string(kMaxKernelSourceBytes / 1024) + " KiB a kernel file may have";
    if (source.find_first_not_of(" \t\r\n") == std::string_view::npos)
        return "the kernel file is empty";
    if (const size_t nul = source.find('\0'); nul != std::string_view::npos)
        return "the kernel file is binary (a NUL byte at offset " + std::to_string(nul) +
               ", line " + std::to_string(LineOf(source, nul)) + "): give CUDA C++ source text";
    if (const size_t bad = FirstInvalidUtf8(source); bad != std::string_view::npos)
        return "the kernel file is not valid UTF-8 (byte offset " + std::to_string(bad) +
               ", line " + std::to_string(LineOf(source, bad)) +
               "): save it as UTF-8 (plain ASCII is UTF-8)";
    // A very long line (a 100 KB identifier) makes the compiler's log lines as long, which
    // neither NVRTC nor the log's reading takes well: refused, with its number.
    for (size_t start = 0, line = 1; start < source.size(); ++line) {
        size_t end = source.find('\n', start);
        if (end == std::string_view::npos) end = source.size();
        if (end - start > kMaxKernelLineBytes)
            return "line " + std::to_string(line) + " of the kernel file is " +
                   std::to_string(end - start) + " bytes long, more than the " +
                   std::to_string(kMaxKernelLineBytes) + " a line may have";
        start = end + 1;
    }
    return CheckIncludes(source, allowed);
}

std::vector<Diagnostic> ParseDiagnostics(std::string_view log, std::string_view source) {
    // file(line): severity[ #number-D]: message     or     severity: message
    static const std::regex kWithLine(
        R"(^(.*)\((\d+)\): (catastrophic error|error|warning)(?: #[0-9]+(?:-D)?)?: (.*)$)");
    static const std::regex kWithoutLine(R"(^(?:nvrtc: )?(error|warning): (.*)$)");
    std::vector<std::string> lines;
    for (size_t start = 0; start <= log.size();) {
        size_t end = log.find('\n', start);
        if (end == std::string_view::npos) end = log.size();
        std::string line(log.substr(start, end - start));
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(std::move(line));
        start = end + 1;
    }
    std::vector<std::string> source_lines;
    for (size_t start = 0; start <= source.size();) {
        size_t end = source.find('\n', start);
        if (end == std::string_view::npos) end = source.size();
        std::string line(source.substr(start, end - start));
        if (!line.empty() && line.back() == '\r') line.pop_back();
        source_lines.push_back(std::move(line));
        start = end + 1;
    }
    std::vector<Diagnostic> out;
    for (size_t i = 0; i < lines.size(); ++i) {
        std::smatch m;
        Diagnostic d;
        if (lines[i].size() > kMaxLogLineBytes) continue;  // std::regex recurses per character
        if (std::regex_match(lines[i], m, kWithLine)) {
            d.file = m[1];
            d.line =
                static_cast<int>(std::min<long long>(std::stoll(m[2].str().substr(0, 9)), 1 << 30));
            d.severity = m[3] == "warning" ? "warning" : "error";
            d.message = m[4];
        } else if (std::regex_match(lines[i], m, kWithoutLine)) {
            d.severity = m[1];
            d.message = m[2];
        } else {
            continue;
        }
        // The echoed source line and the caret under the column, when they follow.
        if (d.line > 0 && i + 2 < lines.size()) {
            const std::string& echo = lines[i + 1];
            const std::string& caret = lines[i + 2];
            const size_t at = caret.find('^');
            const bool caret_line =
                at != std::string::npos && caret.find_first_not_of(" \t^") == std::string::npos;
            if (caret_line) {
                size_t prefix = 2;  // NVRTC indents the echoed line by two spaces
                if (d.file == kKernelFileName && d.line <= static_cast<int>(source_lines.size())) {
                    const std::string& original = source_lines[d.line - 1];
                    if (echo.size() >= original.size() &&
                        echo.compare(echo.size() - original.size(), original.size(), original) == 0)
                        prefix = echo.size() - original.size();
                }
                if (at >= prefix) d.column = static_cast<int>(at - prefix) + 1;
                i += 2;
            }
        }
        out.push_back(std::move(d));
    }
    return out;
}

std::vector<KernelResources> ParsePtxasInfo(std::string_view log) {
    static const std::regex kEntry(R"(Compiling entry function '([^']+)')");
    static const std::regex kProperties(R"(Function properties for (\S+))");
    static const std::regex kFrame(
        R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
    static const std::regex kUsed(R"(Used (\d+) registers)");
    static const std::regex kBarriers(R"(used (\d+) barriers)");
    static const std::regex kSmem(R"((\d+) bytes smem)");
    std::vector<KernelResources> out;
    auto find = [&](const std::string& name) -> KernelResources& {
        for (KernelResources& k : out)
            if (k.function == name) return k;
        out.push_back(KernelResources{});
        out.back().function = name;
        return out.back();
    };
    auto number = [](const std::ssub_match& s) {
        return static_cast<int>(std::min<long long>(std::stoll(s.str().substr(0, 9)), 1 << 30));
    };
    std::string entry, properties;  // the function the next lines are about
    for (size_t start = 0; start < log.size();) {
        size_t end = log.find('\n', start);
        if (end == std::string_view::npos) end = log.size();
        const std::string line(log.substr(start, end - start));
        start = end + 1;
        if (line.rfind("ptxas", 0) != 0 || line.size() > kMaxLogLineBytes) continue;
        std::smatch m;
        if (std::regex_search(line, m, kEntry)) {
            entry = m[1];
            find(entry).entry = true;
        } else if (std::regex_search(line, m, kProperties)) {
            properties = m[1];
        } else if (std::regex_search(line, m, kFrame) && !properties.empty()) {
            KernelResources& k = find(properties);
            k.stack_bytes = number(m[1]);
            k.spill_store_bytes = number(m[2]);
            k.spill_load_bytes = number(m[3]);
        } else if (std::regex_search(line, m, kUsed) && !entry.empty()) {
            KernelResources& k = find(entry);
            k.registers = number(m[1]);
            if (std::regex_search(line, m, kBarriers)) k.barriers = number(m[1]);
            if (std::regex_search(line, m, kSmem)) k.shared_bytes = number(m[1]);
        }
    }
    return out;
}

std::string ToolkitIncludeDir(const std::vector<std::string>& headers,
                              std::vector<std::string>* tried) {
    std::vector<std::string> dirs;
    const std::string lib = nvrtc::LoadedPath();
    if (const size_t slash = lib.rfind('/'); slash != std::string::npos) {
        const std::string folder = lib.substr(0, slash);
        dirs.push_back(folder + "/../include");     // <toolkit>/lib64/libnvrtc.so
        dirs.push_back(folder + "/../../include");  // <toolkit>/targets/x86_64-linux/lib/
    }
    for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
        if (const char* v = std::getenv(var); v && *v && std::strlen(v) < 4096)
            dirs.push_back(std::string(v) + "/include");
    dirs.push_back("/usr/local/cuda/include");
    dirs.push_back("/usr/include");
    for (const std::string& d : dirs) {
        if (tried) tried->push_back(d);
        const bool all = std::all_of(headers.begin(), headers.end(), [&](const std::string& h) {
            return access((d + "/" + h).c_str(), R_OK) == 0;
        });
        if (all) return d;
    }
    return "";
}

namespace {

// The lines added after the student's source: the kernel must exist, with exactly the
// exercise's parameter types (a kernel with other parameters would be launched with the
// wrong arguments).
std::string SignatureCheck(const KernelSpec& spec) {
    const std::string& k = spec.kernel;
    return "\n#line 1 \"" + std::string(kExerciseCheckFileName) +
           "\"\n"
           "template <class T, class U> struct lessons_exercise_same_type {\n"
           "    static constexpr bool value = false;\n"
           "};\n"
           "template <class T> struct lessons_exercise_same_type<T, T> {\n"
           "    static constexpr bool value = true;\n"
           "};\n"
           "static_assert(lessons_exercise_same_type<decltype(&" +
           k + "), void (*)(" + spec.signature +
           ")>::value,\n"
           "              \"the kernel must be declared as __global__ void " +
           k + "(" + spec.signature + ")\");\n";
}

std::string GetLog(const nvrtc::Api& api, nvrtc::Program prog) {
    size_t size = 0;
    if (api.GetProgramLogSize(prog, &size) != nvrtc::kSuccess || size == 0) return "";
    std::string log(size, '\0');
    if (api.GetProgramLog(prog, log.data()) != nvrtc::kSuccess) return "";
    while (!log.empty() && log.back() == '\0') log.pop_back();
    return log;
}

std::string Summary(const CompileResult& r) {
    for (const Diagnostic& d : r.diagnostics)
        if (d.severity == "error") {
            if (d.file == kExerciseCheckFileName)
                return "the exercise's kernel is missing or has another signature: " + d.message;
            return (d.line ? "line " + std::to_string(d.line) + ": " : std::string()) + d.message;
        }
    return "the compiler reported an error (see its log)";
}

}  // namespace

CompileResult CompileKernel(std::string_view source, const KernelSpec& spec, int arch) {
    CompileResult r;
    if (!spec.arch_suffix.empty()) arch = 90;  // the only architecture-specific target here
    r.arch = "sm_" + std::to_string(arch) + spec.arch_suffix;
    r.message = CheckKernelSource(source, spec.allowed_includes);
    if (!r.message.empty()) return r;  // kRefused
    const nvrtc::Api* api = nvrtc::Load();
    if (!api) {
        r.status = CompileStatus::kUnavailable;
        r.message = "cannot compile kernels: " + nvrtc::Unavailable();
        return r;
    }
    std::vector<std::string> options = {"-arch=" + r.arch, "--std=c++17", "-lineinfo",
                                        "--ptxas-options=-v"};
    options.insert(options.end(), spec.options.begin(), spec.options.end());
    if (!spec.toolkit_headers.empty()) {
        std::vector<std::string> tried;
        const std::string dir = ToolkitIncludeDir(spec.toolkit_headers, &tried);
        if (dir.empty()) {
            std::string names, places;
            for (const std::string& h : spec.toolkit_headers)
                names += (names.empty() ? "" : ", ") + h;
            for (const std::string& t : tried) places += (places.empty() ? "" : ", ") + t;
            r.status = CompileStatus::kUnavailable;
            r.message = "this exercise needs the CUDA toolkit's headers (" + names +
                        "), found in none of: " + places +
                        "; install the toolkit's headers (Debian: nvidia-cuda-dev; NVIDIA's "
                        "packages: cuda-cudart-dev) or set CUDA_HOME to the toolkit's folder";
            return r;
        }
        options.push_back("--include-path=" + dir);
    }
    const char* const prelude_name = "lessons_exercise_prelude.h";
    const char* prelude_text = spec.prelude.c_str();
    if (!spec.prelude.empty()) options.push_back(std::string("--pre-include=") + prelude_name);
    std::vector<const char*> option_ptrs;
    for (const std::string& o : options) {
        option_ptrs.push_back(o.c_str());
        r.options += (r.options.empty() ? "" : " ") + o;
    }
    const std::string full = std::string(source) + SignatureCheck(spec);
    nvrtc::Program prog = nullptr;
    nvrtc::Result rc =
        spec.prelude.empty()
            ? api->CreateProgram(&prog, full.c_str(), kKernelFileName, 0, nullptr, nullptr)
            : api->CreateProgram(&prog, full.c_str(), kKernelFileName, 1, &prelude_text,
                                 &prelude_name);
    if (rc != nvrtc::kSuccess) {
        r.status = CompileStatus::kError;
        r.message = std::string("nvrtcCreateProgram failed: ") + api->GetErrorString(rc);
        return r;
    }
    struct Destroy {
        const nvrtc::Api* api;
        nvrtc::Program* prog;
        ~Destroy() { api->DestroyProgram(prog); }
    } destroy{api, &prog};
    api->AddNameExpression(prog, spec.kernel.c_str());
    rc = api->CompileProgram(prog, static_cast<int>(option_ptrs.size()), option_ptrs.data());
    r.log = GetLog(*api, prog);
    r.diagnostics = ParseDiagnostics(r.log, source);
    if (rc != nvrtc::kSuccess) {
        r.status = CompileStatus::kError;
        r.message = rc == nvrtc::kCompilationError
                        ? Summary(r)
                        : std::string("nvrtcCompileProgram failed: ") + api->GetErrorString(rc) +
                              (r.log.empty() ? "" : ": " + r.log);
        return r;
    }
    size_t size = 0;
    if (api->GetPTXSize(prog, &size) == nvrtc::kSuccess && size > 0) {
        r.ptx.assign(size, '\0');
        if (api->GetPTX(prog, r.ptx.data()) != nvrtc::kSuccess) r.ptx.clear();
        while (!r.ptx.empty() && r.ptx.back() == '\0') r.ptx.pop_back();
    }
    if (api->GetCUBINSize(prog, &size) == nvrtc::kSuccess && size > 0) {
        r.cubin.assign(size, '\0');
        if (api->GetCUBIN(prog, r.cubin.data()) != nvrtc::kSuccess) r.cubin.clear();
    }
    const char* lowered = nullptr;
    if (api->GetLoweredName(prog, spec.kernel.c_str(), &lowered) == nvrtc::kSuccess && lowered)
        r.lowered_name = lowered;
    r.functions = ParsePtxasInfo(r.log);
    r.status = CompileStatus::kError;
    if (r.cubin.empty() || r.lowered_name.empty()) {
        r.message = "the compiler produced no machine code for " + spec.kernel + " (see its log)";
        return r;
    }
    const auto kernel = std::find_if(r.functions.begin(), r.functions.end(),
                                     [&](const auto& f) { return f.function == r.lowered_name; });
    const bool entry_in_ptx = r.ptx.find(".entry " + r.lowered_name + "(") != std::string::npos;
    if (kernel == r.functions.end() && entry_in_ptx) {
        // ptxas printed no report for it: seen on the GPU machines for a source compiled before
        // (NVRTC took the machine code from a cache there, whatever the -D options). Once more
        // with one more global in the source, so that the PTX, and with it any cache key,
        // differs; if the report still does not come, the PTX says it is an entry and its
        // resources are unknown.
        static std::atomic<uint64_t> nonce{0};
        const std::string mark = "lessons_ptxas_report_";
        if (source.find(mark) == std::string_view::npos) {
            const std::string again = std::string(source) + "\n__device__ int " + mark +
                                      std::to_string(uint64_t(getpid())) + "_" +
                                      std::to_string(uint64_t(time(nullptr))) + "_" +
                                      std::to_string(++nonce) + ";\n";
            CompileResult retry = CompileKernel(again, spec, arch);
            if (retry.ok() && retry.kernel.registers > 0) return retry;
        }
        KernelResources unknown;
        unknown.function = r.lowered_name;
        unknown.entry = true;
        r.kernel = unknown;
        r.log += "note: ptxas printed no resource report for " + spec.kernel +
                 " (a cached build): its registers and spills are unknown\n";
        r.status = CompileStatus::kOk;
        r.message.clear();
        return r;
    }
    if (kernel == r.functions.end() || !kernel->entry) {
        r.message = spec.kernel + " is not a __global__ kernel (declare it __global__ void " +
                    spec.kernel + "(" + spec.signature + "))";
        return r;
    }
    r.kernel = *kernel;
    r.status = CompileStatus::kOk;
    r.message.clear();
    return r;
}

std::string FormatDiagnostics(const CompileResult& result, const std::string& path) {
    std::string out;
    for (const Diagnostic& d : result.diagnostics) {
        std::string where;
        if (d.file == kKernelFileName)
            where = path + ":" + std::to_string(d.line) +
                    (d.column ? ":" + std::to_string(d.column) : "") + ": ";
        else if (d.file == kExerciseCheckFileName)
            where = path + ": (the exercise's check of the kernel) ";
        else if (!d.file.empty())
            where = d.file + ":" + std::to_string(d.line) + ": ";
        out += where + d.severity + ": " + d.message + "\n";
    }
    return out;
}

}  // namespace lessons
