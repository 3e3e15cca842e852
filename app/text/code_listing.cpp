#include "text/code_listing.h"

#include <algorithm>
#include <cctype>

namespace lessons::app {

std::string ShortKernelName(const std::string& demangled) {
    std::string s = demangled;
    if (s.rfind("void ", 0) == 0) s.erase(0, 5);
    // The parameter list: the last top-level "(...)".
    int depth = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '<') ++depth;
        if (s[i] == '>') --depth;
        if (s[i] == '(' && depth == 0 && i > 0 && s[i - 1] != '<' && s[i - 1] != ' ' &&
            s[i - 1] != ',') {
            s.erase(i);
            break;
        }
    }
    // Namespaces: "lessons::reduce::" and the like.
    for (size_t at = s.find("::"); at != std::string::npos; at = s.find("::")) {
        size_t start = at;
        while (start > 0 &&
               (std::isalnum(static_cast<unsigned char>(s[start - 1])) || s[start - 1] == '_'))
            --start;
        s.erase(start, at + 2 - start);
    }
    return s;
}

namespace {

// The top-level template arguments of a demangled kernel name ("k<256, 128, 4, 2>(...)" gives
// "256", "128", "4", "2"); none for a kernel that is not a template instance.
std::vector<std::string> TemplateArguments(const std::string& name) {
    std::vector<std::string> args;
    const size_t open = name.find('<');
    const size_t paren = name.find('(');
    if (open == std::string::npos || (paren != std::string::npos && paren < open)) return args;
    int depth = 0;
    std::string current;
    for (size_t i = open + 1; i < name.size(); ++i) {
        const char c = name[i];
        if (c == '<' || c == '(') ++depth;
        if ((c == '>' || c == ')') && depth-- == 0) {
            args.push_back(current);
            return args;
        }
        if (c == ',' && depth == 0) {
            args.push_back(current);
            current.clear();
        } else if (c != ' ' || !current.empty()) {
            current += c;
        }
    }
    return {};  // unbalanced: none
}

// The values of an exercise's instance that a demangled name spells as they are written: the
// integers, booleans and plain type names after each '=' ("using T = float; constexpr int BM =
// 256, BN = 128; constexpr bool SWIZZLE = true;" gives "float", "256", "128", "true"). An enum's
// value ("Addressing::kInterleaved") is spelled as a number in the name, so it is left out.
std::vector<std::string> InstanceValues(const std::string& instance) {
    std::vector<std::string> values;
    for (size_t at = instance.find('='); at != std::string::npos; at = instance.find('=', at + 1)) {
        size_t begin = instance.find_first_not_of(' ', at + 1);
        if (begin == std::string::npos) break;
        const size_t end = instance.find_first_of(",; ", begin);
        const std::string v = instance.substr(begin, end == std::string::npos ? end : end - begin);
        const bool word = !v.empty() && std::all_of(v.begin(), v.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
        });
        if (word) values.push_back(v);
    }
    return values;
}

// How many of `values` are among `args`, each argument standing for one value at most.
int Held(std::vector<std::string> args, const std::vector<std::string>& values) {
    int held = 0;
    for (const std::string& v : values) {
        const auto it = std::find(args.begin(), args.end(), v);
        if (it == args.end()) continue;
        args.erase(it);
        ++held;
    }
    return held;
}

// How many of `values` are among `args` in their order (the longest common subsequence): of two
// instances that hold the same values, <256, 128, ...> is BM = 256, BN = 128, and <128, 256, ...>
// is not.
int HeldInOrder(const std::vector<std::string>& args, const std::vector<std::string>& values) {
    std::vector<int> row(values.size() + 1, 0);
    for (const std::string& a : args) {
        int diagonal = 0;  // row[j - 1] before this argument
        for (size_t j = 1; j <= values.size(); ++j) {
            const int above = row[j];
            row[j] = a == values[j - 1] ? diagonal + 1 : std::max(row[j], row[j - 1]);
            diagonal = above;
        }
    }
    return row.back();
}

}  // namespace

int DefaultKernel(const std::vector<MachineFunction>& functions,
                  const std::vector<std::string>& names, const std::string& instance) {
    const std::vector<std::string> values = InstanceValues(instance);
    int best = -1, best_score = 1 << 30;
    for (size_t i = 0; i < functions.size() && !names.empty(); ++i) {
        const std::string& f = functions[i].name;
        if (f.find(names.front()) == std::string::npos) continue;
        // Toggles past their first value: "(Enum)1" and the like.
        int score = 0;
        for (size_t at = f.find(')'); at != std::string::npos; at = f.find(')', at + 1))
            if (at + 1 < f.size() && f[at + 1] >= '1' && f[at + 1] <= '9') ++score;
        // The instance nearest the one the row's exercise stands for comes first (a tile step:
        // its default tile's instance, not the listing's first): each of its values missing
        // counts for more than each one out of order, which counts for more than every toggle.
        const std::vector<std::string> args = TemplateArguments(f);
        score += static_cast<int>(values.size() - Held(args, values)) << 20;
        score += static_cast<int>(values.size() - HeldInOrder(args, values)) << 12;
        if (score < best_score) {
            best_score = score;
            best = static_cast<int>(i);
        }
    }
    return best;
}

namespace {

bool SamePath(std::string_view path, std::string_view source_path) {
    if (source_path.empty() || path.size() < source_path.size()) return false;
    if (path == source_path) return true;
    return path.size() > source_path.size() &&
           path.substr(path.size() - source_path.size()) == source_path &&
           path[path.size() - source_path.size() - 1] == '/';
}

std::string_view TrimLeft(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    return s;
}

// The numbers of ".loc 1 42 5" (or "inlined_at 1 40 3") from `s` on: file, line.
bool TwoNumbers(std::string_view s, int* a, int* b) {
    int* out[2] = {a, b};
    for (int k = 0; k < 2; ++k) {
        s = TrimLeft(s);
        if (s.empty() || !std::isdigit(static_cast<unsigned char>(s.front()))) return false;
        int v = 0;
        while (!s.empty() && std::isdigit(static_cast<unsigned char>(s.front()))) {
            v = v * 10 + (s.front() - '0');
            if (v > 100000000) return false;
            s.remove_prefix(1);
        }
        *out[k] = v;
    }
    return true;
}

// '"path", line 42' from `s` on: the path and the line (0 when it is not that).
int QuotedPathLine(std::string_view s, std::string_view source_path) {
    s = TrimLeft(s);
    if (s.empty() || s.front() != '"') return 0;
    const size_t close = s.find('"', 1);
    if (close == std::string_view::npos) return 0;
    const std::string_view path = s.substr(1, close - 1);
    s.remove_prefix(close + 1);
    const std::string_view word = ", line ";
    if (s.substr(0, word.size()) != word) return 0;
    s.remove_prefix(word.size());
    int line = 0;
    while (!s.empty() && std::isdigit(static_cast<unsigned char>(s.front())) && line < 100000000) {
        line = line * 10 + (s.front() - '0');
        s.remove_prefix(1);
    }
    return SamePath(path, source_path) ? line : 0;
}

}  // namespace

void ListMachineCode(MachineView& m, std::string_view code, Isa isa, std::string_view source_path) {
    m.lines.clear();
    m.line_class.clear();
    m.line_source.clear();
    m.counts.clear();
    m.has_line_info = false;
    m.linked = 0;
    std::string_view shown = code;
    if (m.kernel >= 0 && m.kernel < static_cast<int>(m.functions.size()))
        shown = m.functions[static_cast<size_t>(m.kernel)].code;
    // PTX: the numbers of the step's own file in its ".file" table (other files: headers).
    std::vector<int> own_files;
    if (isa == Isa::kPtx && !source_path.empty())
        for (size_t at = code.find(".file"); at != std::string_view::npos;
             at = code.find(".file", at + 5)) {
            const size_t eol = std::min(code.find('\n', at), code.size());
            std::string_view rest = TrimLeft(code.substr(at + 5, eol - at - 5));
            int n = 0;
            while (!rest.empty() && std::isdigit(static_cast<unsigned char>(rest.front()))) {
                n = n * 10 + (rest.front() - '0');
                rest.remove_prefix(1);
            }
            rest = TrimLeft(rest);
            if (rest.size() < 2 || rest.front() != '"') continue;
            const size_t close = rest.find('"', 1);
            if (close != std::string_view::npos && SamePath(rest.substr(1, close - 1), source_path))
                own_files.push_back(n);
        }
    const auto own = [&](int file) {
        return std::find(own_files.begin(), own_files.end(), file) != own_files.end();
    };
    const auto& classes = InstructionClasses();
    int current = 0;  // the source line the next instructions come from
    size_t pos = 0;
    while (pos < shown.size()) {
        size_t eol = shown.find('\n', pos);
        if (eol == std::string_view::npos) eol = shown.size();
        const std::string_view line = shown.substr(pos, eol - pos);
        pos = eol + 1;
        const std::string_view text = TrimLeft(line);
        if (isa == Isa::kPtx && text.substr(0, 4) == ".loc" && !own_files.empty()) {
            int file = 0, at = 0;
            current = TwoNumbers(text.substr(4), &file, &at) && own(file) ? at : 0;
            const size_t inl = text.find("inlined_at");
            int outer_file = 0, outer = 0;
            if (current == 0 && inl != std::string_view::npos &&
                TwoNumbers(text.substr(inl + 10), &outer_file, &outer) && own(outer_file))
                current = outer;  // a helper's line, at its call in the step's file
            m.has_line_info = true;
            continue;
        }
        if (isa == Isa::kPtx && text.substr(0, 5) == ".file" && !own_files.empty()) continue;
        if (isa == Isa::kSass && text.substr(0, 9) == "//## File" && !source_path.empty()) {
            current = QuotedPathLine(text.substr(9), source_path);
            const size_t inl = text.find(" inlined at ");
            if (current == 0 && inl != std::string_view::npos)
                current = QuotedPathLine(text.substr(inl + 12), source_path);
            m.has_line_info = true;
            continue;
        }
        m.lines.push_back(line);
        const InstructionClass* c = ClassOfLine(line, isa);
        m.line_class.push_back(c ? static_cast<int>(c - classes.data()) : -1);
        if (c) ++m.counts[c->name];
        // Only instructions carry a line: not labels, braces, declarations or comments.
        const bool instruction =
            !text.empty() && text.back() == ';' && text.front() != '.' && text.front() != '/';
        m.line_source.push_back(
            instruction || (isa == Isa::kSass && !text.empty() && text.substr(0, 2) == "/*")
                ? current
                : 0);
    }
    if (!m.has_line_info) m.line_source.assign(m.lines.size(), 0);
}

}  // namespace lessons::app
