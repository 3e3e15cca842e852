// Which lines of a step's source are new compared with the previous step's (a line diff by
// longest common subsequence), so the code view can highlight what changed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lessons::app {

std::vector<std::string> SplitLines(std::string_view text);

// changed[i] is true when line i of `current` is not matched in `previous`. Lines are
// compared with leading and trailing white space removed.
std::vector<bool> ChangedLines(const std::vector<std::string>& previous,
                               const std::vector<std::string>& current);

}  // namespace lessons::app
