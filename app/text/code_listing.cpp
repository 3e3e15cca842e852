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

int DefaultKernel(const std::vector<MachineFunction>& functions,
                  const std::vector<std::string>& names) {
    int best = -1, best_score = 1 << 30;
    for (size_t i = 0; i < functions.size() && !names.empty(); ++i) {
        const std::string& f = functions[i].name;
        if (f.find(names.front()) == std::string::npos) continue;
        int score = 0;
        for (size_t at = f.find(')'); at != std::string::npos; at = f.find(')', at + 1))
            if (at + 1 < f.size() && f[at + 1] >= '1' && f[at + 1] <= '9') ++score;
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
