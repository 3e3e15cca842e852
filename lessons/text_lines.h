// Small helpers for reading a lesson's files as text (its exercise files, its Parsons problem):
// lines, trimmed parts, and the slug its files are named by.
#pragma once

#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "lesson.h"

namespace lessons {

// The lines of `text`, without their '\n'; a final '\n' opens no empty line after it.
inline std::vector<std::string_view> SplitLines(std::string_view text) {
    std::vector<std::string_view> lines;
    for (size_t start = 0; start < text.size();) {
        size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

// `s` without white space at either end.
inline std::string_view TrimView(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

// "warp-per-row" of "gemv/warp-per-row": what the lesson's files are named by.
inline std::string SlugOf(const Lesson& lesson) {
    return lesson.id.substr(lesson.id.find('/') + 1);
}

}  // namespace lessons
