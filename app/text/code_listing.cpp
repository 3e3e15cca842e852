#include "text/code_listing.h"

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

void ListMachineCode(MachineView& m, std::string_view code, Isa isa) {
    m.lines.clear();
    m.line_class.clear();
    m.counts.clear();
    std::string_view shown = code;
    if (m.kernel >= 0 && m.kernel < static_cast<int>(m.functions.size()))
        shown = m.functions[static_cast<size_t>(m.kernel)].code;
    const auto& classes = InstructionClasses();
    size_t pos = 0;
    while (pos < shown.size()) {
        size_t eol = shown.find('\n', pos);
        if (eol == std::string_view::npos) eol = shown.size();
        const std::string_view line = shown.substr(pos, eol - pos);
        m.lines.push_back(line);
        const InstructionClass* c = ClassOfLine(line, isa);
        m.line_class.push_back(c ? static_cast<int>(c - classes.data()) : -1);
        if (c) ++m.counts[c->name];
        pos = eol + 1;
    }
}

}  // namespace lessons::app
