#include "glossary.h"

#include <algorithm>
#include <cctype>

#include "resources.h"

namespace lessons {
namespace {

std::string Trim(std::string_view s) {
    const size_t a = s.find_first_not_of(" \t\r");
    if (a == std::string_view::npos) return {};
    const size_t b = s.find_last_not_of(" \t\r");
    return std::string(s.substr(a, b - a + 1));
}

// ASCII letters to lower case; every other byte (UTF-8 included) as it is, whatever the locale.
char Lower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

std::string Lowered(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = Lower(c);
    return out;
}

bool WordChar(char c) {
    const unsigned char u = static_cast<unsigned char>(c);
    return u < 0x80 && (std::isalnum(u) || c == '_');
}

// Whether `word`, found at `at` in `text`, stands there as a whole word where it starts or ends
// with a Latin letter.
bool WholeAt(std::string_view text, size_t at, std::string_view word) {
    if (WordChar(word.front()) && at > 0 && WordChar(text[at - 1])) return false;
    if (WordChar(word.back()) && at + word.size() < text.size() && WordChar(text[at + word.size()]))
        return false;
    return true;
}

}  // namespace

std::vector<GlossaryEntry> ParseGlossary(std::string_view text,
                                         std::vector<std::string>* problems) {
    std::vector<GlossaryEntry> out;
    size_t start = 0;
    auto finish = [&] {
        if (out.empty()) return;
        GlossaryEntry& e = out.back();
        e.definition = Trim(e.definition);
        if (e.term.empty() || e.match.empty() || e.definition.empty())
            if (problems)
                problems->push_back("glossary entry '" + e.key +
                                    "' needs a term:, a match: and a definition");
    };
    while (start <= text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        const std::string line = Trim(text.substr(start, end - start));
        start = end + 1;
        if (line.rfind("## ", 0) == 0) {
            finish();
            out.push_back({Trim(line.substr(3)), {}, {}, {}});
        } else if (out.empty()) {
            // the title and anything before the first entry
        } else if (line.rfind("term:", 0) == 0 && out.back().term.empty()) {
            out.back().term = Trim(line.substr(5));
        } else if (line.rfind("match:", 0) == 0 && out.back().match.empty()) {
            std::string rest = line.substr(6);
            for (size_t a = 0; a <= rest.size();) {
                size_t b = rest.find(',', a);
                if (b == std::string::npos) b = rest.size();
                std::string m = Trim(std::string_view(rest).substr(a, b - a));
                if (m.size() >= 2) out.back().match.push_back(std::move(m));
                a = b + 1;
            }
        } else {
            if (!out.back().definition.empty()) out.back().definition += ' ';
            out.back().definition += line;
        }
        if (end == text.size()) break;
    }
    finish();
    return out;
}

const std::vector<GlossaryEntry>& Glossary(TextLanguage language) {
    static const std::vector<GlossaryEntry> en =
        ParseGlossary(EmbeddedFile("lessons/glossary.en.md"), nullptr);
    static const std::vector<GlossaryEntry> zh =
        ParseGlossary(EmbeddedFile("lessons/glossary.zh.md"), nullptr);
    return language == TextLanguage::kChinese ? zh : en;
}

std::vector<TermUse> FirstUses(std::string_view text, const std::vector<GlossaryEntry>& glossary) {
    // Where terms may not be found: code spans, references and links.
    std::vector<bool> blocked(text.size(), false);
    for (const auto& [open, close] :
         {std::pair<std::string_view, std::string_view>{"{{", "}}"}, {"[[", "]]"}}) {
        for (size_t at = text.find(open); at != std::string_view::npos;
             at = text.find(open, at + 2)) {
            size_t end = text.find(close, at + 2);
            end = end == std::string_view::npos ? text.size() : end + 2;
            std::fill(blocked.begin() + long(at), blocked.begin() + long(end), true);
        }
    }
    bool code = false;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '`') code = !code;
        if (code) blocked[i] = true;
    }
    std::vector<TermUse> uses;
    std::vector<bool> taken(text.size(), false);
    // Longer terms first, so that "warp shuffle" is found before "warp" takes its place.
    std::vector<const GlossaryEntry*> order;
    for (const GlossaryEntry& e : glossary) order.push_back(&e);
    const auto longest = [](const GlossaryEntry* e) {
        size_t n = 0;
        for (const std::string& m : e->match) n = std::max(n, m.size());
        return n;
    };
    std::stable_sort(
        order.begin(), order.end(),
        [&](const GlossaryEntry* a, const GlossaryEntry* b) { return longest(a) > longest(b); });
    // ASCII letters compared without case: the text lowered once, each match searched in it.
    const std::string lower = Lowered(text);
    for (const GlossaryEntry* entry : order) {
        const GlossaryEntry& e = *entry;
        TermUse best{std::string_view::npos, 0, &e};
        for (const std::string& m : e.match) {
            const std::string word = Lowered(m);
            if (word.empty()) continue;
            for (size_t at = lower.find(word); at != std::string::npos && at < best.at;
                 at = lower.find(word, at + 1)) {
                if (blocked[at] || taken[at] || !WholeAt(text, at, word)) continue;
                best.at = at;
                best.length = m.size();
                break;
            }
        }
        if (best.at == std::string_view::npos) continue;
        // The longer term wins where two overlap ("warp shuffle" over "warp").
        bool overlap = false;
        for (size_t i = best.at; i < best.at + best.length; ++i) overlap = overlap || taken[i];
        if (overlap) continue;
        std::fill(taken.begin() + long(best.at), taken.begin() + long(best.at + best.length), true);
        uses.push_back(best);
    }
    std::sort(uses.begin(), uses.end(),
              [](const TermUse& a, const TermUse& b) { return a.at < b.at; });
    return uses;
}

std::vector<std::string> GlossaryProblems() {
    std::vector<std::string> problems;
    const auto en = ParseGlossary(EmbeddedFile("lessons/glossary.en.md"), &problems);
    const auto zh = ParseGlossary(EmbeddedFile("lessons/glossary.zh.md"), &problems);
    if (en.empty()) problems.push_back("the glossary (lessons/glossary.en.md) is empty");
    if (en.size() != zh.size())
        problems.push_back("the glossary has " + std::to_string(en.size()) + " English and " +
                           std::to_string(zh.size()) + " Chinese entries");
    for (size_t i = 0; i < std::min(en.size(), zh.size()); ++i)
        if (en[i].key != zh[i].key)
            problems.push_back("glossary entry " + std::to_string(i + 1) + " is '" + en[i].key +
                               "' in English and '" + zh[i].key + "' in Chinese");
    return problems;
}

}  // namespace lessons
