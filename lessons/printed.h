// A number printed with a printf format ("%.6g"), as the chapters' checks put values into the
// arguments of their messages (MessageForm).
#pragma once

#include <cstdio>
#include <string>

namespace lessons {

inline std::string Printed(const char* format, double value) {
    char text[64];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

}  // namespace lessons
