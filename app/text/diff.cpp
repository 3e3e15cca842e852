#include "text/diff.h"

#include <algorithm>

namespace lessons::app {
namespace {

std::string_view Trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

}  // namespace

std::vector<std::string> SplitLines(std::string_view text) {
    std::vector<std::string> lines;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t end = text.find('\n', start);
        if (end == std::string_view::npos) {
            if (start < text.size()) lines.emplace_back(text.substr(start));
            break;
        }
        lines.emplace_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

std::vector<bool> ChangedLines(const std::vector<std::string>& previous,
                               const std::vector<std::string>& current) {
    const size_t n = previous.size(), m = current.size();
    // lcs[i][j]: length of the longest common subsequence of previous[i:] and current[j:].
    std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
    for (size_t i = n; i-- > 0;)
        for (size_t j = m; j-- > 0;)
            lcs[i][j] = Trim(previous[i]) == Trim(current[j])
                            ? lcs[i + 1][j + 1] + 1
                            : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    std::vector<bool> changed(m, true);
    size_t i = 0, j = 0;
    while (i < n && j < m) {
        if (Trim(previous[i]) == Trim(current[j])) {
            changed[j] = false;
            ++i;
            ++j;
        } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
            ++i;
        } else {
            ++j;
        }
    }
    // Blank lines carry no change of their own.
    for (size_t k = 0; k < m; ++k)
        if (Trim(current[k]).empty()) changed[k] = false;
    return changed;
}

}  // namespace lessons::app
