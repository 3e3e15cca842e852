#include "kernel_compile.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

#include "errors.h"
#include "nvrtc_loader.h"

namespace lessons {
namespace {

// How the compiling child ends when it could not send a result.
constexpr int kChildOutOfMemory = 75;
constexpr int kChildFailed = 76;
// Bounds on a result's diagnostics (their messages share kMaxCompileLogBytes).
constexpr size_t kMaxDiagnostics = 500;

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

// The source as the preprocessor tokenizes it (C++17: no trigraphs), with comments replaced by
// a space (newlines kept: a line that starts inside a block comment is still checked for a
// directive) and line continuations removed, and for each byte of the result the line of the
// original it came from. String and character literals are kept, ended where the compiler ends
// them: an ordinary one at its closing quote or at the end of the line, a raw string
// (R"x(...)x", with any prefix) only at its closing delimiter, however many lines it spans,
// inside a skipped #if group too (NVRTC does the same; a raw string taken for an ordinary one
// let a "/*" inside it hide an #include). A digit separator (1'000) starts no character
// literal. `problem` names the first thing outside literals and comments that could reach a
// file by a name the directive check cannot see: __has_include, __has_include_next,
// __has_embed, or token pasting (## or %:%:), which can build those names.
struct Logical {
    std::string text;
    std::vector<int> line;
    std::string problem;
};

bool IsIdentifierByte(char c) {
    const auto u = static_cast<unsigned char>(c);
    return std::isalnum(u) || c == '_' || c == '$' || u >= 0x80;
}

Logical StripForDirectives(std::string_view original) {
    // Phase 2 first (continuations removed), keeping each byte's original offset: a raw
    // string's delimiter is then looked for in the original, where continuations are kept.
    std::string s;
    std::vector<size_t> at;  // original offset of each byte of s
    s.reserve(original.size());
    at.reserve(original.size());
    for (size_t i = 0; i < original.size(); ++i) {
        if (original[i] == '\\' && i + 1 < original.size() && original[i + 1] == '\n') {
            ++i;
            continue;
        }
        if (original[i] == '\\' && i + 2 < original.size() && original[i + 1] == '\r' &&
            original[i + 2] == '\n') {
            i += 2;
            continue;
        }
        s.push_back(original[i]);
        at.push_back(i);
    }
    std::vector<int> line_of(original.size() + 1, 1);
    for (size_t i = 0, line = 1; i < original.size(); ++i) {
        line_of[i] = static_cast<int>(line);
        if (original[i] == '\n') ++line;
    }
    line_of[original.size()] = original.empty() ? 1 : line_of[original.size() - 1];
    Logical out;
    out.text.reserve(s.size());
    out.line.reserve(s.size());
    auto put = [&](size_t i, char c) {
        out.text.push_back(c);
        out.line.push_back(line_of[at[i]]);
    };
    auto flag = [&](size_t i, const std::string& what) {
        if (out.problem.empty())
            out.problem = "line " + std::to_string(line_of[at[i]]) + ": " + what;
    };
    size_t i = 0;
    while (i < s.size()) {
        const char c = s[i];
        const char next = i + 1 < s.size() ? s[i + 1] : '\0';
        if (c == '/' && next == '/') {  // to the end of the line
            put(i, ' ');
            while (i < s.size() && s[i] != '\n') ++i;
            continue;
        }
        if (c == '/' && next == '*') {
            put(i, ' ');
            i += 2;
            while (i < s.size() && !(s[i] == '*' && i + 1 < s.size() && s[i + 1] == '/')) {
                if (s[i] == '\n') put(i, '\n');
                ++i;
            }
            i = std::min(s.size(), i + 2);
            continue;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) ||
            (c == '.' && std::isdigit(static_cast<unsigned char>(next)))) {  // a pp-number
            put(i, c);
            ++i;
            while (i < s.size()) {
                const char d = s[i];
                const char e = i + 1 < s.size() ? s[i + 1] : '\0';
                if ((d == 'e' || d == 'E' || d == 'p' || d == 'P') && (e == '+' || e == '-')) {
                    put(i, d), put(i + 1, e), i += 2;
                } else if (d == '\'' && IsIdentifierByte(e)) {
                    put(i, d), put(i + 1, e), i += 2;
                } else if (IsIdentifierByte(d) || d == '.') {
                    put(i, d), ++i;
                } else {
                    break;
                }
            }
            continue;
        }
        if (IsIdentifierByte(c)) {
            size_t end = i;
            while (end < s.size() && IsIdentifierByte(s[end])) ++end;
            const std::string word = s.substr(i, end - i);
            const char after = end < s.size() ? s[end] : '\0';
            const bool raw = after == '"' && (word == "R" || word == "u8R" || word == "uR" ||
                                              word == "UR" || word == "LR");
            if (word == "__has_include" || word == "__has_include_next" || word == "__has_embed")
                flag(i, word + " is not allowed: it asks for a file by name");
            for (size_t k = i; k < end; ++k) put(k, s[k]);
            i = end;
            if (raw) {
                // R"delim( ... )delim": the delimiter is at most 16 characters, no spaces,
                // parentheses or backslashes; found in the original text.
                const size_t open = s.find('(', i + 1);
                const std::string delim =
                    open == std::string::npos ? std::string() : s.substr(i + 1, open - i - 1);
                const bool valid = open != std::string::npos && delim.size() <= 16 &&
                                   delim.find_first_of(" \t\r\n\v\f)\\\"") == std::string::npos;
                if (valid) {
                    const std::string close = ")" + delim + "\"";
                    const size_t stop = original.find(close, at[open] + 1);
                    const size_t stop_end =
                        stop == std::string_view::npos ? original.size() : stop + close.size();
                    // Copied as it is (its lines kept: the check is the stricter for it). One
                    // left open runs to the end of the file, for NVRTC as here.
                    while (i < s.size() && at[i] < stop_end) put(i, s[i]), ++i;
                    continue;
                }
                // No valid delimiter: NVRTC says "raw string indicator ignored" and reads an
                // ordinary string, as the next turn does here.
            }
            continue;
        }
        if (c == '"' || c == '\'') {  // to the closing quote or the end of the line
            put(i, c);
            ++i;
            while (i < s.size() && s[i] != '\n') {
                put(i, s[i]);
                if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] != '\n') {
                    put(i + 1, s[i + 1]);
                    i += 2;
                    continue;
                }
                if (s[i++] == c) break;
            }
            continue;
        }
        if ((c == '#' && next == '#') ||
            (c == '%' && next == ':' && s.compare(i + 2, 2, "%:") == 0))
            flag(i, "token pasting (" + std::string(c == '#' ? "##" : "%:%:") +
                        ") is not allowed in a kernel file: it can build a name the check of "
                        "#include cannot see");
        put(i, c);
        ++i;
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
    if (!logical.problem.empty()) return logical.problem;
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
    constexpr const char* kNames[] = {"ok", "refused", "unavailable", "error"};  // the enum's order
    const auto i = static_cast<size_t>(status);
    return i < std::size(kNames) ? kNames[i] : "?";
}

int CompileResult::Errors() const {
    return omitted_errors + static_cast<int>(std::count_if(
                                diagnostics.begin(), diagnostics.end(),
                                [](const Diagnostic& d) { return d.severity == "error"; }));
}

int CompileResult::Warnings() const {
    return static_cast<int>(diagnostics.size()) + omitted_errors + omitted_warnings - Errors();
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

namespace {

// A decimal line number of any length, saturated at INT_MAX (#line 2147483647 is a valid line).
int ParseLineNumber(const std::string& digits) {
    long long value = 0;
    for (char c : digits) {
        value = value * 10 + (c - '0');
        if (value > INT_MAX) return INT_MAX;
    }
    return static_cast<int>(value);
}

// The lines of `text`, without their '\n' (or "\r\n"); a last line without one too.
std::vector<std::string> LinesOf(std::string_view text) {
    std::vector<std::string> lines;
    for (size_t start = 0; start <= text.size();) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        std::string line(text.substr(start, end - start));
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(std::move(line));
        start = end + 1;
    }
    return lines;
}

}  // namespace

std::vector<Diagnostic> ParseDiagnostics(std::string_view log, std::string_view source) {
    // file(line): severity[ #number-D]: message     or     severity: message
    static const std::regex kWithLine(
        R"(^(.*)\((\d+)\): (catastrophic error|error|warning)(?: #[0-9]+(?:-D)?)?: (.*)$)");
    static const std::regex kWithoutLine(R"(^(?:nvrtc: )?(error|warning): (.*)$)");
    const std::vector<std::string> lines = LinesOf(log), source_lines = LinesOf(source);
    std::vector<Diagnostic> out;
    for (size_t i = 0; i < lines.size(); ++i) {
        std::smatch m;
        Diagnostic d;
        if (lines[i].size() > kMaxLogLineBytes) continue;  // std::regex recurses per character
        if (std::regex_match(lines[i], m, kWithLine)) {
            d.file = m[1];
            d.line = ParseLineNumber(m[2].str());
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
// wrong arguments). The student's macros cannot reach them: every name they use is #undef'd
// first (a `#define static_assert(...)` switched the check off), the kernel is named from the
// global namespace, and two newlines end any continuation or line comment left open.
std::string SignatureCheck(const KernelSpec& spec) {
    const std::string& k = spec.kernel;
    const std::string check =
        "template <class T, class U> struct lessons_exercise_same_type {\n"
        "    static constexpr bool value = false;\n"
        "};\n"
        "template <class T> struct lessons_exercise_same_type<T, T> {\n"
        "    static constexpr bool value = true;\n"
        "};\n"
        "static_assert(lessons_exercise_same_type<decltype(&::" +
        k + "), void (*)(" + spec.signature +
        ")>::value,\n"
        "              \"the kernel must be declared as __global__ void " +
        k + "(" + spec.signature + ")\");\n";
    // Every identifier of the check outside its message.
    std::vector<std::string> names;
    const std::string code = check.substr(0, check.find('"'));
    for (size_t i = 0; i < code.size();) {
        if (std::isalpha(static_cast<unsigned char>(code[i])) || code[i] == '_') {
            size_t end = i;
            while (end < code.size() && IsIdentifierByte(code[end])) ++end;
            const std::string name = code.substr(i, end - i);
            if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
            i = end;
        } else {
            ++i;
        }
    }
    std::string out = "\n\n#line 1 \"" + std::string(kExerciseCheckFileName) + "\"\n";
    for (const std::string& name : names) out += "#undef " + name + "\n";
    out += "#line 1\n";
    return out + check;
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

namespace {

// The compile itself, in this process (CompileKernel runs it in a child).
CompileResult CompileInProcess(std::string_view source, const KernelSpec& spec, int arch) {
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
            CompileResult retry = CompileInProcess(again, spec, arch);
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

}  // namespace

namespace {

// The result crosses the pipe from the compiling child as length-prefixed fields.
void PutNumber(std::string& out, int64_t v) {
    out.append(reinterpret_cast<const char*>(&v), sizeof v);
}
void PutText(std::string& out, const std::string& s) {
    PutNumber(out, static_cast<int64_t>(s.size()));
    out += s;
}
void PutResources(std::string& out, const KernelResources& k) {
    PutText(out, k.function);
    for (int v : {int(k.entry), k.registers, k.barriers, k.shared_bytes, k.stack_bytes,
                  k.spill_store_bytes, k.spill_load_bytes})
        PutNumber(out, v);
}

struct Reader {
    std::string_view in;
    size_t at = 0;
    bool ok = true;
    int64_t Number() {
        int64_t v = 0;
        if (at + sizeof v > in.size()) {
            ok = false;
            return 0;
        }
        std::memcpy(&v, in.data() + at, sizeof v);
        at += sizeof v;
        return v;
    }
    int Int() { return static_cast<int>(Number()); }
    std::string Text() {
        const int64_t n = Number();
        if (!ok || n < 0 || static_cast<uint64_t>(n) > in.size() - at) {
            ok = false;
            return "";
        }
        std::string s(in.substr(at, static_cast<size_t>(n)));
        at += static_cast<size_t>(n);
        return s;
    }
    KernelResources Resources() {
        KernelResources k;
        k.function = Text();
        k.entry = Int() != 0;
        k.registers = Int();
        k.barriers = Int();
        k.shared_bytes = Int();
        k.stack_bytes = Int();
        k.spill_store_bytes = Int();
        k.spill_load_bytes = Int();
        return k;
    }
};

std::string Serialize(const CompileResult& r) {
    std::string out;
    PutNumber(out, static_cast<int64_t>(r.status));
    for (const std::string* s :
         {&r.message, &r.arch, &r.options, &r.log, &r.ptx, &r.cubin, &r.lowered_name})
        PutText(out, *s);
    PutNumber(out, r.omitted_errors);
    PutNumber(out, r.omitted_warnings);
    PutNumber(out, static_cast<int64_t>(r.diagnostics.size()));
    for (const Diagnostic& d : r.diagnostics) {
        PutText(out, d.file);
        PutNumber(out, d.line);
        PutNumber(out, d.column);
        PutText(out, d.severity);
        PutText(out, d.message);
    }
    PutResources(out, r.kernel);
    PutNumber(out, static_cast<int64_t>(r.functions.size()));
    for (const KernelResources& k : r.functions) PutResources(out, k);
    return out;
}

bool Deserialize(std::string_view in, CompileResult& r) {
    Reader rd{in};
    const int64_t status = rd.Number();
    if (status < 0 || status > static_cast<int64_t>(CompileStatus::kError)) return false;
    r.status = static_cast<CompileStatus>(status);
    for (std::string* s :
         {&r.message, &r.arch, &r.options, &r.log, &r.ptx, &r.cubin, &r.lowered_name})
        *s = rd.Text();
    r.omitted_errors = rd.Int();
    r.omitted_warnings = rd.Int();
    const int64_t n = rd.Number();
    for (int64_t i = 0; rd.ok && i < n; ++i) {
        Diagnostic d;
        d.file = rd.Text();
        d.line = rd.Int();
        d.column = rd.Int();
        d.severity = rd.Text();
        d.message = rd.Text();
        r.diagnostics.push_back(std::move(d));
    }
    r.kernel = rd.Resources();
    const int64_t f = rd.Number();
    for (int64_t i = 0; rd.ok && i < f; ++i) r.functions.push_back(rd.Resources());
    return rd.ok && rd.at == in.size();
}

// "12.3 KiB" for a note.
std::string Kib(size_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f KiB", static_cast<double>(bytes) / 1024);
    return text;
}

// The log and the PTX cut to their bounds (at a line's end), the diagnostics to theirs, each
// with a note of what was cut: every reply stays well under the GUI's 4 MiB line.
void Bound(CompileResult& r) {
    auto cut = [](std::string& text, size_t limit, const char* what) {
        if (text.size() <= limit) return;
        size_t keep = text.rfind('\n', limit);
        keep = keep == std::string::npos || keep < limit / 2 ? limit : keep + 1;
        const size_t cut_bytes = text.size() - keep;
        text.resize(keep);
        text += "\n[" + Kib(cut_bytes) + " more of the " + what + " cut: it is kept to " +
                Kib(limit) + "]\n";
    };
    cut(r.log, kMaxCompileLogBytes, "compiler's log");
    if (r.message.size() > 2000) r.message = r.message.substr(0, 2000) + "...";
    cut(r.ptx, kMaxCompilePtxBytes, "PTX");
    // Past kMaxDiagnostics or kMaxCompileLogBytes of messages: errors first, then warnings.
    size_t all_bytes = 0;
    for (const Diagnostic& d : r.diagnostics) all_bytes += d.message.size() + d.file.size();
    if (r.diagnostics.size() <= kMaxDiagnostics && all_bytes <= kMaxCompileLogBytes) return;
    std::stable_partition(r.diagnostics.begin(), r.diagnostics.end(),
                          [](const Diagnostic& d) { return d.severity == "error"; });
    size_t bytes = 0, keep = 0;
    for (; keep < r.diagnostics.size() && keep < kMaxDiagnostics; ++keep) {
        Diagnostic& d = r.diagnostics[keep];
        if (d.message.size() > 1000) d.message = d.message.substr(0, 1000) + "...";
        bytes += d.message.size() + d.file.size();
        if (bytes > kMaxCompileLogBytes) break;
    }
    for (size_t i = keep; i < r.diagnostics.size(); ++i)
        (r.diagnostics[i].severity == "error" ? r.omitted_errors : r.omitted_warnings)++;
    r.diagnostics.resize(keep);
}

void WriteAll(int fd, const std::string& data) {
    size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        done += static_cast<size_t>(n);
    }
}

// The address space this process has mapped now (VmSize), in bytes; 0 when unknown.
uint64_t MappedBytes() {
    FILE* f = std::fopen("/proc/self/status", "r");
    if (!f) return 0;
    char line[256];
    uint64_t kib = 0;
    while (std::fgets(line, sizeof line, f))
        if (std::strncmp(line, "VmSize:", 7) == 0) kib = std::strtoull(line + 7, nullptr, 10);
    std::fclose(f);
    return kib * 1024;
}

// Landlock (Linux 5.13 and later), declared here with its first ABI's fields so that building
// needs no recent kernel headers.
struct LandlockRuleset {
    uint64_t handled_access_fs;
};
struct __attribute__((packed)) LandlockPathBeneath {
    uint64_t allowed_access;
    int32_t parent_fd;
};
constexpr uint64_t kLandlockReadFile = 1ULL << 2;
constexpr uint64_t kLandlockReadDir = 1ULL << 3;
constexpr int kLandlockRulePathBeneath = 1;
constexpr unsigned kLandlockCreateRulesetVersion = 1U << 0;

// This process (and its children) may from now on read files only beneath `dirs` and the
// `files` themselves (paths that do not exist are left out). False, changing nothing, where
// the kernel has no Landlock.
bool ConfineReads(const std::vector<std::string>& dirs, const std::vector<std::string>& files) {
#if defined(SYS_landlock_create_ruleset) && defined(SYS_landlock_add_rule) && \
    defined(SYS_landlock_restrict_self)
    const LandlockRuleset attr{kLandlockReadFile | kLandlockReadDir};
    const int ruleset =
        static_cast<int>(syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0));
    if (ruleset < 0) return false;
    auto allow = [&](const std::string& path, uint64_t access) {
        const int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
        if (fd < 0) return;
        const LandlockPathBeneath rule{access, fd};
        syscall(SYS_landlock_add_rule, ruleset, kLandlockRulePathBeneath, &rule, 0);
        close(fd);
    };
    for (const std::string& d : dirs) allow(d, kLandlockReadFile | kLandlockReadDir);
    for (const std::string& f : files) allow(f, kLandlockReadFile);
    const bool ok = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
                    syscall(SYS_landlock_restrict_self, ruleset, 0) == 0;
    close(ruleset);
    return ok;
#else
    (void)dirs;
    (void)files;
    return false;
#endif
}

// The child's part: limits, then the compile, then the result down `fd`. Never returns.
[[noreturn]] void CompileChild(int fd, int err_fd, std::string_view source, const KernelSpec& spec,
                               int arch, const CompileLimits& limits, uint64_t mapped) {
    // Out of the terminal's process group (the parent decides on Ctrl-C), killed with the
    // thread that started it, with the default signal actions.
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    for (int sig : {SIGINT, SIGTERM, SIGPIPE, SIGXCPU}) std::signal(sig, SIG_DFL);
    const int null_fd = ::open("/dev/null", O_RDWR);
    if (null_fd >= 0) {
        dup2(null_fd, 0);
        dup2(null_fd, 1);
    }
    dup2(err_fd, 2);
    rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    rlimit cpu_limit{};  // a backstop to the parent's clock, below any limit the user set
    getrlimit(RLIMIT_CPU, &cpu_limit);
    const rlim_t cpu = static_cast<rlim_t>(limits.seconds) + 5;
    if (cpu_limit.rlim_max == RLIM_INFINITY || cpu + 5 < cpu_limit.rlim_max) {
        cpu_limit.rlim_cur = cpu;
        cpu_limit.rlim_max = cpu + 5;
        setrlimit(RLIMIT_CPU, &cpu_limit);
    }
    if (limits.memory_mib > 0) {  // never above a limit the user set (ulimit -v)
        rlimit as{};
        getrlimit(RLIMIT_AS, &as);
        const rlim_t bytes = static_cast<rlim_t>(mapped + (limits.memory_mib << 20));
        if (as.rlim_max == RLIM_INFINITY || bytes < as.rlim_max) as.rlim_max = bytes;
        as.rlim_cur = as.rlim_max;
        setrlimit(RLIMIT_AS, &as);
    }
    // The student's file's folder is the one a quoted #include looks in first: the toolkit's
    // include folder when the exercise uses one, else the root (the check of the source lets
    // only the exercise's headers be named anyway).
    std::string dir = "/";
    if (!spec.toolkit_headers.empty())
        if (std::string t = ToolkitIncludeDir(spec.toolkit_headers); !t.empty()) dir = t;
    if (chdir(dir.c_str()) != 0 && chdir("/") != 0) _exit(3);
    // A second wall behind CheckKernelSource: where the kernel has Landlock, the child can read
    // only the toolkit's include folder, NVRTC's own folder (its builtins library is loaded
    // during the compile) and the system's libraries, whatever name the source gets to NVRTC.
    std::vector<std::string> readable = {"/lib", "/lib64", "/usr/lib", "/usr/lib64"};
    if (dir != "/") readable.push_back(dir);
    const std::string lib = nvrtc::LoadedPath();
    readable.push_back(lib.substr(0, lib.rfind('/')));
    if (char* real = realpath(lib.c_str(), nullptr)) {
        const std::string r(real);
        std::free(real);
        readable.push_back(r.substr(0, r.rfind('/')));
    }
    ConfineReads(readable, {"/etc/ld.so.cache"});
    std::string bytes;
    try {
        CompileResult r = CompileInProcess(source, spec, arch);
        Bound(r);
        bytes = Serialize(r);
    } catch (const std::bad_alloc&) {
        static const char kOom[] = "lessons: out of memory (std::bad_alloc)\n";
        WriteAll(2, kOom);
        _exit(kChildOutOfMemory);
    } catch (...) {
        _exit(kChildFailed);
    }
    WriteAll(fd, bytes);
    _exit(0);
}

}  // namespace

bool CompileReadsConfined() {
#if defined(SYS_landlock_create_ruleset)
    return syscall(SYS_landlock_create_ruleset, nullptr, 0, kLandlockCreateRulesetVersion) >= 1;
#else
    return false;
#endif
}

CompileLimits DefaultCompileLimits() {
    CompileLimits limits;
    auto number = [](const char* name, double low, double high, double fallback) {
        const char* text = std::getenv(name);
        if (!text || !*text) return fallback;
        char* end = nullptr;
        const double v = std::strtod(text, &end);
        return end && *end == '\0' && v >= low && v <= high ? v : fallback;
    };
    limits.seconds = number("CUDA_LESSONS_COMPILE_SECONDS", 1, 3600, limits.seconds);
    limits.memory_mib = static_cast<uint64_t>(
        number("CUDA_LESSONS_COMPILE_MIB", 64, 1 << 20, static_cast<double>(limits.memory_mib)));
    return limits;
}

CompileResult CompileKernel(std::string_view source, const KernelSpec& spec, int arch,
                            const std::atomic<bool>* cancel, const CompileLimits& limits) {
    CompileResult r;
    if (!spec.arch_suffix.empty()) arch = 90;
    r.arch = "sm_" + std::to_string(arch) + spec.arch_suffix;
    r.message = CheckKernelSource(source, spec.allowed_includes);
    if (!r.message.empty()) return r;  // kRefused, without a child
    if (!nvrtc::Load()) {  // loaded here, before the fork: the child inherits the library
        r.status = CompileStatus::kUnavailable;
        r.message = "cannot compile kernels: " + nvrtc::Unavailable();
        return r;
    }
    if (cancel && cancel->load()) throw Cancelled();
    int out_pipe[2], err_pipe[2];
    if (pipe2(out_pipe, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed for the compile");
    if (pipe2(err_pipe, O_CLOEXEC) != 0) {
        close(out_pipe[0]);
        close(out_pipe[1]);
        throw std::runtime_error("pipe failed for the compile");
    }
    const uint64_t mapped = MappedBytes();
    const pid_t pid = fork();
    if (pid == 0) {
        close(out_pipe[0]);
        close(err_pipe[0]);
        CompileChild(out_pipe[1], err_pipe[1], source, spec, arch, limits, mapped);
    }
    close(out_pipe[1]);
    close(err_pipe[1]);
    if (pid < 0) {
        close(out_pipe[0]);
        close(err_pipe[0]);
        r.status = CompileStatus::kError;
        r.message = std::string("cannot start the compile: fork failed: ") + std::strerror(errno);
        return r;
    }
    std::string out, err;
    bool out_open = true, err_open = true, timed_out = false, cancelled = false;
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::duration<double>(limits.seconds);
    while (out_open || err_open) {
        if (cancel && cancel->load()) {
            cancelled = true;
            break;
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            timed_out = true;
            break;
        }
        pollfd fds[2] = {{out_open ? out_pipe[0] : -1, POLLIN, 0},
                         {err_open ? err_pipe[0] : -1, POLLIN, 0}};
        const int n = poll(fds, 2, 50);
        if (n < 0 && errno != EINTR) break;
        char buffer[65536];
        for (int k = 0; k < 2; ++k) {
            if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            const ssize_t got = read(fds[k].fd, buffer, sizeof buffer);
            if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
            if (got <= 0) {
                (k == 0 ? out_open : err_open) = false;
                continue;
            }
            std::string& to = k == 0 ? out : err;
            if (k == 0 || to.size() < kMaxCompileLogBytes)
                to.append(buffer, static_cast<size_t>(got));
        }
    }
    close(out_pipe[0]);
    close(err_pipe[0]);
    if (cancelled || timed_out) kill(pid, SIGKILL);
    int wstatus = 0;
    while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
    }
    if (cancelled || (cancel && cancel->load())) throw Cancelled();
    CompileResult child;
    if (!timed_out && WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0 && Deserialize(out, child)) {
        // NVRTC's own report of it: an error code, or the front end's "out of memory".
        const bool oom_reported =
            child.message.find("OUT_OF_MEMORY") != std::string::npos ||
            std::any_of(child.diagnostics.begin(), child.diagnostics.end(),
                        [](const Diagnostic& d) { return d.message == "out of memory"; });
        if (child.status == CompileStatus::kError && oom_reported) {
            child.stopped = true;
            child.message = "the compile ran out of memory (limit " +
                            std::to_string(limits.memory_mib) +
                            " MiB, CUDA_LESSONS_COMPILE_MIB) and was stopped";
        }
        return child;
    }
    r.status = CompileStatus::kError;
    r.stopped = true;
    const bool cpu_limit = WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGXCPU;
    const bool oom = err.find("out of memory") != std::string::npos ||
                     err.find("bad_alloc") != std::string::npos ||
                     (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == kChildOutOfMemory);
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", limits.seconds);
    if (timed_out || cpu_limit) {
        r.message = std::string("the compile took longer than ") + seconds +
                    " s and was stopped (the limit is CUDA_LESSONS_COMPILE_SECONDS)";
    } else if (oom) {
        r.message = "the compile ran out of memory (limit " + std::to_string(limits.memory_mib) +
                    " MiB, CUDA_LESSONS_COMPILE_MIB) and was stopped";
    } else if (WIFSIGNALED(wstatus)) {
        r.message = "the compiler crashed (signal " + std::to_string(WTERMSIG(wstatus)) + ", " +
                    strsignal(WTERMSIG(wstatus)) + ")";
    } else {
        r.message = "the compiler ended without a result (exit status " +
                    std::to_string(WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1) + ")";
    }
    r.log = err.size() > kMaxCompileLogBytes ? err.substr(0, kMaxCompileLogBytes) : err;
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
