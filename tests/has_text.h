// Whether a program's output or a message holds a piece of text: what most tests of words ask.
#pragma once

#include <string>

inline bool Has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}
